"""The commit-reveal shuffle (hearts.core.fairness) and ``hearts verify`` on records."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hearts.cli.main import main
from hearts.core import (
    Deal,
    InvalidRecordError,
    Rules,
    commitment,
    derive_deal_seed,
    fairness_entry,
    game_record,
    new_game,
    replay_game,
    verify_record,
)
from hearts.players import RandomPlayer, run_game

ENTROPY = st.text(alphabet="abcXYZ019_-", min_size=1, max_size=64)


@given(st.text(max_size=80), st.lists(ENTROPY, max_size=5))
def test_the_deal_seed_ignores_entropy_order(server_seed: str, entropy: list[str]) -> None:
    assert derive_deal_seed(server_seed, entropy) == derive_deal_seed(server_seed, entropy[::-1])


def test_every_input_changes_the_seed_and_the_commitment_binds_the_seed() -> None:
    base = derive_deal_seed("s", ["a", "b"])
    assert len({base, derive_deal_seed("t", ["a", "b"]), derive_deal_seed("s", ["a"]),
                derive_deal_seed("s", ["a", "c"])}) == 4
    assert commitment("s") != commitment("t") and len(commitment("s")) == 64


@pytest.mark.parametrize("bad", ["", "has space", "x" * 65, "new\nline", 5])
def test_entropy_outside_the_alphabet_is_refused(bad: object) -> None:
    with pytest.raises(InvalidRecordError, match="entropy is 1 to 64"):
        derive_deal_seed("s", [bad])  # type: ignore[list-item]


def fair_game(rules: Rules, rounds: int = 2) -> dict[str, Any]:
    """A record of an externally dealt game with a fairness section per round."""
    state = new_game(rules, None)
    players = [RandomPlayer(seat) for seat in range(rules.players)]
    sections = []
    for round_no in range(1, rounds + 1):
        server_seed = f"secret-{round_no}"
        entropy = [f"p{round_no}a", f"p{round_no}b"]
        sections.append(fairness_entry(server_seed, commitment(server_seed), entropy))
        state = state.apply(Deal.from_seed(rules, derive_deal_seed(server_seed, entropy)))
        state = run_game(state, players, stop=lambda s, r=round_no: s.round_no > r)
    record = game_record(state)
    for entry, section in zip(record["rounds"], sections, strict=False):
        entry["fairness"] = section
    return record


@pytest.mark.parametrize(("preset", "players"), [("card-commons", 3), ("standard", 4),
                                                  ("classic", 5)])
def test_an_honest_record_verifies_and_still_replays(preset: str, players: int) -> None:
    record = fair_game(Rules.preset_rules(preset, players))
    checks = verify_record(record)
    assert [c.ok for c in checks] == [True] * len(record["rounds"])
    assert replay_game(record).totals == tuple(record["totals"])


def tamper(record: dict[str, Any], how: str) -> dict[str, Any]:
    bad = copy.deepcopy(record)
    fair = bad["rounds"][1]["fairness"]
    if how == "seed":
        fair["server_seed"] = "other"
    elif how == "commitment":
        fair["commitment"] = commitment("other")
    elif how == "entropy":
        fair["entropy"] = fair["entropy"][:1]
    elif how == "unrevealed":
        fair["server_seed"] = None
    elif how == "hands":
        hands = bad["rounds"][1]["hands"]
        hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    elif how == "scheme":
        fair["scheme"] = "trust-me/1"
    elif how == "surrogate":
        fair["server_seed"] = "\ud800"
    return bad


@pytest.mark.parametrize(("how", "reason"), [
    ("seed", "commitment"), ("commitment", "commitment"), ("entropy", "deal seed"),
    ("unrevealed", "not revealed"), ("hands", "hands differ"), ("scheme", "unknown scheme"),
    ("surrogate", "not the scheme's hex text")])
def test_a_tampered_round_fails_and_says_why(how: str, reason: str) -> None:
    checks = verify_record(tamper(fair_game(Rules()), how))
    assert checks[0].ok
    assert not checks[1].ok and reason in checks[1].reason


def test_hearts_verify_prints_each_round_and_fails_on_tampering(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = fair_game(Rules())
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(record))
    bad.write_text(json.dumps(tamper(record, "seed")))
    assert main(["verify", str(good)]) == 0
    out = capsys.readouterr().out
    assert "round 1: OK" in out and "round 2: OK" in out and "2 of 2 deals verified" in out
    assert main(["verify", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "round 1: OK" in out and "round 2: FAIL" in out
    assert main(["verify", str(tmp_path / "missing.json")]) == 2
    not_game = tmp_path / "hand.json"
    not_game.write_text(json.dumps({"format": "card-commons-hearts/hand"}))
    assert main(["verify", str(not_game)]) == 2
