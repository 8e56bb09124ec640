"""The table as a card table on four screens: a laptop, a wide laptop, a portrait phone and
a landscape phone. At each size the page fits without scrolling, the hand and the buttons a
turn needs are on screen, and axe-core finds no serious or critical accessibility fault; a
screenshot of each lands in ``test-artifacts/screenshots/``. Then whole games: a phone
player and a laptop player at one table by taps and clicks, and one game by keys alone."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.e2e.conftest import (
    GAME_TIMEOUT_S,
    OpenPerson,
    Person,
    ServerProcess,
    assert_accessible,
    boxes,
    create_table,
    join_by_link,
    play_until,
    sheet_rows,
)

from hearts.core import Card

pytestmark = pytest.mark.browser

SIZES = {"laptop": (1280, 800), "wide-laptop": (1366, 768), "phone": (390, 844),
         "landscape-phone": (844, 390)}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
HINT_TIMEOUT_MS = 90_000


def screenshot(person: Person, name: str) -> None:
    """Save what the person sees now, for people to look at."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    person.page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def assert_fits(person: Person, needed: list[Any], *, scrolls_down: bool = False) -> None:
    """The page does not scroll sideways (nor down, unless ``scrolls_down``: the lobby's list
    of tables may), and every element in ``needed`` lies wholly on screen."""
    page = person.page
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    scroll = page.evaluate("() => [document.documentElement.scrollWidth,"
                           " document.documentElement.scrollHeight, innerWidth, innerHeight]")
    assert scroll[0] <= scroll[2], f"the page scrolls sideways: {scroll}"
    assert scrolls_down or scroll[1] <= scroll[3], f"the page scrolls down: {scroll}"
    for locator in needed:
        for box in boxes(locator):
            assert box is not None, f"{locator} is not shown"
            assert box["x"] >= 0 and box["y"] >= 0, (locator, box)
            assert box["x"] + box["width"] <= width + 0.5, (locator, box, width)
            assert box["y"] + box["height"] <= height + 0.5, (locator, box, height)


def assert_seats_clear_of_the_tray(person: Person) -> None:
    """No two seats overlap, and none hides (or hides behind) the pass tray."""
    seats = person.page.locator("[data-testid^='seat-']")
    tray = boxes(person.testid("pass-panel"))
    assert len(tray) == 1, tray
    shown = [*boxes(seats), *tray]
    assert None not in shown, shown
    for first in range(len(shown)):
        for second in range(first + 1, len(shown)):
            a, b = shown[first], shown[second]
            apart = (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                     or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])
            assert apart, (first, second, a, b)


def assert_seats_on_the_felt(person: Person) -> None:
    """Every seat lies on the table, however many lines it wraps to: a phone's own seat
    once hung below it over the line that says whose turn it is."""
    felt = boxes(person.page.locator("#felt"))[0]
    assert felt is not None
    for seat in boxes(person.page.locator("[data-testid^='seat-']")):
        assert seat is not None
        assert seat["y"] >= felt["y"] - 0.5, (seat, felt)
        assert seat["y"] + seat["height"] <= felt["y"] + felt["height"] + 0.5, (seat, felt)


@pytest.mark.parametrize("size", list(SIZES), ids=str)
def test_the_table_fits_each_screen_and_passes_the_audit(
        open_person: OpenPerson, server: ServerProcess, size: str) -> None:
    person = open_person(viewport=SIZES[size], touch=size.endswith("phone"))
    person.page.goto(server.url + "/")
    person.wait_ready()
    assert_fits(person, [person.testid("quick-play")], scrolls_down=True)
    assert_accessible(person, f"the lobby at {size}")
    screenshot(person, f"lobby-{size}")

    # One click from the front page to a dealt hand against computers.
    person.testid("quick-play").click()
    person.page.wait_for_url("**/t/*")
    person.wait_ready()
    person.wait_for(lambda: person.what_now() == "pass", "the pass")
    expect(person.page.locator("[data-testid^='seat-']")).to_have_count(4)
    hand = person.page.locator("#hand button.card")
    expect(hand).to_have_count(len(person.hand()))
    assert len(person.hand()) > 0
    person.press_card(person.hand()[0])
    assert_fits(person, [hand, person.testid("pass-panel"), person.testid("pass-submit"),
                         person.testid("status"), person.testid("drawer-button")])
    assert_seats_clear_of_the_tray(person)
    assert_accessible(person, f"the pass at {size}")
    screenshot(person, f"pass-{size}")

    person.press_card(person.hand()[0])  # unchoose it again: pass the first cards
    # The search's figures behind a hint, on demand, without pushing the hand away (a
    # pass always has a choice; a forced first lead has no figures).
    person.testid("hint-button").click()
    # The first hint may wait for the search kernel to compile on a busy machine.
    expect(person.testid("hint-text")).to_contain_text("Hint:", timeout=HINT_TIMEOUT_MS)
    person.testid("hint-figures-button").click()
    # every pass the search weighed is a row of the table, the hinted one first
    figures = person.testid("hint-details")
    expect(figures.locator("tbody tr").nth(2)).to_be_attached()
    assert figures.locator("thead th").all_inner_texts()[:3] == ["Move", "Value", "Points"]
    hinted = person.page.locator("#hand button.card[data-hinted='true']").evaluate_all(
        "cards => cards.map(c => c.dataset.card)")
    first = figures.locator("tbody tr").first.locator("th").inner_text().split()
    assert sorted(first) == sorted(Card(card).pretty for card in hinted)
    # the hint's panel holds them (on a short screen they scroll inside it), and leaves the
    # table its room: on a phone the pass tray once covered this seat and the one across
    assert_fits(person, [hand, person.testid("hint-panel"), person.testid("pass-submit")])
    assert_seats_clear_of_the_tray(person)
    # the whole table's width shows: nothing to scroll sideways for
    assert figures.evaluate("box => box.scrollWidth <= box.clientWidth")
    assert_accessible(person, f"the hint's figures at {size}")
    screenshot(person, f"hint-figures-{size}")
    person.testid("hint-figures-button").click()
    expect(person.testid("hint-details")).to_be_hidden()
    person.pass_cards()
    person.wait_for(lambda: person.what_now() == "play", "a turn to play", timeout_s=40)
    person.testid("hint-button").click()
    # The first hint may wait for the search kernel to compile on a busy machine.
    expect(person.testid("hint-text")).to_contain_text("Hint:", timeout=HINT_TIMEOUT_MS)
    assert_fits(person, [hand, person.testid("hint-button"), person.testid("hint-text"),
                         person.testid("received"), person.testid("status")])
    assert_accessible(person, f"a turn to play at {size}")
    screenshot(person, f"play-{size}")
    if person.testid("hint-figures-button").is_visible():
        # a play's rows name every legal card: the one weighed, then those alike with it
        person.testid("hint-figures-button").click()
        rows = person.testid("hint-details").locator("tbody th").all_inner_texts()
        named = " ".join(rows).replace("(=", " ").replace(")", " ").split()
        assert sorted(named) == sorted(Card(card).pretty for card in person.legal()), rows
        person.testid("hint-figures-button").click()

    # The score sheet opens in a drawer, and the last trick on demand, both on screen.
    person.play(person.legal()[0])
    person.wait_for(lambda: person.what_now() == "play", "the next turn", timeout_s=40)
    person.testid("last-trick-button").click()
    assert_fits(person, [person.testid("last-trick")])
    expect(person.testid("last-trick-winner")).to_contain_text("taken by")
    screenshot(person, f"last-trick-{size}")
    person.page.keyboard.press("Escape")
    expect(person.testid("last-trick")).to_be_hidden()
    person.testid("drawer-button").click()
    expect(person.testid("score-sheet")).to_be_visible()
    # every seat's column of the sheet is on screen, long computer names and all
    assert_fits(person, [person.testid("drawer-close"),
                         person.page.locator("#score-sheet th").last])
    assert_accessible(person, f"the drawer at {size}")
    # Tab goes round inside the open drawer, both ways (it once went on behind it)
    inside = "() => document.getElementById('drawer').contains(document.activeElement)"
    for key in ["Tab"] * 12 + ["Shift+Tab"] * 12:
        person.page.keyboard.press(key)
        assert person.page.evaluate(inside), key
    screenshot(person, f"drawer-{size}")
    person.testid("drawer-close").click()
    expect(person.testid("drawer")).to_be_hidden()
    assert person.errors == []


def suit_colours(person: Person) -> dict[str, set[str]]:
    """The text colours the hand's cards are drawn in, by suit."""
    found: list[list[str]] = person.page.locator("#hand button.card").evaluate_all(
        "els => els.map(e => [e.dataset.card.slice(-1), getComputedStyle(e).color])")
    colours: dict[str, set[str]] = {}
    for suit, colour in found:
        colours.setdefault(suit, set()).add(colour)
    return colours


def test_the_four_colour_deck_and_the_speed_setting_are_kept(open_person: OpenPerson,
                                                            server: ServerProcess) -> None:
    person = open_person()
    create_table(person, server, name="Kit", seats=["human", "random", "random", "random"])
    person.wait_for(lambda: person.what_now() == "pass", "the pass")
    two = suit_colours(person)
    assert all(len(c) == 1 for c in two.values())
    assert len(set().union(*two.values())) <= 2, two  # red and black
    person.testid("drawer-button").click()
    person.testid("setting-four-colour").check()
    person.testid("setting-speed").select_option("off")
    person.testid("drawer-close").click()
    four = suit_colours(person)
    assert len(set().union(*four.values())) == len(four), four  # each suit its own colour
    person.page.reload()
    person.wait_ready()
    person.wait_for(lambda: person.what_now() == "pass", "the pass after reloading")
    assert suit_colours(person) == four
    person.testid("drawer-button").click()
    expect(person.testid("setting-speed")).to_have_value("off")
    expect(person.testid("setting-four-colour")).to_be_checked()
    assert person.errors == []


def test_a_phone_player_and_a_laptop_player_play_a_whole_game(
        open_person: OpenPerson, server: ServerProcess) -> None:
    laptop = open_person(viewport=SIZES["laptop"])
    table_id = create_table(laptop, server, name="Lou",
                            seats=["human", "human", "random", "random"], target=1)
    phone = open_person(viewport=SIZES["phone"], touch=True)
    join_by_link(phone, f"{server.url}/t/{table_id}", "Pia")
    looked = {"laptop": 0, "phone": 0}

    def fits(person: Person, what: str) -> None:
        needed = [person.page.locator("#hand button.card"), person.testid("status")]
        if what == "pass":
            needed.append(person.testid("pass-submit"))
        assert_fits(person, needed)
        looked["phone" if person is phone else "laptop"] += 1

    play_until([laptop, phone], lambda: all(p.what_now() == "over" for p in (laptop, phone)),
               fits)
    assert min(looked.values()) >= 10, looked
    for person in (laptop, phone):
        expect(person.testid("round-end-title")).to_have_text("The game is over.")
        # the last round's own line shows with the game's end (it was once replaced by it)
        rounds = sheet_rows(person)
        points = int(rounds[-1][1 + person.my_seat()].split(" = ")[0])
        expect(person.testid("last-round")).to_contain_text(
            f"Round {len(rounds)} is over. You took {points}.")
        assert_fits(person, [person.testid("round-end"), person.testid("last-round"),
                             person.testid("download-record")])
    assert sheet_rows(laptop) == sheet_rows(phone) != []
    screenshot(phone, "game-over-phone")
    screenshot(laptop, "game-over-laptop")
    assert laptop.errors == [] and phone.errors == []


def test_a_whole_game_by_keys_alone(open_person: OpenPerson, server: ServerProcess) -> None:
    person = open_person(viewport=SIZES["landscape-phone"])
    create_table(person, server, name="Kay", seats=["human", "random", "random", "random"],
                 target=1)
    page = person.page
    focused = "() => document.activeElement && (document.activeElement.dataset.card" \
              " || document.activeElement.dataset.testid || '')"
    kept = {"turns": 0}  # turns that found the focus still in the hand

    def tab_to(wanted: Any, most: int = 40) -> None:
        """Press Tab until the element that ``wanted(name)`` accepts has the focus."""
        for _ in range(most):
            page.keyboard.press("Tab")
            if wanted(page.evaluate(focused)):
                return
        raise AssertionError("Tab never reached the element")

    def by_keys(what: str) -> None:
        hand = person.hand()
        if what == "pass":
            count = int(person.testid("pass-count").inner_text())
            tab_to(lambda name: name in hand)
            page.keyboard.press("Home")
            for index in range(count):
                if index:
                    page.keyboard.press("ArrowRight")
                page.keyboard.press("Enter")
            tab_to(lambda name: name == "pass-submit")
            page.keyboard.press("Enter")
            expect(person.testid("pass-panel")).to_be_hidden()
        elif what == "play":
            legal = person.legal()
            if page.evaluate(focused) in hand:  # kept in the hand since the last card played
                kept["turns"] += 1
            else:
                tab_to(lambda name: name in hand)
                # The hand's place in the tab order is its first playable card.
                assert page.evaluate(focused) == legal[0]
            page.keyboard.press("End")
            page.keyboard.press("ArrowRight")  # wraps round to the first card
            assert page.evaluate(focused) == hand[0]
            for _ in range(hand.index(legal[0])):
                page.keyboard.press("ArrowRight")
            person.played(legal[0], lambda: page.keyboard.press("Enter"))
        elif what == "moon":
            tab_to(lambda name: name == "moon-add")
            sid = person.state_id()
            page.keyboard.press("Enter")
            page.wait_for_function("sid => Number(document.body.dataset.stateId) > sid", arg=sid)

    deadline = time.monotonic() + GAME_TIMEOUT_S
    while person.what_now() != "over":
        assert time.monotonic() < deadline, "the game did not end in time"
        now = person.what_now()
        if now in ("pass", "play", "moon"):
            by_keys(now)
        else:
            page.wait_for_timeout(50)
    expect(person.testid("round-end-title")).to_have_text("The game is over.")
    # a card played (or a pass sent) once dropped the focus to the page, where the keys do
    # nothing: Tab was needed again every turn
    assert kept["turns"] >= 3, kept
    assert person.errors == []


@pytest.mark.parametrize("players", [3, 4, 6], ids=lambda n: f"{n}-players")
def test_the_invitation_covers_no_seat_on_a_phone(open_person: OpenPerson,
                                                  server: ServerProcess, players: int) -> None:
    """The invitation of a waiting table once covered its side seats on a phone: who had
    sat down could not be seen."""
    person = open_person(viewport=SIZES["phone"], touch=True)
    create_table(person, server, name="Ivy", preset="classic",
                 seats=["human", "human", *["random"] * (players - 2)])
    expect(person.testid("invite-panel")).to_be_visible()
    invite = boxes(person.testid("invite-panel"))[0]
    assert invite is not None
    for index, seat in enumerate(boxes(person.page.locator("[data-testid^='seat-']"))):
        assert seat is not None
        apart = (seat["x"] + seat["width"] <= invite["x"] or invite["x"] + invite["width"]
                 <= seat["x"] or seat["y"] + seat["height"] <= invite["y"]
                 or invite["y"] + invite["height"] <= seat["y"])
        assert apart, (index, seat, invite)
    assert_fits(person, [person.testid("invite-link"), person.testid("copy-invite")])
    screenshot(person, f"invite-{players}-players-phone")
    assert person.errors == []


def test_a_stale_seat_token_join_form_covers_no_seat_on_a_phone(
        open_person: OpenPerson, server: ServerProcess) -> None:
    """A browser whose seat token the table refuses watches the table while it offers the
    free seats: on a phone its join form once covered the seats at the top and the bottom."""
    ann = open_person()
    table_id = create_table(ann, server, name="Ann", preset="classic",
                            seats=["human", "human", "human", "random", "random", "random"])
    bo = open_person(viewport=SIZES["phone"], touch=True)
    bo.page.goto(server.url + "/")
    bo.page.evaluate(f"localStorage.setItem('hearts-token-{table_id}', 'stale-token')")
    bo.page.goto(f"{server.url}/t/{table_id}")
    bo.wait_ready()
    expect(bo.testid("connection-status")).to_contain_text("not accepted")
    form = bo.testid("join-panel")
    expect(form).to_be_visible()
    seats = bo.page.locator("[data-testid^='seat-']")
    expect(seats).to_have_count(6)
    assert_seats_on_the_felt(bo)
    shown = boxes(form)[0]
    assert shown is not None
    for index, seat in enumerate(boxes(seats)):
        assert seat is not None, index
        apart = (seat["x"] + seat["width"] <= shown["x"] or shown["x"] + shown["width"]
                 <= seat["x"] or seat["y"] + seat["height"] <= shown["y"]
                 or shown["y"] + shown["height"] <= seat["y"])
        assert apart, (index, seat, shown)
    assert_fits(bo, [seats, form])
    screenshot(bo, "stale-token-join-6-players-phone")
    assert_accessible(bo, "a stale token's join form on a phone")
    bo.testid("join-name").fill("Bo")
    bo.testid("join-seat-place-2").tap()
    bo.testid("join-submit").scroll_into_view_if_needed()
    bo.testid("join-submit").tap()
    bo.page.wait_for_selector("[data-testid='seat-2'][data-me='true']", state="attached")
    expect(ann.testid("seat-2")).to_contain_text("Bo")
    assert ann.errors == bo.errors == []


def test_up_and_down_move_between_the_rows_of_a_phone_hand(
        open_person: OpenPerson, server: ServerProcess) -> None:
    """A phone lays its hand out in rows; the up and down arrows go to the nearest card of
    the row above or below (and back again; they once went along the hand as left and right
    do), left and right still go along the hand."""
    person = open_person(viewport=SIZES["phone"])  # a keyboard on a phone
    create_table(person, server, name="Rowan", seats=["human", "random", "random", "random"])
    person.wait_for(lambda: person.what_now() == "pass", "the pass")
    page = person.page
    hand = person.hand()
    found = boxes(page.locator("#hand button.card"))
    assert None not in found
    tops = sorted({round(box["y"]) for box in found if box is not None})
    assert len(tops) >= 2, f"the hand is in one row: {found}"
    row_of = {card: tops.index(round(box["y"])) for card, box in zip(hand, found, strict=True)
              if box is not None}
    left_of = {card: box["x"] for card, box in zip(hand, found, strict=True) if box is not None}
    focused = "() => document.activeElement && document.activeElement.dataset.card"
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate(focused) in hand:
            break
    page.keyboard.press("Home")
    top_row = [card for card in hand if row_of[card] == 0]
    below = [card for card in hand if row_of[card] == 1]
    for card in top_row:
        assert page.evaluate(focused) == card
        page.keyboard.press("ArrowDown")
        down = page.evaluate(focused)
        assert down in below, (card, down)
        nearest = min(abs(left_of[other] - left_of[card]) for other in below)
        assert abs(left_of[down] - left_of[card]) <= nearest + 0.5, (card, down)
        page.keyboard.press("ArrowUp")
        assert page.evaluate(focused) == card, (card, down)
        page.keyboard.press("ArrowUp")  # the top row: nowhere further up
        assert page.evaluate(focused) == card
        page.keyboard.press("ArrowRight")
    # along the hand, from the end of the top row to the start of the next
    assert page.evaluate(focused) == below[0]
    page.keyboard.press("End")
    page.keyboard.press("ArrowDown")  # the bottom row: nowhere further down
    assert page.evaluate(focused) == hand[-1]
    page.keyboard.press("ArrowUp")
    up = page.evaluate(focused)
    above = [card for card in hand if row_of[card] == row_of[hand[-1]] - 1]
    nearest = min(abs(left_of[other] - left_of[hand[-1]]) for other in above)
    assert up in above and abs(left_of[up] - left_of[hand[-1]]) <= nearest + 0.5, up
    page.keyboard.press("End")
    page.keyboard.press("Enter")  # the keys still choose the card to pass
    expect(person.card(hand[-1])).to_have_attribute("aria-pressed", "true")
    assert person.errors == []


# The cards of the hand that a finger cannot tap: those without a ``size`` px square of
# their own (nothing over it) at their top left, the corner a fanned hand leaves showing.
_UNDER_A_FINGER = """size => [...document.querySelectorAll("#hand button.card")].filter(card => {
  const box = card.getBoundingClientRect();
  for (let dx = 1; dx < size; dx += 7) for (let dy = 1; dy < size; dy += 7) {
    const hit = document.elementFromPoint(box.left + dx, box.top + dy);
    if (!hit || hit.closest("button.card") !== card) return true;
  }
  return false;
}).map(card => card.dataset.card)"""
FINGER_PX = 44


@pytest.mark.parametrize("players", [3, 4], ids=lambda n: f"{n}-players")
def test_every_card_of_a_phone_hand_is_a_finger_wide(open_person: OpenPerson,
                                                     server: ServerProcess, players: int) -> None:
    """A phone's 13 cards in one row once showed 25 px of each, under the 44 px a finger
    needs: the hand takes as many rows as it must, on screen, and the cards chosen to pass
    or raised as playable cover no other card's corner."""
    person = open_person(viewport=SIZES["phone"], touch=True)
    create_table(person, server, name="Fin", seats=["human", *["random"] * (players - 1)])
    person.wait_for(lambda: person.what_now() == "pass", "the pass")
    assert len(person.hand()) == 52 // players
    hand = person.page.locator("#hand button.card")
    assert person.page.evaluate(_UNDER_A_FINGER, FINGER_PX) == []
    assert_fits(person, [hand, person.testid("pass-submit"), person.testid("status")])
    assert_seats_clear_of_the_tray(person)
    assert_seats_on_the_felt(person)
    person.press_card(person.hand()[-1])  # raised: the last row's, over the row above
    assert person.page.evaluate(_UNDER_A_FINGER, FINGER_PX) == []
    screenshot(person, f"hand-{players}-players-phone")
    person.press_card(person.hand()[-1])
    person.pass_cards()
    person.wait_for(lambda: person.what_now() == "play", "a turn to play", timeout_s=40)
    playable = set(person.legal())
    assert set(person.page.evaluate(_UNDER_A_FINGER, FINGER_PX)).isdisjoint(playable)
    assert_fits(person, [hand, person.testid("status")])
    assert person.errors == []


# A landscape phone's table is short: at 3 and 6 seats the side seats sit level with the
# pass tray, nearer the middle than the table's edge.
OVAL_CASES = [(size, players) for size in ("laptop", "phone") for players in (2, 3, 6)] + [
    ("landscape-phone", 3), ("landscape-phone", 6)]
# The cases that open a hint's figures too, which take some of the felt's height.
HINT_CASES = [("phone", 6), ("landscape-phone", 3), ("landscape-phone", 6)]


@pytest.mark.parametrize(("size", "players"), OVAL_CASES,
                         ids=[f"{size}-{players}-players" for size, players in OVAL_CASES])
def test_every_table_size_fits_round_the_oval(open_person: OpenPerson, server: ServerProcess,
                                              size: str, players: int) -> None:
    person = open_person(viewport=SIZES[size], touch=size.endswith("phone"))
    create_table(person, server, name="Max", preset="classic",
                 seats=["human", *["random"] * (players - 1)])
    person.wait_for(lambda: person.what_now() == "pass", "the pass")
    seats = person.page.locator("[data-testid^='seat-']")
    expect(seats).to_have_count(players)
    assert_fits(person, [seats, person.page.locator("#hand button.card"),
                         person.testid("pass-submit")])
    assert_seats_clear_of_the_tray(person)
    assert_seats_on_the_felt(person)
    screenshot(person, f"pass-{players}-players-{size}")
    if (size, players) in HINT_CASES:
        # The hint's text and figures take the felt's room: on a landscape phone at 3 seats
        # they once left the table so short that the pass tray covered this seat.
        person.testid("hint-button").click()
        expect(person.testid("hint-text")).to_contain_text("Hint:", timeout=HINT_TIMEOUT_MS)
        person.testid("hint-figures-button").click()
        expect(person.testid("hint-details")).to_be_visible()
        assert_seats_clear_of_the_tray(person)
        assert_seats_on_the_felt(person)
        expect(person.testid("hint-panel")).to_be_visible()
        assert_fits(person, [seats, person.page.locator("#hand button.card"),
                             person.testid("pass-submit"), person.testid("hint-panel")])
        screenshot(person, f"pass-{players}-players-{size}-hint-figures")
    assert person.errors == []


# Four seats at every size; a landscape phone at 3 and 6 seats too, where the round's result
# leaves the side seats level with the pass tray (at 3 seats one once reached into it).
RESULT_CASES = [(size, 4) for size in SIZES] + [("landscape-phone", 3), ("landscape-phone", 6)]


@pytest.mark.parametrize(("size", "players"), RESULT_CASES,
                         ids=[f"{size}-{players}-players" for size, players in RESULT_CASES])
def test_the_rounds_result_covers_no_seat(open_person: OpenPerson, server: ServerProcess,
                                          size: str, players: int) -> None:
    person = open_person(viewport=SIZES[size], touch="phone" in size)
    create_table(person, server, name="Ros", preset="card-commons" if players == 4 else "classic",
                 seats=["human", *["random"] * (players - 1)], target=100)
    banner = person.testid("round-end")
    play_until([person], lambda: banner.is_visible() and person.what_now() == "pass")
    expect(person.testid("round-end-title")).to_contain_text("Round 1 is over.")
    seats = person.page.locator("[data-testid^='seat-']")
    assert_fits(person, [banner, seats, person.page.locator("#hand button.card"),
                         person.testid("pass-submit")])
    assert_seats_clear_of_the_tray(person)
    assert_seats_on_the_felt(person)
    shown = banner.bounding_box()
    for index, seat in enumerate(boxes(seats)):
        assert seat is not None, index
        assert (seat["y"] + seat["height"] <= shown["y"]
                or shown["y"] + shown["height"] <= seat["y"]), (index, seat, shown)
    # The last trick's cards fly to its taker; the picture is of the table once they land.
    person.page.wait_for_function("() => !document.getElementById('fly-layer').children.length")
    expect(person.page.locator("[data-testid^='trick-slot-']")).to_have_count(0)
    screenshot(person, f"round-over-{size}" if players == 4
               else f"round-over-{players}-players-{size}")
    assert person.errors == []


FLIGHTS = """() => {
  window.flights = 0;
  new MutationObserver((changes) => {
    for (const change of changes) window.flights += change.addedNodes.length;
  }).observe(document.getElementById("fly-layer"), { childList: true });
}"""


@pytest.mark.parametrize("motion", ["normal", "reduce"])
def test_cards_move_only_for_people_who_welcome_motion(open_person: OpenPerson,
                                                      server: ServerProcess,
                                                      motion: str) -> None:
    person = open_person()
    person.page.emulate_media(reduced_motion="reduce" if motion == "reduce" else "no-preference")
    create_table(person, server, name="Mo", seats=["human", "random", "random", "random"])
    person.page.evaluate(FLIGHTS)
    moving: list[int] = []

    def look(who: Person, what: str) -> None:
        moving.append(who.page.evaluate("() => document.getAnimations().length"))
        # What moves is a copy: no card data, hidden from screen readers.
        assert who.page.locator("#fly-layer [data-card]").count() == 0
        assert who.testid("trick").locator("xpath=..").locator(
            "#fly-layer[aria-hidden='true']").count() == 1

    play_until([person], lambda: len(person.page.locator(
        "#last-trick [data-card]").all()) > 0 and person.what_now() == "play", look)
    flights = person.page.evaluate("() => window.flights")
    if motion == "reduce":
        assert flights == 0 and not any(moving)
        assert person.page.evaluate("() => document.getAnimations().length") == 0
    else:
        assert flights > 0
    assert person.errors == []
