"""The batched simulator plays exactly the core's games.

Each slot of a :class:`BatchedHearts` is replayed through :class:`hearts.core.GameState`
with the same actions: every observation (``observe`` of the seat's view), every mask, every
reward, the episode ends and the auto-reset games must agree, in every preset and player
count, with moons (the shooter's choice included) made common by decks short of hearts.
The single environment's :class:`hearts.env.table.Table` is checked the same way.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hearts.core import (
    Card,
    CardSet,
    ChooseMoon,
    GameState,
    MoonChoice,
    PassCards,
    Phase,
    Play,
    Rules,
    new_game,
    view,
)
from hearts.env.batched import BatchedHearts, BatchedOptionError, IllegalBatchActionError
from hearts.env.table import Table, rank_rewards
from hearts.players import seeded_dealer
from hearts.players.observation import (
    ADD_ACTION,
    MAX_SEATS,
    SUBTRACT_ACTION,
    action_mask,
    observe,
)
from hearts.players.search.kernel import mix_seed

TABLES = [  # every preset at every player count it allows, short games
    "card-commons:players=3,target=40",
    "card-commons:target=40",
    "standard:target=40",
    *(f"classic:players={n},target=40" for n in range(2, 7)),
]
_MOST_HEARTS = "+".join(f"{rank}H" for rank in "23456789TJQK")
HOUSE = [  # house options, and moons made common (the shooter choosing, or not)
    "card-commons:jack_of_diamonds=on,first_lead=dealer-left,target=30",
    "standard:hearts_lead=any-time,moon=shooter-choice,target=30",
    f"classic:players=3,removed=AH+{_MOST_HEARTS},moon=shooter-choice,target=20",
    f"standard:removed={_MOST_HEARTS},jack_of_diamonds=on,moon=shooter-choice,target=20",
    f"classic:players=3,removed=AH+{_MOST_HEARTS},hearts_lead=any-time,target=20",
]
_MOONS = {ADD_ACTION: MoonChoice.ADD, SUBTRACT_ACTION: MoonChoice.SUBTRACT}


class CoreGame:
    """One seeded game driven through the core by action indices, as the spec reads them."""

    def __init__(self, rules: Rules, seed: int, episode: str, reward: str) -> None:
        self.state: GameState = new_game(rules, seed)
        self.selected = 0
        self.episode = episode
        self.reward = reward

    @property
    def seat(self) -> int:
        return self.state.to_act[0]

    def observation(self) -> tuple[np.ndarray, np.ndarray]:
        seen = view(self.state, self.seat)
        return observe(seen, self.selected), action_mask(seen, self.selected)

    def step(self, index: int) -> tuple[list[float], bool]:
        """Apply one action index; the rewards by seat and whether the episode ended."""
        state, seat, players = self.state, self.seat, self.state.players
        rewards = [0.0] * players
        if state.phase is Phase.PASS:
            self.selected |= Card(index).mask
            if self.selected.bit_count() < state.rules.pass_count:
                return rewards, False
            action: object = PassCards(seat, CardSet(self.selected))
            self.selected = 0
        elif state.phase is Phase.PLAY:
            action = Play(seat, Card(index))
        else:
            action = ChooseMoon(seat, _MOONS[index])
        rounds = len(state.results)
        state = self.state = state.apply(action)
        if len(state.results) == rounds:
            return rewards, False
        if self.reward == "hand":
            rewards = [-float(p) for p in state.results[-1].points]
        if state.phase is Phase.DEAL and self.episode == "game":
            self.state = state.apply(seeded_dealer(state))
            return rewards, False
        if self.reward == "game":
            rewards = list(rank_rewards(state.totals))
        return rewards, True


def _play_along(text: str, n: int, steps: int, episode: str = "game", reward: str = "hand",
                seed: int = 7) -> int:
    """Step a batch with random masked actions beside one core game a slot; returns how
    many episodes ended."""
    rules = Rules.parse(text)
    batch = BatchedHearts(n, rules, seed=seed, episode=episode, reward=reward)
    obs, mask, to_act = batch.reset()
    games = [CoreGame(rules, seed + k, episode, reward) for k in range(n)]
    rng = np.array([mix_seed(seed, 1)], dtype=np.int64)
    ended = 0
    for _ in range(steps):
        for i, game in enumerate(games):
            expected_obs, expected_mask = game.observation()
            assert to_act[i] == game.seat
            np.testing.assert_array_equal(obs[i], expected_obs)
            np.testing.assert_array_equal(mask[i], expected_mask)
        actions = batch.random_actions(rng)
        obs, mask, rewards, done, to_act = batch.step(actions)
        for i in range(n):
            expected_rewards, expected_done = games[i].step(int(actions[i]))
            padded = expected_rewards + [0.0] * (MAX_SEATS - rules.players)
            np.testing.assert_allclose(rewards[i], padded)
            assert done[i] == expected_done
            if expected_done:
                ended += 1
                games[i] = CoreGame(rules, seed + int(batch.game_numbers[i]), episode, reward)
    return ended


@pytest.mark.parametrize("text", TABLES + HOUSE)
def test_whole_games_agree_with_the_core_through_auto_reset(text: str) -> None:
    assert _play_along(text, n=3, steps=700) >= 3


@pytest.mark.parametrize("reward", ["hand", "game"])
@pytest.mark.parametrize("text", ["standard", "classic:players=5", HOUSE[2]])
def test_hand_episodes_and_both_rewards_agree_with_the_core(text: str, reward: str) -> None:
    assert _play_along(text, n=4, steps=200, episode="hand", reward=reward, seed=3) >= 4


def test_game_rewards_rank_the_seats_when_the_game_ends() -> None:
    assert _play_along("classic:players=4,target=20", n=2, steps=500, reward="game") >= 2


def test_the_single_environment_plays_the_same_games() -> None:
    rules = Rules.parse("card-commons:players=3,target=30")
    batch = BatchedHearts(2, rules, seed=11)
    obs, mask, to_act = batch.reset()
    tables = []
    for k in range(2):
        table = Table(rules)
        table.start(11 + k)
        tables.append(table)
    rng = np.array([mix_seed(5, 0)], dtype=np.int64)
    for _ in range(400):
        for i, table in enumerate(tables):
            seat = table.actor
            assert seat == to_act[i]
            np.testing.assert_array_equal(obs[i], table.observation(seat))
            np.testing.assert_array_equal(mask[i], table.mask(seat))
        actions = batch.random_actions(rng)
        obs, mask, rewards, done, to_act = batch.step(actions)
        for i, table in enumerate(tables):
            expected = table.step(int(actions[i]))
            np.testing.assert_allclose(rewards[i, :rules.players], expected)
            assert done[i] == table.over
            if table.over:
                table.start(11 + int(batch.game_numbers[i]))


def test_an_action_the_mask_refuses_changes_nothing() -> None:
    batch = BatchedHearts(3, "standard", seed=1)
    with pytest.raises(IllegalBatchActionError, match=r"call reset\(\) before step"):
        batch.step(np.zeros(3, dtype=np.int64))
    obs, mask, _ = batch.reset()
    refused = np.flatnonzero(mask[1] == 0)[0]
    actions = np.array([np.flatnonzero(row)[0] for row in mask])
    actions[1] = refused
    with pytest.raises(IllegalBatchActionError, match=r"game 1: action \d+ is not allowed"):
        batch.step(actions)
    with pytest.raises(IllegalBatchActionError, match="one a game"):
        batch.step(actions[:2])
    np.testing.assert_array_equal(batch.masks, mask)
    actions[1] = np.flatnonzero(mask[1])[0]
    after, _, _, _, _ = batch.step(actions)  # the batch still steps from where it was
    assert not np.array_equal(after, obs)


def _allowed(mask: np.ndarray, actions: np.ndarray) -> bool:
    return bool(mask[np.arange(len(actions)), actions].all())


def test_random_actions_take_the_own_stream_a_generator_or_a_kernel_state() -> None:
    batch, twin = BatchedHearts(8, "standard", seed=3), BatchedHearts(8, "standard", seed=3)
    with pytest.raises(IllegalBatchActionError, match=r"call reset\(\) before random_actions"):
        batch.random_actions()
    _, mask, _ = batch.reset()
    twin.reset()
    own = batch.random_actions()
    assert _allowed(mask, own)
    np.testing.assert_array_equal(own, twin.random_actions())  # the seed's own stream
    drawn = [batch.random_actions(np.random.default_rng(9)) for _ in range(2)]
    np.testing.assert_array_equal(*drawn)  # a Generator seeded alike draws alike
    assert _allowed(mask, drawn[0])
    state = np.array([mix_seed(3, 1)], dtype=np.int64)
    before = int(state[0])
    assert _allowed(mask, batch.random_actions(state)) and int(state[0]) != before
    huge = BatchedHearts(2, "standard", seed=2**64 + 5)  # any whole number from 0 is a seed
    _, huge_mask, _ = huge.reset()
    assert _allowed(huge_mask, huge.random_actions())


def _read_only(state: int) -> np.ndarray:
    frozen = np.array([state], dtype=np.int64)
    frozen.flags.writeable = False
    return frozen


@pytest.mark.parametrize("rng", [7, np.array([5, 6], dtype=np.int64), _read_only(5),
                                 np.array([0], dtype=np.int64), np.array([1.0]),
                                 np.array([2**40], dtype=np.int64), "seed"])
def test_random_actions_refuse_another_rng_in_words(rng: object) -> None:
    batch = BatchedHearts(2, "standard", seed=1)
    batch.reset()
    with pytest.raises(BatchedOptionError, match=r"rng is None .* a numpy\.random\.Generator"):
        batch.random_actions(rng)  # type: ignore[arg-type]


@pytest.mark.parametrize(("options", "message"), [
    ({"n": 0}, "number of games"),
    ({"n": 2**40}, "a whole number from 1 to 16,777,216, not 1099511627776"),
    ({"n": 10**20}, "number of games"),
    ({"n": 2, "copy": "no"}, "copy is True or False, not 'no'"),
    ({"n": 2, "episode": "round"}, "episode"),
    ({"n": 2, "reward": "win"}, "reward"),
    ({"n": 2, "seed": "x"}, "seed"),
    # game k is the single environment's reset(seed=seed + k), which takes no negative seed
    ({"n": 2, "seed": -5}, "seed is a whole number from 0, not -5"),
    ({"n": np.float64(2)}, "not np.float64"),
    ({"n": 2, "rules": 4}, "rules are a Rules or a rules text"),
])
def test_bad_options_are_typed_errors(options: dict[str, object], message: str) -> None:
    with pytest.raises(BatchedOptionError, match=message):
        BatchedHearts(**options)  # type: ignore[arg-type]


@given(text=st.sampled_from(TABLES + HOUSE), seed=st.integers(0, 10**6),
       n=st.integers(1, 3), steps=st.integers(1, 90))
def test_any_seed_and_table_plays_the_cores_game(text: str, seed: int, n: int,
                                                 steps: int) -> None:
    _play_along(text, n=n, steps=steps, seed=seed)


def test_seeds_that_differ_above_32_bits_draw_different_random_actions() -> None:
    """The random actions' stream took the seed's low 32 bits alone: seeds 5 and 5 + 2**32
    drew from one stream. A seed below 2**32 keeps its stream."""
    # the stream's state itself: the games of those seeds differ anyway
    states = {int(BatchedHearts(1, "standard", seed=seed)._random[0])
              for seed in (5, 5 + 2**32, 5 + 2**62, 5 + 2**64)}
    assert len(states) == 4
    assert int(BatchedHearts(1, "standard", seed=5)._random[0]) == mix_seed(5, 0x52414E44)


def test_numpy_integers_are_taken_for_the_games_and_the_seed() -> None:
    batch = BatchedHearts(np.int64(3), "standard", seed=np.int64(4))
    assert (batch.n, type(batch.n), batch.seed, type(batch.seed)) == (3, int, 4, int)
    np.testing.assert_array_equal(batch.reset()[0], BatchedHearts(3, "standard", seed=4).reset()[0])


def test_copies_and_own_arrays_say_the_same_and_reset_numbers_on() -> None:
    copied = BatchedHearts(4, "classic:players=5", seed=2)
    shared = BatchedHearts(4, "classic:players=5", seed=2, copy=False)
    first, _, _ = copied.reset()
    np.testing.assert_array_equal(first, shared.reset()[0])
    rng = np.array([mix_seed(2, 0)], dtype=np.int64)
    for _ in range(80):
        actions = copied.random_actions(rng)
        for one, other in zip(copied.step(actions), shared.step(actions), strict=True):
            np.testing.assert_array_equal(one, other)
    own = shared.step(shared.random_actions(rng))[0]
    shared.step(shared.random_actions(rng))
    assert own is shared.step(shared.random_actions(rng))[0]  # overwritten each step
    # what a copying simulator returned stays the caller's: later steps never change it
    kept_obs, kept_mask, _, _, _ = copied.step(copied.random_actions(rng))
    before = kept_obs.copy(), kept_mask.copy()
    for _ in range(3):
        copied.step(copied.random_actions(rng))
    np.testing.assert_array_equal(kept_obs, before[0])
    np.testing.assert_array_equal(kept_mask, before[1])
    assert copied.game_numbers.tolist() == [0, 1, 2, 3]
    copied.reset()
    assert copied.game_numbers.tolist() == [4, 5, 6, 7]
