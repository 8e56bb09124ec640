"""The scorekeeper page's scorer (``static/scorer.js``) agrees with the core's sheet.

The page checks rounds offline with the rule facts the server publishes, so its scorer
is a second statement of :class:`hearts.core.Sheet`. Hypothesis makes rule sets (every
preset and player count, the J♦ rule, each moon rule, small targets, point cards taken
out of the deck) and sequences of rounds (plausible deals, moons, slips of the pen, typed
points, corrections); the same sequence runs on the core and, in Chromium, on the scorer,
and every outcome must match: accepted or refused with the same reason, the moon choice
asked of the same shooter, the points, totals, game end and winners, and the sheet file.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.e2e.conftest import browser  # noqa: F401  (the fixture, shared with e2e)

from hearts.core import (
    PLAYER_COUNTS,
    PRESETS,
    CardSet,
    InvalidRoundError,
    InvalidSheetError,
    MoonChoice,
    MoonChoiceNeededError,
    MoonRule,
    Rules,
    Sheet,
    Taken,
    card_points,
)
from hearts.server.score_routes import rule_facts

pytestmark = pytest.mark.browser

STATIC = Path(__file__).parents[2] / "src" / "hearts" / "server" / "static"
ORIGIN = "http://scorer.test"

# Runs a sequence of operations on the scorer; one outcome per operation.
RUN = """async ({facts, names, ops}) => {
  const {Sheet, MoonChoiceNeeded, ScoreError} = await import("/scorer.js");
  let sheet = new Sheet(facts, names);
  const out = [];
  for (const op of ops) {
    try {
      if (op.kind === "drop") sheet = sheet.dropLastRound();
      else if (op.kind === "correct") sheet = sheet.correctLastRound(op.round);
      else sheet = sheet.addRound(op.round);
      out.push({ok: true, points: sheet.results.at(-1)?.points ?? null, totals: sheet.totals,
                over: sheet.isOver, winners: sheet.winners});
    } catch (exc) {
      if (!(exc instanceof ScoreError)) throw exc;
      const moon = exc instanceof MoonChoiceNeeded ? {moon: exc.shooter} : {};
      out.push({ok: false, ...moon, error: exc.message});
    }
  }
  const file = sheet.toJSON();
  const reread = Sheet.fromJSON(JSON.parse(JSON.stringify(file)), facts).toJSON();
  return {out, file, same: JSON.stringify(reread) === JSON.stringify(file)};
}"""


@pytest.fixture(scope="module")
def scorer_page(browser: Any) -> Iterator[Any]:  # noqa: F811
    """A page whose origin serves the static scripts from the source tree."""
    context = browser.new_context()
    page = context.new_page()

    def serve(route: Any) -> None:
        name = route.request.url.removeprefix(ORIGIN + "/")
        if name == "":
            route.fulfill(body="<!doctype html><title>scorer</title>", content_type="text/html")
        else:
            route.fulfill(path=str(STATIC / name), content_type="text/javascript")

    page.route(ORIGIN + "/**", serve)
    page.goto(ORIGIN + "/")
    yield page
    context.close()


# ---------------------------------------------------------------------------- strategies
@st.composite
def rule_sets(draw: st.DrawFn) -> Rules:
    preset = draw(st.sampled_from(list(PRESETS)))
    players = draw(st.sampled_from(list(PLAYER_COUNTS[preset])))
    rules = Rules.preset_rules(preset, players)
    changes: dict[str, object] = {
        "jack_of_diamonds": draw(st.booleans()),
        "moon": draw(st.sampled_from(list(MoonRule))),
        "target": draw(st.integers(10, 100)),
        "rounds": draw(st.sampled_from([0, 0, 1, 2, 3])),
    }
    if players == 4 and draw(st.integers(0, 4)) == 0:
        # four cards out keeps the hands equal; point cards among them test the deck facts
        changes["removed"] = CardSet.parse(draw(st.sampled_from(
            ["QS JD 2H 3H", "AH KH QH JH", "QS 2C 3C 4C", "JD 2C 3C 4C"]))).mask
    return rules.replace(**changes)


@st.composite
def rounds(draw: st.DrawFn, rules: Rules) -> dict[str, Any]:
    """A round as the page sends it: usually one a deal can make, sometimes a slip."""
    players = rules.players
    jack_mask = CardSet.parse("JD").mask if rules.jack_of_diamonds else 0
    point_cards = CardSet(rules.point_cards | (rules.deck & jack_mask))
    moon = draw(st.integers(0, 5)) == 0
    if moon:
        shooter = draw(st.integers(0, players - 1))
        owners = {card: shooter for card in point_cards}
        if jack_mask & rules.deck:
            owners[next(c for c in point_cards if str(c) == "JD")] = draw(
                st.integers(0, players - 1))
    else:
        owners = {card: draw(st.integers(0, players - 1)) for card in point_cards}
    taken = []
    for seat in range(players):
        mine = CardSet(sum(1 << c for c, s in owners.items() if s == seat))
        taken.append({"hearts": sum(1 for c in mine if str(c).endswith("H")),
                      "queen": "QS" in mine.names(), "jack": "JD" in mine.names()})
    slip = draw(st.integers(0, 6))
    seat = draw(st.integers(0, players - 1))
    if slip == 0:
        taken[seat]["hearts"] += draw(st.sampled_from([-1, 1, 14]))
    elif slip == 1:
        taken[seat]["queen"] = not taken[seat]["queen"]
    elif slip == 2:
        taken[seat]["jack"] = not taken[seat]["jack"]
    choice = draw(st.sampled_from([None, "subtract", "add"] if moon else [None] * 9 + ["add"]))
    if draw(st.booleans()):
        return {"taken": taken, "moon_choice": choice}
    counted = [card_points(sum(1 << c for c, s in owners.items() if s == seat), rules)
               for seat in range(players)]
    jack = next((s for s, t in enumerate(taken) if t["jack"]), None)
    if slip == 3:
        counted[seat] += draw(st.sampled_from([-30, -1, 1, 13]))
    elif slip == 4:
        jack = None if jack is not None else seat
    return {"points": counted, "jack": jack, "moon_choice": choice}


@st.composite
def games(draw: st.DrawFn) -> tuple[Rules, list[str], list[dict[str, Any]]]:
    rules = draw(rule_sets())
    names = [f"P{seat}" for seat in range(rules.players)]
    ops = []
    for _ in range(draw(st.integers(1, 14))):
        kind = draw(st.sampled_from(["add"] * 6 + ["correct", "drop"]))
        ops.append({"kind": kind, "round": draw(rounds(rules))})
    return rules, names, ops


# ---------------------------------------------------------------------------- the core's side
def python_round(sheet: Sheet, kind: str, round_: dict[str, Any]) -> Sheet:
    choice = None if round_["moon_choice"] is None else MoonChoice(round_["moon_choice"])
    if kind == "drop":
        return sheet.drop_last_round()
    method = sheet.correct_last_round if kind == "correct" else sheet.add_round
    if "taken" in round_:
        return method(taken=[Taken(t["hearts"], t["queen"], t["jack"]) for t in round_["taken"]],
                      moon_choice=choice)
    return method(points=round_["points"], jack=round_["jack"], moon_choice=choice)


def python_run(rules: Rules, names: list[str], ops: list[dict[str, Any]]
               ) -> tuple[list[dict[str, Any]], Sheet]:
    sheet = Sheet(rules, tuple(names))
    out: list[dict[str, Any]] = []
    for op in ops:
        try:
            sheet = python_round(sheet, op["kind"], op["round"])
        except MoonChoiceNeededError as moon:
            out.append({"ok": False, "moon": moon.shooter, "error": str(moon)})
        except InvalidRoundError as exc:
            out.append({"ok": False, "error": str(exc)})
        else:
            out.append({"ok": True,
                        "points": list(sheet.results[-1].points) if sheet.results else None,
                        "totals": list(sheet.totals), "over": sheet.is_over,
                        "winners": list(sheet.winners)})
    return out, sheet


def js_run(page: Any, rules: Rules, names: list[str], ops: list[dict[str, Any]]
           ) -> dict[str, Any]:
    # the JS scorer gets the round as the page sends it: no moon_choice key when none
    sent = [{"kind": op["kind"], "round": {k: v for k, v in op["round"].items()
                                           if v is not None or k == "jack"}} for op in ops]
    result: dict[str, Any] = page.evaluate(RUN, {"facts": rule_facts(rules), "names": names,
                                                 "ops": sent})
    return result


# ---------------------------------------------------------------------------- the tests
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_the_page_scorer_agrees_with_the_core(
        scorer_page: Any, game: tuple[Rules, list[str], list[dict[str, Any]]]) -> None:
    rules, names, ops = game
    expected, sheet = python_run(rules, names, ops)
    got = js_run(scorer_page, rules, names, ops)
    for number, (want, have) in enumerate(zip(expected, got["out"], strict=True), 1):
        assert have == want, f"operation {number} {ops[number - 1]} under {rules.text}"
    assert got["file"] == json.loads(json.dumps(sheet.to_json()))
    assert got["same"]
    assert Sheet.from_json(got["file"]) == sheet


def test_a_whole_game_with_every_kind_of_round_is_the_same(scorer_page: Any) -> None:
    """A fixed game, so a failure here reads as a story: moons, a slip, a correction."""
    rules = Rules.parse("classic:target=30,jack_of_diamonds=on")
    names = ["Ann", "Bo", "Cy", "Di"]
    ann_moon = [{"hearts": 13, "queen": True, "jack": False},
                {"hearts": 0, "queen": False, "jack": True},
                {"hearts": 0, "queen": False, "jack": False},
                {"hearts": 0, "queen": False, "jack": False}]
    ops = [
        {"kind": "add", "round": {"points": [13, 5, -2, 0], "jack": 2, "moon_choice": None}},
        {"kind": "add", "round": {"points": [26, 0, 0, -10], "jack": 3, "moon_choice": None}},
        {"kind": "add", "round": {"points": [26, 0, 0, -10], "jack": 3, "moon_choice": "add"}},
        {"kind": "add", "round": {"points": [20, 5, 1, 0], "jack": 1, "moon_choice": None}},
        {"kind": "correct", "round": {"points": [14, 5, 7, -10], "jack": 3, "moon_choice": None}},
        {"kind": "add", "round": {"taken": ann_moon, "moon_choice": "subtract"}},
        {"kind": "add", "round": {"taken": ann_moon, "moon_choice": "add"}},
        {"kind": "add", "round": {"taken": ann_moon, "moon_choice": "add"}},
    ]
    expected, _ = python_run(rules, names, ops)
    got = js_run(scorer_page, rules, names, ops)["out"]
    assert [o["ok"] for o in expected] == [True, False, True, False, True, True, True, False]
    assert got == expected
    assert expected[6]["over"] and expected[6]["winners"] == [0]
    assert got[7]["error"] == "the game is over (Ann won); no round can follow"
    assert got[1]["moon"] == 0 and "shooter chooses" in got[1]["error"]


NAMES = """async ({facts, names}) => {
  const {checkNames, ScoreError} = await import("/scorer.js");
  try {
    return {names: checkNames(facts, names)};
  } catch (exc) {
    if (!(exc instanceof ScoreError)) throw exc;
    return {error: exc.message};
  }
}"""


@pytest.mark.parametrize("names", [
    ["Ann", "Bo", "Cy", "Di"],
    [" Ann\u200b  Lee ", "B" * 40, "Cy\u0000", "Di\u202e"],
    ["Abcdefghijklmnopqrstuvw xyz", "Bo", "Cy", "Di"],  # cut after a space
    ["Ann", "Ann\u200b", "Cy", "Di"],
    ["Alexandra Longname-Smith1", "Alexandra Longname-Smith2", "Cy", "Di"],
    ["Ann", "\u200b\u200b", "Cy", "Di"], ["Ann", "\u0301", "Cy", "Di"],
    ["Ann", "", "Cy", "Di"], ["Ann", "Bo", "Cy"], ["Zoë", "Ωmega", "李", "🂡"],
    # case folded alike on both sides; a character newer than Python 3.11's Unicode (a
    # 2022 emoji, a 2022 CJK ideograph) is kept and shows on both sides
    ["Straße", "STRASSE", "Cy", "Di"], ["\ufb00", "FF", "Cy", "Di"],
    ["Ann\U0001fae8", "\U0001fae8", "\U00031350", "Di"], ["Ann", "\ue000", "Cy", "Di"],
], ids=repr)
def test_the_page_keeps_names_as_the_core_does(scorer_page: Any, names: list[str]) -> None:
    """The page keeps a sheet offline, then shares it: a name it kept that the core cuts
    or refuses once made Share fail with another rule's message."""
    rules = Rules.parse("card-commons")
    got = scorer_page.evaluate(NAMES, {"facts": rule_facts(rules), "names": names})
    try:
        kept = list(Sheet(rules, tuple(names)).names)
    except InvalidSheetError:
        assert "error" in got, got
    else:
        assert got == {"names": kept}
