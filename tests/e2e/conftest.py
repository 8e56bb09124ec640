"""Browser end-to-end fixtures: the real ``hearts serve`` in a subprocess, Debian's Chromium
driven by Playwright, and helpers that act on the page only through what a person sees
(``data-testid`` attributes, roles and labels), never through the client's JavaScript.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

# Debian's Chromium; HEARTS_CHROMIUM names another build of Chromium to drive.
CHROMIUM = Path(os.environ.get("HEARTS_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
# The CI machine has two busy cores: waits are generous, steps are not timed.
STEP_TIMEOUT_MS = 20_000
GAME_TIMEOUT_S = 120.0
# The axe-core impacts that fail a page's accessibility audit.
SERIOUS = ("serious", "critical")

# What the page lets this seat do now, read from the DOM the way a person would see it.
_WHAT_NOW = """() => {
  const body = document.body.dataset;
  if (body.phase === "over") return "over";
  const me = document.querySelector('[data-testid^="seat-"][data-me="true"]');
  if (!me || me.dataset.toAct !== "true") return null;
  if (!document.getElementById("pass-panel").hidden) return "pass";
  if (!document.getElementById("moon-panel").hidden) return "moon";
  if (body.phase === "play" && document.querySelector('#hand button[data-legal="true"]'))
    return "play";
  return null;
}"""


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class ServerProcess:
    """A running ``hearts serve``: its base URL and its log file."""

    url: str
    log: Path


def _wait_until_serving(url: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"hearts serve exited with {proc.returncode}:\n"
                               f"{log.read_text(errors='replace')}")
        with contextlib.suppress(urllib.error.URLError, OSError), \
                urllib.request.urlopen(url + "/api/config", timeout=2) as response:
            if response.status == 200:
                return
        time.sleep(0.2)
    raise RuntimeError(f"hearts serve did not answer within 60 s:\n{log.read_text()}")


@contextlib.contextmanager
def serving(db: Path) -> Iterator[ServerProcess]:
    """The real server through the real CLI, with short waits so a round takes seconds
    (entropy waits 3 s, the default: a browser on a busy CI core can take over 1 s to
    send it, and a deal made without it fails the page's fairness check, as it should)."""
    port = free_port()
    log = db.parent / "serve.log"
    command = [sys.executable, "-m", "hearts.cli.main", "serve", "--host", "127.0.0.1",
               "--port", str(port), "--db", str(db),
               "--bot-delay", "0.05", "--entropy-timeout", "3", "--grace", "60"]
    env = os.environ | {"HEARTS_HOME": str(db.parent)}
    with log.open("wb") as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_serving(url, proc, log)
        yield ServerProcess(url, log)
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server with an empty store, shared by a module's tests (each makes its own tables)."""
    with serving(tmp_path_factory.mktemp("serve") / "hearts.sqlite3") as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium per module (Debian's; Playwright cannot download its own)."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium (.ci/run does)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM),
                                              args=CHROMIUM_ARGS, headless=True)
        yield chromium
        chromium.close()


@dataclass
class Person:
    """One browser context (own localStorage, so own seat token) with one page."""

    page: Any
    errors: list[str] = field(default_factory=list)
    touch: bool = False

    # ---------------------------------------------------------------- reading
    def testid(self, name: str) -> Any:
        """The locator of a ``data-testid``."""
        return self.page.get_by_test_id(name)

    def wait_ready(self) -> None:
        """The page script finished starting."""
        self.page.wait_for_selector("body[data-ready='true']", state="attached")

    def hand(self) -> list[str]:
        """The card names of the hand as shown."""
        cards: list[str] = self.page.locator("#hand button.card").evaluate_all(
            "els => els.map(e => e.dataset.card)")
        return cards

    def legal(self) -> list[str]:
        """The cards the page marks playable."""
        cards: list[str] = self.page.locator("#hand button.card[data-legal='true']").evaluate_all(
            "els => els.map(e => e.dataset.card)")
        return cards

    def state_id(self) -> int:
        """The state id the page last rendered."""
        return int(self.page.evaluate("() => Number(document.body.dataset.stateId ?? -1)"))

    def my_seat(self) -> int:
        """The seat the page marks as this person's."""
        seat: str = self.page.locator("[data-testid^='seat-'][data-me='true']").get_attribute(
            "data-seat")
        return int(seat)

    def what_now(self) -> str | None:
        """``pass``, ``play``, ``moon``, ``over``, or None while waiting on others."""
        result: str | None = self.page.evaluate(_WHAT_NOW)
        return result

    def trick_cards(self) -> dict[int, str]:
        """Cards on the table in the current trick, by seat."""
        slots: list[list[str]] = self.page.locator("[data-testid^='trick-slot-'][data-card]") \
            .evaluate_all("els => els.map(e => [e.dataset.testid, e.dataset.card])")
        return {int(testid.rsplit("-", 1)[1]): card for testid, card in slots}

    def wait_for(self, condition: Callable[[], bool], what: str,
                 timeout_s: float = STEP_TIMEOUT_MS / 1000) -> None:
        """Poll a Python condition over the page (the page keeps running meanwhile)."""
        deadline = time.monotonic() + timeout_s
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}; status: "
                                     f"{self.testid('status').inner_text()!r}; errors: "
                                     f"{self.testid('error-text').inner_text()!r}")
            self.page.wait_for_timeout(50)

    # ---------------------------------------------------------------- acting
    def card(self, card: str) -> Any:
        """The locator of a card of the hand."""
        return self.testid(f"card-{card}")

    def press_card(self, card: str) -> None:
        """Click (or, on a touch screen, tap) a card of the hand where a person would: the hand
        is fanned, so the next card covers all but the left edge of this one."""
        box = self.card(card).bounding_box()
        spot = {"x": min(10.0, box["width"] / 2), "y": box["height"] / 3}
        if self.touch:
            self.card(card).tap(position=spot)
        else:
            self.card(card).click(position=spot)

    def pass_cards(self, cards: list[str] | None = None) -> list[str]:
        """Select cards by clicking (the first ones shown by default) and pass them."""
        count = int(self.testid("pass-count").inner_text())
        chosen = cards if cards is not None else self.hand()[:count]
        submit = self.testid("pass-submit")
        for card in chosen:
            assert submit.is_disabled(), "passing is offered before enough cards are chosen"
            self.press_card(card)
            self.page.wait_for_selector(f"#hand [data-card='{card}'][aria-pressed='true']")
        submit.click()
        self.testid("pass-panel").wait_for(state="hidden")
        return chosen

    def played(self, card: str, gesture: Callable[[], None]) -> None:
        """Make a gesture that should play ``card``, wait until the table moves on, and check
        the card left the hand (unless it ended the round and the next deal holds it again)."""
        state_id, rounds = self.state_id(), len(sheet_rows(self))
        gesture()
        self.page.wait_for_function("sid => Number(document.body.dataset.stateId) > sid",
                                    arg=state_id)
        assert card not in self.hand() or len(sheet_rows(self)) > rounds, \
            f"{card} was played but stayed in the hand"

    def play(self, card: str) -> None:
        """Play a card by clicking (or tapping) it."""
        self.played(card, lambda: self.press_card(card))

    def take_turn(self) -> str | None:
        """Do whatever this seat must do now (the first legal card; the moon's ``add``)."""
        now = self.what_now()
        if now == "pass":
            self.pass_cards()
        elif now == "play":
            self.play(self.legal()[0])
        elif now == "moon":
            sid = self.state_id()
            self.testid("moon-add").click()
            self.page.wait_for_function("sid => Number(document.body.dataset.stateId) > sid",
                                        arg=sid)
        return now


OpenPerson = Callable[..., Person]


@pytest.fixture
def open_person(browser: Any) -> Iterator[OpenPerson]:
    """Opens people: each a fresh browser context and page, whose page errors are collected;
    their contexts close after the test, so no websocket outlives it."""
    contexts: list[Any] = []

    def open_one(*, clipboard: bool = False, viewport: tuple[int, int] = (1280, 800),
                 touch: bool = False) -> Person:
        width, height = viewport
        context = browser.new_context(
            permissions=["clipboard-read", "clipboard-write"] if clipboard else [],
            viewport={"width": width, "height": height}, has_touch=touch, is_mobile=touch)
        contexts.append(context)
        context.set_default_timeout(STEP_TIMEOUT_MS)
        page = context.new_page()
        person = Person(page, touch=touch)
        page.on("pageerror", lambda exc: person.errors.append(str(exc)))
        return person

    yield open_one
    for context in contexts:
        context.close()


def create_table(person: Person, server: ServerProcess, *, name: str,
                 seats: list[str], preset: str = "card-commons", target: int = 1,
                 options: str = "", public: bool = True) -> str:
    """Fill the lobby form like a person and land on the new table; returns its id."""
    page = person.page
    page.goto(server.url + "/")
    person.wait_ready()
    person.testid("create-name").fill(name)
    person.testid("create-preset").select_option(preset)
    person.testid("create-players").select_option(str(len(seats)))
    for seat, kind in enumerate(seats[1:], start=1):
        person.testid(f"create-seat-{seat}").select_option(kind)
    person.testid("create-target").fill(str(target))
    person.testid("create-options").fill(options)
    person.testid("create-public").set_checked(public)
    person.testid("create-submit").click()
    page.wait_for_url("**/t/*")
    person.wait_ready()
    return str(page.url.rsplit("/", 1)[1])


def join_by_link(person: Person, link: str, name: str) -> None:
    """Open an invite link and take a seat with a name."""
    person.page.goto(link)
    person.wait_ready()
    person.testid("join-name").fill(name)
    person.testid("join-submit").click()
    person.page.wait_for_selector("[data-testid^='seat-'][data-me='true']", state="attached")


def play_until(people: list[Person], done: Callable[[], bool],
               before_turn: Callable[[Person, str], None] | None = None,
               timeout_s: float = GAME_TIMEOUT_S) -> None:
    """Let every person take their turns by clicks until ``done()``.

    ``before_turn(person, what)`` runs before each turn, to look at or act on the page.
    """
    turns = ("pass", "play", "moon")
    deadline = time.monotonic() + timeout_s
    while True:
        acted = False
        for person in people:
            # ``done()`` is read after the turn: a page showing the next round's turn has
            # rendered what ended this one too, so no turn past the stop is ever taken.
            now = person.what_now()
            if done():
                return
            if now in turns and before_turn is not None:
                before_turn(person, now)
                now = person.what_now()
                if done():
                    return
            if now in turns:
                person.take_turn()
                acted = True
        if time.monotonic() > deadline:
            statuses = [p.testid("status").inner_text() for p in people]
            raise AssertionError(f"the game did not get there in {timeout_s} s: {statuses}")
        if not acted:
            people[0].page.wait_for_timeout(50)


def sheet_rows(person: Person) -> list[list[str]]:
    """The score sheet as shown: one list of cell texts per round line."""
    rows: list[list[str]] = person.page.locator("[data-testid^='sheet-row-']").evaluate_all(
        "rows => rows.map(r => [...r.cells].map(c => c.textContent.trim()))")
    return rows


# Every element a locator matches, measured in one step: a live table redraws as messages
# arrive, so counting the elements and then measuring each could measure one that is gone.
_BOXES = """elements => elements.map(element => {
    if (!element.getClientRects().length) return null;
    const box = element.getBoundingClientRect();
    return {x: box.x, y: box.y, width: box.width, height: box.height};
})"""


def boxes(locator: Any) -> list[dict[str, float] | None]:
    """The box of every element ``locator`` matches now (None for one not rendered)."""
    found: list[dict[str, float] | None] = locator.evaluate_all(_BOXES)
    return found


def assert_accessible(person: Person, where: str) -> None:
    """axe-core finds nothing serious or critical on the page as it is now; ``where`` names
    the page in the failure."""
    # imported here, as Playwright is (the browser fixture): collecting the browser tests
    # needs neither
    from axe_playwright_python.sync_playwright import Axe

    faults = [v for v in Axe().run(person.page).response["violations"]
              if v["impact"] in SERIOUS]
    assert not faults, f"{where}: " + "; ".join(
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:4]}" for v in faults)
