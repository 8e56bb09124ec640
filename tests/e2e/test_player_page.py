"""The player page in Chromium: a whole short game played by clicks at the table, then
``/me`` shows it with figures that match its downloaded record (``hearts.stats`` over the
record); the private key is exported as a file and imported in a second browser (a phone),
which then shows the same games; a bad key pasted there is refused with the server's
words. Screenshots at phone and laptop sizes land in ``test-artifacts/screenshots/``, and
axe-core finds nothing serious or critical on the page."""

from __future__ import annotations

import json
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
    play_until,
)

from hearts.stats import player_stats

pytestmark = pytest.mark.browser

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
LAPTOP, PHONE = (1280, 800), (390, 844)
FIGURES = ("games", "wins", "shared_wins", "hands", "average_points", "moons_shot",
           "moons_allowed", "queens_taken", "clean_hands")


def screenshot(person: Person, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    person.page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def open_player_page(person: Person, server: ServerProcess) -> None:
    person.page.goto(server.url + "/me")
    person.page.wait_for_selector("body[data-loaded='true']", state="attached")


def shown_figures(person: Person, preset: str) -> dict[str, float | None]:
    """A preset's figures as the page shows them (a dash: no figure)."""
    card = person.testid(f"stats-{preset}")
    shown: dict[str, float | None] = {}
    for name in FIGURES:
        text = card.locator(f"[data-figure='{name}']").inner_text()
        shown[name] = None if text == "—" else float(text)
    return shown


def assert_no_sideways_scroll(person: Person) -> None:
    widths = person.page.evaluate(
        "() => [document.documentElement.scrollWidth, innerWidth]")
    assert widths[0] <= widths[1], f"the page scrolls sideways: {widths}"


def test_the_player_page_matches_the_record_and_moves_with_the_key(
        open_person: OpenPerson, server: ServerProcess, tmp_path: Path) -> None:
    laptop = open_person(viewport=LAPTOP)
    table_id = create_table(laptop, server, name="Ann",
                            seats=["human", "random", "random", "random"], target=1)
    play_until([laptop], lambda: laptop.page.evaluate("document.body.dataset.phase") == "over")
    mine = laptop.testid("my-games-link")
    mine.wait_for(state="visible")
    laptop.page.screenshot(path=str(SCREENSHOTS / "player-link-game-over-1280x800.png"))
    mine.click()
    laptop.page.wait_for_url("**/me")
    laptop.page.wait_for_selector("body[data-loaded='true']", state="attached")

    # The record, downloaded as a person would: the game's Record link on the page.
    game = laptop.testid(f"game-{table_id}")
    expect(game).to_be_visible()
    with laptop.page.expect_download() as saved:
        laptop.testid(f"record-{table_id}").click()
    record: dict[str, Any] = json.loads(Path(saved.value.path()).read_text(encoding="utf-8"))
    assert record["table"] == table_id and record["seats"][0] == "Ann"

    expected = player_stats([record], "Ann")
    assert list(expected) == ["card-commons"]
    figures = expected["card-commons"].to_json()
    shown = shown_figures(laptop, "card-commons")
    assert shown == {name: None if figures[name] is None else float(figures[name])
                     for name in FIGURES}
    assert shown["games"] == 1 and shown["hands"] == len(record["rounds"])
    won = 0 in record["winners"]
    assert game.get_attribute("data-won") == str(won).lower()
    result = laptop.testid(f"result-{table_id}").inner_text()
    assert (f"You won with {record['totals'][0]} point" in result) if won else \
        (f"You: {record['totals'][0]} point" in result)
    expect(laptop.testid("me-status")).to_have_text("1 finished game.")
    assert_no_sideways_scroll(laptop)
    assert_accessible(laptop, "the player page at 1280x800")
    screenshot(laptop, "player-1280x800")

    # Export: the key file; the key shown on demand is the one in the file.
    with laptop.page.expect_download() as exported:
        laptop.testid("key-download").click()
    key_file = tmp_path / "hearts-player-key.json"
    exported.value.save_as(str(key_file))
    key = json.loads(key_file.read_text(encoding="utf-8"))["key"]
    assert laptop.testid("key-text").get_attribute("type") == "password"
    laptop.testid("key-show").click()
    expect(laptop.testid("key-text")).to_have_value(key)

    # A second browser (a phone) starts with a key of its own, and no games; the lobby
    # links to its page.
    phone = open_person(viewport=PHONE, touch=True)
    phone.page.goto(server.url + "/")
    phone.wait_ready()
    screenshot(phone, "player-lobby-link-390x844")
    phone.testid("my-games-link").tap()
    phone.page.wait_for_url("**/me")
    phone.page.wait_for_selector("body[data-loaded='true']", state="attached")
    expect(phone.testid("no-games")).to_be_visible()
    expect(phone.testid("no-stats")).to_be_visible()
    assert phone.page.locator("[data-testid^='game-']").count() == 0
    assert phone.testid("key-text").input_value() != key
    screenshot(phone, "player-empty-390x844")

    # A pasted key the server would refuse is refused here, and nothing changes.
    phone.testid("import-text").fill("not a key")
    phone.testid("import-submit").tap()
    expect(phone.testid("key-status")).to_contain_text("22 to 128 characters")
    assert phone.testid("key-text").input_value() != key

    # The exported file, imported: the same games and figures.
    phone.testid("import-file").set_input_files(str(key_file))
    expect(phone.testid("key-status")).to_contain_text("Key imported")
    phone.page.wait_for_selector("body[data-loaded='true']", state="attached")
    expect(phone.testid(f"game-{table_id}")).to_be_visible()
    assert phone.testid("key-text").input_value() == key
    assert shown_figures(phone, "card-commons") == shown
    assert phone.testid(f"result-{table_id}").inner_text() == result
    assert_no_sideways_scroll(phone)
    assert_accessible(phone, "the player page at 390x844")
    screenshot(phone, "player-390x844")

    # The key survives a reload (kept in this browser), and the game's replay opens.
    open_player_page(phone, server)
    assert phone.testid("key-text").input_value() == key
    phone.testid(f"replay-{table_id}").tap()
    phone.page.wait_for_selector("body[data-loaded='true']")
    assert phone.page.locator(".replay-seat .name").first.inner_text() == "Ann"
    assert not laptop.errors and not phone.errors


@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=lambda size: "x".join(map(str, size)))
def test_the_tables_still_being_played_show_their_titles(
        open_person: OpenPerson, server: ServerProcess, size: tuple[int, int]) -> None:
    """A player who left two tables once saw two bare "Back to the table" links: each is
    listed by its title now, and its link leads back to it."""
    person = open_person(viewport=size, touch=size == PHONE)
    where = "x".join(map(str, size))
    waiting = {create_table(person, server, name=name, seats=["human", "human", "random"]):
               f"{name}'s table" for name in ("Bea", "Cy")}  # a free seat: neither starts
    open_player_page(person, server)
    expect(person.testid("playing-panel")).to_be_visible()
    for table_id, title in waiting.items():
        entry = person.testid(f"playing-{table_id}")
        expect(entry).to_contain_text(title)
        expect(entry).to_contain_text("seat 1")
    assert_no_sideways_scroll(person)
    assert_accessible(person, f"the tables still being played at {where}")
    screenshot(person, f"player-playing-{where}")
    table_id, title = next(iter(waiting.items()))
    person.testid(f"back-{table_id}").click()
    person.page.wait_for_url(f"**/t/{table_id}")
    expect(person.testid("table-title")).to_have_text(title)
    assert not person.errors
