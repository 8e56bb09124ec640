"""The PettingZoo AEC environment: PettingZoo's own API and seed tests on every preset and
player count, and games played through it agree with the core."""

from __future__ import annotations

from collections.abc import Callable

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from hearts.core import PLAYER_COUNTS, PRESETS, Card, InvalidCardError, Phase, Rules, new_game
from hearts.env import HAND_ID, HeartsAECEnv, HeartsEnv, UnknownOptionWarning, env
from hearts.env.table import Table, rank_rewards
from hearts.players.observation import HAND, PLAYED, SELECTED, EncodingError, action_index

TABLES = [(preset, players) for preset in sorted(PRESETS) for players in PLAYER_COUNTS[preset]]


def quick(preset: str, players: int) -> str:
    return f"{preset}:players={players},target=30"


@pytest.mark.parametrize(("preset", "players"), TABLES)
def test_pettingzoo_api_test_passes(preset: str, players: int) -> None:
    api_test(env(rules=quick(preset, players)), num_cycles=200)


@pytest.mark.parametrize(("reward", "episode"), [("game", "game"), ("hand", "hand"),
                                                 ("game", "hand")])
def test_pettingzoo_api_test_passes_for_each_reward_and_episode(reward: str,
                                                                 episode: str) -> None:
    api_test(env(rules="classic:players=5,target=30", reward=reward, episode=episode),
             num_cycles=200)


@pytest.mark.parametrize(("preset", "players"), TABLES)
def test_pettingzoo_seed_test_passes(preset: str, players: int) -> None:
    seed_test(lambda: env(rules=quick(preset, players)), num_cycles=100)


def random_game(aec: HeartsAECEnv, seed: int) -> dict[str, float]:
    """Play to the end with random legal actions; each agent's return."""
    aec.reset(seed=seed)
    rng = np.random.default_rng(seed)
    returns = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        obs, reward, terminated, truncated, _ = aec.last()
        returns[agent] += reward
        if terminated or truncated:
            aec.step(None)
            continue
        aec.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return returns


def test_a_seeded_reset_deals_the_cores_seeded_game() -> None:
    aec = env(rules="classic:players=3")
    aec.reset(seed=1234)
    game = new_game(Rules.parse("classic:players=3"), seed=1234)
    for seat, agent in enumerate(aec.possible_agents):
        hand = np.flatnonzero(aec.observe(agent)["observation"][HAND:PLAYED])
        assert hand.tolist() == [int(c) for c in game.hand(seat)]


@pytest.mark.parametrize("rules", ["card-commons", "classic:players=6,target=60",
                                   "standard:target=50,jack_of_diamonds=on"])
def test_hand_rewards_add_up_to_minus_the_final_totals(rules: str) -> None:
    aec = env(rules=rules, reward="hand")
    returns = random_game(aec, 5)
    totals = aec.table.state.totals
    assert aec.table.state.is_over
    assert [returns[a] for a in aec.possible_agents] == [-t for t in totals]


def test_game_rewards_are_the_rank_on_the_final_totals() -> None:
    aec = env(rules="classic:players=4,target=40", reward="game")
    returns = random_game(aec, 9)
    ranks = rank_rewards(aec.table.state.totals)
    assert [returns[a] for a in aec.possible_agents] == pytest.approx(list(ranks))
    assert sum(returns.values()) == pytest.approx(0.0)
    assert max(returns.values()) > 0 > min(returns.values())


def test_rank_rewards_order_and_ties() -> None:
    assert rank_rewards((10, 20, 20, 30)) == (1.0, 0.0, 0.0, -1.0)
    assert rank_rewards((5, 5)) == (0.0, 0.0)


def test_a_hand_episode_ends_after_one_hand_of_the_chosen_round() -> None:
    aec = env(rules="card-commons", episode="hand")
    aec.reset(seed=3, options={"round": 3})  # round 3 passes across
    assert aec.table.state.pass_offset == 2
    returns = random_game_from_here(aec)
    state = aec.table.state
    assert len(state.results) == 1 and state.phase in (Phase.DEAL, Phase.OVER)
    assert [returns[a] for a in aec.possible_agents] == [-p for p in state.results[0].points]


@pytest.mark.parametrize("round_no", ["x", 0, 2.0, True, 10**6])
def test_a_round_that_is_no_round_number_is_refused_in_words(round_no: object) -> None:
    for made in (env(rules="card-commons", episode="hand"),
                 gymnasium.make(HAND_ID, rules="card-commons")):
        with pytest.raises(EncodingError, match="round is a whole number from 1 to 100000"):
            made.reset(seed=3, options={"round": round_no})


def random_game_from_here(aec: HeartsAECEnv) -> dict[str, float]:
    rng = np.random.default_rng(0)
    returns = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        obs, reward, terminated, _, _ = aec.last()
        returns[agent] += reward
        aec.step(None if terminated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return returns


def test_passes_are_picked_one_card_at_a_time_and_stay_hidden() -> None:
    aec = env(rules="standard")
    aec.reset(seed=11)
    assert aec.agent_selection == "player_0"
    before = {a: aec.observe(a)["observation"].copy() for a in aec.possible_agents}
    picks = [int(c) for c in np.flatnonzero(aec.observe("player_0")["action_mask"])[:3]]
    for done, card in enumerate(picks, 1):
        assert aec.agent_selection == "player_0"
        aec.step(card)
        if done < 3:
            mine = aec.observe("player_0")
            assert np.flatnonzero(mine["observation"][SELECTED:]).tolist() == picks[:done]
            assert not mine["action_mask"][picks[:done]].any()
    assert aec.agent_selection == "player_1"
    for agent in ("player_1", "player_2", "player_3"):  # nothing of player_0's choice
        assert np.array_equal(aec.observe(agent)["observation"], before[agent])
    assert aec.table.state.chosen_pass(0) is not None


def test_a_refused_action_is_a_typed_error_and_changes_nothing() -> None:
    aec = env(rules="card-commons")
    aec.reset(seed=2)
    agent = aec.agent_selection
    obs = aec.observe(agent)
    refused = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(EncodingError, match="not allowed"):
        aec.step(refused)
    assert aec.agent_selection == agent
    assert np.array_equal(aec.observe(agent)["observation"], obs["observation"])
    with pytest.raises(EncodingError, match="render_mode"):
        env(render_mode="rgb_array")


def test_ansi_render_shows_the_public_table_and_the_actors_hand() -> None:
    aec = env(rules="classic:players=5", render_mode="ansi")
    aec.reset(seed=4)
    text = aec.render()
    assert text is not None
    assert text.startswith("classic:players=5  round 1  pass")
    hand = " ".join(str(c) for c in aec.table.state.hand(0))
    assert f"to act player_0: {hand}" in text
    assert env().render() is None


def test_pettingzoo_render_test_passes_in_every_render_mode(
        capsys: pytest.CaptureFixture[str]) -> None:
    render_test(lambda render_mode=None: env(rules=quick("classic", 5),
                                             render_mode=render_mode))
    assert "classic:players=5" in capsys.readouterr().out  # "human" printed the table


def test_human_render_prints_the_table_after_each_reset_and_step(
        capsys: pytest.CaptureFixture[str]) -> None:
    aec = env(rules="standard", render_mode="human")
    aec.reset(seed=4)
    assert capsys.readouterr().out.count("standard  round 1  pass") == 1
    aec.step(int(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])[0]))
    printed = capsys.readouterr().out
    assert printed.count("standard  round 1  pass") == 1 and "(picked " in printed
    assert aec.render() is None


@pytest.mark.parametrize("action", [0.9, "0", True, [0], float("nan"), np.array([3])],
                         ids=repr)
def test_an_action_that_is_no_whole_number_is_refused_not_cut_to_one(action: object) -> None:
    """``int(0.9)`` is 0 and ``int(True)`` 1: a float, text or bool would have played a
    card. Both environments refuse it and change nothing."""
    aec = env(rules="card-commons")
    aec.reset(seed=2)
    agent, seen = aec.agent_selection, aec.observe(aec.agent_selection)["observation"].copy()
    with pytest.raises(EncodingError, match="an action is a whole number from 0 to 53"):
        aec.step(action)  # type: ignore[arg-type]
    assert aec.agent_selection == agent
    assert np.array_equal(aec.observe(agent)["observation"], seen)
    single = gymnasium.make(HAND_ID, rules="card-commons")
    single.reset(seed=2)
    with pytest.raises(EncodingError, match="an action is a whole number from 0 to 53"):
        single.step(action)
    single.step(int(np.flatnonzero(single.unwrapped.table.mask(0))[0]))  # still running


def test_a_numpy_action_or_seed_is_taken_as_the_number_it_holds() -> None:
    """What a trained agent gives: a NumPy integer, or a 0-d array from ``predict``."""
    for seed in (np.int64(3), np.uint32(3)):
        aec = env(rules="card-commons")
        aec.reset(seed=seed)  # type: ignore[arg-type]
        plain = env(rules="card-commons")
        plain.reset(seed=3)
        assert aec.table.state.hand(0) == plain.table.state.hand(0)
        allowed = np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])
        for action in (np.int64(allowed[0]), np.array(allowed[1])):
            aec.step(action)  # type: ignore[arg-type]
    single = gymnasium.make(HAND_ID, rules="card-commons")
    single.reset(seed=np.int64(3))
    single.step(np.array(int(np.flatnonzero(single.unwrapped.table.mask(0))[0])))
    with pytest.raises(EncodingError, match="None is only for a finished agent"):
        aec.step(None)


@pytest.mark.parametrize("value", [
    3, np.int64(3), np.uint8(3), np.array(3), np.array(3, dtype=np.uint16), True, np.True_,
    np.array(True), 3.0, np.float64(3), np.array(3.0), np.array([3]), "3", None], ids=repr)
def test_a_card_an_action_a_seed_and_a_round_take_the_same_whole_numbers(
        value: object) -> None:
    """One rule for a whole number from outside (``hearts.core.as_whole_number``): a card,
    an action, a reset's seed and its round each take a value exactly when the others do."""
    table = Table(Rules.parse("card-commons"), episode="hand")

    def taken(use: Callable[[object], object], error: type[Exception]) -> bool:
        try:
            use(value)
        except error:
            return False
        return True

    said = {"card": taken(Card, InvalidCardError),  # type: ignore[arg-type]
            "action": taken(action_index, EncodingError),
            "seed": value is not None and taken(lambda v: table.reset_request(v, None),
                                                EncodingError),
            "round": taken(lambda v: table.reset_request(0, {"round": v}), EncodingError)}
    whole = type(value) is int or isinstance(value, np.integer) or (
        isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iu")
    assert said == dict.fromkeys(said, whole)
    if whole:
        assert Card(value) == Card(3) and action_index(value) == 3  # type: ignore[arg-type]
        assert table.reset_request(value, {"round": value}) == (3, 3)
        assert type(table.reset_request(value, None)[0]) is int


@pytest.mark.parametrize(("seed", "options", "said"), [
    (7, {"round": 0}, "round is a whole number"),
    (7, [("round", 2)], "options is a dict"),
    (7, "round=2", "options is a dict"),
    (7, {"round": 0, "extra": 1}, "round is a whole number"),
    (-1, None, "seed is a whole number from 0 or None, not -1"),
    (1.5, None, "seed is a whole number from 0 or None, not 1.5"),
    ("abc", None, "seed is a whole number from 0 or None, not 'abc'"),
    (True, None, "seed is a whole number from 0 or None, not True"),
])
def test_a_refused_reset_leaves_the_episode_as_it_was(seed: object, options: object,
                                                      said: str) -> None:
    aec = env(rules="card-commons", episode="hand")
    aec.reset(seed=3)
    rng_before, state_before = aec._rng, aec.table.state
    with pytest.raises(EncodingError, match=said):
        aec.reset(seed=seed, options=options)  # type: ignore[arg-type]
    assert aec._rng is rng_before and aec.table.state is state_before
    single = gymnasium.make(HAND_ID, rules="card-commons").unwrapped
    single.reset(seed=3)
    game_seed, bots, table_state = single._game_seed, dict(single._bots), single.table.state
    with pytest.raises(EncodingError, match=said):
        single.reset(seed=seed, options=options)
    assert single._game_seed == game_seed and single._bots == bots
    assert single.table.state is table_state


def test_an_option_reset_does_not_read_is_said_not_silently_dropped() -> None:
    """A misspelt ``rounds`` once started round 1 unsaid. It is a warning, not a refusal:
    PettingZoo's api_test passes an option of its own to see that reset takes one."""
    for made in (env(rules="standard", episode="hand"),
                 HeartsEnv(rules="standard", episode="hand")):
        with pytest.warns(UnknownOptionWarning, match=r"only 'round' .* 'rounds' ignored"):
            made.reset(seed=1, options={"rounds": 2})
        assert made.table.state.round_no == 1


def test_a_step_before_the_first_reset_is_refused_not_played() -> None:
    """The environments hold a placeholder game until the first reset; a step once played
    it (and the Gymnasium one failed a few steps on with a KeyError, no opponents made)."""
    aec = env(rules="standard")
    with pytest.raises(EncodingError, match=r"call reset\(\) before step\(\)"):
        aec.step(0)
    single = HeartsEnv(rules="standard")
    with pytest.raises(EncodingError, match=r"call reset\(\) before step\(\)"):
        single.step(0)
    aec.reset(seed=1)
    single.reset(seed=1)
    allowed = int(np.flatnonzero(aec.observe("player_0")["action_mask"])[0])
    aec.step(allowed)
    assert single.step(allowed)[2:4] == (False, False)


def test_the_aec_env_names_its_agents_and_says_when_all_are_done() -> None:
    aec = env(rules="card-commons", episode="hand")
    aec.reset(seed=5)
    for agent in ("player_9", 0):
        with pytest.raises(EncodingError, match=r"no .* the agents are player_0, player_1"):
            aec.observe(agent)  # type: ignore[arg-type]
    random_game_from_here(aec)
    assert aec.agents == []
    with pytest.raises(EncodingError, match="every agent is done: call reset"):
        aec.step(None)
