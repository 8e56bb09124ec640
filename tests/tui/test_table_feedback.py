"""What the terminal says back to a player (helper-53's audit, played in tmux): a hint
that comes too late, the last trick left on, a screen too small, a hold round, the sheets'
newest rounds, the replay's keys and the start screen's way out; then helper-57's: the
cards received in the pass, Escape in the moon choice, the rule options at the start."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from test_play import QUICK, screen_text, settle, step, to_moon_choice
from test_replay_viewer import SIZE, a_game
from textual.app import App
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Button, Input, Select, Static

from hearts.core import Phase, Rules, Sheet, hand_record, replay_game
from hearts.replay import build_replay
from hearts.tui import game as game_module
from hearts.tui.app import HeartsApp
from hearts.tui.dialogs import GameOverScreen, MoonScreen, TextScreen, sheet_screen
from hearts.tui.game import GameScreen
from hearts.tui.replay_app import KEYS_HELP, ReplayApp, _verb
from hearts.tui.session import HUMAN, GameSession, GameSettings
from hearts.tui.start import StartScreen
from hearts.tui.text import TextStyle
from hearts.tui.widgets import CardCell


async def test_a_hint_that_comes_after_the_move_is_dropped_not_shown_for_the_next(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A pass hint that arrived once the pass was made showed in the play, its cards
    marked, and h only reopened it."""
    release = threading.Event()
    found = game_module.written_hint

    def late_hint(*args: Any) -> Any:
        release.wait(30)
        return found(*args)

    monkeypatch.setattr(game_module, "written_hint", late_hint)
    app = HeartsApp(session=GameSession(QUICK))
    async with app.run_test(size=(80, 24)) as pilot:
        session = app.game
        assert session is not None
        await pilot.pause()
        while not (session.human_view().my_turn and session.human_view().phase is Phase.PASS):
            await pilot.pause()
        await pilot.press("h")  # thinking...
        await pilot.press("enter", "right", "enter", "right", "enter", "p")  # passes first
        release.set()
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        assert session.human_view().phase is Phase.PLAY
        assert "Hint: pass" not in screen_text(app) and not screen.chosen


async def test_the_last_trick_shown_gives_way_to_the_next_trick() -> None:
    app = HeartsApp(session=GameSession(GameSettings(rules="card-commons:target=200",
                                                     seed="4", speed="instant")))
    async with app.run_test(size=(80, 24)) as pilot:
        session = app.game
        assert session is not None
        while not session.human_view().tricks:
            await step(app, pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.press("l")
        assert screen.show_last
        tricks = len(session.human_view().tricks)
        while not (len(session.human_view().tricks) == tricks and session.human_view().trick):
            await step(app, pilot)
        assert not screen.show_last


async def test_a_hold_round_is_said_when_it_is_dealt() -> None:
    settings = GameSettings(rules="card-commons:pass_cycle=left/hold,target=200", seed="2",
                            speed="instant")
    app = HeartsApp(session=GameSession(settings))
    async with app.run_test(size=(80, 24)) as pilot:
        session = app.game
        assert session is not None
        while session.state.round_no < 2:
            await step(app, pilot)
        await settle(app, pilot)
        if isinstance(app.screen, TextScreen):  # round 1's sheet
            await pilot.press("enter")
            await settle(app, pilot)
        assert "Round 2 is dealt: no passing this round." in screen_text(app)


@pytest.mark.parametrize("size", [(60, 20), (79, 24), (80, 23)])
async def test_a_terminal_too_small_for_the_table_is_said_in_the_status_line(
        size: tuple[int, int]) -> None:
    app = HeartsApp(session=GameSession(QUICK))
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        status = str(app.screen.query_one("#status").render())
        assert f"The terminal is {size[0]}×{size[1]}; the table needs 80×24" in status
    app = HeartsApp(session=GameSession(QUICK))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        assert "The terminal is" not in str(app.screen.query_one("#status").render())


def _long_sheet() -> Sheet:
    sheet = Sheet(Rules.parse("card-commons:target=1000"), ("Ann", "Bo", "Cy", "Di"))
    for _ in range(20):
        sheet = sheet.add_round(points=(13, 13, 0, 0))
    return sheet


@pytest.mark.parametrize("kind", ["sheet", "game over"])
async def test_a_long_score_sheet_opens_at_its_newest_rounds(kind: str) -> None:
    """Past about twelve rounds the round's sheet and the game-over sheet hid the newest
    rounds, the final totals among them."""
    sheet = _long_sheet()
    style = TextStyle(plain=False)
    dialog = (sheet_screen("Round 20 is over", sheet.results, sheet.names, style)
              if kind == "sheet" else
              GameOverScreen(sheet.results, sheet.names, (2, 3), None, style))
    app: App[None] = App()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(dialog)
        await pilot.pause()
        await pilot.pause()
        scroll = dialog.query_one(VerticalScroll)
        assert scroll.max_scroll_y > 0 and scroll.scroll_y == scroll.max_scroll_y


async def test_the_keys_help_opens_at_its_top() -> None:
    app: App[None] = App()
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = TextScreen("Keys", game_module.KEYS_HELP)
        await app.push_screen(dialog)
        await pilot.pause()
        assert dialog.query_one(VerticalScroll).scroll_y == 0
    assert max(map(len, game_module.KEYS_HELP.splitlines())) <= 72  # no wrap in the dialog


async def test_replay_escape_closes_the_round_box_and_question_mark_lists_the_keys() -> None:
    app = ReplayApp(build_replay(hand_record(replay_game(a_game()), 1)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("g")
        box = app.query_one("#round-input", Input)
        assert box.has_class("open") and box.has_focus
        await pilot.press("escape")  # once quit the whole replay
        assert app.is_running and not box.has_class("open")
        await pilot.press("question_mark")
        assert isinstance(app.screen, TextScreen) and "Home, End" in app.screen.body
        await pilot.press("escape")
        await pilot.press("escape")  # with no box open, Escape quits
        await pilot.pause()
    assert not app.is_running


async def test_the_replay_status_keeps_one_line_each_cut_short_not_wrapped() -> None:
    """At the last move "…; game over, won by Right" wrapped onto the next line and pushed
    the analysis's line out of the status."""
    app = ReplayApp(build_replay(a_game()))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("end")
        await pilot.pause()
        status = app.query_one("#status")
        lines = [strip.text.rstrip() for strip in status.render_lines(status.region.reset_offset)]
        assert "game over" in lines[0] and lines[0].endswith("…"), lines
        assert "No analysis" in lines[2], lines  # the mark's line (none here), then this


def test_the_replay_says_you_play_and_another_seat_plays() -> None:
    assert [_verb("You", v) for v in ("plays", "passes", "chooses", "takes")] == [
        "play", "pass", "choose", "take"]
    assert _verb("Ann", "passes") == "passes"


async def test_the_start_screen_shows_a_way_out() -> None:
    """Its footer offered Resume and Start alone, and q and Escape did nothing."""
    app = HeartsApp()
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, StartScreen)
        shown = {(key, binding.description) for key, (_, binding, enabled, _)
                 in app.screen.active_bindings.items() if binding.show and enabled}
        assert ("escape", "Quit") in shown
        target = app.screen.query_one("#target", Input)
        target.focus()
        await pilot.press("5", "escape")  # leaves the box being typed in, not the game
        assert app.is_running and not target.has_focus
        await pilot.press("escape")
        await pilot.pause()
    assert not app.is_running


async def test_a_pass_two_seats_away_reads_whole_in_the_status_and_the_middle() -> None:
    """"pass 3 2 to the left" once read as two numbers, and the middle of the table cut
    the line naming the seat that gets the pass."""
    settings = GameSettings(rules="classic:players=5,pass_cycle=+2/hold", seed="1",
                            speed="instant", levels=(HUMAN, *["random"] * 4))
    app = HeartsApp(session=GameSession(settings))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        seen = screen.session.human_view()
        assert seen.pass_direction == "2 to the left" and seen.pass_target is not None
        assert "pass 3 cards 2 to the left" in str(screen.query_one("#status").render())
        note = str(screen.query_one("#trick-note").render())
        assert note == f"Pass 3 cards\nto {screen.session.names[seen.pass_target]}"


def test_the_replay_keys_help_names_every_key_it_binds() -> None:
    """The list is written by hand beside the bindings; a key bound and not listed is one
    nobody finds (Home, End, p and m hid from the footer before the list existed)."""
    written = {"right": "Right", "left": "Left", "down": "Down", "up": "Up",
               "pagedown": "PgDn", "pageup": "PgUp", "home": "Home", "end": "End",
               "escape": "Escape", "question_mark": "?"}
    help_keys = {line.split("  ")[0] for line in KEYS_HELP.splitlines()}
    listed = {key.strip() for keys in help_keys for key in keys.split(",")}
    for binding in ReplayApp.BINDINGS:
        assert isinstance(binding, Binding)
        for key in binding.key.split(","):
            assert written.get(key, key) in listed, key


def _received_cells(screen: GameScreen) -> dict[str, CardCell]:
    return {cell.card.pretty: cell for cell in screen.query(CardCell)
            if cell.display and cell.has_class("received")}


async def test_the_cards_received_in_the_pass_stay_in_sight_until_your_first_play() -> None:
    """What the pass brought was one line of the event log: a long hint or two messages
    pushed it out at once, a resumed game never said it, and the cursor on a received
    card hid its underline."""
    app = HeartsApp(session=GameSession(QUICK))
    async with app.run_test(size=(80, 24)) as pilot:
        session = app.game
        assert session is not None
        while not (session.human_view().my_turn and session.human_view().phase is Phase.PLAY):
            await step(app, pilot)  # the pass, then the others' plays up to yours
        await settle(app, pilot)
        seen = session.human_view()
        assert seen.received is not None and seen.pass_source is not None
        said = f"received {TextStyle().cards(seen.received)} from " \
            f"{session.names[seen.pass_source]}."
        screen = app.screen
        assert isinstance(screen, GameScreen)
        screen.say("It is not your turn.")
        screen.say("Not allowed: you must follow suit.")
        screen.show_hint(screen.generation, "Hint: play it. " + "reason " * 40, None)
        await pilot.pause()
        events = str(screen.query_one("#events").render())
        assert said in events and events.endswith(" … h: all of it")
        received = _received_cells(screen)
        assert set(received) == {card.pretty for card in seen.received}
        screen.cursor = next(iter(seen.received))
        await pilot.pause()
        under_cursor = received[screen.cursor.pretty].rich_style
        assert under_cursor.reverse and under_cursor.underline
    resumed = GameSession.resume()  # saved on the human's first play, not yet made
    assert resumed is not None
    app = HeartsApp(session=resumed)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        assert said in screen_text(app) and _received_cells(screen)
        screen.cursor = next(iter(resumed.human_view().legal))
        await pilot.press("enter")  # the first play: what arrived has been acted on
        await settle(app, pilot)
        assert said not in screen_text(app) and not _received_cells(screen)


async def test_escape_in_the_moon_choice_leaves_it_for_later_and_enter_asks_again() -> None:
    """The shooter's choice had no way out: Escape did nothing and no key said so."""
    async with to_moon_choice() as (session, app, pilot):
        assert str(app.screen.query_one("#later", Button).label) == "Not yet (Esc)"
        await pilot.press("escape")
        await settle(app, pilot)
        assert isinstance(app.screen, GameScreen)  # the table, the choice still to make
        assert session.state.phase is Phase.MOON and session.human_view().my_turn
        prompt = str(app.screen.query_one("#prompt", Static).render())
        assert prompt == "You shot the moon: Enter chooses how it scores."
        await pilot.press("s")  # look at the sheet before choosing
        assert isinstance(app.screen, TextScreen)
        await pilot.press("enter", "enter")  # close the sheet, then ask again
        assert isinstance(app.screen, MoonScreen)
        await pilot.press("a")
        await settle(app, pilot)
        assert session.state.results[-1].points == (26, 0, 26, 26)


async def test_the_start_screen_shows_the_rule_options_given_beyond_the_preset() -> None:
    """``hearts play --rules standard:rounds=8`` showed "standard" alone, though the game
    kept the option."""
    app = HeartsApp(GameSettings(rules="standard:moon=shooter-choice,rounds=8",
                                 speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, StartScreen)

        def shown() -> str:
            return "\n".join(str(w.render()) for w in screen.query(Static) if w.display)

        assert "Options: moon=shooter-choice, rounds=8." in shown()
        screen.query_one("#preset", Select).value = "classic"
        await pilot.pause()
        assert "Options moon=shooter-choice, rounds=8 are for standard with 4 players; " \
            "this game plays classic's own." in shown()
        screen.query_one("#preset", Select).value = "standard"
        await pilot.pause()
        assert "Options: moon=shooter-choice, rounds=8." in shown()
        await pilot.click("#start")
        await settle(app, pilot)
        session = app.game
        assert session is not None and session.rules.rounds == 8


async def test_a_refused_card_is_said_as_one_sentence() -> None:
    """It read "Not allowed: 5♦ cannot be played: you must follow suit." (the text game
    and the full screen now share :func:`hearts.wording.sentence`)."""
    app = HeartsApp(session=GameSession(QUICK))
    async with app.run_test(size=(80, 24)) as pilot:
        session = app.game
        assert session is not None

        def refusable() -> bool:
            seen = session.human_view()
            return seen.my_turn and seen.phase is Phase.PLAY and seen.legal != seen.hand

        while not refusable():
            await step(app, pilot)
        await settle(app, pilot)
        seen = session.human_view()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        card = next(c for c in seen.hand if c not in seen.legal)
        screen.choose_card(card)
        await settle(app, pilot)
        said = str(screen.query_one("#events").render()).splitlines()
        refusal = next(line for line in said if "cannot be played" in line)
        assert refusal.startswith(f"{card.pretty} cannot be played: ") and \
            refusal.endswith(".") and refusal.count(":") == 1, said
