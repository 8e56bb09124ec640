"""A shuffle anyone can verify: commit to a secret seed, mix in players' entropy, reveal.

Scheme ``commit-reveal-sha256/1``, per round:

1. The authority draws a secret *server seed* (text) and publishes its *commitment*,
   ``sha256(utf8(server_seed))`` in lowercase hex, before any card of the round is shown.
2. Players may send *entropy* strings (1 to 64 characters of ``A-Z a-z 0-9 _ -``).
3. The round's deal seed is ``sha256(utf8(text))`` in hex, where ``text`` joins with
   ``"\\n"`` the scheme name, the server seed, and the entropy strings sorted as
   text (so arrival order does not matter). The deal is ``Deal.from_seed(rules,
   deal_seed)`` by :mod:`hearts.core.deal`.
4. After the round the server seed and the entropy are revealed; anyone can check
   the commitment, re-derive the deal seed and the hands.

Pure functions: the authority passes the randomness in.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from hearts.core.cards import CardSet
from hearts.core.deal import deal_hands
from hearts.core.errors import InvalidRecordError
from hearts.core.record import GAME_FORMAT, parse_record
from hearts.core.rules import Rules

__all__ = [
    "ENTROPY_PATTERN",
    "FAIRNESS_SCHEME",
    "RoundCheck",
    "check_entropy",
    "commitment",
    "derive_deal_seed",
    "fairness_entry",
    "verify_record",
    "verify_record_text",
]

FAIRNESS_SCHEME: Final = "commit-reveal-sha256/1"
ENTROPY_PATTERN: Final = re.compile(r"[A-Za-z0-9_-]{1,64}")


def commitment(server_seed: str) -> str:
    """The published commitment to a secret server seed."""
    return hashlib.sha256(server_seed.encode("utf-8")).hexdigest()


def check_entropy(value: object) -> str:
    """A player's entropy string, or InvalidRecordError saying what is allowed."""
    if not isinstance(value, str) or not ENTROPY_PATTERN.fullmatch(value):
        raise InvalidRecordError(
            "entropy is 1 to 64 characters of letters, digits, '_' or '-'")
    return value


def derive_deal_seed(server_seed: str, entropy: Iterable[str]) -> str:
    """The round's deal seed from the server seed and every player's entropy."""
    parts = [FAIRNESS_SCHEME, server_seed, *sorted(check_entropy(e) for e in entropy)]
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()


def fairness_entry(server_seed: str | None, commit: str,
                   entropy: Sequence[str]) -> dict[str, Any]:
    """The ``fairness`` section of a round in a game record (seed None: not yet revealed)."""
    return {"scheme": FAIRNESS_SCHEME, "commitment": commit,
            "server_seed": server_seed, "entropy": list(entropy)}


@dataclass(frozen=True, slots=True)
class RoundCheck:
    """The verdict on one round's deal."""

    round_no: int
    ok: bool
    reason: str


def _check_round(rules: Rules, entry: Mapping[str, Any], round_no: int) -> RoundCheck:
    fair = entry.get("fairness")
    if not isinstance(fair, Mapping):
        return RoundCheck(round_no, False, "no fairness section")
    if fair.get("scheme") != FAIRNESS_SCHEME:
        return RoundCheck(round_no, False, f"unknown scheme {fair.get('scheme')!r}")
    seed, commit, entropy = fair.get("server_seed"), fair.get("commitment"), fair.get("entropy")
    if not isinstance(seed, str):
        return RoundCheck(round_no, False, "the server seed was not revealed")
    if not isinstance(entropy, list):
        return RoundCheck(round_no, False, "entropy must be a list")
    if commitment(seed) != commit:
        return RoundCheck(round_no, False, "the server seed does not match the commitment")
    try:
        derived = derive_deal_seed(seed, entropy)
    except InvalidRecordError as exc:
        return RoundCheck(round_no, False, str(exc))
    if entry.get("deal_seed") != derived:
        return RoundCheck(round_no, False, "the deal seed is not the one the reveal derives")
    hands = entry.get("hands")
    try:
        masks = tuple(CardSet(h).mask for h in hands) if isinstance(hands, list) else None
    except (ValueError, TypeError):
        masks = None
    if masks != deal_hands(rules, derived):
        return RoundCheck(round_no, False, "the hands differ from the deal the seed derives")
    return RoundCheck(round_no, True, f"commitment {commit[:12]}… and deal match")


def verify_record(data: Mapping[str, Any]) -> list[RoundCheck]:
    """Check every round's commitment, deal seed and hands in a game record."""
    if data.get("format") != GAME_FORMAT:
        raise InvalidRecordError(f"format must be {GAME_FORMAT!r}, not {data.get('format')!r}")
    try:
        rules = Rules.parse(str(data.get("rules", "")))
    except ValueError as exc:
        raise InvalidRecordError(f"rules: {exc}") from None
    rounds = data.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise InvalidRecordError("the record has no rounds")
    return [
        _check_round(rules, entry, index + 1) if isinstance(entry, Mapping)
        else RoundCheck(index + 1, False, "a round is a JSON object")
        for index, entry in enumerate(rounds)
    ]


def verify_record_text(text: str) -> list[RoundCheck]:
    """:func:`verify_record` on record JSON text."""
    return verify_record(parse_record(text))
