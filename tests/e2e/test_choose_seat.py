"""Choosing a seat when joining by an invite link: the join form offers each free seat with
who would sit on its left, across and on its right, on a phone by taps and on a laptop by
keys; the neighbours it names are where the table then draws them; the seats it offers follow
those others take while it is open; a seat taken by someone else after the page opened is
refused in the server's words and the choice shows the seats free now. Screenshots of the
form land in ``test-artifacts/screenshots/``."""

from __future__ import annotations

import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.e2e.conftest import (
    OpenPerson,
    Person,
    ServerProcess,
    assert_accessible,
    create_table,
    join_by_link,
)

pytestmark = pytest.mark.browser

PHONE = (390, 844)
LAPTOP = (1280, 800)
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
# How long an open join form may take to show a seat taken meanwhile (it asks every 2 s).
FOLLOWED_MS = 15_000


def screenshot(person: Person, name: str) -> None:
    """Save what the person sees now, for people to look at."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    person.page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def open_invite(person: Person, link: str) -> None:
    """Open an invite link and wait for the join form."""
    person.page.goto(link)
    person.wait_ready()
    expect(person.testid("join-panel")).to_be_visible()


def offered(person: Person) -> list[int]:
    """The seats the join form offers, in its order."""
    seats: list[str] = person.page.locator("input[data-testid^='join-seat-']").evaluate_all(
        "els => els.map(e => e.value)")
    return [int(s) for s in seats]


def expect_place(person: Person, seat: int, words: str) -> None:
    """The join form offers ``seat`` as a radio button read out as "Seat N: ``words``"."""
    choice = person.page.get_by_role("radio", name=f"Seat {seat + 1}: {words}", exact=True)
    expect(choice).to_have_attribute("data-testid", f"join-seat-{seat}")


def see_no_seat_taken(person: Person, server: ServerProcess, table_id: str) -> None:
    """Until the person asks for a seat, every look their page takes at the table finds it
    as it is now: a seat taken next is taken between the form's last look and the click."""
    with urllib.request.urlopen(f"{server.url}/api/tables/{table_id}") as answer:
        seen = answer.read()
    asked = {"seat": False}

    def answer_as_seen(route: Any) -> None:
        if route.request.url.endswith("/join"):
            asked["seat"] = True
        if route.request.method == "GET" and not asked["seat"]:
            route.fulfill(status=200, content_type="application/json", body=seen)
        else:
            route.continue_()

    person.page.route(f"**/api/tables/{table_id}**", answer_as_seen)


def test_a_phone_and_a_laptop_each_choose_a_seat_that_is_not_the_next_free_one(
        open_person: OpenPerson, server: ServerProcess) -> None:
    ann = open_person()
    table_id = create_table(ann, server, name="Ann", seats=["human"] * 4)
    link = f"{server.url}/t/{table_id}"

    # Bo, on a phone, wants to sit across from Ann: seat 3, not seat 2, the next free one.
    bo = open_person(viewport=PHONE, touch=True)
    open_invite(bo, link)
    assert offered(bo) == [1, 2, 3]
    expect(bo.testid("join-seat-1")).to_be_checked()  # the first free seat unless chosen
    expect_place(bo, 2, "Seat 4 (free) on your left, Ann across, Seat 2 (free) on your right")
    assert bo.testid("join-seat-place-2").inner_text().splitlines() == [
        "Seat 4 (free) on your left", "Ann across", "Seat 2 (free) on your right"]
    bo.testid("join-name").fill("Bo")
    screenshot(bo, "join-choose-seat-390x844")
    assert_accessible(bo, "the join form on a phone")
    bo.testid("join-seat-place-2").tap()  # the seat's box, not just its small round button
    expect(bo.testid("join-seat-2")).to_be_checked()
    expect(bo.testid("join-submit")).to_have_text("Take seat 3")
    bo.testid("join-submit").tap()
    bo.page.wait_for_selector("[data-testid='seat-2'][data-me='true']", state="attached")
    expect(bo.testid("join-panel")).to_be_hidden()
    expect(ann.testid("seat-2")).to_contain_text("Bo")
    expect(ann.testid("seat-1")).to_contain_text("free")

    # Cy, on a laptop, by keys alone: the name, Tab to the seats, an arrow to seat 4 (beside
    # Ann, on her right), Tab to the button, Enter.
    cy = open_person(viewport=LAPTOP)
    open_invite(cy, link)
    assert offered(cy) == [1, 3]
    expect_place(cy, 1, "Bo on your left, Seat 4 (free) across, Ann on your right")
    expect_place(cy, 3, "Ann on your left, Seat 2 (free) across, Bo on your right")
    cy.testid("join-name").focus()
    cy.page.keyboard.type("Cy")
    cy.page.keyboard.press("Tab")
    expect(cy.testid("join-seat-1")).to_be_focused()
    cy.page.keyboard.press("ArrowDown")
    expect(cy.testid("join-seat-3")).to_be_focused()
    expect(cy.testid("join-seat-3")).to_be_checked()
    screenshot(cy, "join-choose-seat-1280x800")
    assert_accessible(cy, "the join form on a laptop")
    cy.page.keyboard.press("Tab")
    expect(cy.testid("join-submit")).to_be_focused()
    expect(cy.testid("join-submit")).to_have_text("Take seat 4")
    cy.page.keyboard.press("Enter")
    cy.page.wait_for_selector("[data-testid='seat-3'][data-me='true']", state="attached")

    for person in (ann, bo, cy):
        expect(person.testid("seat-2")).to_contain_text("Bo")
        expect(person.testid("seat-3")).to_contain_text("Cy")
        expect(person.testid("seat-1")).to_contain_text("free")
    assert (bo.my_seat(), cy.my_seat()) == (2, 3)
    # Ann, who made the table, starts it; her friends are told so (any of them could
    # once start it with computers before the others came)
    expect(ann.testid("start-now")).to_be_visible()
    for friend in (bo, cy):
        expect(friend.testid("start-now")).to_be_hidden()
        expect(friend.testid("status")).to_contain_text(
            "Ann, who made this table, can start it with computers.")
    assert ann.errors == bo.errors == cy.errors == []


def test_a_seat_taken_after_the_page_opened_is_refused_in_words_and_the_choice_refreshed(
        open_person: OpenPerson, server: ServerProcess) -> None:
    ann = open_person()
    table_id = create_table(ann, server, name="Ann", seats=["human", "human", "human", "random"])
    link = f"{server.url}/t/{table_id}"

    # Bo and Dee open the link while seats 2 and 3 are free; Cy takes seat 2 before their
    # forms look at the table again.
    bo = open_person()
    open_invite(bo, link)
    dee = open_person(viewport=PHONE, touch=True)
    open_invite(dee, link)
    assert offered(bo) == offered(dee) == [1, 2]
    for person in (bo, dee):
        see_no_seat_taken(person, server, table_id)
    cy = open_person()
    join_by_link(cy, link, "Cy")
    assert cy.my_seat() == 1

    # Bo's page still offers seat 2, chosen: the server refuses it, and the page says so
    # and offers what is free now, with the choice focused to choose again.
    expect(bo.testid("join-seat-1")).to_be_checked()
    bo.testid("join-name").fill("Bo")
    bo.testid("join-submit").click()
    # the server's sentence as it sent it, then the page's own
    expect(bo.testid("join-error")).to_have_text(
        "Seat 2 is not free; free seats: 3. It was taken after this page opened: choose one "
        "of the seats free now.")
    expect(bo.testid("join-panel")).to_be_visible()
    assert offered(bo) == [2]
    expect(bo.testid("join-seat-2")).to_be_checked()
    expect(bo.testid("join-seat-2")).to_be_focused()
    expect_place(bo, 2, "Computer (random) on your left, Ann across, Cy on your right")
    expect(bo.testid("join-submit")).to_have_text("Take seat 3")
    screenshot(bo, "join-seat-taken-1280x800")
    assert_accessible(bo, "the join form after a refusal")
    bo.testid("join-submit").click()
    bo.page.wait_for_selector("[data-testid='seat-2'][data-me='true']", state="attached")
    expect(bo.testid("join-panel")).to_be_hidden()

    # Dee's page offered both: now no seat is free, and it says she can still watch.
    dee.testid("join-name").fill("Dee")
    dee.testid("join-submit").tap()
    expect(dee.testid("join-error")).to_have_text(
        "Every seat is taken; you can watch as a spectator. The last free seat was taken "
        "after this page opened.")
    expect(dee.testid("join-submit")).to_be_hidden()
    expect(dee.testid("join-seats")).to_be_hidden()
    expect(dee.testid("watch-only")).to_be_focused()
    screenshot(dee, "join-no-seat-left-390x844")
    dee.testid("watch-only").tap()
    expect(dee.testid("seat-1")).to_contain_text("Cy")
    expect(dee.testid("seat-2")).to_contain_text("Bo")
    assert dee.page.locator("[data-testid^='seat-'][data-me='true']").count() == 0
    assert ann.errors == bo.errors == cy.errors == dee.errors == []


def test_the_choice_follows_the_seats_others_take_while_the_form_is_open(
        open_person: OpenPerson, server: ServerProcess) -> None:
    """The form once offered the seats free when it opened until its person pressed the
    button: now it asks the table again while it is open, and no more once it closes."""
    ann = open_person()
    table_id = create_table(ann, server, name="Ann", seats=["human", "human", "human", "human"])
    link = f"{server.url}/t/{table_id}"
    bo = open_person(viewport=PHONE, touch=True)
    open_invite(bo, link)
    assert offered(bo) == [1, 2, 3]
    bo.testid("join-seat-place-2").tap()
    expect(bo.testid("join-seat-2")).to_be_checked()

    cy = open_person()
    join_by_link(cy, link, "Cy")  # the lowest free seat, 2
    expect(bo.testid("join-seat-1")).to_have_count(0, timeout=FOLLOWED_MS)
    assert offered(bo) == [2, 3]
    expect(bo.testid("join-seat-2")).to_be_checked()  # Bo's choice is kept
    expect_place(bo, 2, "Seat 4 (free) on your left, Ann across, Cy on your right")
    expect(bo.testid("join-submit")).to_have_text("Take seat 3")

    dee = open_person()
    join_by_link(dee, link, "Dee")  # seat 3
    eve = open_person()
    join_by_link(eve, link, "Eve")  # seat 4: none is left
    expect(bo.testid("join-seats")).to_be_hidden(timeout=FOLLOWED_MS)
    expect(bo.testid("join-submit")).to_be_hidden()
    expect(bo.testid("join-error")).to_have_text(
        "The last free seat was taken after this page opened.")
    screenshot(bo, "join-seats-gone-390x844")

    # Closed, the form asks no more.
    asked: list[str] = []
    bo.page.on("request", lambda request: asked.append(request.url)
               if f"/api/tables/{table_id}" in request.url else None)
    bo.testid("watch-only").tap()
    expect(bo.testid("seat-3")).to_contain_text("Eve")
    bo.page.wait_for_timeout(7_000)  # over two of the form's asking intervals
    assert asked == []
    assert ann.errors == bo.errors == cy.errors == dee.errors == eve.errors == []


# The seats round the table, as (players, the seat taken): each neighbour the form names is
# then drawn on that side of the taker's own seat.
PLACES = [(3, 2), (4, 1), (6, 3)]


@pytest.mark.parametrize(("players", "taken"), PLACES,
                         ids=[f"{players}-players" for players, _ in PLACES])
def test_the_neighbours_the_form_names_are_where_the_table_draws_them(
        open_person: OpenPerson, server: ServerProcess, players: int, taken: int) -> None:
    ann = open_person()
    table_id = create_table(ann, server, name="Ann", preset="classic",
                            seats=["human"] * players)
    bo = open_person()
    open_invite(bo, f"{server.url}/t/{table_id}")
    lines = bo.testid(f"join-seat-place-{taken}").inner_text().splitlines()
    bo.testid(f"join-seat-place-{taken}").click()
    bo.testid("join-name").fill("Bo")
    bo.testid("join-submit").click()
    bo.page.wait_for_selector(f"[data-testid='seat-{taken}'][data-me='true']", state="attached")
    me = bo.testid(f"seat-{taken}").bounding_box()
    assert me is not None
    middle = me["x"] + me["width"] / 2
    assert len(lines) == (2 if players == 3 else 3), lines
    for line in lines:
        found = re.fullmatch(r"(Ann|Seat (\d+) \(free\)) (on your left|across|on your right)",
                             line)
        assert found is not None, line
        neighbour = 0 if found[1] == "Ann" else int(found[2]) - 1
        box = bo.testid(f"seat-{neighbour}").bounding_box()
        assert box is not None
        centre = box["x"] + box["width"] / 2
        where = found[3]
        if where == "across":
            assert abs(centre - middle) < 1 and box["y"] + box["height"] < me["y"], (line, box)
        else:
            assert (centre < middle - 50) == (where == "on your left"), (line, box, me)
            assert (centre > middle + 50) == (where == "on your right"), (line, box, me)
    assert ann.errors == bo.errors == []
