"""A trained-policy player: loads its ``.npz`` file, plays only legal moves, refuses bad files.

The weights here are random (or set by hand) rather than trained: the player's job is to
read a network and follow it within the rules, whatever the network learned.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hearts.arena.specs import BotSpec, BotSpecError, build_player
from hearts.core import (
    ALL_CARDS,
    Action,
    CardSet,
    GameState,
    MoonChoice,
    Phase,
    Play,
    Rules,
    new_game,
    new_hand,
    view,
)
from hearts.players import make_player, run_game
from hearts.players.observation import (
    ACTION_COUNT,
    ADD_ACTION,
    OBSERVATION_SIZE,
    SUBTRACT_ACTION,
)
from hearts.players.policy import PolicyFileError, PolicyPlayer, save_layers
from hearts.players.random_player import RandomPlayer

_MOST_HEARTS = "+".join(f"{rank}H" for rank in "23456789TJQK")


def _random_policy(path: Path, seed: int, hidden: int = 16) -> Path:
    rng = np.random.default_rng(seed)
    save_layers(path, [
        (rng.standard_normal((OBSERVATION_SIZE, hidden)).astype(np.float32),
         rng.standard_normal(hidden).astype(np.float32)),
        (rng.standard_normal((hidden, ACTION_COUNT)).astype(np.float32),
         rng.standard_normal(ACTION_COUNT).astype(np.float32))])
    return path


@pytest.mark.parametrize("text", [
    "standard:target=60",
    "classic:players=3,target=40",
    "classic:players=6,target=40",
    f"classic:players=3,removed=AH+{_MOST_HEARTS},moon=shooter-choice,target=20",
])
def test_a_policy_from_its_file_plays_whole_games_legally(tmp_path: Path, text: str) -> None:
    rules = Rules.parse(text)
    path = _random_policy(tmp_path / "policy.npz", seed=len(text))
    seats = [make_player(f"policy:{path}")] + [RandomPlayer(s) for s in range(1, rules.players)]
    final = run_game(new_game(rules, seed=5), seats)
    assert final.phase is Phase.OVER  # the driver raises on any illegal action
    assert final.results


def test_the_player_takes_the_best_scored_allowed_action(tmp_path: Path) -> None:
    # a linear policy scoring action i as i: the highest legal card, and "subtract"
    # (the higher index of the two moon actions) over "add"
    path = tmp_path / "highest.npz"
    save_layers(path, [(np.zeros((OBSERVATION_SIZE, ACTION_COUNT), dtype=np.float32),
                        np.arange(ACTION_COUNT, dtype=np.float32))])
    player = PolicyPlayer.load(path)
    state = new_game(Rules.parse("standard"), seed=3)
    passing = view(state, 0)
    chosen = player.choose_pass(passing)
    assert list(chosen) == sorted(passing.hand)[-passing.rules.pass_count:]
    seats = [player] + [RandomPlayer(s) for s in range(1, 4)]
    plays: list[tuple[int, int]] = []

    def watch(before: GameState, action: Action, after: GameState) -> None:
        if isinstance(action, Play) and action.seat == 0:
            plays.append((int(action.card), max(before.legal_cards(0))))

    run_game(state, seats, stop=lambda s: s.round_no > 1, observers=[watch])
    assert len(plays) == state.rules.hand_size
    assert all(card == best for card, best in plays)


def test_the_shooter_takes_the_moon_choice_it_scores_higher(tmp_path: Path) -> None:
    rules = Rules.parse("standard:moon=shooter-choice")
    everything = CardSet.parse("AC AS KS QS 6H 7H 8H 9H TH JH QH KH AH")
    rest = [card for card in ALL_CARDS if card not in everything]
    state = new_hand(rules, [everything] + [CardSet(rest[k::3]) for k in range(3)], round_no=4)
    while state.phase is Phase.PLAY:
        state = state.apply(state.legal_actions()[0])
    assert state.phase is Phase.MOON and state.to_act == (0,)
    for preferred, choice in ((ADD_ACTION, MoonChoice.ADD),
                              (SUBTRACT_ACTION, MoonChoice.SUBTRACT)):
        bias = np.zeros(ACTION_COUNT, dtype=np.float32)
        bias[preferred] = 1.0
        path = tmp_path / f"moon{preferred}.npz"
        save_layers(path, [(np.zeros((OBSERVATION_SIZE, ACTION_COUNT), dtype=np.float32), bias)])
        assert PolicyPlayer.load(path).choose_moon(view(state, 0)) is choice


def test_missing_or_bad_files_are_typed_errors(tmp_path: Path) -> None:
    with pytest.raises(PolicyFileError, match="no policy file"):
        make_player(f"policy:{tmp_path / 'absent.npz'}")
    text = tmp_path / "text.npz"
    text.write_text("not weights")
    with pytest.raises(PolicyFileError, match=r"not a policy \.npz file: it is no NumPy") \
            as refused:
        make_player(f"policy:{text}")
    assert "pickle" not in str(refused.value)  # NumPy's advice: load it unsafely
    wrong = tmp_path / "wrong.npz"
    save_layers(wrong, [(np.zeros((10, ACTION_COUNT), dtype=np.float32),
                         np.zeros(ACTION_COUNT, dtype=np.float32))])
    with pytest.raises(PolicyFileError, match=r"layer 0 must be w0 \[944"):
        PolicyPlayer.load(wrong)
    short = tmp_path / "short.npz"
    save_layers(short, [(np.zeros((OBSERVATION_SIZE, 8), dtype=np.float32),
                         np.zeros(8, dtype=np.float32))])
    with pytest.raises(PolicyFileError, match="ending at width 8"):
        PolicyPlayer.load(short)
    one_array = tmp_path / "one.npy"  # np.load gives a plain array, no layers by name
    np.save(one_array, np.zeros(3))
    with pytest.raises(PolicyFileError, match=r"holds one array \(a \.npy file\)"):
        make_player(f"policy:{one_array}")


def test_the_arena_and_the_bot_command_seat_a_policy(tmp_path: Path) -> None:
    path = _random_policy(tmp_path / "policy.npz", seed=1)
    rules = Rules.parse("standard")
    spec = BotSpec.parse(f"policy:{path}")
    player = build_player(spec, seat=0, rules=rules, seed="s")
    assert isinstance(player, PolicyPlayer)
    assert player.name == f"policy:{path}"
    with pytest.raises(BotSpecError, match="no policy file"):
        BotSpec.parse(f"policy:{tmp_path / 'absent.npz'}")
