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

from hearts.core.codec import CodecError, decode_cards
from hearts.core.deal import deal_hands
from hearts.core.errors import InvalidRecordError, InvalidRulesError
from hearts.core.inputs import is_utf8_text, is_whole_number
from hearts.core.record import GAME_FORMAT, MAX_ROUND, parse_record
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
    committed: bool = True
    """False for a seeded deal with no commitment: whoever knew the seed knew the deal."""


def _check_round(rules: Rules, entry: Mapping[str, Any], round_no: int,
                 seed: str | None) -> RoundCheck:
    fair = entry.get("fairness")
    if fair is None and seed is not None:
        return _check_seeded(rules, entry, round_no, seed)
    if not isinstance(fair, Mapping):
        return RoundCheck(round_no, False, "no fairness section")
    if fair.get("scheme") != FAIRNESS_SCHEME:
        return RoundCheck(round_no, False, f"unknown scheme {fair.get('scheme')!r}")
    seed, commit, entropy = fair.get("server_seed"), fair.get("commitment"), fair.get("entropy")
    if not isinstance(seed, str):
        return RoundCheck(round_no, False, "the server seed was not revealed")
    if not seed.isascii():  # the scheme's seeds are hex; a JSON "\\ud800" is no text at all
        return RoundCheck(round_no, False, "the server seed is not the scheme's hex text")
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
    if _masks(entry.get("hands")) != deal_hands(rules, derived):
        return RoundCheck(round_no, False, "the hands differ from the deal the seed derives")
    return RoundCheck(round_no, True, f"commitment {commit[:12]}… and deal match")


def _masks(hands: object) -> tuple[int, ...] | None:
    """The hands of a record's round as masks; None if they are not lists of card names."""
    try:
        return tuple(decode_cards(h, "hand").mask for h in hands) \
            if isinstance(hands, list) else None
    except CodecError:
        return None


def _check_seeded(rules: Rules, entry: Mapping[str, Any], round_no: int,
                  seed: str) -> RoundCheck:
    """A round of a seeded game (a local game, an arena match): no commitment, only the seed."""
    expected = f"{seed}/{round_no}"
    if entry.get("deal_seed") != expected:
        return RoundCheck(round_no, False, f"no fairness section, and the deal seed is not "
                                           f"{expected!r}, the game seed's", committed=False)
    if _masks(entry.get("hands")) != deal_hands(rules, expected):
        return RoundCheck(round_no, False, f"the hands differ from the deal of seed {expected!r}",
                          committed=False)
    return RoundCheck(round_no, True, f"no commitment: a seeded deal, the hands match "
                                      f"deal seed {expected!r}", committed=False)


def verify_record(data: Mapping[str, Any]) -> list[RoundCheck]:
    """Check every round's commitment, deal seed and hands in a game record.

    A round with no ``fairness`` section in a seeded game (a local game, an arena
    match) is checked against the game seed alone and marked ``committed=False``.
    """
    if not isinstance(data, Mapping) or data.get("format") != GAME_FORMAT:
        raise InvalidRecordError(f"format must be {GAME_FORMAT!r}")
    text = data.get("rules")
    if not isinstance(text, str):
        raise InvalidRecordError("record: missing field 'rules' (the rules text)")
    try:
        rules = Rules.parse(text)
    except InvalidRulesError as exc:
        raise InvalidRecordError(f"rules: {exc}") from None
    seed = data.get("seed")
    if seed is not None and not is_utf8_text(seed):
        raise InvalidRecordError("record: seed must be text or null")
    first = data.get("first_round", 1)
    if not is_whole_number(first, 1, MAX_ROUND):
        raise InvalidRecordError(f"record: first_round must be a whole number from 1 to "
                                 f"{MAX_ROUND}")
    rounds = data.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise InvalidRecordError("the record has no rounds")
    return [
        _check_round(rules, entry, first + index, seed) if isinstance(entry, Mapping)
        else RoundCheck(first + index, False, "a round is a JSON object")
        for index, entry in enumerate(rounds)
    ]


def verify_record_text(text: str) -> list[RoundCheck]:
    """:func:`verify_record` on record JSON text."""
    return verify_record(parse_record(text))
