"""The Gymnasium single-seat environment: Gymnasium's own checker, registration, seeding,
opponents of every kind, and rewards that agree with the core's score sheet."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import hearts.env
from hearts.env import GAME_ID, HAND_ID, HeartsEnv
from hearts.players import RandomPlayer
from hearts.players.observation import EncodingError
from hearts.protocol.host import ExternalPlayer

EXTERNAL_BOT = Path(__file__).resolve().parents[2] / "examples" / "external_bot.py"


@pytest.mark.parametrize(("rules", "opponents"), [
    ("card-commons:players=3,target=30", "random"),
    ("standard:target=30", "easy"),
    ("classic:players=6,target=30", "normal"),
    ("classic:players=2,target=30", "random"),
])
def test_gymnasium_check_env_passes(rules: str, opponents: str) -> None:
    check_env(HeartsEnv(rules=rules, opponents=opponents), skip_render_check=False)


def test_the_ids_are_registered_on_import() -> None:
    assert hearts.env.GAME_ID in gymnasium.registry
    game = gymnasium.make(GAME_ID, rules="classic:players=5")
    assert isinstance(game.unwrapped, HeartsEnv) and game.unwrapped.table.episode == "game"
    hand = gymnasium.make(HAND_ID).unwrapped
    assert isinstance(hand, HeartsEnv) and hand.table.episode == "hand"
    # the module prefix form imports the package by itself
    prefixed = gymnasium.make(f"hearts.env:{GAME_ID}").unwrapped
    assert isinstance(prefixed, HeartsEnv) and prefixed.rules.preset == "card-commons"


def play(environment: gymnasium.Env, seed: int) -> tuple[float, list[int], int]:
    """Play the learning seat at random; the return, the actions and the steps."""
    obs, _ = environment.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, actions, done = 0.0, [], False
    while not done:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        actions.append(action)
        obs, reward, done, truncated, _ = environment.step(action)
        assert not truncated
        total += float(reward)
    return total, actions, len(actions)


def test_a_whole_game_returns_minus_the_seats_final_total() -> None:
    game = HeartsEnv(rules="classic:players=4,target=50", seat=2, opponents="easy")
    total, _, _ = play(game, 8)
    state = game.table.state
    assert state.is_over
    assert total == -state.totals[2]


def test_the_game_reward_is_the_seats_rank() -> None:
    game = HeartsEnv(rules="card-commons:target=40", reward="game", opponents="normal")
    total, _, _ = play(game, 8)
    totals = game.table.state.totals
    better = sum(t > totals[0] for t in totals) - sum(t < totals[0] for t in totals)
    assert total == pytest.approx(better / 3)


def test_a_seeded_reset_replays_the_same_episode() -> None:
    first = play(HeartsEnv(rules="standard:target=40", opponents="random"), 21)
    again = play(HeartsEnv(rules="standard:target=40", opponents="random"), 21)
    other = play(HeartsEnv(rules="standard:target=40", opponents="random"), 22)
    assert first == again
    assert first != other


def test_opponents_may_be_players_and_external_programs(
        caplog: pytest.LogCaptureFixture) -> None:
    command = f"ext:{sys.executable} {EXTERNAL_BOT}"
    game = HeartsEnv(rules="card-commons:players=3,target=20", seat=1,
                     opponents=[command, RandomPlayer(1)])
    game.reset(seed=3)
    bot = game._bots[0]
    assert isinstance(bot, ExternalPlayer) and bot.bot_name  # it started and said hello
    with caplog.at_level(logging.WARNING, logger="hearts.protocol"):
        total, _, _ = play(game, 3)
    assert not caplog.records, "the outside bot played every decision itself"
    assert game.table.state.is_over and total == -game.table.state.totals[1]
    game.close()


def test_a_masked_out_action_ends_the_episode_with_the_penalty() -> None:
    game = HeartsEnv(rules="card-commons")
    obs, _ = game.reset(seed=1)
    refused = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, _, info = game.step(refused)
    assert terminated and reward == -26.0 and info["illegal"] == refused
    with pytest.raises(EncodingError, match="reset"):
        game.step(0)
    assert HeartsEnv(reward="game", illegal_reward=None).illegal_reward == -1.0


def test_an_action_outside_the_action_space_is_an_input_error_not_a_move() -> None:
    """54 or -1 is no action at all: a caller's bug, refused as the AEC environment refuses
    it, where a masked-out action is a move the penalty teaches."""
    game = HeartsEnv(rules="card-commons")
    game.reset(seed=1)
    state = game.table.state
    for outside in (54, -1, np.int64(99)):
        with pytest.raises(EncodingError, match=r"from 0 to 53 \(the action space\)"):
            game.step(outside)
    assert game.table.state is state and not game.table.over


def test_numpy_numbers_are_taken_for_the_seat_and_the_penalty() -> None:
    game = HeartsEnv(rules="card-commons", seat=np.int64(1), illegal_reward=np.float32(-3))
    assert (game.seat, type(game.seat), game.illegal_reward) == (1, int, -3.0)


def test_bad_options_are_typed_errors() -> None:
    with pytest.raises(EncodingError, match="seat must be 0 to 3"):
        HeartsEnv(seat=4)
    with pytest.raises(EncodingError, match="opponents"):
        HeartsEnv(opponents=["random", "random"])
    with pytest.raises(EncodingError, match="reward must be"):
        HeartsEnv(reward="score")  # type: ignore[arg-type]
    for opponents in (5, None, ["easy", 3, "easy"]):
        with pytest.raises(EncodingError, match="opponents is a bot spec or a player"):
            HeartsEnv(opponents=opponents)  # type: ignore[arg-type]
    for illegal in ("x", float("nan"), float("inf"), True, 10**400):
        with pytest.raises(EncodingError, match="illegal_reward is a finite number"):
            HeartsEnv(illegal_reward=illegal)  # type: ignore[arg-type]


def test_a_hand_episode_plays_one_hand() -> None:
    hand = HeartsEnv(rules="classic:players=5", episode="hand", render_mode="ansi")
    total, _, steps = play(hand, 4)
    state = hand.table.state
    assert len(state.results) == 1 and total == -state.results[0].points[0]
    assert steps == 3 + state.rules.hand_size  # three pass picks, then a card a trick
    text = hand.render()
    assert text is not None and text.startswith("classic:players=5")


def test_human_render_prints_the_seats_view_after_reset_and_each_step(
        capsys: pytest.CaptureFixture[str]) -> None:
    shown = HeartsEnv(rules="standard", render_mode="human")
    observation, _ = shown.reset(seed=3)
    assert capsys.readouterr().out.startswith("standard  round 1  pass")
    shown.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert "seat 0 hand" in capsys.readouterr().out
    assert shown.render() is None
