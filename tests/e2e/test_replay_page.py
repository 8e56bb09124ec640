"""The browser's replay page: a record opened by upload or from a finished table, stepped
card by card to the end and back with identical DOM, by trick and to a round, on the four
screen sizes without scrolling; axe-core finds nothing serious; a bad record is refused
with the server's clear message."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.e2e.conftest import (
    OpenPerson,
    Person,
    ServerProcess,
    assert_accessible,
    boxes,
    create_table,
    play_until,
)

from hearts.core import Rules, game_record, hand_record, new_game, replay_game
from hearts.players import RandomPlayer
from hearts.players.driver import run_game

pytestmark = pytest.mark.browser

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
SIZES = {"1280x800": (1280, 800), "1366x768": (1366, 768), "390x844": (390, 844),
         "844x390": (844, 390)}


def a_game(seed: str, names: tuple[str, ...] = ("Ann", "Bot 2", "Bot 3", "Bot 4")
           ) -> dict[str, Any]:
    rules = Rules.parse("card-commons")
    final = run_game(new_game(rules, seed=seed), [RandomPlayer(s) for s in range(4)])
    return game_record(final, list(names))


def open_record(person: Person, server: ServerProcess, record: dict[str, Any],
                tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record, indent=1), encoding="utf-8")
    person.page.goto(server.url + "/replay")
    person.testid("record-file").set_input_files(str(path))
    person.page.wait_for_selector("body[data-loaded='true']")


def frame_dom(person: Person) -> str:
    """What the frame shows: the table's DOM and the status line."""
    return str(person.page.evaluate(
        "() => document.getElementById('replay-table').innerHTML + '|' + "
        "document.getElementById('replay-status').textContent"))


def assert_fits(person: Person) -> None:
    """Nothing scrolls, and the table and the step buttons lie inside the window."""
    page = person.page
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    sizes = page.evaluate("() => [document.documentElement.scrollWidth, "
                          "document.documentElement.scrollHeight]")
    assert sizes[0] <= width and sizes[1] <= height, (sizes, width, height)
    for name in ("replay-table", "card-forward", "trick-forward", "round-select"):
        box = person.testid(name).bounding_box()
        assert box is not None and box["x"] >= 0 and box["y"] >= 0
        assert box["x"] + box["width"] <= width and box["y"] + box["height"] <= height, name
    for i, box in enumerate(boxes(page.locator(".replay-seat"))):
        assert box is not None, i
        assert box["y"] + box["height"] <= height and box["x"] + box["width"] <= width, i


@pytest.mark.parametrize("size", ["390x844", "1280x800"])
def test_forwards_to_the_end_and_back_gives_identical_frames(
        open_person: OpenPerson, server: ServerProcess, tmp_path: Path, size: str) -> None:
    person = open_person(viewport=SIZES[size], touch=size == "390x844")
    record = hand_record(replay_game(a_game("page")), 1)
    open_record(person, server, record, tmp_path)
    frames = int(person.page.evaluate("() => 1 + Number(document.getElementById("
                                      "'replay-status').textContent.match(/of (\\d+)/)[1])"))
    forwards = [frame_dom(person)]
    for _ in range(frames - 1):
        person.page.keyboard.press("ArrowRight")
        forwards.append(frame_dom(person))
    assert "Move " + str(frames - 1) in forwards[-1]
    person.page.keyboard.press("ArrowRight")  # at the end it stays
    assert frame_dom(person) == forwards[-1]
    backwards = [frame_dom(person)]
    for _ in range(frames - 1):
        person.page.keyboard.press("ArrowLeft")
        backwards.append(frame_dom(person))
    assert backwards[::-1] == forwards
    assert len(set(forwards)) == frames
    if person.touch:  # a swipe to the left steps forwards, to the right back
        swipe(person, -120)
        assert frame_dom(person) == forwards[1]
        swipe(person, 120)
        assert frame_dom(person) == forwards[0]
    assert not person.errors


def swipe(person: Person, dx: int) -> None:
    """A finger drawn across the table by ``dx`` pixels (a touchstart, then a touchend)."""
    box = person.testid("replay-table").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    person.page.evaluate("""([x, y, dx]) => {
      const felt = document.getElementById("replay-table");
      const touch = (at) => new Touch({identifier: 1, target: felt, clientX: at, clientY: y});
      felt.dispatchEvent(new TouchEvent("touchstart", {touches: [touch(x)],
        changedTouches: [touch(x)], bubbles: true}));
      felt.dispatchEvent(new TouchEvent("touchend", {touches: [],
        changedTouches: [touch(x + dx)], bubbles: true}));
    }""", [x, y, dx])


@pytest.mark.parametrize("size", list(SIZES))
def test_the_page_fits_each_screen_and_passes_the_audit(
        open_person: OpenPerson, server: ServerProcess, tmp_path: Path, size: str) -> None:
    person = open_person(viewport=SIZES[size], touch=size in ("390x844", "844x390"))
    open_record(person, server, a_game("fits"), tmp_path)
    person.page.screenshot(path=str(SCREENSHOTS / f"replay-deal-{size}.png"))
    assert_fits(person)
    assert_accessible(person, f"the deal at {size}")
    person.testid("trick-forward").click()
    person.testid("trick-forward").click()
    person.testid("card-forward").click()
    assert_fits(person)
    assert_accessible(person, f"a trick at {size}")
    person.page.screenshot(path=str(SCREENSHOTS / f"replay-{size}.png"))
    assert not person.errors


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


# A table's computers, as the server names them; two seats whose names differ only in
# brackets, which the badges must keep apart.
BADGE_NAMES = {"computers": (("Ann", "Computer 2 (random)", "Computer 3 (normal)",
                              "Computer 4 (expert)"), ["Ann", "Computer 2", "Computer 3",
                                                       "Computer 4"]),
               "alike": (("Ann", "Bo (left)", "Bo (right)", "Cy"),
                         ["Ann", "Bo (left)", "Bo (right)", "Cy"])}


@pytest.mark.parametrize("size", ["390x844", "1280x800"])
def test_the_trick_badges_show_whose_card_each_is(
        open_person: OpenPerson, server: ServerProcess, tmp_path: Path, size: str) -> None:
    """The badges under the trick's cards once cut every computer's name to "Computer …":
    now each shows a name that tells its seat apart, whole, clear of the other cards."""
    person = open_person(viewport=SIZES[size], touch=size == "390x844")
    for kind, (names, shown) in BADGE_NAMES.items():
        open_record(person, server, a_game("badges", names), tmp_path)
        person.page.keyboard.press("ArrowDown")  # the first trick, taken: every card shows
        badges = person.page.locator(".replay-slot .badge")
        texts = badges.all_inner_texts()
        assert badges.evaluate_all("els => els.every(e => e.scrollWidth <= e.clientWidth"
                                   " && e.scrollHeight <= e.clientHeight)"), (kind, texts)
        assert sorted(" ".join(text.split()) for text in texts) == shown, kind
        cards, labels = boxes(person.page.locator(".replay-slot .card")), boxes(badges)
        for index, badge in enumerate(labels):
            assert badge is not None, (kind, index)
            for other, (card, label) in enumerate(zip(cards, labels, strict=True)):
                assert card is not None and label is not None
                assert other == index or not (overlap(badge, card) or overlap(badge, label)), (
                    kind, texts[index], other)
        assert_fits(person)
        person.page.screenshot(path=str(SCREENSHOTS / f"replay-badges-{kind}-{size}.png"))
    assert not person.errors


def test_by_trick_to_a_round_and_by_swipe(open_person: OpenPerson, server: ServerProcess,
                                          tmp_path: Path) -> None:
    person = open_person(viewport=SIZES["1366x768"])
    record = a_game("moves")
    open_record(person, server, record, tmp_path)
    status = person.testid("replay-status")
    person.page.keyboard.press("ArrowDown")
    assert "takes the trick" in status.inner_text()
    person.testid("round-select").select_option(str(len(record["rounds"])))
    assert f"Round {len(record['rounds'])}: the deal" in status.inner_text()
    person.page.keyboard.press("End")
    assert "Won by" in status.inner_text()
    totals = person.page.locator(".replay-seat .score").all_inner_texts()
    assert [int(t.split("· ")[1].split()[0]) for t in totals] == record["totals"]
    person.page.keyboard.press("PageUp")
    assert f"Round {len(record['rounds'])}: the deal" in status.inner_text()


def test_a_finished_tables_replay_link(open_person: OpenPerson, server: ServerProcess) -> None:
    person = open_person(viewport=SIZES["1280x800"])
    create_table(person, server, name="Ann", seats=["human", "random", "random", "random"],
                 target=1)
    play_until([person], lambda: person.page.evaluate("document.body.dataset.phase") == "over")
    link = person.testid("replay-link")
    link.wait_for(state="visible")
    person.page.screenshot(path=str(SCREENSHOTS / "replay-link-game-over-1280x800.png"))
    link.click()
    person.page.wait_for_selector("body[data-loaded='true']")
    person.page.keyboard.press("End")
    assert "Won by" in person.testid("replay-status").inner_text()
    assert person.page.locator(".replay-seat .name").first.inner_text() == "Ann"


def test_a_bad_record_is_refused_with_the_servers_message(
        open_person: OpenPerson, server: ServerProcess, tmp_path: Path) -> None:
    person = open_person(viewport=SIZES["390x844"])
    person.page.goto(server.url + "/replay")
    record = a_game("bad")
    record["rounds"][0]["plays"][3] = "2C"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    person.testid("record-file").set_input_files(str(path))
    error = person.testid("replay-error")
    error.wait_for(state="visible")
    assert "the rules refuse this record" in error.inner_text()
    assert "round 1" in error.inner_text()
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    person.testid("record-file").set_input_files(str(broken))
    person.page.wait_for_function(
        "document.getElementById('replay-error').textContent.includes('not JSON')")
    person.page.goto(server.url + "/replay?table=nosuch")
    error.wait_for(state="visible")
    assert "no table" in error.inner_text()
    person.page.screenshot(path=str(SCREENSHOTS / "replay-bad-record-390x844.png"))


def test_the_analysis_marks_decisions_and_lists_the_costliest(
        open_person: OpenPerson, server: ServerProcess, tmp_path: Path) -> None:
    person = open_person(viewport=SIZES["1280x800"])
    open_record(person, server, hand_record(replay_game(a_game("judged")), 1), tmp_path)
    person.testid("analyze-button").click()
    costly = person.testid("costly")
    costly.wait_for(state="visible", timeout=60_000)
    entries = costly.get_by_role("button")
    assert entries.count() >= 1  # four seats' thirteen cards: some cost something
    first = entries.first.inner_text()
    entries.first.click()
    mark = person.testid("replay-mark").inner_text()
    assert mark.startswith("Analysis: ") and "cost " in mark
    assert first.split("(")[1].split(",")[0] in mark  # the same verdict
    person.page.screenshot(path=str(SCREENSHOTS / "replay-analysis-1280x800.png"))
    assert_accessible(person, "the analysis")
    assert not person.errors
