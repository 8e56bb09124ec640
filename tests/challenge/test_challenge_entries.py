"""Playing a challenge and checking an entry: the same code gives the same deals and the
same computer moves; a real play is accepted with its points; every kind of forgery is
refused, naming the first difference; the leaderboard ranks the entries."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from hearts.challenge import (
    Challenge,
    ChallengeError,
    ChallengeResult,
    ForgedEntryError,
    check_entry,
    leaderboard,
)
from hearts.core import (
    CardSet,
    ChooseMoon,
    Deal,
    GameState,
    MoonChoice,
    PassCards,
    Play,
    deal_hands,
    encode_card,
    game_record,
    new_game,
    view,
)
from hearts.players import decide, make_player
from hearts.players.driver import run_game

# Every kind of opponent, the searching ones with few worlds to stay quick.
CHALLENGE = Challenge.create("card-commons", ["random", "normal", "expert"], 2, "same1",
                             iterations=24)
NAMES = ["Ada", "Left", "Across", "Right"]


def play(challenge: Challenge, challenger_seed: int, state: GameState | None = None
         ) -> GameState:
    """The challenge played to its end by a seeded computer in seat 0 (from ``state``)."""
    seats = [make_player("random", challenger_seed),
             *(challenge.computer(seat) for seat in range(1, challenge.players))]
    return run_game(state or challenge.new_game(), seats)


@pytest.fixture(scope="module")
def played() -> GameState:
    return play(CHALLENGE, challenger_seed=1)


@pytest.fixture
def record(played: GameState) -> dict[str, Any]:
    return game_record(played, NAMES)


# ----------------------------------------------------------------- the same for all
def test_the_same_code_deals_the_same_cards_as_its_seeded_game() -> None:
    again = Challenge.parse(CHALLENGE.code)
    first = again.new_game()
    assert first.history == CHALLENGE.new_game().history
    assert first.history == new_game(CHALLENGE.rules, "same1").history
    assert first.deal_seed == CHALLENGE.round_seed(1)
    other = Challenge.create("card-commons", ["random", "normal", "expert"], 2, "same2", 24)
    assert other.new_game().history != first.history


def test_every_round_is_dealt_from_the_round_seed(played: GameState) -> None:
    deals = [action for action in played.history if isinstance(action, Deal)]
    assert [deal.seed for deal in deals] == [CHALLENGE.round_seed(1), CHALLENGE.round_seed(2)]
    for deal in deals:
        assert tuple(hand.mask for hand in deal.hands) == deal_hands(CHALLENGE.rules, deal.seed)


def test_the_same_view_gets_the_same_action_from_every_opponent(played: GameState) -> None:
    """Asked again, in another order, by a challenge parsed from the code: the same."""
    again = Challenge.parse(CHALLENGE.code)
    state = CHALLENGE.new_game()
    seen: list[tuple[int, Any, Any]] = []
    for action in played.history[1:]:
        seat = getattr(action, "seat", 0)
        if not isinstance(action, Deal) and seat != 0:
            seen.append((seat, view(state, seat), action))
        state = state.apply(action)
    assert {seat for seat, _, _ in seen} == {1, 2, 3}
    for seat, before, action in reversed(seen):
        assert decide(again.computer(seat), before) == action


def test_an_opponent_answers_only_for_its_own_seat() -> None:
    state = CHALLENGE.new_game()
    with pytest.raises(ChallengeError, match="this is seat 1's opponent, shown seat 2's view"):
        decide(CHALLENGE.computer(1), view(state, 2))
    with pytest.raises(ChallengeError, match="the computer seats are 1 to 3, not 0"):
        CHALLENGE.computer(0)


# ------------------------------------------------------------------ true plays
def test_a_real_play_is_accepted_with_the_challengers_points(played: GameState,
                                                              record: dict[str, Any]) -> None:
    result = check_entry(CHALLENGE, record)
    assert result.name == "Ada" and result.complete
    assert result.points == tuple(r.points[0] for r in played.results)
    assert result.total == played.totals[0] and len(result.points) == 2
    assert check_entry(Challenge.parse(CHALLENGE.code), copy.deepcopy(record)) == result


def test_another_challenger_gets_other_answers_and_another_fingerprint(
        record: dict[str, Any]) -> None:
    other = play(CHALLENGE, challenger_seed=2)
    result = check_entry(CHALLENGE, game_record(other, NAMES))
    assert result.fingerprint != check_entry(CHALLENGE, record).fingerprint


def test_the_order_in_which_the_seats_pass_does_not_matter(played: GameState) -> None:
    """A server may take the computers' passes before the person's."""
    state = CHALLENGE.new_game()
    for seat in (3, 1, 2):
        state = state.apply(decide(CHALLENGE.computer(seat), view(state, seat)))
    mine = next(a for a in played.history if isinstance(a, PassCards) and a.seat == 0)
    final = play(CHALLENGE, challenger_seed=1, state=state.apply(mine))
    assert check_entry(CHALLENGE, game_record(final)).complete


def test_an_unfinished_play_is_accepted_as_unfinished(record: dict[str, Any]) -> None:
    cut = {key: value for key, value in record.items()
           if key not in ("complete", "totals", "winners")}
    cut["rounds"] = record["rounds"][:1]
    result = check_entry(CHALLENGE, cut)
    assert not result.complete and result.points == (record["rounds"][0]["points"][0],)


# --------------------------------------------------------------------- forgeries
def refused(record: dict[str, Any], says: str) -> None:
    with pytest.raises(ForgedEntryError, match=says):
        check_entry(CHALLENGE, record)


def test_a_changed_deal_card_is_refused(record: dict[str, Any]) -> None:
    hands = record["rounds"][1]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    refused(record, "round 2: the hands do not match deal seed")


def test_a_changed_computer_card_is_refused_though_the_rest_is_legal(played: GameState) -> None:
    """The record is a legal game, but seat 3 played another card than its own choice."""
    state = CHALLENGE.new_game()
    for action in played.history[1:]:
        if isinstance(action, Play) and action.seat == 3 and len(state.legal_cards(3)) > 1:
            other = next(c for c in state.legal_cards(3) if c != action.card)
            where = f"round {state.round_no}, trick {state.trick_no}, seat 3"
            forged = play(CHALLENGE, challenger_seed=1, state=state.apply(Play(3, other)))
            break
        state = state.apply(action)
    with pytest.raises(ForgedEntryError) as refusal:
        check_entry(CHALLENGE, game_record(forged, NAMES))
    assert str(refusal.value) == (f"{where}: the computer plays {action.card}, the record says "
                                  f"it plays {other}")


def test_a_changed_computer_pass_is_refused() -> None:
    state = CHALLENGE.new_game()
    chosen = decide(CHALLENGE.computer(1), view(state, 1))
    assert isinstance(chosen, PassCards)
    other = CardSet(list(state.hand(1) - chosen.cards)[:3])
    forged = play(CHALLENGE, challenger_seed=1, state=state.apply(PassCards(1, other)))
    with pytest.raises(ForgedEntryError) as refusal:
        check_entry(CHALLENGE, game_record(forged))
    assert str(refusal.value) == (f"round 1 (pass), seat 1: the computer passes {chosen.cards}, "
                                  f"the record says it passes {other}")


def test_a_changed_challenger_card_is_refused(played: GameState, record: dict[str, Any]
                                               ) -> None:
    """Another legal card in place of the challenger's: the rest of the record no longer
    follows (a later play is illegal, or a computer would have answered otherwise)."""
    state = CHALLENGE.new_game()
    index = 0  # the play's place among the round's plays
    for action in played.history[1:]:
        if isinstance(action, Play):
            if action.seat == 0 and len(state.legal_cards(0)) > 1:
                break
            index += 1
        state = state.apply(action)
    plays = record["rounds"][0]["plays"]
    assert state.round_no == 1 and plays[index] == encode_card(action.card)
    plays[index] = encode_card(next(c for c in state.legal_cards(0) if c != action.card))
    refused(record, "the record does not replay: illegal action|the computer")


def test_other_rules_are_refused(record: dict[str, Any]) -> None:
    record["rules"] = "card-commons:rounds=2"
    refused(record, "the record's rules are 'card-commons:rounds=2'; challenge .* is played "
                    "under 'card-commons:target=10000,rounds=2'")


def test_a_game_of_another_seed_is_refused() -> None:
    other = Challenge.create("card-commons", ["random", "normal", "expert"], 2, "same2", 24)
    record = game_record(play(other, challenger_seed=1), NAMES)
    refused(record, "the record's seed is 'same2'; challenge .* deals from seed 'same1'")
    record["seed"] = "same1"
    refused(record, "the record does not replay: round 1: the deal differs")


def test_a_truncated_record_claiming_to_be_complete_is_refused(record: dict[str, Any]) -> None:
    record["rounds"] = record["rounds"][:1]
    del record["totals"], record["winners"]
    refused(record, "record says complete=True, the rules give False")


def test_totals_going_in_are_refused(record: dict[str, Any]) -> None:
    record["scores"] = [-50, 0, 0, 0]
    del record["totals"], record["winners"]
    for entry in record["rounds"]:
        del entry["totals"]
    refused(record, "a challenge is played from round 1 with every total 0")


@pytest.mark.parametrize("thing", [[], "record", None, {"format": "card-commons-hearts/game"}])
def test_what_is_not_a_record_is_refused(thing: Any) -> None:
    with pytest.raises(ForgedEntryError):
        check_entry(CHALLENGE, thing)


# --------------------------------------------------------------------- leaderboard
def _result(name: str, points: tuple[int, ...], complete: bool = True) -> ChallengeResult:
    return ChallengeResult(name, points, sum(points), complete, name)


def test_the_leaderboard_ranks_complete_entries_ties_sharing_a_place() -> None:
    rows = leaderboard([_result("Cy", (5, 0)), _result("Al", (0, 9)),
                        _result("Bo", (13, -8)), _result("Dee", (0,), complete=False)])
    assert [(row.place, row.result.name, row.deal_places) for row in rows] == [
        (1, "Bo", (3, 1)), (1, "Cy", (2, 2)), (3, "Al", (1, 3))]
    assert leaderboard([_result("Dee", (0,), complete=False)]) == []


def _computer_moon() -> tuple[Challenge, GameState, ChooseMoon]:
    """The first of some classic challenges against two moon shooters in which a
    computer shoots the moon: the challenge, the state before its choice, the choice."""
    for number in range(300):
        challenge = Challenge.create("classic", ["shooter", "shooter"], 3, f"m{number}", 8)
        state = challenge.new_game()
        for action in play(challenge, challenger_seed=3).history[1:]:
            if isinstance(action, ChooseMoon) and action.seat != 0:
                return challenge, state, action
            state = state.apply(action)
    raise AssertionError("no computer shot the moon in 300 challenges")


def test_a_moon_choice_of_a_computer_is_checked_too() -> None:
    """Under classic rules a shooter chooses; a computer's choice is re-derived."""
    challenge, state, action = _computer_moon()
    assert check_entry(challenge, game_record(play(challenge, 3, state.apply(action)))).complete
    flipped = MoonChoice.ADD if action.choice is MoonChoice.SUBTRACT else MoonChoice.SUBTRACT
    forged = play(challenge, challenger_seed=3, state=state.apply(ChooseMoon(action.seat,
                                                                              flipped)))
    with pytest.raises(ForgedEntryError) as refusal:
        check_entry(challenge, game_record(forged))
    assert str(refusal.value).endswith(f"seat {action.seat}: the computer chooses "
                                       f"{action.choice.value} for the moon, the record says "
                                       f"it chooses {flipped.value} for the moon")
