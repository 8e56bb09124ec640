"""``normal`` and ``shooter`` make exactly the decisions recorded in ``golden_normal.json``.

The digests were written by ``tests/players/golden_normal.py --regen`` before the
rule-based player was made faster; a change that alters any decision of any game
fails here (regenerate only for a change of play that is meant).
"""

from __future__ import annotations

import json

import pytest
from golden_normal import GOLDEN_PATH, TABLES, game_digest, lineup, play_digests

from hearts.core import Play, Rules, new_game
from hearts.players import GameRun, PlayerSeat, make_player, play_game, seeded_dealer

GOLDEN: dict[str, list[str]] = json.loads(GOLDEN_PATH.read_text())


def test_the_golden_file_covers_every_table() -> None:
    assert {text: len(digests) for text, digests in GOLDEN.items()} == TABLES


@pytest.mark.parametrize("text", list(TABLES))
def test_normal_and_shooter_play_the_golden_games(text: str) -> None:
    played = play_digests(text, TABLES[text])
    changed = [game for game, (now, then) in enumerate(zip(played, GOLDEN[text], strict=True))
               if now != then]
    assert not changed, f"{text}: games {changed} now play differently"


def test_the_digest_tells_a_single_changed_action() -> None:
    rules = Rules.parse("standard")
    seats = [make_player(level) for level in lineup(1, rules.players)]
    state = play_game(rules, seats, "golden-normal-standard-1")
    history = state.history
    assert game_digest(history, state.totals) == GOLDEN["standard"][1]
    plays = [i for i, action in enumerate(history) if isinstance(action, Play)]
    # two plays of one trick swapped: the same cards, in another order
    first, second = plays[0], plays[1]
    swapped = (*history[:first], history[second], history[first], *history[second + 1:])
    assert game_digest(swapped, state.totals) != game_digest(history, state.totals)


def test_one_player_at_many_tables_at_once_plays_each_golden_game() -> None:
    # as a server may: a single player object for every seat of three tables whose
    # games advance in turn, one action each, so facts it keeps between decisions would
    # be asked for by the wrong table if they were not keyed by the round itself
    seat = PlayerSeat(make_player("normal"))
    texts = ["standard", "card-commons:players=3", "classic:players=6"]
    runs = [GameRun(new_game(Rules.parse(text), f"golden-normal-{text}-0")) for text in texts]
    while not all(run.finished for run in runs):
        for run in runs:
            if run.finished:
                continue
            if run.dealing:
                run.apply(seeded_dealer(run.state))
            else:
                run.apply(seat.act(run.view(run.waiting[0])))
    for text, run in zip(texts, runs, strict=True):
        assert game_digest(run.state.history, run.state.totals) == GOLDEN[text][0], text
