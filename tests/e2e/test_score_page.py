"""The scorekeeper page (``/score``) on a phone: a real-deck game kept by taps, in Chromium.

Each test drives the real ``hearts serve`` through what a person sees at 390×844 (the
``data-testid`` attributes, buttons and fields) and checks the sheet against the core's
:class:`hearts.core.Sheet` fed the same rounds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.e2e.conftest import STEP_TIMEOUT_MS, ServerProcess, serving

from hearts.core import (
    InvalidRoundError,
    MoonChoice,
    MoonChoiceNeededError,
    Rules,
    Sheet,
    Taken,
)
from hearts.scoresheet import sheet_csv, sheet_markdown, winner_text

pytestmark = pytest.mark.browser

SCREENSHOTS = Path(__file__).parents[2] / "test-artifacts" / "screenshots"
PHONE = {"width": 390, "height": 844}
NAMES = ["Ann", "Bo", "Cy", "Di"]


@pytest.fixture(scope="module")
def score_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server of its own: the page's tests share sheets in its store, not tables."""
    with serving(tmp_path_factory.mktemp("score") / "hearts.sqlite3") as running:
        yield running


@pytest.fixture
def phones(browser: Any) -> Iterator[Any]:
    """Opens phones: each a fresh context (own storage, own service worker) at 390×844."""
    contexts: list[Any] = []

    def open_phone() -> Any:
        context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True,
                                      accept_downloads=True)
        contexts.append(context)
        context.set_default_timeout(STEP_TIMEOUT_MS)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.errors = errors
        return page

    yield open_phone
    for context in contexts:
        context.close()


# ---------------------------------------------------------------------------- acting as a person
def ready(page: Any) -> None:
    page.wait_for_selector("body[data-ready='true']", state="attached")


def start_sheet(page: Any, server: ServerProcess, *, preset: str = "card-commons",
                options: str = "", names: Sequence[str] = NAMES) -> None:
    page.goto(server.url + "/score")
    ready(page)
    page.get_by_test_id("setup-preset").select_option(preset)
    page.get_by_test_id("setup-count").select_option(str(len(names)))
    page.get_by_test_id("setup-options").fill(options)
    for seat, name in enumerate(names):
        page.get_by_test_id(f"setup-name-{seat}").fill(name)
    page.get_by_test_id("setup-start").tap()
    expect(page.get_by_test_id("entry")).to_be_visible()


def tap_round(page: Any, cards: dict[int, Sequence[str]], rest: int | None = None) -> None:
    """Tap each player's point cards (``rest``: the untapped ones go to that player)."""
    for seat, names in cards.items():
        page.get_by_test_id(f"taker-{seat}").tap()
        for card in names:
            page.get_by_test_id(f"card-{card}").tap()
    if rest is not None:
        page.get_by_test_id(f"taker-{rest}").tap()
        page.get_by_test_id("cards-rest").tap()


def enter(page: Any) -> None:
    page.get_by_test_id("entry-submit").tap()


def type_round(page: Any, points: Sequence[int], jack: int | None = None) -> None:
    page.get_by_test_id("mode-points").tap()
    for seat, value in enumerate(points):
        page.get_by_test_id(f"points-{seat}").fill(str(value))
    if jack is not None:
        page.get_by_test_id("jack-taker").select_option(str(jack))
    enter(page)


def shown_rows(page: Any, table: str = "sheet") -> list[list[str]]:
    rows: list[list[str]] = page.get_by_test_id(table).locator("tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.cells].map(c => c.textContent.trim()))")
    return rows


def expected_rows(sheet: Sheet) -> list[list[str]]:
    """The sheet lines as the core scores them: ``points = total``, the moon marked ``*``."""
    return [[f"{r.round_no}."] + [f"{p:+d}{'*' if r.shooter == s else ''} = {t}"
                                  for s, (p, t) in enumerate(zip(r.points, r.totals,
                                                                 strict=True))]
            for r in sheet.results]


def wait_rows(page: Any, count: int, table: str = "sheet") -> None:
    expect(page.get_by_test_id(table).locator("tbody tr")).to_have_count(count)


def shot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"score-{name}.png"), full_page=True)


def hearts(*ranks: str) -> list[str]:
    return [f"{rank}H" for rank in ranks]


def taken_by_taps(cards: dict[int, Sequence[str]], rest: int) -> list[Taken]:
    """The cards each of four players took: those tapped, the rest (of 13 hearts and the
    Q♠) to ``rest``."""
    taken = [Taken(sum(c.endswith("H") for c in cards.get(s, [])), "QS" in cards.get(s, []))
             for s in range(len(NAMES))]
    left = len(ALL_RANKS) - sum(t.hearts for t in taken)
    taken[rest] = Taken(taken[rest].hearts + left,
                        taken[rest].queen or not any(t.queen for t in taken))
    return taken


ALL_RANKS = "23456789TJQKA"


# ---------------------------------------------------------------------------- the tests
def test_a_whole_game_to_the_target_entered_by_taps(phones: Any,
                                                     score_server: ServerProcess) -> None:
    page = phones()
    start_sheet(page, score_server, options="target=40")
    expect(page.get_by_test_id("rules-line")).to_contain_text("card-commons:target=40")
    sheet = Sheet(Rules.parse("card-commons:target=40"), tuple(NAMES))
    # Ann and Bo split the points; then Cy; then Ann twice: Cy and Di tie for the win.
    rounds = [({0: ["QS"]}, 1), ({2: ["QS", *hearts("2", "3", "4", "5")]}, 3),
              ({0: ["QS", *hearts("2", "3", "4", "5", "6")]}, 3), ({0: ["QS"]}, 1)]
    for number, (cards, rest) in enumerate(rounds, 1):
        tap_round(page, cards, rest)
        if number == 2:
            expect(page.get_by_test_id("cards-summary")).to_have_text(
                "Every point card is given to someone.")
            shot(page, "taps")
        enter(page)
        wait_rows(page, number)
        sheet = sheet.add_round(taken=taken_by_taps(cards, rest))
        assert shown_rows(page) == expected_rows(sheet)
    assert sheet.is_over and sheet.winners == (2, 3)
    expect(page.get_by_test_id("game-over")).to_have_text(f"Game over. {winner_text(sheet)}")
    assert winner_text(sheet) == "Winners (tied): Cy, Di"
    expect(page.get_by_test_id("entry")).to_be_hidden()
    totals = [page.get_by_test_id(f"total-{s}").inner_text() for s in range(len(NAMES))]
    assert totals == [str(t) for t in sheet.totals]
    shot(page, "game-over")
    assert not page.errors


def test_an_impossible_round_is_refused_with_its_reason(phones: Any,
                                                        score_server: ServerProcess) -> None:
    page = phones()
    start_sheet(page, score_server)
    sheet = Sheet(Rules(), tuple(NAMES))
    with pytest.raises(InvalidRoundError) as typed:
        sheet.add_round(points=[13, 5, 8, 1])
    type_round(page, [13, 5, 8, 1])
    expect(page.get_by_test_id("entry-error")).to_have_text(f"Not added: {typed.value}.")
    assert "the points add up to 27; a round holds 26" in str(typed.value)
    shot(page, "refused")
    page.get_by_test_id("mode-cards").tap()
    tap_round(page, {0: ["QS", "2H"]})
    enter(page)
    with pytest.raises(InvalidRoundError) as tapped:
        sheet.add_round(taken=[Taken(1, True), Taken(), Taken(), Taken()])
    expect(page.get_by_test_id("entry-error")).to_have_text(f"Not added: {tapped.value}.")
    wait_rows(page, 0)
    # fixed, the same round goes in
    tap_round(page, {}, rest=1)
    enter(page)
    wait_rows(page, 1)
    expect(page.get_by_test_id("entry-error")).to_have_text("")
    assert shown_rows(page) == expected_rows(sheet.add_round(taken=[Taken(1, True), Taken(12),
                                                                    Taken(), Taken()]))


@pytest.mark.parametrize(("preset", "choice"), [("card-commons", None), ("standard", None),
                                                ("classic", MoonChoice.SUBTRACT),
                                                ("classic", MoonChoice.ADD)])
def test_a_moon_is_scored_by_the_preset_rule(phones: Any, score_server: ServerProcess,
                                             preset: str, choice: MoonChoice | None) -> None:
    page = phones()
    start_sheet(page, score_server, preset=preset)
    sheet = Sheet(Rules.preset_rules(preset, 4), tuple(NAMES))
    sheet = sheet.add_round(points=[0, 13, 13, 0])
    type_round(page, [0, 13, 13, 0])
    wait_rows(page, 1)
    page.get_by_test_id("mode-cards").tap()
    tap_round(page, {}, rest=2)
    enter(page)
    moon = [Taken(), Taken(), Taken(13, True), Taken()]
    if choice is None:
        expect(page.get_by_test_id("moon-panel")).to_be_hidden()
        sheet = sheet.add_round(taken=moon)
    else:
        with pytest.raises(MoonChoiceNeededError):
            sheet.add_round(taken=moon)
        expect(page.get_by_test_id("moon-panel")).to_be_visible()
        expect(page.get_by_test_id("moon-panel")).to_contain_text("Cy shot the moon")
        shot(page, "moon-choice")
        page.get_by_test_id(f"moon-{choice.value}").tap()
        sheet = sheet.add_round(taken=moon, moon_choice=choice)
    wait_rows(page, 2)
    assert shown_rows(page) == expected_rows(sheet)
    assert "*" in shown_rows(page)[1][3]
    expect(page.get_by_text("* shot the moon")).to_be_visible()


def test_the_last_round_is_corrected_and_deleted(phones: Any,
                                                 score_server: ServerProcess) -> None:
    page = phones()
    start_sheet(page, score_server, preset="classic", options="jack_of_diamonds=on",
                names=NAMES[:3])
    rules = Rules.parse("classic:players=3,jack_of_diamonds=on")
    sheet = Sheet(rules, tuple(NAMES[:3]))
    type_round(page, [13, 3, 0], jack=2)
    wait_rows(page, 1)
    wrong = shown_rows(page)
    page.get_by_test_id("edit-last").tap()
    expect(page.get_by_test_id("entry")).to_contain_text("Correct round 1")
    # the correction form holds the round as entered
    assert [page.get_by_test_id(f"points-{s}").input_value() for s in range(3)] == \
        ["13", "3", "0"]
    type_round(page, [23, 3, -10], jack=2)
    sheet = sheet.add_round(points=[23, 3, -10], jack=2)
    wait_rows(page, 1)
    assert shown_rows(page) == expected_rows(sheet) != wrong
    page.get_by_test_id("undo-last").tap()  # deleting a round asks twice
    expect(page.get_by_test_id("undo-last")).to_contain_text("Tap again")
    wait_rows(page, 1)
    # a round entered between the taps: the question was about the sheet before it
    type_round(page, [23, 3, -10], jack=2)
    wait_rows(page, 2)
    expect(page.get_by_test_id("undo-last")).to_have_text("Delete last round")
    page.get_by_test_id("undo-last").tap()
    wait_rows(page, 2)
    page.get_by_test_id("undo-last").tap()
    wait_rows(page, 1)
    page.get_by_test_id("undo-last").tap()
    page.get_by_test_id("undo-last").tap()
    wait_rows(page, 0)
    # a new game asks twice, then the setup form is back and the sheet is gone
    page.get_by_test_id("new-game").tap()
    expect(page.get_by_test_id("entry")).to_be_visible()
    page.get_by_test_id("new-game").tap()
    expect(page.get_by_test_id("setup-form")).to_be_visible()
    page.reload()
    ready(page)
    expect(page.get_by_test_id("setup-form")).to_be_visible()


def test_reload_while_offline_keeps_the_sheet(phones: Any, score_server: ServerProcess) -> None:
    page = phones()
    start_sheet(page, score_server, preset="classic", options="target=60")
    type_round(page, [10, 3, 0, 13])
    wait_rows(page, 1)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.context.set_offline(True)
    page.reload()
    ready(page)
    wait_rows(page, 1)
    expect(page.get_by_test_id("net")).to_contain_text("Offline")
    # a round entered offline is checked offline, moon choice included
    page.get_by_test_id("mode-cards").tap()
    tap_round(page, {}, rest=0)
    enter(page)
    page.get_by_test_id("moon-add").tap()
    wait_rows(page, 2)
    page.reload()
    ready(page)
    wait_rows(page, 2)
    sheet = Sheet(Rules.parse("classic:target=60"), tuple(NAMES)).add_round(
        points=[10, 3, 0, 13]).add_round(taken=[Taken(13, True), Taken(), Taken(), Taken()],
                                         moon_choice=MoonChoice.ADD)
    assert shown_rows(page) == expected_rows(sheet)
    shot(page, "offline")
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")  # as a phone's network returns
    expect(page.get_by_test_id("net")).to_have_text("")


def test_the_share_link_shows_the_same_sheet_live(phones: Any,
                                                  score_server: ServerProcess) -> None:
    keeper, friend = phones(), phones()
    start_sheet(keeper, score_server, preset="standard")
    type_round(keeper, [0, 13, 13, 0])
    wait_rows(keeper, 1)
    keeper.get_by_test_id("share").tap()
    link = keeper.get_by_test_id("share-link")
    expect(link).to_be_visible()
    friend.goto(link.get_attribute("href"))
    wait_rows(friend, 1, "shared-sheet")
    assert shown_rows(friend, "shared-sheet") == shown_rows(keeper)
    keeper.get_by_test_id("mode-cards").tap()
    tap_round(keeper, {0: ["QS"]}, rest=3)
    enter(keeper)
    wait_rows(friend, 2, "shared-sheet")
    assert shown_rows(friend, "shared-sheet") == shown_rows(keeper)
    assert friend.get_by_test_id("entry").is_hidden()
    shot(friend, "shared")
    shot(keeper, "keeper-shared")


def test_files_go_between_the_page_and_hearts_score(phones: Any, score_server: ServerProcess,
                                                    tmp_path: Path) -> None:
    page = phones()
    start_sheet(page, score_server, options="jack_of_diamonds=on", names=NAMES[:3])
    type_round(page, [13, 3, 0], jack=2)
    wait_rows(page, 1)
    # with the house rule on, the J♦ is a point card to tap
    page.get_by_test_id("mode-cards").tap()
    tap_round(page, {1: ["JD", "QS"]}, rest=0)
    expect(page.get_by_test_id("taker-1")).to_contain_text("3 pts")
    enter(page)
    wait_rows(page, 2)
    with page.expect_download() as saved:
        page.get_by_test_id("export-file").tap()
    home = tmp_path / "home"
    (home / "sheets").mkdir(parents=True)
    saved.value.save_as(home / "sheets" / "phone.json")
    env = os.environ | {"HEARTS_HOME": str(home)}
    shown = subprocess.run([sys.executable, "-m", "hearts.cli.main", "score", "--open",
                            "phone", "--export", "text"], env=env, capture_output=True,
                           text=True, check=True, timeout=60).stdout
    sheet = Sheet.from_json(json.loads((home / "sheets" / "phone.json").read_text()))
    assert [r.points for r in sheet.results] == [(13, 3, 0), (13, 3, 0)]
    assert [t.jack for t in sheet.entries[1].taken] == [False, True, False]
    assert shown_rows(page) == expected_rows(sheet)
    assert "+13 = 13" in shown and "+3 = 3" in shown
    for kind, expected in (("csv", sheet_csv(sheet)), ("md", sheet_markdown(sheet))):
        with page.expect_download() as exported:
            page.get_by_test_id(f"export-{kind}").tap()
        assert Path(exported.value.path()).read_text(encoding="utf-8") == expected

    # the other way: a sheet kept in the terminal opens on the phone
    subprocess.run([sys.executable, "-m", "hearts.cli.main", "score", "--plain", "--rules",
                    "classic:target=30", "--names", "Eve,Fay", "--name", "terminal"],
                   input="13 13\n26 0\ns\n", env=env, capture_output=True, text=True,
                   check=True, timeout=60)
    kept = Sheet.from_json(json.loads((home / "sheets" / "terminal.json").read_text()))
    other = phones()
    other.goto(score_server.url + "/score")
    ready(other)
    other.get_by_test_id("setup-import").set_input_files(str(home / "sheets" / "terminal.json"))
    wait_rows(other, len(kept.results))
    assert shown_rows(other) == expected_rows(kept)
    expect(other.get_by_test_id("rules-line")).to_contain_text("classic:players=2,target=30")


def test_the_audit_finds_no_serious_violation(phones: Any, score_server: ServerProcess) -> None:
    axe = pytest.importorskip("axe_playwright_python.sync_playwright").Axe()
    page = phones()
    page.goto(score_server.url + "/score")
    ready(page)
    page.get_by_test_id("setup-preset").select_option("classic")
    page.get_by_test_id("setup-count").select_option("5")
    found = {"setup": axe.run(page)}
    shot(page, "setup")
    start_sheet(page, score_server, preset="classic")
    type_round(page, [13, 3, 0, 10])
    page.get_by_test_id("mode-cards").tap()
    tap_round(page, {}, rest=1)
    enter(page)
    expect(page.get_by_test_id("moon-panel")).to_be_visible()
    found["keeper"] = axe.run(page)
    page.get_by_test_id("share").tap()
    friend = phones()
    friend.goto(page.get_by_test_id("share-link").get_attribute("href"))
    wait_rows(friend, 1, "shared-sheet")
    found["shared"] = axe.run(friend)
    shot(page, "keeper")
    serious = {where: [(v["id"], v["impact"], v["help"]) for v in result.response["violations"]
                       if v["impact"] in ("serious", "critical")]
               for where, result in found.items()}
    assert serious == {"setup": [], "keeper": [], "shared": []}
    (SCREENSHOTS / "score-axe.json").write_text(json.dumps(
        {where: [(v["id"], v["impact"]) for v in result.response["violations"]]
         for where, result in found.items()}, indent=1))
