"""The terminal card table: seats around, the trick in the middle, the hand along the
bottom, everything inside an 80×24 screen for 3 to 6 players; the hint player warmed up
at start; screenshots for a person to look at."""

from __future__ import annotations

import itertools
import textwrap
from pathlib import Path

import pytest
from test_play import settle, step
from textual.geometry import Region
from textual.widget import Widget
from textual.worker import WorkerState

from hearts.core import Phase
from hearts.tui.app import HeartsApp
from hearts.tui.dialogs import GameOverScreen, TextScreen
from hearts.tui.game import GameScreen
from hearts.tui.session import HUMAN, GameSession, GameSettings
from hearts.tui.widgets import CardCell, SeatView, seat_places

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"

TABLES = {2: "classic:players=2", 3: "card-commons:players=3", 4: "card-commons",
          5: "classic:players=5", 6: "classic:players=6"}


def settings_for(players: int, target: int | None = None, plain: bool = False) -> GameSettings:
    rules = TABLES[players] + ("" if target is None else f",target={target}"
                               if ":" in TABLES[players] else f":target={target}")
    return GameSettings(rules=rules, levels=(HUMAN, *["random"] * (players - 1)), seed="4",
                        speed="instant", plain=plain)


def game_screen(app: HeartsApp) -> GameScreen:
    screen = app.screen
    assert isinstance(screen, GameScreen)
    return screen


def assert_table_fits(app: HeartsApp) -> None:
    """Every seat, the trick and every card of the hand lie inside the screen, apart."""
    screen = game_screen(app)
    session = screen.session
    seen = session.human_view()
    whole = Region(0, 0, *app.size)
    seats = [seat for seat in screen.query(SeatView) if seat.seat is not None]
    assert sorted(seat.seat for seat in seats if seat.seat is not None) == \
        list(range(seen.players))
    trick = screen.query_one("#trick")
    boxes: list[Widget] = [*seats, trick]
    for box in boxes:
        assert box.region.area > 0 and whole.contains_region(box.region), box
    for one, other in itertools.combinations(boxes, 2):
        assert not one.region.overlaps(other.region), (one, other)
    cells = {cell.card: cell for cell in screen.query(CardCell)}
    for card in seen.hand:
        region = cells[card].region
        assert region.width >= len(card.pretty) and whole.contains_region(region), card
        assert not any(region.overlaps(box.region) for box in boxes)
    for seat in seats:
        assert seat.seat is not None
        assert seat.border_title is not None and session.names[seat.seat] in seat.border_title
        assert len(seat.border_title) + len(seat.border_subtitle or "") < seat.region.width
    for widget in [*seats, *screen.query("#trick Static")]:
        assert_text_fits(widget)


def assert_text_fits(widget: Widget) -> None:
    """The widget's text is not cut off: it has room for every line, unwrapped."""
    lines = str(widget.render()).splitlines()
    room = widget.content_region
    assert len(lines) <= room.height, (widget, lines)
    assert all(len(line) <= room.width for line in lines), (widget, lines)


def seat_widget(screen: GameScreen, seat: int) -> SeatView:
    return next(w for w in screen.query(SeatView) if w.seat == seat)


@pytest.mark.parametrize("players", sorted(TABLES))
async def test_every_seat_the_trick_and_the_hand_fit_an_80_by_24_screen(players: int) -> None:
    app = HeartsApp(session=GameSession(settings_for(players)))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        assert game_screen(app).session.human_view().phase is Phase.PASS
        assert_table_fits(app)
        session = game_screen(app).session
        for _ in range(200):  # into the play, with cards on the table
            seen = session.human_view()
            if seen.phase is Phase.PLAY and seen.my_turn and seen.trick:
                break
            await step(app, pilot)
        await settle(app, pilot)
        assert_table_fits(app)
        screen = game_screen(app)
        places = seat_places(players, session.human)
        for seat, card in seen.trick:  # each card lies toward the seat that played it
            shown = screen.query_one(f"#trick-{places[seat]}").render()
            assert card.pretty in str(shown)
        empty = [place for seat, place in places.items()
                 if seat not in dict(seen.trick)]
        assert all(str(screen.query_one(f"#trick-{p}").render()) == "" for p in empty)


async def test_a_whole_six_player_game_by_keys_at_80_by_24_stays_on_screen() -> None:
    app = HeartsApp(session=GameSession(settings_for(6, target=5)))
    async with app.run_test(size=(80, 24)) as pilot:
        sheets = 0
        for _ in range(400):
            if not await step(app, pilot):
                break
            if isinstance(app.screen, GameScreen) and app.screen.settled:
                assert_table_fits(app)
            if isinstance(app.screen, TextScreen) and not sheets:
                sheets += 1
                app.save_screenshot("tui-6p-80x24-round-over.svg", str(SCREENSHOTS))
        assert sheets == 1  # a round's sheet was shown (and saved) before the end
        over = app.screen
        assert isinstance(over, GameOverScreen)
        session = app.game
        assert session is not None and session.state.is_over
        assert str(over.query_one("#winners").render()).startswith("Game over. Winner")


async def test_the_pass_shows_its_direction_and_the_seat_that_gets_it() -> None:
    app = HeartsApp(session=GameSession(settings_for(4)))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = game_screen(app)
        seen = screen.session.human_view()
        assert seen.phase is Phase.PASS and seen.pass_target is not None
        target = screen.session.names[seen.pass_target]
        note = str(screen.query_one("#trick-note").render())
        assert note == f"Pass {seen.rules.pass_count} {seen.pass_direction}\nto {target}"
        prompt = str(screen.query_one("#prompt").render())  # the direction names the seat
        assert prompt.endswith(". Choose cards: pass 3 cards to the left (0 chosen), then p.")
        assert seat_widget(screen, seen.pass_target).border_subtitle == "gets your pass"
        others = [s for s in range(seen.players) if s not in (seen.pass_target, seen.seat)]
        assert all(seat_widget(screen, s).border_subtitle == "random" for s in others)


async def test_whose_turn_it_is_shows_in_words_and_the_last_trick_on_a_key() -> None:
    settings = settings_for(4, plain=True)
    app = HeartsApp(session=GameSession(settings))
    async with app.run_test(size=(80, 24)) as pilot:
        session = app.game
        assert session is not None
        while True:
            seen = session.human_view()
            if seen.phase is Phase.PLAY and seen.my_turn and seen.trick and seen.tricks:
                break
            await step(app, pilot)
            await settle(app, pilot)
        screen = game_screen(app)
        you = seat_widget(screen, session.human)
        assert you.border_title == "> You" and you.border_subtitle == "to play"
        assert you.has_class("turn")
        waiting = [seat_widget(screen, s) for s in range(seen.players) if s != session.human]
        assert not any(w.has_class("turn") for w in waiting)
        assert str(screen.query_one("#trick-note").render()) == f"Trick {len(seen.tricks) + 1}"
        await pilot.press("l")
        last = seen.tricks[-1]
        assert str(screen.query_one("#trick-note").render()) == \
            f"Last trick\n{session.names[last.winner]} took it"
        places = seat_places(seen.players, session.human)
        shown = {place: str(screen.query_one(f"#trick-{place}").render()).strip()
                 for place in places.values()}
        assert sorted(shown.values()) == sorted(c.pretty.replace("♠", "S").replace(
            "♥", "H").replace("♦", "D").replace("♣", "C") for c in last.cards)
        assert str(seat_widget(screen, last.winner).render()).endswith("took it")
        await pilot.press("l")
        assert str(screen.query_one("#trick-note").render()) == f"Trick {len(seen.tricks) + 1}"


async def test_the_hint_player_warms_up_in_the_background_from_the_start() -> None:
    app = HeartsApp(GameSettings(speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        warm = app.hint_warm_up
        assert warm is not None and warm.group == "warm-up"
        assert warm.state in (WorkerState.PENDING, WorkerState.RUNNING, WorkerState.SUCCESS)
        assert app.screen.query_one("#start")  # the start screen did not wait for it
        await warm.wait()
        assert warm.state is WorkerState.SUCCESS and warm.error is None
        await pilot.press("enter")
        await settle(app, pilot)
        await pilot.press("h")
        await settle(app, pilot)
        events = game_screen(app).query_one("#events")
        shown = str(events.render())
        assert shown.count("Hint: pass ") == 1
        hint = shown[shown.index("Hint: pass "):]
        assert len(hint) > len("Hint: pass 2♣ 3♣ 4♣. ")  # the reason comes with it
        # Word-wrapped, the event and the whole hint with its reason fit the lines shown.
        wrapped = [row for line in shown.splitlines()
                   for row in textwrap.wrap(line, events.content_region.width)]
        assert len(wrapped) <= events.content_region.height, wrapped
        app.save_screenshot("tui-4p-80x24-hint.svg", str(SCREENSHOTS))
        found = game_screen(app).hint_found
        hinted = " ".join(c.pretty for c in game_screen(app).chosen)  # the hand's order
        assert found.startswith(hint.split(" … ")[0].replace("\n", " "))
        await pilot.press("h")  # again: the whole hint, however long its reason
        assert isinstance(app.screen, TextScreen)
        body = str(app.screen.query_one("#dialog-body").render())
        assert body.startswith(found)
        # then every pass the search weighed, with its figures, the hinted one first
        rows = body.split("\n\n")[2].splitlines()
        assert rows[0].split()[:3] == ["move", "value", "points"]
        assert rows[1].startswith(hinted + " ")
        assert len(rows) > 2
        app.save_screenshot("tui-4p-80x24-hint-figures.svg", str(SCREENSHOTS))
        await pilot.press("enter")
        assert isinstance(app.screen, GameScreen)


@pytest.mark.parametrize(("players", "size"), [(4, (80, 24)), (6, (80, 24)), (3, (80, 24)),
                                               (4, (120, 40)), (6, (120, 40))])
async def test_screenshots_of_the_table_for_people_to_look_at(
        players: int, size: tuple[int, int]) -> None:
    app = HeartsApp(session=GameSession(settings_for(players)))
    async with app.run_test(size=size) as pilot:
        session = app.game
        assert session is not None
        await settle(app, pilot)
        name = f"tui-{players}p-{size[0]}x{size[1]}"
        pass_shot = app.save_screenshot(f"{name}-pass.svg", str(SCREENSHOTS))
        while not (session.human_view().phase is Phase.PLAY and session.human_view().trick
                   and session.human_view().my_turn):
            await step(app, pilot)
            await settle(app, pilot)
        play_shot = app.save_screenshot(f"{name}-play.svg", str(SCREENSHOTS))
        await pilot.press("s")
        sheet_shot = app.save_screenshot(f"{name}-sheet.svg", str(SCREENSHOTS))
        await pilot.press("escape")
        assert isinstance(app.screen, GameScreen)
        for shot in (pass_shot, play_shot, sheet_shot):
            text = Path(shot).read_text(encoding="utf-8")
            assert all(n.replace(" ", "&#160;") in text for n in session.names)


async def test_without_colour_the_turn_and_the_marks_are_still_in_words(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = HeartsApp(session=GameSession(settings_for(4)))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        assert app.no_color
        app.save_screenshot("tui-4p-80x24-no-colour.svg", str(SCREENSHOTS))
        screen = game_screen(app)
        you = seat_widget(screen, screen.session.human)
        assert you.border_title == "▶ You" and you.border_subtitle == "passing"
        hand = screen.session.human_view().hand
        labels = {str(cell.render()) for cell in screen.query(CardCell) if cell.card in hand}
        assert all(label.startswith("[") for label in labels)  # every card may be passed
        assert_table_fits(app)


async def test_a_hint_too_long_for_its_lines_is_cut_and_h_shows_it_whole() -> None:
    app = HeartsApp(session=GameSession(settings_for(6)))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = game_screen(app)
        reason = " ".join(f"reason{n}" for n in range(60))  # about six lines at 80 columns
        screen.show_hint(screen.generation, f"Hint: pass these. {reason}", None)
        events = screen.query_one("#events")
        rows = str(events.render()).splitlines()
        assert len(rows) == events.content_region.height == 3
        assert rows[0].startswith("Hint: pass these. reason0")
        assert rows[-1].endswith(" … h: all of it")
        assert all(len(row) <= events.content_region.width for row in rows)
        await pilot.press("h")
        assert isinstance(app.screen, TextScreen)
        assert str(app.screen.query_one("#dialog-body").render()).endswith("reason59")
        app.save_screenshot("tui-6p-80x24-long-hint.svg", str(SCREENSHOTS))
