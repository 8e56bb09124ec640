"""The shared observation encoding: its layout, its relative seats, its mask, and that it
holds nothing of another seat's hidden cards (Hypothesis over random games of every preset
and player count)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from hearts.core import (
    PLAYER_COUNTS,
    PRESETS,
    CardSet,
    ChooseMoon,
    Deal,
    GameState,
    IllegalActionError,
    MoonChoice,
    PassCards,
    Phase,
    Play,
    Rules,
    new_hand,
    view,
)
from hearts.env.table import Table
from hearts.players import observation as enc


def test_the_layout_is_the_spec_table() -> None:
    # the offsets written out from docs/research.md / the binding spec
    assert (enc.HAND, enc.PLAYED, enc.TRICK, enc.POINTS, enc.TOTALS, enc.VOIDS, enc.SEATS,
            enc.LEADER, enc.PASSED, enc.RECEIVED, enc.PASS_TARGET, enc.DECK, enc.PHASE,
            enc.HEARTS_OPEN, enc.BARRED, enc.TRICK_NO, enc.SELECTED) == (
        0, 52, 364, 676, 682, 688, 712, 718, 724, 776, 828, 834, 886, 889, 890, 891, 892)
    assert enc.OBSERVATION_SIZE == 944
    assert enc.ACTION_COUNT == 54
    assert (enc.ADD_ACTION, enc.SUBTRACT_ACTION) == (52, 53)
    assert enc.POINTS_SCALE == 26.0


rules_strategy = st.sampled_from(sorted(PRESETS)).flatmap(
    lambda preset: st.builds(
        lambda players, target: Rules.preset_rules(preset, players).replace(target=target),
        st.sampled_from(list(PLAYER_COUNTS[preset])), st.sampled_from([1, 30, 100])))


def play_to(rules: Rules, seed: int, steps: int) -> Table:
    """A seeded game after ``steps`` random legal actions (or at its end)."""
    table = Table(rules, episode="game")
    table.start(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        seat = table.actor
        if seat is None:
            break
        table.step(rng.choice(np.flatnonzero(table.mask(seat)).tolist()))
    return table


def section(obs: np.ndarray, start: int, r: int, size: int) -> np.ndarray:
    return obs[start + r * size:start + (r + 1) * size]


def cards_of(bits: np.ndarray) -> CardSet:
    return CardSet([int(c) for c in np.flatnonzero(bits)])


@given(rules=rules_strategy, seed=st.integers(0, 10**6), steps=st.integers(0, 150))
def test_each_section_says_what_the_spec_says(rules: Rules, seed: int, steps: int) -> None:
    table = play_to(rules, seed, steps)
    state = table.state
    n = rules.players
    for me in range(n):
        mine = view(state, me)
        obs = table.observation(me)
        assert obs.shape == (enc.OBSERVATION_SIZE,) and obs.dtype == np.float32
        assert cards_of(obs[enc.HAND:enc.PLAYED]) == state.hand(me)
        assert cards_of(obs[enc.DECK:enc.PHASE]) == CardSet(rules.deck)
        for r in range(enc.MAX_SEATS):
            seat = (me + r) % n
            exists = r < n
            assert obs[enc.SEATS + r] == exists
            if not exists:
                for start, size in ((enc.PLAYED, 52), (enc.TRICK, 52), (enc.VOIDS, 4)):
                    assert not section(obs, start, r, size).any()
                assert obs[enc.POINTS + r] == obs[enc.TOTALS + r] == obs[enc.LEADER + r] == 0
                continue
            played = [c for t in state.tricks for i, c in enumerate(t.cards)
                      if (t.leader + i) % n == seat]
            played += [c for s, c in state.trick if s == seat]
            assert cards_of(section(obs, enc.PLAYED, r, 52)) == CardSet(played)
            in_trick = [c for s, c in state.trick if s == seat]
            assert cards_of(section(obs, enc.TRICK, r, 52)) == CardSet(in_trick)
            assert obs[enc.POINTS + r] == pytest.approx(state.round_points(seat) / 26)
            assert obs[enc.TOTALS + r] == pytest.approx(state.totals[seat] / rules.target)
            assert obs[enc.LEADER + r] == bool(state.trick and state.trick[0][0] == seat)
            voids = section(obs, enc.VOIDS, r, 4)
            assert set(np.flatnonzero(voids).tolist()) == mine.voids()[seat]
        passed = state.chosen_pass(me)
        assert cards_of(obs[enc.PASSED:enc.RECEIVED]) == (passed or CardSet())
        assert cards_of(obs[enc.RECEIVED:enc.PASS_TARGET]) == (state.received(me) or CardSet())
        target = rules.pass_target(me, state.round_no)
        expected_target = [0.0] * enc.MAX_SEATS
        if target is not None:
            expected_target[(target - me) % n] = 1.0
        assert obs[enc.PASS_TARGET:enc.DECK].tolist() == expected_target
        phases = [state.phase is p for p in (Phase.PASS, Phase.PLAY, Phase.MOON)]
        assert obs[enc.PHASE:enc.HEARTS_OPEN].tolist() == phases
        assert obs[enc.HEARTS_OPEN] == state.hearts_open
        assert obs[enc.BARRED] == mine.points_barred
        assert obs[enc.TRICK_NO] == pytest.approx(state.trick_no / rules.hand_size)
        assert cards_of(obs[enc.SELECTED:]) == CardSet(table.selected[me])


@given(rules=rules_strategy, seed=st.integers(0, 10**6), steps=st.integers(0, 150))
def test_the_mask_is_exactly_the_legal_actions(rules: Rules, seed: int, steps: int) -> None:
    table = play_to(rules, seed, steps)
    state = table.state
    for me in range(rules.players):
        mask = table.mask(me)
        assert mask.shape == (54,) and mask.dtype == np.int8
        allowed = set(np.flatnonzero(mask).tolist())
        if table.actor != me:
            assert not allowed
            continue
        assert allowed, "the seat to act always has an action"
        legal = state.legal_actions(me)
        if state.phase is Phase.PLAY:
            assert allowed == {int(a.card) for a in legal if isinstance(a, Play)}
        elif state.phase is Phase.MOON:
            assert {a.choice for a in legal if isinstance(a, ChooseMoon)} == set(MoonChoice)
            assert allowed == {52, 53}
        else:
            assert allowed == set(state.hand(me)) - set(CardSet(table.selected[me]))
        for index in allowed:
            action = enc.action_of(view(state, me), index, table.selected[me])
            if action is not None:
                state.apply(action)  # the core takes every action the mask allows
                if isinstance(action, Play | ChooseMoon):
                    assert enc.index_of(action) == index


def test_an_index_the_mask_refuses_is_a_typed_error() -> None:
    table = play_to(Rules.parse("classic:players=5"), 7, 20)
    seat = table.actor
    assert seat is not None
    refused = int(np.flatnonzero(table.mask(seat) == 0)[0])
    with pytest.raises(enc.EncodingError, match=r"not allowed now.*allowed: \["):
        enc.action_of(view(table.state, seat), refused)
    with pytest.raises(enc.EncodingError, match="spectator"):
        enc.observe(view(table.state, None))
    with pytest.raises(enc.EncodingError, match="no single action index"):
        enc.index_of(PassCards(0, CardSet()))  # type: ignore[arg-type]


def round_actions(state: GameState) -> tuple[Deal, list[object]]:
    """The deal of the round in progress and the actions after it."""
    history = state.history
    start = max(i for i, a in enumerate(history) if isinstance(a, Deal))
    deal = history[start]
    assert isinstance(deal, Deal)
    return deal, list(history[start + 1:])


def swapped_twin(state: GameState, me: int, a: int, b: int) -> GameState | None:
    """The same round with seats ``a`` and ``b``'s unplayed cards swapped (in the pass,
    their dealt hands and passes; after it, the passes they received made up
    afresh where need be, unless ``me`` gave them): the same for ``me`` to see. None where
    the swap would make an earlier play illegal."""
    rules = state.rules
    n = rules.players
    deal, actions = round_actions(state)
    dealt = [state.dealt(s).mask for s in range(n)]
    chosen = [state.chosen_pass(s) for s in range(n)]
    if state.phase is Phase.PASS:  # nothing played yet: swap the dealt hands
        if (chosen[a] is None) != (chosen[b] is None):
            return None
        dealt[a], dealt[b] = dealt[b], dealt[a]
        chosen[a], chosen[b] = chosen[b], chosen[a]
    else:
        played = [0] * n
        for trick in state.tricks:
            for i, card in enumerate(trick.cards):
                played[(trick.leader + i) % n] |= 1 << card
        for seat, card in state.trick:
            played[seat] |= 1 << card
        held = [state.hand(s).mask | played[s] for s in range(n)]
        held[a], held[b] = (state.hand(b).mask | played[a], state.hand(a).mask | played[b])
        received = [(state.received(s) or CardSet()).mask for s in range(n)]  # none: hold
        for s in (a, b):
            if not received[s] & ~held[s]:
                continue
            giver = rules.pass_source(s, state.round_no)
            if giver is None or giver == me:
                return None  # me knows what it gave
            keep = received[s] & held[s]
            fill = [c for c in CardSet(held[s] & ~keep)][:rules.pass_count - len(CardSet(keep))]
            received[s] = keep | CardSet(fill).mask
            chosen[giver] = CardSet(received[s])
        dealt = [(held[s] & ~received[s]) | (chosen[s] or CardSet()).mask for s in range(n)]
    replay = [PassCards(x.seat, chosen[x.seat] or CardSet()) if isinstance(x, PassCards)
              else x for x in actions]
    try:
        # totals change only when a round ends: in a round they are its starting totals
        twin = new_hand(rules, [CardSet(m) for m in dealt], round_no=state.round_no,
                        totals=state.totals, deal_seed=deal.seed)
        return twin.apply_all(replay)  # type: ignore[arg-type]
    except IllegalActionError:
        return None


@given(rules=rules_strategy, seed=st.integers(0, 10**6), steps=st.integers(0, 150))
def test_swapping_the_other_seats_hidden_cards_changes_no_observation(
        rules: Rules, seed: int, steps: int) -> None:
    table = play_to(rules, seed, steps)
    state = table.state
    n = rules.players
    if table.actor is None:
        event("game over")
        return
    swaps = 0
    for me in range(n):
        others = [s for s in range(n) if s != me]
        for a in others:
            for b in others:
                if a >= b or len(state.hand(a)) != len(state.hand(b)) \
                        or state.hand(a) == state.hand(b):
                    continue
                twin = swapped_twin(state, me, a, b)
                if twin is None:
                    continue
                swaps += 1
                assert twin.hand(a) == state.hand(b) and twin.hand(b) == state.hand(a)
                assert twin.hand(me) == state.hand(me)
                selected = table.selected[me]
                assert np.array_equal(enc.observe(view(twin, me), selected),
                                      table.observation(me))
                assert np.array_equal(enc.action_mask(view(twin, me), selected),
                                      enc.action_mask(view(state, me), selected))
    event(f"swaps checked: {min(swaps, 3)}+" if swaps else "no legal swap")


def test_swaps_are_found_in_most_positions() -> None:
    """The property above is not vacuous: most positions have a legal swap to check."""
    found = 0
    for seed in range(20):
        rules = Rules.parse("classic:players=5")
        table = play_to(rules, seed, seed * 7)
        state = table.state
        me = 0
        found += any(swapped_twin(state, me, a, b) is not None
                     for a in range(1, 5) for b in range(a + 1, 5))
    assert found >= 15
