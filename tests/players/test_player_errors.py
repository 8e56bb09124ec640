"""The players refuse bad input with one typed error, :class:`PlayerError` (a
``HeartsError``), in words: an option out of range, a view that cannot decide, too few
seats. A caller catches the players' refusals as it catches the core's."""

from __future__ import annotations

from typing import Any

import pytest

from hearts.core import HeartsError, Rules, new_game, view
from hearts.players import (
    PlayerError,
    RandomPlayer,
    UnknownLevelError,
    decide,
    hint,
    make_player,
    run_game,
)
from hearts.players.knowledge import Knowledge
from hearts.players.search.player import SearchPlayer


def test_player_error_is_a_hearts_error() -> None:
    assert issubclass(PlayerError, HeartsError) and issubclass(PlayerError, ValueError)
    assert issubclass(UnknownLevelError, PlayerError)
    with pytest.raises(PlayerError, match="unknown level 'grandmaster'; levels are: random"):
        make_player("grandmaster")


@pytest.mark.parametrize(("options", "said"), [
    ({"iterations": 0}, "iterations must be a whole number of at least 1, not 0"),
    ({"iterations": True}, "iterations must be a whole number of at least 1, not True"),
    ({"budget_s": -1}, "budget must be a number of seconds above 0"),
    ({"level": "grandmaster"}, "unknown search level 'grandmaster'; levels are: hard"),
    ({"playout": "dice"}, "unknown playout 'dice'; playouts are: "),
    ({"game_weight": 1001}, "game_weight must be a whole number from 0 to 1000, not 1001"),
    ({"alarm": "on"}, r"alarm is on \(1\) or off \(0\), not 'on'"),
    ({"alarm": 1.0}, r"alarm is on \(1\) or off \(0\), not 1.0"),
    ({"tree": 2, "trust": 0.5}, "tree does not combine with trust below 1"),
])
def test_a_search_player_made_with_a_bad_option_says_which(options: dict[str, Any],
                                                            said: str) -> None:
    with pytest.raises(PlayerError, match=said):
        SearchPlayer(1, **options)


def test_decide_and_hint_need_the_view_of_a_seat_that_must_act() -> None:
    state = new_game(Rules(), seed=3)  # the pass: every seat must act
    player = RandomPlayer(1)
    for seen in (view(state, None),):
        with pytest.raises(PlayerError, match="needs the view of a seat that must act now"):
            decide(player, seen)
        with pytest.raises(PlayerError, match="needs the view of a seat that must act now"):
            hint(seen, player)
    with pytest.raises(PlayerError, match="knowledge needs a seat's view, not a spectator's"):
        Knowledge.of(view(state, None))
    while state.phase.value == "pass":
        state = state.apply(decide(player, view(state, state.to_act[0])))
    waiting = next(seat for seat in range(4) if seat != state.turn)
    with pytest.raises(PlayerError, match="needs the view of a seat that must act now"):
        decide(player, view(state, waiting))


def test_a_game_needs_a_player_for_every_seat() -> None:
    with pytest.raises(PlayerError, match="need 4 seats, got 3"):
        run_game(new_game(Rules(), seed=1), [RandomPlayer(s) for s in range(3)])
