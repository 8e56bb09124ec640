"""A challenge's revision is its computer players' version.

``revision_golden.json`` holds, for the current :data:`hearts.challenge.CODE_VERSION`, the
fingerprint of a seeded play of a few challenges that seat every opponent level. A change
to a level that changes any challenge decision fails the golden test until the revision
goes up, so an upgrade can never silently make the challenges already made play (and
check) differently. Then regenerate, saying so in the change:

    .venv/bin/python tests/challenge/test_challenge_revision.py --regen

Codes of an older revision still name their challenge (its page and board stand), but can
be neither played nor checked here.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Final

import pytest

import hearts.challenge
from hearts.challenge import (
    CODE_VERSION,
    Challenge,
    ChallengeError,
    StaleChallengeError,
    check_entry,
    fingerprint,
)
from hearts.core import game_record
from hearts.players import make_player
from hearts.players.driver import run_game

GOLDEN_PATH: Final = Path(__file__).with_name("revision_golden.json")

# Every opponent level, on every preset, the searching ones with few worlds to stay quick.
CHALLENGES: Final = (
    Challenge.create("card-commons", ["normal", "hard", "expert"], 2, "rx1", iterations=40),
    Challenge.create("standard", ["shooter", "easy", "random"], 2, "rx2"),
    Challenge.create("classic", ["expert", "hard"], 1, "rx3", iterations=24),
    Challenge.create("card-commons", ["normal", "shooter"], 2, "rx4"),
)


def played(challenge: Challenge) -> str:
    """The fingerprint of the challenge played by a seeded ``random`` challenger."""
    seats = [make_player("random", 7),
             *(challenge.computer(seat) for seat in range(1, challenge.players))]
    return fingerprint(run_game(challenge.new_game(), seats))


def current() -> dict[str, object]:
    return {"revision": CODE_VERSION,
            "fingerprints": {challenge.code: played(challenge) for challenge in CHALLENGES}}


def test_the_computers_play_the_challenges_as_their_revision_says() -> None:
    golden = json.loads(GOLDEN_PATH.read_text(encoding="utf-8"))
    now = current()
    assert now == golden, (
        "the computer players now decide challenges differently from revision "
        f"{golden['revision']}: raise hearts.challenge.CODE_VERSION and regenerate "
        "(see this module's text)")


@pytest.fixture
def next_revision(monkeypatch: pytest.MonkeyPatch) -> str:
    """This program as if its computers were one revision newer."""
    newer = hearts.challenge.CODE_ALPHABET[hearts.challenge.CODE_ALPHABET.index(CODE_VERSION) + 1]
    monkeypatch.setattr(hearts.challenge, "CODE_VERSION", newer)
    monkeypatch.setattr(hearts.challenge, "_REVISIONS", hearts.challenge._REVISIONS + newer)
    return newer


def test_an_older_code_still_names_its_challenge_but_cannot_be_played_or_checked(
        next_revision: str) -> None:
    old = CHALLENGES[3]
    assert old.revision == CODE_VERSION
    record = game_record(run_game(old.new_game(), [make_player("random", 7),
                                                   old.computer(1), old.computer(2)]),
                         ["Ann", "Bo", "Cy"])
    again = Challenge.parse(old.code)
    assert again == old and again.code == old.code
    assert again.stale is not None and f"revision {CODE_VERSION}" in again.stale
    assert again.describe()["stale"] == again.stale
    with pytest.raises(StaleChallengeError, match="can no longer be played or checked"):
        again.require_playable()
    with pytest.raises(StaleChallengeError):
        check_entry(again, record)
    made_now = Challenge.create(old.preset, old.opponents, old.deals, old.seed)
    assert made_now.revision == next_revision and made_now.stale is None
    assert made_now.code != old.code


def test_a_code_of_a_newer_revision_is_refused_saying_so(next_revision: str) -> None:
    newer = Challenge.create("standard", ["easy", "easy", "easy"], 1, "x")
    code = newer.code
    hearts.challenge._REVISIONS = hearts.challenge._REVISIONS[:-1]  # back to this program
    hearts.challenge.CODE_VERSION = CODE_VERSION
    with pytest.raises(ChallengeError, match="made by a newer program"):
        Challenge.parse(code)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Regenerate revision_golden.json.")
    parser.add_argument("--regen", action="store_true", required=True)
    parser.parse_args()
    GOLDEN_PATH.write_text(json.dumps(current(), indent=2) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN_PATH}")
