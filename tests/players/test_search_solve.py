"""Exact endgame solving inside the sampled worlds (the search player's ``solve`` and
``root`` options).

The solver is tied to the core: in random endgames (3-5 players, moons made common by
removing hearts, the J♦ and the shooter's choice included) its value for every seat
equals a brute-force max^n written here over the core's legal cards, with each line
played out and scored by :class:`~hearts.core.GameState` and valued by
:func:`~hearts.players.standing.game_value`; the figures a candidate gets are those of the
solved line, and a hand-built position shows a moon the playouts let through and the
solver does not. The tail playout stops where it should, with the policy's own cards;
``root`` leaves bigger hands to the search without it. Whole games through the core check
that the player never plays an illegal card, and a seed fixes its figures.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from search_positions import kernel_position, random_position

from hearts.arena.specs import BotSpec, build_player
from hearts.core import (
    QUEEN_OF_SPADES,
    Card,
    ChooseMoon,
    GameState,
    MoonChoice,
    Phase,
    Play,
    PlayerView,
    Rules,
    iter_mask,
    read_position,
    trick_winner,
    view,
)
from hearts.players import play_game
from hearts.players.search.encode import rules_array
from hearts.players.search.kernel import (
    F_GAME_ENDS,
    F_GAME_LOST,
    F_MOON_AGAINST,
    F_MOON_MINE,
    F_POINTS,
    F_QUEEN,
    F_SIZE,
    POLICY_MOON,
    R_ROUNDS_LEFT,
    S_HANDS,
    S_TAKEN,
    S_TURN,
    evaluate_cards_solved,
    mix_seed,
    play_card,
    playout_recorded,
    playout_until,
    round_points,
    solve_round,
)
from hearts.players.search.player import CandidateFigures, SearchPlayer, distinct_cards
from hearts.players.standing import game_value

_MOST_HEARTS = "+".join(f"{rank}H" for rank in "23456789TJQK")
TABLES = [
    "card-commons:players=3",
    "standard",
    "classic:players=5",
    "standard:moon=shooter-choice,jack_of_diamonds=on",
    # with nearly every heart removed the moon is shot often
    f"standard:removed={_MOST_HEARTS},jack_of_diamonds=on,moon=shooter-choice",
    f"classic:players=3,removed=AH+{_MOST_HEARTS},hearts_lead=any-time",
]


@dataclass(frozen=True)
class Outcome:
    """A line's end as the core scores it: every seat's value, points, who shot the
    moon and who took the Q♠ (None: nobody)."""

    values: tuple[float, ...]
    points: tuple[int, ...]
    shooter: int | None
    queen: int | None


def _scored(state: GameState, totals: list[int], rounds_left: int | None,
            queen: int | None) -> Outcome:
    """The finished round's outcome; a shooter with the choice takes the one better for
    its game standing (subtracting on a tie), as the search assumes."""
    target = state.rules.target
    shooter: int | None
    if state.phase is Phase.MOON:
        chooser = state.to_act[0]
        by_choice = {choice: state.apply(ChooseMoon(chooser, choice)).results[-1].points
                     for choice in (MoonChoice.SUBTRACT, MoonChoice.ADD)}
        added = game_value(chooser, by_choice[MoonChoice.ADD], totals, target, rounds_left)
        subtracted = game_value(chooser, by_choice[MoonChoice.SUBTRACT], totals, target,
                                rounds_left)
        points = by_choice[MoonChoice.ADD if added > subtracted else MoonChoice.SUBTRACT]
        shooter = chooser
    else:
        result = state.results[-1]
        points, shooter = result.points, result.shooter
    values = tuple(game_value(seat, points, totals, target, rounds_left)
                   for seat in range(state.players))
    return Outcome(values, points, shooter, queen)


def _brute_force(state: GameState, totals: list[int], rounds_left: int | None) -> Outcome:
    """max^n over every legal card of the core, lowest card first, a seat keeping the
    first of equally good cards: the rest of the round as the solver should solve it."""
    seat = state.to_act[0]
    round_no = state.round_no
    best: Outcome | None = None
    for card in iter_mask(state.legal_cards(seat).mask):
        after = state.apply(Play(seat, card))
        if after.phase is Phase.PLAY and after.round_no == round_no:
            outcome = _brute_force(after, totals, rounds_left)
        else:
            cards = (*(int(c) for _, c in state.trick), int(card))
            winner = trick_winner(state.leader, cards, state.players)
            queen = winner if QUEEN_OF_SPADES in cards else next(
                (s for s in range(state.players) if QUEEN_OF_SPADES in state.taken(s)), None)
            outcome = _scored(after, totals, rounds_left, queen)
        if best is None or outcome.values[seat] > best.values[seat]:
            best = outcome
    assert best is not None
    return best


def _endgame(text: str, seed: int, cards: int, into_trick: int) -> GameState:
    """A random round-1 position with ``cards`` cards in the hand to play, ``into_trick``
    cards into its trick (fewer if the trick is shorter)."""
    rules = Rules.parse(text)
    deck = rules.deck.bit_count()
    plays = deck - rules.players * cards + into_trick % rules.players
    state = random_position(rules, seed, plays)
    assert state.phase is Phase.PLAY and len(state.hand(state.to_act[0])) <= cards
    return state


def _totals(rules: Rules, seed: int) -> list[int]:
    """Totals that make the game standing matter: some near the target, some not."""
    rng = random.Random(seed)
    return [rng.randrange(0, rules.target - 1) for _ in range(rules.players)]


@settings(max_examples=60, deadline=None)
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 10_000), cards=st.integers(1, 2),
       into_trick=st.integers(0, 5), rounds_left=st.sampled_from([None, 0, 1, 3]))
def test_the_solver_is_max_n_over_the_core(table: str, seed: int, cards: int,
                                           into_trick: int, rounds_left: int | None) -> None:
    """With two cards a hand or fewer, every seat's solved value equals the brute-force
    max^n over the core's legal cards, lines scored by the core, and the solved line's
    end scores the points that line scores."""
    state = _endgame(table, seed, cards, into_trick)
    totals = _totals(state.rules, seed)
    codes = rules_array(state.rules)
    codes[R_ROUNDS_LEFT] = -1 if rounds_left is None else rounds_left
    expected = _brute_force(state, totals, rounds_left)
    values = np.zeros(state.players, dtype=np.float64)
    taken = np.zeros(state.players, dtype=np.int64)
    position = kernel_position(state)
    kernel_totals = np.array(totals, dtype=np.int64)
    solve_round(position, codes, kernel_totals, values, taken)
    assert values == pytest.approx(expected.values, abs=1e-9)
    position[S_TAKEN:S_TAKEN + state.players] = taken
    points = np.zeros(state.players, dtype=np.int64)
    round_points(position, codes, kernel_totals, points)
    assert tuple(points) == expected.points


@settings(max_examples=25, deadline=None)
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 10_000), cards=st.integers(2, 3),
       into_trick=st.integers(0, 5))
def test_a_known_world_gives_each_candidate_its_solved_line(table: str, seed: int, cards: int,
                                                            into_trick: int) -> None:
    """In a world with every hand known (nothing left to sample), a candidate's utility
    and every figure are those of the brute-force line after playing it: my points, the
    Q♠, a moon by me or another seat, the game's end and its loss."""
    state = _endgame(table, seed, cards, into_trick)
    rules = state.rules
    me = state.to_act[0]
    totals = [rules.target - 8 - 5 * seat for seat in range(state.players)]
    candidates = distinct_cards(view(state, me))
    hands = np.array([state.hand(seat).mask for seat in range(state.players)], dtype=np.int64)
    need = np.array([len(state.hand(seat)) for seat in range(state.players)], dtype=np.int64)
    sums = np.zeros(len(candidates), dtype=np.float64)
    figures = np.zeros((len(candidates), F_SIZE), dtype=np.float64)
    nodes = np.zeros(2, dtype=np.int64)
    assert evaluate_cards_solved(kernel_position(state), rules_array(rules), np.array(totals),
                                 me, np.array(candidates, dtype=np.int64), 0, need,
                                 np.zeros(state.players, dtype=np.int64), hands, 0, 1, seed,
                                 POLICY_MOON, cards, sums, figures, nodes)
    for i, card in enumerate(candidates):
        after = state.apply(Play(me, card))
        if after.phase is not Phase.PLAY or after.round_no != state.round_no:
            continue  # the round ended with my card: nothing was solved
        line = _brute_force(after, totals, None)
        ends = any(t + p >= rules.target for t, p in zip(totals, line.points, strict=True))
        mine = totals[me] + line.points[me]
        lost = ends and mine != min(t + p for t, p in zip(totals, line.points, strict=True))
        assert sums[i] == pytest.approx(line.values[me], abs=1e-9)
        row = figures[i]
        assert (row[F_POINTS], row[F_QUEEN], row[F_MOON_MINE], row[F_MOON_AGAINST],
                row[F_GAME_ENDS], row[F_GAME_LOST]) == (
            line.points[me], line.queen == me, line.shooter == me,
            line.shooter not in (None, me), ends, lost)
    assert nodes[1] >= 1 and nodes[0] >= nodes[1]


@settings(max_examples=40, deadline=None)
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 10_000), plays=st.integers(0, 40),
       cards=st.integers(1, 5))
def test_the_tail_playout_stops_at_the_solved_hand_size(table: str, seed: int, plays: int,
                                                        cards: int) -> None:
    """The playout before a solve plays the cards a whole playout from the same randomness
    plays, and stops at the first turn where the seat to play (so every seat) holds at
    most ``solve`` cards, or at the round's end."""
    state = random_position(Rules.parse(table), seed, plays)
    codes = rules_array(state.rules)
    players = state.players
    position = kernel_position(state)
    replay = position.copy()
    played = np.zeros(60, dtype=np.int64)
    legal = np.zeros(60, dtype=np.int64)
    count = playout_recorded(position.copy(), codes, POLICY_MOON,
                             np.array([mix_seed(seed, 1)], dtype=np.int64), played, legal)
    over = playout_until(position, codes, POLICY_MOON,
                         np.array([mix_seed(seed, 1)], dtype=np.int64), cards)
    done = sum(int(h).bit_count() for h in replay[S_HANDS:S_HANDS + players]) - sum(
        int(h).bit_count() for h in position[S_HANDS:S_HANDS + players])
    for card in played[:done]:
        assert int(replay[S_HANDS + replay[S_TURN]]).bit_count() > cards
        play_card(replay, codes, int(card))
    assert list(replay) == list(position)
    if over:
        assert done == count
    else:
        assert all(int(h).bit_count() <= cards for h in position[S_HANDS:S_HANDS + players])


# (solve, root): the tail variant, the root variant, and both at once
SIZES = [(3, 0), (0, 3), (2, 4)]


@pytest.mark.parametrize(("solve", "root"), SIZES)
@pytest.mark.parametrize("text", ["standard:target=40", "card-commons:players=3,target=40",
                                  "classic:players=5,target=40,jack_of_diamonds=on"])
def test_whole_games_with_the_solver_are_legal(text: str, solve: int, root: int) -> None:
    """Whole games of solving players through the core: every card they play is legal
    (the core refuses any other), and they solved endgames along the way."""
    rules = Rules.parse(text)
    players = [_CountingChoices(seat, level="expert", iterations=8, solve=solve, root=root)
               for seat in range(rules.players)]
    final = play_game(rules, players, seed=f"solve-{solve}-{root}")
    assert final.phase is Phase.OVER
    assert any(player.solves for player in players)
    # a seat solves at every choice once a solve can reach it (a seat may have none)
    assert all(player.solves > 0 and player.solve_nodes >= player.solves
               for player in players if player.choices)


class _CountingChoices(SearchPlayer):
    """Counts its plays with a choice made where a solve applies: with ``root``, from
    that hand size; with only a tail ``solve``, every one (its playouts end solved)."""

    choices = 0

    def choose_play(self, view: PlayerView) -> Card:
        if len(distinct_cards(view)) > 1 and (not self.root or len(view.hand) <= self.root):
            self.choices += 1
        return super().choose_play(view)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), plays=st.integers(0, 46), sizes=st.sampled_from(SIZES),
       table=st.sampled_from(TABLES[:3]))
def test_figures_are_filled_and_reproducible(seed: int, plays: int, sizes: tuple[int, int],
                                             table: str) -> None:
    """Every candidate's figures are filled from its worlds (chances between 0 and 1, the
    worlds counted), and the same seed gives the same figures to the last bit."""
    state = random_position(Rules.parse(table), seed, plays)
    seen = view(state, state.to_act[0])
    cards = distinct_cards(seen)

    def figures() -> list[CandidateFigures]:
        player = SearchPlayer(random.Random(seed), level="expert", iterations=10,
                              solve=sizes[0], root=sizes[1])
        return player.card_figures(seen, cards)

    first = figures()
    assert first == figures()
    for row in first:
        assert row.worlds == 10 and math.isfinite(row.utility) and math.isfinite(row.points)
        assert all(0.0 <= p <= 1.0 for p in (row.queen, row.moon_mine, row.moon_against,
                                             row.game_ends, row.game_lost))


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), plays=st.integers(0, 46), table=st.sampled_from(TABLES))
def test_root_solving_leaves_bigger_hands_to_the_other_search(seed: int, plays: int,
                                                              table: str) -> None:
    """``root=4`` searches a decision with more than 4 cards in hand exactly as the search
    without it does (flat, or with ``solve=2`` tails); with 4 cards or fewer it solves each
    world from the start, which is what a tail size of 4 does there."""
    state = random_position(Rules.parse(table), seed, plays)
    seen = view(state, state.to_act[0])
    cards = distinct_cards(seen)

    def figures(solve: int, root: int) -> list[CandidateFigures]:
        player = SearchPlayer(random.Random(seed), level="expert", iterations=6, solve=solve,
                              root=root)
        return player.card_figures(seen, cards)

    for tail in (0, 2):
        if len(seen.hand) > 4:
            assert figures(tail, 4) == figures(tail, 0)
        else:
            assert figures(tail, 4) == figures(4, 0)


def test_options_reach_the_player_and_bad_ones_are_refused() -> None:
    """``expert:solve=2,root=4`` reaches the player; negative sizes and a mix with the
    tree search are refused, saying what is allowed."""
    player = build_player(BotSpec.parse("expert:solve=2,root=4,iterations=5"),
                          seat=0, rules=Rules.parse("standard"), seed="solve")
    assert isinstance(player, SearchPlayer)
    assert (player.solve, player.root) == (2, 4)
    assert (SearchPlayer(1).solve, SearchPlayer(1).root) == (0, 0)
    with pytest.raises(ValueError, match="at least 0"):
        SearchPlayer(1, solve=-1)
    with pytest.raises(ValueError, match="at least 0"):
        SearchPlayer(1, root=-1)
    with pytest.raises(ValueError, match="do not combine"):
        SearchPlayer(1, solve=3, tree=4)
    with pytest.raises(ValueError, match="do not combine"):
        SearchPlayer(1, root=3, lookahead="others")


# Three tricks left; seat 0 (8♣ 9♦ 9♥ in hand, to lead) has taken every heart played so
# far. After a 9♦ lead the playout policy lets it take every point card (a moon); played
# well, seats 1 and 2 throw the Q♠ and Q♥ on the 9♦, seat 3 wins the 9♥ with its 10♥,
# and seat 0 ends with 21 points. The 8♣ or the 9♥ first leaves it 7.
FAILING_MOON = ("standard 1 0,0,0,0 8C9D9H/QS7HJH/AC3SQH/3D2HTH 5C4SKS/9CTCAS/2DAD6H/2C9S9H "
                "0:2C6CTC3C/2:ASTSJS8S/2:7S2S9SKS/1:7D6D8D5D/3:4DTDKDJD/1:4S6SAD5S/"
                "2:9CQC7C5C/3:2DQD8H3H/0:KC4CJC6H/0:AHKH4H5H 0")


def test_the_solver_sees_the_moon_fail_where_the_playout_lets_it_through() -> None:
    """In a known world, the solved search values each of seat 0's cards as the core's
    brute-force max^n does (no moon after the 9♦), and so does not play the 9♦ that
    only a misplayed defence lets through for a moon."""
    state = read_position(FAILING_MOON)
    me = state.to_act[0]
    candidates = distinct_cards(view(state, me))
    assert candidates == [Card("8C"), Card("9D"), Card("9H")]
    totals = [0] * state.players
    hands = np.array([state.hand(seat).mask for seat in range(state.players)], dtype=np.int64)
    sums = np.zeros(len(candidates), dtype=np.float64)
    figures = np.zeros((len(candidates), F_SIZE), dtype=np.float64)
    evaluate_cards_solved(kernel_position(state), rules_array(state.rules), np.array(totals), me,
                          np.array(candidates, dtype=np.int64), 0,
                          np.array([len(state.hand(s)) for s in range(state.players)]),
                          np.zeros(state.players, dtype=np.int64), hands, 0, 1, 0,
                          POLICY_MOON, 3, sums, figures, np.zeros(2, dtype=np.int64))
    lines = [_brute_force(state.apply(Play(me, card)), totals, None) for card in candidates]
    assert list(sums) == pytest.approx([line.values[me] for line in lines], abs=1e-9)
    assert [line.points[me] for line in lines] == [7, 21, 7]
    assert list(figures[:, F_POINTS]) == [7, 21, 7] and not figures[:, F_MOON_MINE].any()
    assert candidates[int(np.argmax(sums))] == Card("9H")


def test_no_solving_decision_waits_for_numba() -> None:
    """Making a solving player loads the solver with the types decisions use, so no
    decision pays for loading or compiling it."""
    players = [SearchPlayer(seat, level="hard", iterations=5, solve=2) for seat in range(4)]
    before = set(evaluate_cards_solved.signatures)  # type: ignore[attr-defined]
    play_game(Rules.parse("classic:target=60"), players, seed="warm")
    assert set(evaluate_cards_solved.signatures) == before  # type: ignore[attr-defined]
