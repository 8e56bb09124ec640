"""The lobby, the how-to-play pages and the table's features in real Chromium: legal cards
marked and illegal clicks refused, keyboard play, spoken card labels, hints, a spectator who
sees no hand, the browser's deal check, game end with winners, and the record download."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.e2e.conftest import (
    OpenPerson,
    Person,
    ServerProcess,
    create_table,
    play_until,
    sheet_rows,
)

from hearts.core import PRESETS, Card, CardSet, Rules, parse_card, replay_game

pytestmark = pytest.mark.browser


NUMBER_WORDS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def spoken_forms(card: str) -> tuple[str, ...]:
    """What a screen reader may say for a card: the core's ``5 of clubs``, ``queen of
    spades``, or the number spelled out (``five of clubs``), which reads the same."""
    core = Card(parse_card(card)).spoken
    rank, _, suit = core.partition(" of ")
    if rank.isdigit():
        return core, f"{NUMBER_WORDS[int(rank) - 2]} of {suit}"
    return (core,)


def test_lobby_lists_public_tables_only_and_links_how_to_play(
        open_person: OpenPerson, server: ServerProcess) -> None:
    ann = open_person()
    ann.page.goto(server.url + "/")
    ann.wait_ready()
    # A bad option is refused with the core's reason, and nothing is created.
    ann.testid("create-name").fill("Ann")
    ann.testid("create-options").fill("moon=sideways")
    ann.testid("create-submit").click()
    expect(ann.testid("create-error")).to_contain_text("moon")
    assert ann.page.url == server.url + "/"

    public_id = create_table(ann, server, name="Ann", seats=["human", "human", "random"],
                             target=50)
    expect(ann.testid("table-rules")).to_contain_text("players=3")
    expect(ann.testid("start-now")).to_be_visible()
    bea = open_person()
    private_id = create_table(bea, server, name="Bea", public=False,
                              seats=["human", "human", "easy", "random"])

    cyd = open_person()
    cyd.page.goto(server.url + "/")
    cyd.wait_ready()
    cyd.testid("refresh-tables").click()
    row = cyd.testid(f"open-table-{public_id}")
    expect(row).to_contain_text("Ann's table")
    expect(row).to_contain_text("(free)")
    expect(cyd.testid(f"open-table-{private_id}")).to_have_count(0)
    cyd.testid(f"join-{public_id}").click()
    cyd.page.wait_for_url(f"**/t/{public_id}")
    cyd.wait_ready()
    expect(cyd.testid("join-panel")).to_be_visible()
    # The private table is reached through its link only.
    cyd.page.goto(f"{server.url}/t/{private_id}")
    cyd.wait_ready()
    expect(cyd.testid("join-panel")).to_be_visible()
    cyd.testid("watch-only").click()
    expect(cyd.testid("table-title")).to_have_text("Bea's table")
    expect(cyd.testid("connection-status")).to_contain_text("watching")
    expect(cyd.page.locator("#hand button")).to_have_count(0)

    # Nobody came to Ann's table: she starts with a computer in the free seat.
    expect(ann.testid("table-rules")).to_contain_text("target=50")
    ann.testid("start-now").click()
    expect(ann.testid("seat-1")).to_contain_text("computer")
    ann.wait_for(lambda: ann.what_now() == "pass", "the first pass after starting")
    expect(ann.testid("invite-panel")).to_be_hidden()

    three = Rules.parse("card-commons:players=3")
    assert len(ann.hand()) == three.hand_size
    assert not set(ann.hand()) & set(CardSet(three.removed).names())

    for preset in PRESETS:
        cyd.page.goto(server.url + "/")
        cyd.wait_ready()
        link = cyd.testid(f"howto-{preset}")
        title = link.inner_text()
        link.click()
        cyd.page.wait_for_url(f"**/how-to-play/{preset}")
        heading = cyd.page.get_by_role("heading", level=2).first
        expect(heading).to_contain_text(f"How to play: {title}")
        expect(cyd.page.get_by_text("Shooting the moon")).to_be_visible()
    assert ann.errors == [] and bea.errors == [] and cyd.errors == []


def test_an_invite_link_names_the_table_before_joining(open_person: OpenPerson,
                                                        server: ServerProcess) -> None:
    gus = open_person()
    table_id = create_table(gus, server, name="Gus", seats=["human", "human", "random"],
                            preset="classic", target=50)
    hal = open_person()
    hal.page.goto(f"{server.url}/t/{table_id}")
    hal.wait_ready()
    expect(hal.testid("join-panel")).to_be_visible()
    expect(hal.testid("table-title")).to_have_text("Gus's table")
    expect(hal.testid("table-rules")).to_contain_text("classic")


def test_a_refused_seat_token_still_lets_one_join_a_free_seat(open_person: OpenPerson,
                                                              server: ServerProcess) -> None:
    ida = open_person()
    table_id = create_table(ida, server, name="Ida", seats=["human", "human", "random"])
    jo = open_person()
    jo.page.goto(server.url + "/")
    jo.page.evaluate(f"localStorage.setItem('hearts-token-{table_id}', 'stale-token')")
    jo.page.goto(f"{server.url}/t/{table_id}")
    jo.wait_ready()
    expect(jo.testid("connection-status")).to_contain_text("not accepted")
    expect(jo.testid("join-panel")).to_be_visible()
    jo.testid("join-name").fill("Jo")
    jo.testid("join-submit").click()
    jo.page.wait_for_selector("[data-testid='seat-1'][data-me='true']", state="attached")
    expect(ida.testid("seat-1")).to_contain_text("Jo")


def test_hints_and_table_options_in_the_browser(open_person: OpenPerson,
                                                server: ServerProcess) -> None:
    dee = open_person()
    create_table(dee, server, name="Dee", preset="standard", options="moon=shooter-choice",
                 seats=["human", "easy", "normal", "random"], target=100)
    expect(dee.testid("table-rules")).to_contain_text("standard")
    expect(dee.testid("table-rules")).to_contain_text("moon=shooter-choice")
    expect(dee.testid("howto-link")).to_have_attribute("href", "/how-to-play/standard")
    for seat, level in ((1, "easy"), (2, "normal"), (3, "random")):
        expect(dee.testid(f"seat-{seat}")).to_contain_text(level)

    dee.wait_for(lambda: dee.what_now() == "pass", "the pass")
    dee.testid("hint-button").click()
    expect(dee.testid("hint-text")).to_contain_text("Hint: pass ")
    hinted = dee.page.locator("#hand button.card[data-hinted='true']")
    expect(hinted).to_have_count(3)
    names = hinted.evaluate_all("els => els.map(e => e.dataset.card)")
    move = str(dee.testid("hint-text").text_content()).split(". ")[0]  # names the hinted cards
    assert sorted(move.removeprefix("Hint: pass ").split()) == sorted(Card(n).pretty for n in names)
    dee.pass_cards(names)

    dee.wait_for(lambda: dee.what_now() == "play", "a turn to play", timeout_s=30)
    dee.page.keyboard.press("h")
    expect(dee.testid("hint-text")).to_contain_text("Hint: play ")
    suggested = dee.page.locator("#hand button.card[data-hinted='true']")
    expect(suggested).to_have_count(1)
    card = Card(str(suggested.get_attribute("data-card")))
    expect(dee.testid("hint-text")).to_contain_text(f"Hint: play {card.pretty}. ")
    assert suggested.get_attribute("data-legal") == "true"
    assert dee.errors == []


def test_mouse_and_keyboard_play_with_legal_cards_marked(open_person: OpenPerson,
                                                        server: ServerProcess) -> None:
    eve = open_person()
    create_table(eve, server, name="Eve", seats=["human", "random", "random", "random"])
    seen = {"illegal_refused": 0, "enter": 0, "arrows": 0, "digit": 0, "labels": 0,
            "keyboard_pass": 0}

    def exercise(person: Person, what: str) -> None:
        hand, legal = person.hand(), person.legal()
        # Every card names itself for screen readers, with whether it can be played.
        for card in hand:
            label = person.testid(f"card-{card}").get_attribute("aria-label") or ""
            assert label.startswith(spoken_forms(card)), (card, label)
            if what == "play":
                assert ("playable" if card in legal else "not playable now") in label
        seen["labels"] += 1
        if what == "pass":  # select with Enter and Space along the arrows, pass with Enter
            count = int(person.testid("pass-count").inner_text())
            person.testid(f"card-{hand[0]}").focus()
            for index in range(count):
                if index:
                    person.page.keyboard.press("ArrowRight")
                person.page.keyboard.press("Enter" if index % 2 == 0 else "Space")
            chosen = person.page.locator("#hand button.card[aria-pressed='true']")
            expect(chosen).to_have_count(count)
            assert chosen.evaluate_all("els => els.map(e => e.dataset.card)") == hand[:count]
            person.testid("pass-submit").press("Enter")
            expect(person.testid("pass-panel")).to_be_hidden()
            seen["keyboard_pass"] += 1
            return
        if what != "play":
            return
        assert legal and set(legal) <= set(hand)
        illegal = sorted(set(hand) - set(legal))
        if illegal and not seen["illegal_refused"]:
            state_id = person.state_id()
            person.press_card(illegal[0])
            person.page.wait_for_timeout(400)
            assert illegal[0] in person.hand(), "an unplayable card left the hand"
            assert person.state_id() == state_id and person.what_now() == "play"
            seen["illegal_refused"] += 1
        turn = seen["enter"] + seen["arrows"] + seen["digit"]
        if turn % 3 == 0:  # Enter on a focused playable card
            button = person.testid(f"card-{legal[-1]}")
            button.focus()
            person.played(legal[-1], lambda: button.press("Enter"))
            seen["enter"] += 1
        elif turn % 3 == 1:  # arrows move the focus along the hand, then Space plays
            person.testid(f"card-{hand[0]}").focus()
            for _ in range(hand.index(legal[0])):
                person.page.keyboard.press("ArrowRight")
            focused = person.page.evaluate("() => document.activeElement.dataset.card")
            assert focused == legal[0]
            person.played(legal[0], lambda: person.page.keyboard.press("Space"))
            seen["arrows"] += 1
        else:  # digit n plays the n-th playable card
            nth = min(len(legal), 2)
            person.testid(f"card-{hand[0]}").focus()
            person.played(legal[nth - 1], lambda: person.page.keyboard.press(str(nth)))
            seen["digit"] += 1

    play_until([eve], lambda: eve.what_now() == "over", exercise)
    assert seen["illegal_refused"] == 1, "no turn offered an unplayable card to try"
    assert min(seen["enter"], seen["arrows"], seen["digit"], seen["keyboard_pass"]) >= 1, seen
    assert eve.errors == []


def test_game_end_spectator_deal_check_and_record(open_person: OpenPerson, server: ServerProcess,
                                                  tmp_path: Path) -> None:
    fay = open_person()
    table_id = create_table(fay, server, name="Fay", seats=["human", "random", "easy", "random"])

    watcher = open_person()
    frames: list[dict[str, Any]] = []
    watcher.page.on("websocket", lambda ws: ws.on(
        "framereceived", lambda payload: frames.append(json.loads(payload))))
    watcher.page.goto(f"{server.url}/t/{table_id}")
    watcher.wait_ready()
    expect(watcher.testid("connection-status")).to_contain_text("watching")
    expect(watcher.testid("join-panel")).to_be_hidden()

    def watcher_sees_no_hand(person: Person, what: str) -> None:
        expect(watcher.page.locator("#hand button")).to_have_count(0)
        expect(watcher.testid("pass-submit")).to_be_hidden()

    play_until([fay], lambda: fay.what_now() == "over", watcher_sees_no_hand)
    watcher.wait_for(lambda: watcher.page.evaluate("document.body.dataset.phase") == "over",
                     "the spectator to see the end")

    # A spectator's messages never carried a hand.
    views = [f["view"] for f in frames if "view" in f]
    assert views and all(v["hand"] == [] and v["legal"] == [] and v["passed"] is None
                         for v in views)

    # Game over: winners, the sheet, the deal checks, the same on both pages.
    rows = sheet_rows(fay)
    assert rows and rows == sheet_rows(watcher)
    for person in (fay, watcher):
        expect(person.testid("round-end-title")).to_have_text("The game is over.")
        for number in range(1, len(rows) + 1):
            check = person.testid(f"fairness-result-{number}")
            expect(check).to_have_attribute("data-ok", "true")
    expect(fay.testid("fairness-result-1")).to_contain_text("our dealt hand match")

    # The record link downloads the game, which the core replays to the same scores.
    link = fay.testid("download-record")
    expect(link).to_be_visible()
    with fay.page.expect_download() as download:
        link.click()
    saved = tmp_path / "record.json"
    download.value.save_as(saved)
    record = json.loads(saved.read_text())
    state = replay_game(record)
    assert state.is_over and len(state.results) == len(rows)
    for row, result in zip(rows, state.results, strict=True):
        shown = [int(re.split(r" = ", cell)[1].split()[0]) for cell in row[1:]]
        assert shown == list(result.totals)
    names = [record["seats"][s] for s in state.winners]
    assert record["seats"][0] == "Fay"
    winners_text = fay.testid("winners").inner_text()
    assert all(name in winners_text for name in names), (winners_text, names)
    assert record["rounds"][-1]["fairness"]["commitment"] == \
        fay.testid("fairness-commitment").inner_text()
    assert fay.errors == [] and watcher.errors == []


def test_a_link_to_no_table_says_so_and_leads_to_the_lobby(open_person: OpenPerson,
                                                           server: ServerProcess) -> None:
    """A mistyped or old link was an empty table with a line in small print, its buttons
    live, and no way on but the header."""
    person = open_person(viewport=(390, 844), touch=True)
    person.page.goto(server.url + "/t/nosuchtable")
    person.wait_ready()
    expect(person.testid("status")).to_contain_text("There is no table at this address.")
    lobby = person.testid("no-table-lobby")
    expect(lobby).to_have_attribute("href", "/")
    expect(person.testid("last-trick-button")).to_be_disabled()
    lobby.tap()
    person.page.wait_for_url(server.url + "/")
    assert person.errors == []


def test_a_double_click_plays_the_card_once_and_says_nothing_wrong(
        open_person: OpenPerson, server: ServerProcess) -> None:
    """A second click (or tap) on a card before the table moves on is the same play again:
    the page sends it once, where the server refused the second naming the played card."""
    ann = open_person()
    create_table(ann, server, name="Ann", seats=["human", "random", "random", "random"])
    play_until([ann], lambda: ann.what_now() == "play")
    card = ann.legal()[0]
    sid = ann.state_id()
    ann.card(card).evaluate("button => { button.click(); button.click(); }")
    ann.page.wait_for_function("sid => Number(document.body.dataset.stateId) > sid", arg=sid)
    ann.page.wait_for_timeout(1000)  # time for a second play's refusal to arrive
    expect(ann.testid("error-text")).to_have_text("")
    assert card not in ann.hand() or ann.what_now() is None
