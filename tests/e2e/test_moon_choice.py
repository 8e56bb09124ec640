"""The moon choice in the browser: a person who took every point chooses how it scores.

A random game almost never shoots the moon, so the table is restored from a stored log
(found with the core) the way the server restores every table after a restart."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect
from tests.e2e.conftest import OpenPerson, ServerProcess, serving, sheet_rows
from tests.e2e.moon_game import SHOOTER, MoonTable, store_moon_table

from hearts.core import ChooseMoon, MoonChoice

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def moon(tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[tuple[ServerProcess, dict[MoonChoice, MoonTable]]]:
    """A server restored from a store holding one such table for each choice."""
    db = tmp_path_factory.mktemp("moon") / "hearts.sqlite3"
    tables = {choice: store_moon_table(db, f"moon-{choice.value}", f"token-{choice.value}",
                                       name=f"Moe {choice.value}")
              for choice in MoonChoice}
    with serving(db) as running:
        yield running, tables


@pytest.mark.parametrize("choice", list(MoonChoice), ids=str)
def test_the_shooter_chooses_in_the_browser_and_the_sheet_shows_the_moon(
        open_person: OpenPerson, moon: tuple[ServerProcess, dict[MoonChoice, MoonTable]],
        choice: MoonChoice) -> None:
    server, tables = moon
    table = tables[choice]
    expected = table.state.apply(ChooseMoon(SHOOTER, choice)).results[0]
    watcher = open_person()
    watcher.page.goto(f"{server.url}/t/{table.table_id}")
    watcher.wait_ready()
    moe = open_person()
    moe.page.context.add_init_script(
        f"localStorage.setItem('hearts-token-{table.table_id}', '{table.token}')")
    moe.page.goto(f"{server.url}/t/{table.table_id}")
    moe.wait_ready()

    expect(moe.testid("moon-panel")).to_be_visible()
    expect(moe.testid("status")).to_contain_text("You shot the moon")
    expect(watcher.testid("moon-panel")).to_be_hidden()
    moe.testid("hint-button").click()
    expect(moe.testid("hint-text")).to_have_text(  # the move in words, then the reason
        re.compile(r"^Hint: (take 26 off my score|add 26 to everyone else)\. \S"))
    moe.testid(f"moon-{choice.value}").click()

    cells = [f"{p:+d} = {t}{' (moon)' if s == SHOOTER else ''}"
             for s, (p, t) in enumerate(zip(expected.points, expected.totals, strict=True))]
    for person in (moe, watcher):
        person.wait_for(lambda p=person: bool(sheet_rows(p)), "the score sheet")
        assert sheet_rows(person) == [["1.", *cells]]
        expect(person.testid("round-end-title")).to_contain_text(f"{table.name} shot the moon!")
        expect(person.testid("fairness-result-1")).to_have_attribute("data-ok", "true")
    expect(moe.testid("fairness-result-1")).to_contain_text("our dealt hand match")
    moe.wait_for(lambda: moe.what_now() == "pass", "round 2's pass")
    expect(moe.testid("moon-panel")).to_be_hidden()
    assert moe.errors == [] and watcher.errors == []
