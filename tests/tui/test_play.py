"""``hearts play`` driven through Textual's headless pilot in an 80×24 terminal."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from hearts.core import (
    SUIT_SYMBOLS,
    CardSet,
    PassCards,
    Phase,
    Play,
    PlayerView,
    Rules,
    game_record,
    new_hand,
    replay_game,
)
from hearts.persistence import load_current_game
from hearts.tui.app import HeartsApp
from hearts.tui.dialogs import GameOverScreen, MoonScreen, TextScreen
from hearts.tui.game import GameScreen
from hearts.tui.session import GameSession, GameSettings, HumanSeat
from hearts.tui.start import StartScreen, player_counts


async def settle(app: HeartsApp, pilot: Pilot[None]) -> None:
    """Let the computers move (and a hint be found) until the game waits on the human."""
    for _ in range(3000):
        await pilot.pause()
        hints = [w for w in app.workers if w.group == "hint"]
        if hints:  # (no list at all would wait for the game's own run as well)
            await app.workers.wait_for_complete(hints)
        screen = app.screen
        if not isinstance(screen, GameScreen) or screen.settled:
            await pilot.pause()
            return
        await asyncio.sleep(0.002)
    raise AssertionError("the game never waited on the human")


async def step(app: HeartsApp, pilot: Pilot[None]) -> bool:
    """Answer what the screen asks with keys; False once the game-over screen shows."""
    await settle(app, pilot)
    screen = app.screen
    if isinstance(screen, GameOverScreen):
        return False
    if isinstance(screen, TextScreen):
        await pilot.press("enter")
    elif isinstance(screen, MoonScreen):
        await pilot.press("s")
    elif isinstance(screen, GameScreen):
        seen = screen.session.human_view()
        if seen.my_turn and seen.phase is Phase.PASS:
            keys = ["enter", "right"] * seen.rules.pass_count
            await pilot.press(*keys[:-1], "p")
        elif seen.my_turn and seen.phase is Phase.PLAY:
            await pilot.press("enter")
    return True


async def play_to_end(app: HeartsApp, pilot: Pilot[None], limit: int = 400) -> GameOverScreen:
    """Play by keys until the game is over."""
    for _ in range(limit):
        if not await step(app, pilot):
            assert isinstance(app.screen, GameOverScreen)
            return app.screen
    raise AssertionError("the game did not end")


QUICK = GameSettings(rules="card-commons:target=5", seed="11", speed="instant")


def screen_text(app: HeartsApp) -> str:
    """Everything the game screen shows, as text."""
    screen = app.screen
    assert isinstance(screen, GameScreen)
    parts = [str(w.render()) for w in screen.query("Static") if w.display]
    return "\n".join(parts)


async def test_a_whole_game_by_keys_from_the_start_screen_to_the_winners(
        hearts_home: Path) -> None:
    app = HeartsApp(QUICK)
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, StartScreen)
        await pilot.press("enter")  # Start is focused
        await settle(app, pilot)
        assert isinstance(app.screen, GameScreen)
        over = await play_to_end(app, pilot)
        session = app.game
        assert session is not None and session.state.is_over
        shown = str(over.query_one("#winners").render())
        names = [session.names[s] for s in session.state.winners]
        assert shown.startswith("Game over. Winner") and all(n in shown for n in names)
        assert max(session.state.totals) >= 15
        saved = list((hearts_home / "games").glob("*.json"))
        assert len(saved) == 1 and str(saved[0]) in str(over.query_one("#saved-to").render())
        assert replay_game(json.loads(saved[0].read_text())).totals == session.state.totals
        assert load_current_game() is None  # the finished game is no longer "in progress"
        await pilot.press("n")
        await settle(app, pilot)
        assert isinstance(app.screen, StartScreen)
        assert app.screen.query_one("#seed", Input).value == ""  # new deals next time


async def test_resume_continues_an_interrupted_game_exactly_where_it_stopped() -> None:
    app = HeartsApp(QUICK)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        for _ in range(6):
            await step(app, pilot)
        await settle(app, pilot)
        session = app.game
        assert session is not None
        before = session.state
        assert before.history  # some moves were made
    # The app is gone, as after a crash; the saved record holds every action.
    record, _ = load_current_game() or ({}, {})
    assert game_record(replay_game(record)) == game_record(before)
    resumed = GameSession.resume()
    assert resumed is not None and game_record(resumed.state) == game_record(before)
    assert resumed.settings.seed == "11"
    app = HeartsApp(session=resumed)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        over = await play_to_end(app, pilot)
        assert isinstance(over, GameOverScreen)
        final = app.game
        assert final is not None
        assert final.state.results[0].round_no == 1
        played = [a for a in before.history if isinstance(a, Play)]
        assert [a for a in final.state.history if isinstance(a, Play)][:len(played)] == played


async def test_undo_takes_back_the_pass_and_a_played_card() -> None:
    app = HeartsApp(session=GameSession(QUICK))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        session = app.game
        assert session is not None
        dealt = session.human_view().hand
        await step(app, pilot)  # pass
        await settle(app, pilot)
        assert session.human_view().phase is Phase.PLAY
        await pilot.press("u")
        await settle(app, pilot)
        assert session.human_view().phase is Phase.PASS
        assert session.human_view().hand == dealt
        while not (session.human_view().my_turn and session.human_view().phase is Phase.PLAY):
            await step(app, pilot)
        before = session.state
        await pilot.press("enter")
        await settle(app, pilot)
        assert session.state.history != before.history
        await pilot.press("u")
        await settle(app, pilot)
        assert session.state.history == before.history
        assert "Took back your last decision" in screen_text(app)


def _played_into(session: GameSession, round_no: int, plays: int) -> bool:
    """The human has played ``plays`` cards of round ``round_no``."""
    seen = session.human_view()
    return seen.round_no == round_no and seen.phase is Phase.PLAY and \
        sum(play.seat == session.human for play in seen.round_plays) >= plays


@pytest.mark.parametrize(("game", "round_no"), [("seeded", 2), ("a position", 1)])
async def test_a_resumed_game_takes_back_what_the_game_before_it_could(
        game: str, round_no: int) -> None:
    """The undo stack lived only in memory: a game resumed from its save could take back
    nothing, and u said "Nothing to undo"."""
    session = _clubs_hand_session(auto_play=False) if game == "a position" else \
        GameSession(GameSettings(rules="card-commons:target=100", seed="11", speed="instant"))
    app = HeartsApp(session=session)
    async with app.run_test(size=(80, 24)) as pilot:
        while not _played_into(session, round_no, 3):
            await step(app, pilot)
        await settle(app, pilot)
    resumed = GameSession.resume()  # the app is gone, as after a quit
    assert resumed is not None and game_record(resumed.state) == game_record(session.state)
    app = HeartsApp(session=resumed)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("u")
        await settle(app, pilot)
        assert "Took back your last decision" in screen_text(app)
    # each decision the uninterrupted game could take back, back to the first, to the
    # same position (the others' passes kept when the human's pass is taken back)
    taken = 0
    while session.undo():
        assert taken == 0 or resumed.undo()
        assert game_record(resumed.state) == game_record(session.state)
        taken += 1
    assert taken >= 3 and not resumed.can_undo


async def test_hint_key_shows_a_legal_hint_and_p_or_enter_plays_it() -> None:
    app = HeartsApp(session=GameSession(QUICK))
    async with app.run_test(size=(80, 24)) as pilot:
        session = app.game
        assert session is not None
        await settle(app, pilot)
        await pilot.press("h")
        await settle(app, pilot)
        assert "Hint: pass " in screen_text(app)
        screen = app.screen
        assert isinstance(screen, GameScreen) and len(screen.chosen) == 3
        hinted_pass = screen.chosen
        await pilot.press("p")  # the hinted cards are chosen: p passes them
        await settle(app, pilot)
        assert session.state.chosen_pass(session.human) == hinted_pass or \
            session.human_view().passed == hinted_pass
        while not (session.human_view().my_turn and session.human_view().phase is Phase.PLAY):
            await step(app, pilot)
        await pilot.press("h")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.cursor is not None
        hinted = screen.cursor
        assert hinted in session.human_view().legal
        assert f"Hint: play {hinted.pretty}." in screen_text(app)
        await pilot.press("enter")
        await settle(app, pilot)
        assert Play(session.human, hinted) in session.state.history


async def test_plain_mode_writes_suits_as_letters_and_the_table_fits_80_columns() -> None:
    settings = GameSettings(rules="card-commons:target=15", seed="3", speed="instant",
                            plain=True)
    app = HeartsApp(session=GameSession(settings))
    async with app.run_test(size=(80, 24)) as pilot:
        await step(app, pilot)
        await settle(app, pilot)
        text = screen_text(app)
        assert not any(symbol in text for symbol in SUIT_SYMBOLS)
        hand = app.game.human_view().hand if app.game else CardSet()
        assert hand and all(f"{c.pretty[:-1]}{'CDSH'[c.suit]}" in text for c in hand)
        assert "C clubs" in text and "H hearts" in text
        assert all(len(line) <= 80 for line in text.splitlines())


async def test_the_mouse_alone_passes_and_plays() -> None:
    app = HeartsApp(session=GameSession(QUICK))
    async with app.run_test(size=(80, 24)) as pilot:
        session = app.game
        assert session is not None
        await settle(app, pilot)
        chosen = list(session.human_view().hand)[:3]
        for card in chosen:
            await pilot.click(f"#card-{card}")
        footer_pass = next(k for k in app.screen.query("FooterKey")
                           if getattr(k, "action", None) == "pass_cards")
        await pilot.click(footer_pass)
        await settle(app, pilot)
        assert session.state.chosen_pass(session.human) == CardSet(chosen) or \
            session.human_view().passed == CardSet(chosen)
        while not (session.human_view().my_turn and session.human_view().phase is Phase.PLAY):
            await step(app, pilot)
        card = next(iter(session.human_view().legal))
        await pilot.click(f"#card-{card}")
        await settle(app, pilot)
        assert Play(session.human, card) in session.state.history


def _clubs_hand_session(auto_play: bool) -> GameSession:
    """A hold round in which the human holds every club, so must lead the 2♣."""
    rules = Rules.parse("card-commons:pass_cycle=hold,target=5")
    order = list(range(52))
    hands = tuple(CardSet(order[13 * s:13 * s + 13]) for s in range(4))
    settings = GameSettings(rules=rules.text, seed="5", speed="instant", auto_play=auto_play)
    return GameSession(settings, new_hand(rules, hands))


async def test_auto_play_plays_the_only_legal_card_and_only_when_asked() -> None:
    two_of_clubs = next(iter(CardSet.parse("2C")))
    for auto_play in (False, True):
        session = _clubs_hand_session(auto_play)
        app = HeartsApp(session=session)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await pilot.pause(0.1)
            await settle(app, pilot)
            played = Play(session.human, two_of_clubs) in session.state.history
            assert played is auto_play
            assert ("Auto-played your only card, 2♣" in screen_text(app)) is auto_play


def moon_session() -> GameSession:
    """A hand in which the human, in seat 1, shoots the moon and chooses how it scores."""
    # Seat 1 leads first (dealer-left) holding every heart: leading hearts it takes every
    # trick, and the Q♠ has to be discarded to it, so it shoots the moon.
    rules = Rules.parse("classic:first_lead=dealer-left,first_trick=any,hearts_lead=any-time,"
                        "pass_cycle=hold,target=1")
    hearts = CardSet(c for c in range(52) if c // 13 == 3)
    rest = [c for c in range(52) if c // 13 != 3]
    hands = (CardSet(rest[0:13]), hearts, CardSet(rest[13:26]), CardSet(rest[26:39]))
    settings = GameSettings(rules=rules.text, levels=("random", "human", "random", "random"),
                            seed="9", speed="instant")
    return GameSession(settings, new_hand(rules, hands))


@asynccontextmanager
async def to_moon_choice() -> AsyncIterator[tuple[GameSession, HeartsApp, Pilot[None]]]:
    """The :func:`moon_session` hand played by keys in an 80×24 terminal up to the
    shooter's choice: its session, app and pilot, the moon choice showing."""
    session = moon_session()
    app = HeartsApp(session=session)
    async with app.run_test(size=(80, 24)) as pilot:
        while not isinstance(app.screen, MoonScreen):
            await step(app, pilot)
            assert not isinstance(app.screen, GameOverScreen)
        yield session, app, pilot


async def test_shooters_choice_is_asked_and_applied() -> None:
    async with to_moon_choice() as (session, app, pilot):
        await pilot.press("a")
        await settle(app, pilot)
        assert session.state.results[-1].points == (26, 0, 26, 26)
        while await step(app, pilot):
            pass
        assert session.state.winners == (1,)
        assert isinstance(app.screen, GameOverScreen)
        headline = str(app.screen.query_one("#winners").render())
        assert headline == f"Game over. Winner: {session.names[1]}"


async def test_start_screen_offers_the_player_counts_of_each_preset() -> None:
    assert player_counts("card-commons") == [3, 4]
    assert player_counts("classic") == [2, 3, 4, 5, 6]
    app = HeartsApp(GameSettings(speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, StartScreen)
        screen.query_one("#preset").value = "classic"  # type: ignore[attr-defined]
        await pilot.pause()
        screen.query_one("#players").value = 6  # type: ignore[attr-defined]
        await pilot.pause()
        shown = [screen.query_one(f"#opponent-{i}").display for i in range(5)]
        assert shown == [True] * 5
        await pilot.click("#start")
        await settle(app, pilot)
        session = app.game
        assert session is not None
        assert session.rules.preset == "classic" and session.rules.players == 6


async def test_the_rounds_last_trick_stays_on_the_table_until_its_sheet_is_closed() -> None:
    settings = GameSettings(rules="card-commons:target=100", seed="11", speed="instant")
    app = HeartsApp(session=GameSession(settings))
    async with app.run_test(size=(80, 24)) as pilot:
        session = app.game
        assert session is not None
        while not isinstance(app.screen, TextScreen):
            await step(app, pilot)
        assert session.state.phase is Phase.DEAL and session.state.round_no == 2
        game = app.screen_stack[-2]
        assert isinstance(game, GameScreen)
        last = session.human_view().tricks[-1]
        note = str(game.query_one("#trick-note").render())
        assert note == f"Trick {len(session.human_view().tricks)}\n" \
            f"{session.names[last.winner]} took it"
        table = "\n".join(str(cell.render()) for cell in game.query("#trick Static"))
        assert all(card.pretty in table for card in last.cards)
        await pilot.press("enter")
        await settle(app, pilot)
        assert session.state.phase is Phase.PASS and session.state.round_no == 2
        assert "Round 2 is dealt." in screen_text(app)


async def test_a_position_without_a_seed_ends_with_its_hand() -> None:
    session = _clubs_hand_session(auto_play=False)
    app = HeartsApp(session=session)
    async with app.run_test(size=(80, 24)) as pilot:
        over = await play_to_end(app, pilot)
        assert session.state.phase is Phase.DEAL and not session.state.is_over
        assert len(session.state.results) == 1
        assert str(over.query_one("#winners").render()) == \
            "The hand is over; no next round is dealt."


async def test_a_key_pressed_twice_queues_one_action() -> None:
    session = GameSession(QUICK)
    asked: list[PlayerView] = []
    human = HumanSeat(asked.append, lambda seen, error: None)
    seen = session.human_view()
    cards = CardSet(list(seen.hand)[:3])
    human.submit(PassCards(session.human, cards))
    human.submit(PassCards(session.human, CardSet(list(seen.hand)[3:6])))
    assert await human.act(seen) == PassCards(session.human, cards)
    assert asked == [seen] and human.actions.empty() and not human.waiting
