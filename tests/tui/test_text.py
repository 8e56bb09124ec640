"""How the faces write a hint: its line and the search's figures for its candidates."""

from __future__ import annotations

import pytest

import hearts.players.hints
from hearts.core import (
    SUIT_SYMBOLS,
    CardSet,
    PassCards,
    Phase,
    PlayerView,
    Rules,
    new_game,
    view,
)
from hearts.players import decide, make_player
from hearts.players.hints import chance_percent, shown_chances
from hearts.players.search.player import CandidateFigures, alike_runs, distinct_cards
from hearts.tui.text import HintText, TextStyle, figures_table, figures_text, written_hint


def figures(cards: str, utility: float, points: float, queen: float = 0.0,
            moon_against: float = 0.0, game_ends: float = 0.0,
            game_lost: float = 0.0, alike: str = "") -> CandidateFigures:
    return CandidateFigures(CardSet.parse(cards), utility, points, queen, 0.0, moon_against,
                            game_ends, game_lost, worlds=400, alike=CardSet.parse(alike))


def table(candidates: list[CandidateFigures], style: TextStyle) -> list[str]:
    return figures_table(candidates, shown_chances(candidates), style).splitlines()


def test_every_candidate_is_a_row_and_only_the_chances_that_show_are_columns() -> None:
    assert table([figures("TH", 3.4, 2.0, queen=0.04, moon_against=0.004),
                  figures("3H", -17.06, 26.0, moon_against=1.0, game_lost=0.004)],
                 TextStyle()) == [
        "move  value  points  Q♠  others' moon",
        "10♥    +3.4     2.0  4%            0%",
        "3♥    -17.1    26.0  0%          100%"]


def test_a_hand_that_can_end_the_game_shows_its_chance_of_losing_it_even_at_zero() -> None:
    assert table([figures("QS AH KH", 1.0, 5.0, game_ends=0.5),
                  figures("2C 3C 4C", 0.5, 6.0)], TextStyle(plain=True)) == [
        "move      value  points  game lost",
        "QS KH AH   +1.0     5.0         0%",
        "2C 3C 4C   +0.5     6.0         0%"]


@pytest.mark.parametrize(("chance", "percent"), [
    (0.0, 0), (0.0049, 0), (0.005, 1), (0.125, 13), (0.145, 15), (0.285, 29), (0.565, 57),
    (0.995, 100), (1.0, 100)])
def test_a_chance_shows_as_its_whole_percent_with_halves_rounded_up(
        chance: float, percent: int) -> None:
    assert chance_percent(chance) == percent
    assert table([figures("TH", 1.0, 2.0, queen=chance)], TextStyle())[-1].endswith(
        f"  {percent}%") or percent == 0


def test_losing_the_game_is_a_column_only_when_the_game_ends_in_a_percent_of_the_deals(
        ) -> None:
    rare = [figures("TH", 1.0, 2.0, game_ends=1 / 71_429), figures("3H", 0.5, 3.0)]
    assert shown_chances(rare) == ()
    assert shown_chances([figures("TH", 1.0, 2.0, game_ends=0.005),
                          figures("3H", 0.5, 3.0)]) == ("game_lost",)


def test_a_card_that_plays_alike_is_named_in_the_row_of_the_one_weighed() -> None:
    """The search weighs one card of a run that plays alike; the table dropped the rest."""
    rows = figures_table([figures("9C", -14.7, 12.8, queen=0.51, alike="TC"),
                          figures("KC", -19.4, 14.8, queen=0.65)], ("queen",),
                         TextStyle()).splitlines()
    assert rows == ["move        value  points   Q♠",
                    "9♣ (= 10♣)  -14.7    12.8  51%",
                    "K♣          -19.4    14.8  65%"]


def test_the_figures_say_what_each_column_shown_means() -> None:
    candidates = [figures("9C", -14.7, 12.8, queen=0.51, moon_against=0.01, alike="TC"),
                  figures("KC", -19.4, 14.8, queen=0.65)]
    chances = shown_chances(candidates)
    legend = figures_text(candidates, chances, TextStyle())[-1]
    assert legend.startswith("value: what the search maximises, in points: ")
    assert legend.endswith(" chance of winning the game. points: the points you take this "
                           "round, on average; Q♠: the chance that you take the Q♠; others' "
                           "moon: the chance that another player shoots the moon; (= …): "
                           "cards that play alike, weighed as one.")
    alone = figures_text([figures("9C", -14.7, 12.8, queen=0.51, moon_against=0.01),
                          candidates[1]], chances, TextStyle(plain=True))[-1]
    assert "(= …)" not in alone and "QS: the chance that you take the QS" in alone


def test_a_written_play_hint_shows_every_legal_card_among_its_figures() -> None:
    state = new_game(Rules.parse("standard"), seed="g2")
    players = [make_player("random", f"alike/{seat}") for seat in range(4)]
    while True:  # to a play of seat 0's in which the search weighs one card for several
        seat = state.to_act[0]
        seen = view(state, seat)
        if seat == 0 and seen.phase is Phase.PLAY and \
                1 < len(distinct_cards(seen)) < len(seen.legal):
            break
        state = state.apply(decide(players[seat], seen))
    table = written_hint(seen, TextStyle()).figures[1]
    assert all(card.pretty in table for card in seen.legal), (seen.legal, table)
    runs = alike_runs(seen)  # the search's own runs: one row each, its other cards named
    assert list(runs) == distinct_cards(seen) and len(table.splitlines()) == 1 + len(runs)
    covered = [card for lowest, rest in runs.items() for card in (lowest, *rest)]
    assert sorted(covered) == list(seen.legal)  # every legal card in exactly one run


def pass_view() -> PlayerView:
    return view(new_game(Rules.parse("standard"), seed="written-hint"), 0)


def test_a_written_hint_names_the_move_its_reason_and_every_candidates_figures() -> None:
    found = written_hint(pass_view(), TextStyle(plain=True))
    assert isinstance(found.action, PassCards) and found.action.seat == 0
    assert found.line.startswith("Hint: pass ")
    assert found.figures[0].startswith("The search's figures over the same ")
    assert found.figures[1].splitlines()[0].startswith("move ")
    assert not set(found.line + "".join(found.figures)) & set(SUIT_SYMBOLS)  # plain letters


def test_a_failing_hint_comes_back_as_a_line_that_says_so(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(seen: PlayerView) -> None:
        raise ValueError("no search for Q♠ today")

    monkeypatch.setattr(hearts.players.hints, "hint", fail)
    assert written_hint(pass_view(), TextStyle(plain=True)) == HintText(
        None, "Hints unavailable: no search for QS today")


def test_a_message_writes_its_cards_as_the_screen_does() -> None:
    """The core's refusals name cards in letters ("KS cannot be played") while the hand
    shows symbols; a plain screen writes letters throughout."""
    said = "KS cannot be played; 10H, TD and QS; AS"
    assert TextStyle().text(said) == "K♠ cannot be played; 10♥, 10♦ and Q♠; A♠"
    assert TextStyle(plain=True).text("K♠ and 10♥") == "KS and 10H"
    assert TextStyle().text("ASK the KSA") == "ASK the KSA"  # only whole card names
