"""A duplicate challenge in two browsers: made in the lobby, its link opened by two people
who each play its deal through the table page to the end (with different cards), and both
see one leaderboard with both rows, as the server ranked them. The challenge page fits a
phone and a laptop, passes the accessibility audit, and a screenshot of each lands in
``test-artifacts/screenshots/``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect
from tests.e2e.conftest import OpenPerson, Person, ServerProcess, assert_accessible, play_until

from hearts.challenge import Challenge
from hearts.core import game_record
from hearts.players import make_player
from hearts.players.driver import run_game

pytestmark = pytest.mark.browser

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
OPPONENTS = ["easy", "normal", "random"]


def assert_no_sideways_scroll(person: Person) -> None:
    widths = person.page.evaluate(
        "() => [document.documentElement.scrollWidth, innerWidth]")
    assert widths[0] <= widths[1], f"the page scrolls sideways: {widths}"


def make_challenge(person: Person, server: ServerProcess) -> str:
    """Fill the lobby's challenge form like a person; the link it gives."""
    page = person.page
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-challenge-ready='true']", state="attached")
    person.testid("challenge-preset").select_option("card-commons")
    person.testid("challenge-players").select_option("4")
    for seat, level in enumerate(OPPONENTS, start=1):
        person.testid(f"challenge-seat-{seat}").select_option(level)
    person.testid("challenge-deals").fill("1")
    person.testid("challenge-seed").fill("e2e")
    person.testid("challenge-submit").click()
    expect(person.testid("challenge-made")).to_be_visible()
    link: str = person.testid("challenge-link").input_value()
    return link


def panel_shot(person: Person, name: str) -> None:
    """A screenshot of the lobby's challenge panel."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    person.page.locator("section", has=person.testid("challenge-form")).screenshot(
        path=str(SCREENSHOTS / f"{name}.png"))


def take_seat(person: Person, link: str, name: str) -> None:
    """Open the challenge's link and play its deals: the table page opens."""
    person.page.goto(link)
    person.page.wait_for_selector("body[data-ready='true']", state="attached")
    person.testid("play-name").fill(name)
    person.testid("play-submit").click()
    person.page.wait_for_url("**/t/*")
    person.wait_ready()


def wait_for_hand(person: Person, size: int) -> None:
    person.wait_for(lambda: len(person.hand()) == size, "the dealt hand")


def board_rows(person: Person) -> list[list[str]]:
    rows: list[list[str]] = person.page.locator("[data-testid^='board-row-']").evaluate_all(
        "rows => rows.map(r => [...r.cells].map(c => c.textContent.trim()))")
    return rows


def test_two_browsers_play_one_challenge_and_see_one_leaderboard(
        open_person: OpenPerson, server: ServerProcess) -> None:
    ann = open_person(viewport=(1280, 800))
    link = make_challenge(ann, server)
    panel_shot(ann, "challenge-lobby-made-1280x800")
    expected = Challenge.create("card-commons", OPPONENTS, 1, "e2e")
    assert link == f"{server.url}/c/{expected.code}"
    ann.testid("challenge-open").click()
    ann.page.wait_for_url(f"**/c/{expected.code}")
    expect(ann.testid("challenge-summary")).to_contain_text("One deal of card-commons")
    expect(ann.testid("board-empty")).to_be_visible()
    assert_accessible(ann, "the challenge page before anyone played it")
    take_seat(ann, link, "Ann")
    bob = open_person(viewport=(390, 844), touch=True)
    take_seat(bob, link, "Bob")
    size = expected.rules.hand_size
    for person in (ann, bob):  # the deal arrives with the websocket's welcome
        wait_for_hand(person, size)
    dealt = {"Ann": ann.hand(), "Bob": bob.hand()}
    assert dealt["Ann"] == dealt["Bob"], "two challengers were dealt different hands"
    # the fair-shuffle panel says where a challenge's deals come from
    assert ann.testid("fairness-challenge").get_attribute("hidden") is None

    def bob_plays_other_cards(person: Person, what: str) -> None:
        """Bob passes and plays the last cards offered, Ann the first: two plays."""
        if person is not bob:
            return
        if what == "pass":
            count = int(bob.testid("pass-count").inner_text())
            bob.pass_cards(bob.hand()[-count:])
        elif what == "play":
            bob.play(bob.legal()[-1])

    play_until([ann, bob], lambda: ann.what_now() == "over" and bob.what_now() == "over",
               before_turn=bob_plays_other_cards)

    boards: dict[str, list[list[str]]] = {}
    for name, person in (("Ann", ann), ("Bob", bob)):
        back = person.testid("challenge-link")
        expect(back).to_be_visible()
        if person is bob:
            bob.page.screenshot(path=str(SCREENSHOTS / "challenge-game-over-390x844.png"))
        back.click()
        person.page.wait_for_url(f"**/c/{expected.code}")
        person.page.wait_for_selector("body[data-entries='2']", state="attached",
                                      timeout=90_000)
        boards[name] = board_rows(person)
        assert not person.errors
    assert boards["Ann"] == boards["Bob"]
    assert sorted(row[1] for row in boards["Ann"]) == ["Ann", "Bob"]
    # place, name, the one deal's points, the total; ranked by the server, fewest first
    for row in boards["Ann"]:
        assert len(row) == 4 and row[2].rstrip(" ★") == row[3]
    assert [int(row[3]) for row in boards["Ann"]] == sorted(int(row[3]) for row in boards["Ann"])
    assert boards["Ann"][0][0] == "1"


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)])
def test_the_challenge_page_fits_and_passes_the_audit(
        open_person: OpenPerson, server: ServerProcess, size: tuple[int, int]) -> None:
    """Runs after the game above (the module's server is shared): the board has rows."""
    person = open_person(viewport=size, touch=size[0] < 500)
    code = Challenge.create("card-commons", OPPONENTS, 1, "e2e").code
    person.page.goto(f"{server.url}/c/{code}")
    person.page.wait_for_selector("body[data-ready='true']", state="attached")
    expect(person.testid("leaderboard")).to_be_visible()
    assert_no_sideways_scroll(person)
    assert_accessible(person, f"the challenge page at {size}")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    name = f"challenge-{size[0]}x{size[1]}.png"
    person.page.screenshot(path=str(SCREENSHOTS / name), full_page=True)
    assert not person.errors


def test_a_bad_code_says_so(open_person: OpenPerson, server: ServerProcess) -> None:
    person = open_person(viewport=(390, 844))
    code = Challenge.create("card-commons", OPPONENTS, 1, "e2e").code
    response = person.page.goto(f"{server.url}/c/{code[:-1]}")
    assert response is not None and response.status == 404
    person.page.wait_for_selector("body[data-ready='true']", state="attached")
    expect(person.testid("challenge-missing")).to_be_visible()
    expect(person.testid("challenge-missing-text")).to_contain_text("does not check out")
    expect(person.testid("play-submit")).to_be_hidden()
    person.page.screenshot(path=str(SCREENSHOTS / "challenge-bad-code-390x844.png"))


def test_the_lobbys_challenge_form_on_a_phone(open_person: OpenPerson,
                                             server: ServerProcess) -> None:
    person = open_person(viewport=(390, 844), touch=True)
    person.page.goto(server.url + "/")
    person.page.wait_for_selector("body[data-challenge-ready='true']", state="attached")
    # a seed with letters a code cannot hold is refused with the reason, nothing is made
    person.testid("challenge-seed").fill("olive")
    person.testid("challenge-submit").click()
    expect(person.testid("challenge-error")).to_contain_text("cannot be in a code")
    expect(person.testid("challenge-made")).to_be_hidden()
    link = make_challenge(person, server)
    assert "/c/" in link
    assert_no_sideways_scroll(person)
    assert_accessible(person, "the lobby with a challenge made, on a phone")
    panel_shot(person, "challenge-lobby-made-390x844")
    assert not person.errors


def test_a_record_sent_from_the_page_goes_on_the_board(
        open_person: OpenPerson, server: ServerProcess, tmp_path: Path) -> None:
    challenge = Challenge.create("card-commons", OPPONENTS, 1, "e2e")
    seats = [make_player("hard", "terminal"),
             *(challenge.computer(s) for s in range(1, challenge.players))]
    record = game_record(run_game(challenge.new_game(), seats), ["Tess", "B", "C", "D"])
    path = tmp_path / "tess.json"
    path.write_text(json.dumps(record))
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(dict(record, seed="e2f")))
    person = open_person(viewport=(1280, 800))
    person.page.goto(f"{server.url}/c/{challenge.code}")
    person.page.wait_for_selector("body[data-ready='true']", state="attached")
    before = int(person.page.evaluate("() => Number(document.body.dataset.entries)"))
    person.testid("entry-file").set_input_files(str(forged))
    expect(person.testid("entry-result")).to_contain_text("seed")
    person.testid("entry-file").set_input_files(str(path))
    expect(person.testid("entry-result")).to_contain_text("Checked: Tess")
    person.page.wait_for_selector(f"body[data-entries='{before + 1}']", state="attached")
    assert "Tess" in [row[1] for row in board_rows(person)]
    assert not person.errors
