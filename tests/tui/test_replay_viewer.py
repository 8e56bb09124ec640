"""``hearts replay FILE --step``: the terminal replay viewer, driven by Textual's pilot at
80×24: forwards to the end and back shows identical screens; by trick and by round; the
analysis marked; a bad record refused before any screen opens."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from hearts.cli.main import main
from hearts.core import Rules, game_record, hand_record, new_game, replay_game
from hearts.players import RandomPlayer
from hearts.players.driver import run_game
from hearts.replay import analyze_for_replay, build_replay
from hearts.tui.replay_app import ReplayApp
from hearts.tui.widgets import SeatView, TableView

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
SIZE = (80, 24)


def a_game(seed: str = "viewer", rules_text: str = "card-commons") -> dict[str, Any]:
    rules = Rules.parse(rules_text)
    players = rules.players
    final = run_game(new_game(rules, seed=seed), [RandomPlayer(s) for s in range(players)])
    return game_record(final, ["You", *(f"Bot {s + 1}" for s in range(1, players))])


def screen_text(app: ReplayApp) -> str:
    """What the screen shows: every seat, the trick, the hands and the status."""
    parts = [str(seat.render()) + str(seat.border_title) + str(seat.border_subtitle)
             for seat in app.query(SeatView)]
    parts += [str(cell.render()) for cell in app.query("#trick Static").results(Static)]
    parts += [str(app.query_one("#hands", Static).render()),
              str(app.query_one("#status", Static).render())]
    return "\n".join(parts)


async def test_forwards_to_the_end_and_back_shows_identical_screens() -> None:
    record = hand_record(replay_game(a_game()), 2)
    replay = build_replay(record)
    app = ReplayApp(replay)
    async with app.run_test(size=SIZE) as pilot:
        forwards = [screen_text(app)]
        for _ in range(len(replay.frames) - 1):
            await pilot.press("right")
            forwards.append(screen_text(app))
        assert app.index == len(replay.frames) - 1
        await pilot.press("right")  # at the end it stays
        assert app.index == len(replay.frames) - 1
        backwards = [screen_text(app)]
        for _ in range(len(replay.frames) - 1):
            await pilot.press("left")
            backwards.append(screen_text(app))
        assert app.index == 0
    assert backwards[::-1] == forwards
    assert len(set(forwards)) == len(forwards)  # every step changes what is shown


async def test_by_trick_and_to_a_round() -> None:
    record = a_game("tricks")
    replay = build_replay(record)
    starts = replay.round_starts
    app = ReplayApp(replay)
    async with app.run_test(size=SIZE) as pilot:
        tricks = 0
        while app.frame.round_no == 1 and app.index < len(replay.frames) - 1:
            await pilot.press("down")
            assert app.frame.trick_done or app.frame.action is None  # a trick's end, or a deal
            tricks += app.frame.trick_done
        assert tricks == len(record["rounds"][0]["plays"]) // 4
        await pilot.press("g")
        await pilot.press(*str(max(starts)), "enter")
        assert app.index == starts[max(starts)]
        await pilot.press("p")
        assert app.index == starts[max(starts) - 1]
        await pilot.press("n")
        assert app.index == starts[max(starts)]
        await pilot.press("end")
        status = str(app.query_one("#status", Static).render())
        assert f"move {len(replay.frames) - 1}/{len(replay.frames) - 1}" in status
        app.save_screenshot("replay-terminal-80x24.svg", str(SCREENSHOTS))


async def test_the_analysis_marks_decisions_and_lists_the_costliest() -> None:
    record = hand_record(replay_game(a_game("judged")), 1)
    record_replay = build_replay(record)
    analysis = analyze_for_replay(record)
    app = ReplayApp(record_replay, analysis)
    async with app.run_test(size=SIZE) as pilot:
        status = str(app.query_one("#status", Static).render())
        # random players' choices, judged with a seed: some of them cost points
        assert app.costly and "Costliest (m): " in status
        assert {d["frame"] for d in app.costly} <= set(app.marks)
        await pilot.press("m")  # to the first of the costliest decisions in the game
        first = min(app.costly, key=lambda d: int(d["frame"]))
        assert app.index == first["frame"] and app.frame.round_no == first["round"]
        shown = str(app.query_one("#status", Static).render())
        assert f"cost {first['loss']:.1f}" in shown
        app.save_screenshot("replay-terminal-analysis-80x24.svg", str(SCREENSHOTS))
    other = hand_record(replay_game(a_game("other")), 1)
    with pytest.raises(ValueError, match="analysis of another game"):
        ReplayApp(build_replay(other), analysis)


@pytest.mark.parametrize("rules", ["classic:players=2", "card-commons:players=3",
                                   "card-commons", "classic:players=6"])
async def test_the_table_fits_the_screen(rules: str) -> None:
    app = ReplayApp(build_replay(a_game("fit", rules)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("down", "down")
        table = app.query_one(TableView)
        hands = app.query_one("#hands")
        status = app.query_one("#status")
        for widget in (table, hands, status):
            assert widget.region.bottom <= SIZE[1] - 1 and widget.region.height > 0
        assert not table.region.overlaps(hands.region)
        assert len(str(hands.render()).splitlines()) == len(app.replay.names)
        assert hands.region.height <= 6  # a two-player hand of 26 cards takes two rows
        players = len(app.replay.names)
        app.save_screenshot(f"replay-terminal-{players}-players-80x24.svg", str(SCREENSHOTS))


def test_a_bad_record_is_refused_before_the_screen_opens(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = a_game("bad")
    record["rounds"][0]["plays"][3] = "2C"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["replay", str(path), "--step"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("hearts: error: ") and "round 1" in err
    assert main(["replay", str(path), "--analyze"]) == 2
    assert "go with --step" in capsys.readouterr().err


def test_step_opens_the_viewer_with_an_analysis_from_hearts_analyze(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    record = hand_record(replay_game(a_game("cli")), 1)
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["analyze", str(path), "--json", "--seed", "1", "--iterations", "50",
                 "--quiet"]) == 0
    analysis = tmp_path / "analysis.json"
    analysis.write_text(capsys.readouterr().out, encoding="utf-8")
    opened: list[ReplayApp] = []
    monkeypatch.setattr(ReplayApp, "run", lambda app: opened.append(app))
    assert main(["replay", str(path), "--step", "--analysis", str(analysis)]) == 0
    assert len(opened) == 1
    app = opened[0]
    assert len(app.replay.frames) == 1 + 4 + 52  # the deal, four passes, every card
    decisions = json.loads(analysis.read_text(encoding="utf-8"))["decisions"]
    assert len(app.marks) == len(decisions)
    other = tmp_path / "other.json"
    other.write_text(json.dumps(hand_record(replay_game(a_game("other")), 1)),
                     encoding="utf-8")
    assert main(["replay", str(other), "--step", "--analysis", str(analysis)]) == 2
    assert "analysis of another game" in capsys.readouterr().err
    states = "states its choices (a whole number), its loss"
    for damage, said in (({"choices": "2"}, states), ({"loss": None}, states),
                         ({"loss": 10**400}, states), ({"best": ...}, states),  # ... drops it
                         ({"loss": float("inf")}, "Infinity is not a JSON number"),
                         ({"best": 5}, "best action for round"), ({"best": ["ZZ"]}, "best: ")):
        edited = json.loads(analysis.read_text(encoding="utf-8"))
        key, value = next(iter(damage.items()))
        if value is ...:
            del edited["decisions"][0][key]
        else:
            edited["decisions"][0][key] = value
        damaged = tmp_path / "damaged.json"
        damaged.write_text(json.dumps(edited), encoding="utf-8")
        assert main(["replay", str(path), "--step", "--analysis", str(damaged)]) == 2
        err = capsys.readouterr().err
        assert said in err and len(err.splitlines()) == 1, err
    assert len(opened) == 1
