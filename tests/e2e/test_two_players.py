"""Two people in two browsers at one table with two computer players: invite, join, pass,
play a whole round by clicks, and one of them reloads in the middle of a trick."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from tests.e2e.conftest import (
    OpenPerson,
    Person,
    ServerProcess,
    create_table,
    join_by_link,
    play_until,
    sheet_rows,
)

from hearts.core import Rules, pass_direction_name

pytestmark = pytest.mark.browser

SHEET_CELL = re.compile(r"^([+-]\d+) = (-?\d+)( \(moon\))?$")


def cards_on_page(person: Person) -> set[str]:
    """Every card the page's DOM names anywhere but the last trick (which may be the last
    one of the round before, dealt again since)."""
    cards: list[str] = person.page.locator("[data-card]").evaluate_all(
        "els => els.filter(e => !e.closest('#last-trick')).map(e => e.dataset.card)")
    return set(cards)


def seat_hand_size(person: Person, seat: int) -> int:
    """The card count the seat box shows for a seat."""
    text = person.testid(f"seat-{seat}").inner_text()
    found = re.search(r"cards (\d+)", text)
    assert found, text
    return int(found.group(1))


def test_two_people_play_a_round_by_clicks_and_one_reloads_mid_trick(
        open_person: OpenPerson, server: ServerProcess) -> None:
    rules = Rules()  # card-commons, four players: what the lobby offers first
    ann = open_person(clipboard=True)
    table_id = create_table(ann, server, name="Ann", target=100,
                            seats=["human", "human", "random", "random"])

    # The invite link, copied to the clipboard with the button.
    expect(ann.testid("invite-panel")).to_be_visible()
    link = ann.testid("invite-link").input_value()
    assert link == f"{server.url}/t/{table_id}"
    ann.testid("copy-invite").click()
    assert ann.page.evaluate("() => navigator.clipboard.readText()") == link
    expect(ann.testid("status")).to_contain_text("Waiting for players")
    expect(ann.testid("seat-1")).to_contain_text("free")

    bob = open_person()
    join_by_link(bob, link, "Bob")
    assert (ann.my_seat(), bob.my_seat()) == (0, 1)
    expect(ann.testid("seat-1")).to_contain_text("Bob")
    expect(bob.testid("seat-0")).to_contain_text("Ann")
    expect(bob.testid("seat-2")).to_contain_text("computer")

    # Passing: both see the count and the direction the core names for round 1.
    direction = pass_direction_name(rules.pass_offset(1), rules.players)
    for person in (ann, bob):
        person.wait_for(lambda p=person: p.what_now() == "pass", "the pass")
        expect(person.testid("pass-direction")).to_have_text(direction)
        expect(person.testid("pass-count")).to_have_text(str(rules.pass_count))
        expect(person.testid("status")).to_contain_text(f"pass {direction}")
    dealt = {"ann": ann.hand(), "bob": bob.hand()}
    assert len(dealt["ann"]) == len(dealt["bob"]) == rules.hand_size
    assert not set(dealt["ann"]) & set(dealt["bob"]), "two seats were shown the same card"

    passed = {"ann": ann.pass_cards(), "bob": bob.pass_cards()}
    received = {}
    for key, person in (("ann", ann), ("bob", bob)):
        expect(person.testid("received")).to_be_visible()
        got = person.page.locator("[data-testid^='received-card-']").evaluate_all(
            "els => els.map(e => e.dataset.card)")
        received[key] = got
        assert len(got) == rules.pass_count
        hand = person.hand()
        assert sorted(hand) == sorted(set(dealt[key]) - set(passed[key]) | set(got))
        marked = person.page.locator("#hand button.card[data-received='true']").evaluate_all(
            "els => els.map(e => e.dataset.card)")
        assert sorted(marked) == sorted(got)
    # Round 1 passes to the left: Ann's cards go to Bob, who sits at her left.
    assert (0 + rules.pass_offset(1)) % rules.players == 1
    assert sorted(received["bob"]) == sorted(passed["ann"])

    reload_facts: dict[str, object] = {}

    def table_shown(person: Person) -> tuple[dict[int, str], str]:
        return person.trick_cards(), person.testid("last-trick").inner_text()

    def look_and_reload(person: Person, what: str) -> None:
        me = person.my_seat()
        other = bob if person is ann else ann
        # Both see the same trick, card by seat, and the same last trick with its taker.
        person.wait_for(lambda: table_shown(person) == table_shown(other), "the same table")
        if what == "play" and len(person.hand()) < rules.hand_size:
            expect(person.testid("last-trick-winner")).to_contain_text("taken by")
            expect(person.page.locator("#last-trick [data-card]")).to_have_count(rules.players)
        # Secrecy: the page shows exactly this seat's hand, and none of the other's cards.
        assert len(person.hand()) == seat_hand_size(person, me)
        assert not cards_on_page(person) & set(other.hand())
        if person is bob and what == "play" and not reload_facts and bob.trick_cards():
            before = {"hand": bob.hand(), "legal": bob.legal(), "trick": bob.trick_cards()}
            bob.page.reload()
            bob.wait_ready()
            bob.wait_for(lambda: bob.what_now() == "play", "Bob's turn after the reload")
            expect(bob.testid("connection-status")).to_have_text("connected")
            after = {"hand": bob.hand(), "legal": bob.legal(), "trick": bob.trick_cards()}
            assert after == before
            assert bob.my_seat() == 1
            reload_facts.update(before)

    def round_one_scored() -> bool:
        return any(sheet_rows(p) for p in (ann, bob))

    play_until([ann, bob], round_one_scored, look_and_reload)
    assert reload_facts, "Bob never had a turn in the middle of a trick"

    for person in (ann, bob):
        person.wait_for(lambda p=person: bool(sheet_rows(p)), "the score sheet")
    # The score sheet: a numbered line for round 1 with points and totals, the same for both.
    rows = sheet_rows(ann)
    assert rows == sheet_rows(bob)
    assert len(rows) == 1 and rows[0][0] == "1." and len(rows[0]) == 1 + rules.players
    cells = [SHEET_CELL.match(cell) for cell in rows[0][1:]]
    assert all(cells), rows
    points = [int(m.group(1)) for m in cells if m]
    totals = [int(m.group(2)) for m in cells if m]
    if not any(m.group(3) for m in cells if m):
        assert sum(points) == 26 and points == totals
    for person, seat in ((ann, 0), (bob, 1)):
        expect(person.testid("round-end")).to_be_visible()
        expect(person.testid("round-end-title")).to_contain_text(
            f"Round 1 is over. You took {points[seat]}.")
        # The browser checked the revealed seed against the commitment and its dealt hand.
        check = person.testid("fairness-result-1")
        expect(check).to_have_attribute("data-ok", "true")
        expect(check).to_contain_text("verified")
        person.testid("round-end-close").click()
        expect(person.testid("round-end")).to_be_hidden()

    # Round 2 deals and passes the other way.
    direction2 = pass_direction_name(rules.pass_offset(2), rules.players)
    assert direction2 != direction
    for person in (ann, bob):
        person.wait_for(lambda p=person: p.what_now() == "pass", "the second pass")
        expect(person.testid("pass-direction")).to_have_text(direction2)
        assert len(person.hand()) == rules.hand_size
    assert ann.errors == [] and bob.errors == []

    # Bob leaves: Ann sees his seat disconnected (a computer stands in after the grace time).
    bob.page.close()
    expect(ann.testid("seat-1")).to_contain_text("disconnected")
