"""``hearts simulate``: whole games under every preset and player count, summaries, records."""

from __future__ import annotations

import io
import json
import signal
import subprocess
import time
from pathlib import Path

import pytest

from hearts.cli.common import seat_player
from hearts.cli.main import main
from hearts.core import PRESETS, Rules, game_record, parse_record, replay_game
from hearts.players import make_player, play_game

PRESET_COUNTS = [
    (name, players)
    for name in PRESETS
    for players in range(2, 7)
    if name == "classic" or (name == "card-commons" and players in (3, 4)) or players == 4
]
SUMMARY_KEYS = {
    "rules", "players", "seed", "first_game", "games", "game_seeds", "hands", "levels", "seats",
    "points_per_hand", "mean_final_total", "wins", "shared_wins", "tied_games", "moons_shot",
    "moons_allowed", "elapsed_s", "hands_per_s", "records",
}


def _records(folder: Path) -> list[dict[str, object]]:
    return [parse_record(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.json"))]


@pytest.mark.parametrize(("preset", "players"), PRESET_COUNTS)
def test_every_preset_and_player_count_plays_whole_games(hearts_cli, tmp_path, preset, players):
    folder = tmp_path / "records"
    done = hearts_cli("simulate", "--rules", f"{preset}:target=30", "--players", str(players),
                      "--games", "3", "--seed", "cc", "--json", "--records", str(folder))
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["players"] == players
    assert Rules.parse(summary["rules"]) == Rules.preset_rules(preset, players).replace(target=30)
    files = sorted(p.name for p in folder.glob("*.json"))
    assert files == [f"game-cc-{n}.json" for n in (1, 2, 3)]
    states = [replay_game(record) for record in _records(folder)]
    assert all(state.is_over and max(state.totals) >= 30 for state in states)
    # The summary is exactly what the records say.
    hands = sum(len(s.results) for s in states)
    assert summary["hands"] == hands
    for seat in range(players):
        points = sum(r.points[seat] for s in states for r in s.results)
        assert summary["points_per_hand"][seat] == pytest.approx(points / hands, abs=1e-4)
        moons = sum(r.shooter == seat for s in states for r in s.results)
        assert summary["moons_shot"][seat] == moons
        allowed = sum(r.shooter not in (None, seat) for s in states for r in s.results)
        assert summary["moons_allowed"][seat] == allowed
        wins = sum(1 / len(s.winners) for s in states if seat in s.winners)
        assert summary["wins"][seat] == pytest.approx(wins, abs=1e-4)
        shared = sum(seat in s.winners and len(s.winners) > 1 for s in states)
        assert summary["shared_wins"][seat] == shared
    assert sum(summary["wins"]) == pytest.approx(3)
    assert summary["tied_games"] == sum(len(s.winners) > 1 for s in states)


def test_json_summary_schema(hearts_cli):
    done = hearts_cli("simulate", "--games", "2", "--seed", "s1", "--json",
                      "--levels", "random,random", "--level", "random")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert set(summary) == SUMMARY_KEYS
    assert summary["games"] == 2 and summary["first_game"] == 1
    assert summary["game_seeds"] == ["s1-1", "s1-2"]
    assert summary["levels"] == ["random"] * 4
    assert summary["seats"] == ["random 0", "random 1", "random 2", "random 3"]
    for key in ("points_per_hand", "mean_final_total", "wins", "shared_wins", "moons_shot",
                "moons_allowed"):
        assert len(summary[key]) == 4
    assert summary["hands_per_s"] > 0 and summary["records"] is None


def test_human_summary_names_seats_and_speed(hearts_cli):
    done = hearts_cli("simulate", "--rules", "classic", "--players", "6", "--games", "2",
                      "--seed", "7")
    assert done.returncode == 0, done.stderr
    assert "2 games of classic:players=6 (6 players), seed 7" in done.stdout
    assert "hands/s" in done.stdout
    for seat in range(6):
        assert f"random {seat}" in done.stdout


def test_a_game_of_a_run_can_be_played_again_alone(hearts_cli, tmp_path):
    batch, alone = tmp_path / "batch", tmp_path / "alone"
    assert hearts_cli("simulate", "--games", "3", "--seed", "again", "--rules",
                      "classic:target=40", "--records", str(batch)).returncode == 0
    assert hearts_cli("simulate", "--games", "1", "--first", "2", "--seed", "again", "--rules",
                      "classic:target=40", "--records", str(alone)).returncode == 0
    again = (alone / "game-again-2.json").read_text(encoding="utf-8")
    assert again == (batch / "game-again-2.json").read_text(encoding="utf-8")
    assert again != (batch / "game-again-1.json").read_text(encoding="utf-8")


def test_records_replay_through_the_cli(hearts_cli, tmp_path):
    folder = tmp_path / "r"
    assert hearts_cli("simulate", "--games", "2", "--seed", "rp", "--rules",
                      "standard:target=40", "--records", str(folder)).returncode == 0
    for path in sorted(folder.glob("*.json")):
        done = hearts_cli("replay", str(path))
        assert done.returncode == 0, done.stderr
        state = replay_game(parse_record(path.read_text(encoding="utf-8")))
        winners = ", ".join(f"random {s}" for s in state.winners)
        assert f"Winner{'s' if len(state.winners) > 1 else ''}: {winners}" in done.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["--rules", "classic", "--players", "7"], "a player count from 2 to 6 is expected"),
    (["--rules", "standard", "--players", "3"], "standard is played by 4 players"),
    (["--rules", "card-commons:players=5"], "3 to 4 players"),
    (["--rules", "bogus"], "presets are: card-commons, standard, classic"),
    (["--rules", "standard:moon=sideways"], "shooter-minus, others-plus, shooter-choice"),
    (["--rules", "card-commons:colour=red"], "options are: players"),
    (["--games", "0"], "at least 1"),
    (["--seed", "a/b"], "letters, digits"),
    (["--level", "grandmaster"], "levels are: random"),
    (["--levels", "random,random,random,random,random"], "5 levels but the game has 4 players"),
])
def test_bad_values_exit_2_and_say_what_is_allowed(hearts_main, args, message):
    status, out, err = hearts_main("simulate", "--games", "1", *args)
    assert status == 2
    assert message in err and out == ""


def test_a_bad_player_count_fails_the_same_from_the_shell(hearts_cli):
    done = hearts_cli("simulate", "--rules", "standard", "--players", "3")
    assert done.returncode == 2
    assert done.stderr == "hearts: error: --rules 'standard' --players 3: " \
        "standard is played by 4 players, not 3\n"


def test_ctrl_c_sums_up_the_games_finished_so_far(start_hearts, tmp_path):
    folder = tmp_path / "records"
    proc = start_hearts("simulate", "--games", "100000", "--seed", "int", "--json",
                        "--records", str(folder))
    deadline = time.monotonic() + 60
    while not any(folder.glob("*.json")) and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        # Say where it was: faulthandler (CLI_ENV turns it on) prints every thread's stack.
        proc.send_signal(signal.SIGABRT)
        pytest.fail("no exit within 60 s of Ctrl-C; its stack:\n"
                    + proc.communicate(timeout=30)[1][-6000:])
    assert proc.returncode == 130, err
    summary = json.loads(out)
    assert 1 <= summary["games"] < 100000
    assert summary["game_seeds"] == [f"int-{n}" for n in range(1, summary["games"] + 1)]
    assert not list(folder.glob("*.partial"))


class _Terminal(io.StringIO):
    """Standard error as a terminal would be."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("quiet", [False, True])
def test_a_long_run_shows_games_done_and_the_time_left_on_a_terminal(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], quiet: bool) -> None:
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    assert main(["simulate", "--games", "3", "--seed", "1", *(["--quiet"] if quiet else [])]) == 0
    shown = terminal.getvalue()
    assert ("3/3" in shown and "games" in shown) != quiet
    assert "games" in capsys.readouterr().out  # the summary itself is unchanged


def test_an_unbounded_target_is_refused_before_any_game(hearts_main) -> None:
    status, out, err = hearts_main("simulate", "--rules", "standard:target=1000000000000")
    assert status == 2 and not out
    assert "target must be a positive score from 1 to 10000" in err


def test_game_seeds_lists_every_games_seed(hearts_cli):
    """Not the first and last alone: a list named game_seeds read as every game's."""
    done = hearts_cli("simulate", "--games", "5", "--first", "3", "--seed", "42", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["game_seeds"] == ["42-3", "42-4", "42-5", "42-6", "42-7"]
    done = hearts_cli("simulate", "--games", "3", "--seed", "42")
    assert "(game seeds 42-1 to 42-3)" in done.stdout


@pytest.mark.parametrize(("option", "spec", "levels"), [
    ("--level", "expert:game_weight=0,iterations=4", ["expert:game_weight=0,iterations=4"] * 4),
    ("--levels", "Expert:iterations=4,game_weight=0,normal,hard:iterations=3#b,easy",
     ["expert:iterations=4,game_weight=0", "normal", "hard:iterations=3#b", "easy"]),
])
def test_levels_take_the_bot_specs_hearts_bot_and_the_arena_take(hearts_cli, option, spec,
                                                                  levels):
    done = hearts_cli("simulate", "--games", "1", "--seed", "sp", "--rules",
                      "standard:rounds=1", option, spec, "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["levels"] == levels
    assert summary["seats"] == [f"{level} {seat}" for seat, level in enumerate(levels)]


@pytest.mark.parametrize(("spec", "says"), [
    ("expert:bogus=1", "level expert takes no option 'bogus'"),
    ("expert:game_weight=5000", "game_weight must be a whole number from 0 to 1000"),
    ("normal:iterations=5", "level normal takes no option 'iterations'"),
    ("ext:python3 bot.py", "outside programs and ismcts play in 'hearts arena'"),
    ("ismcts", "unknown level 'ismcts'; levels are: random"),
    ("wizard:x=1", "unknown level 'wizard'; levels are: random"),
    ("Policy:/no/such.json", "no policy file '/no/such.json'"),  # a level's case, as Easy
])
def test_a_bad_level_spec_is_a_usage_message(hearts_main, spec, says):
    status, out, err = hearts_main("simulate", "--games", "1", "--level", spec)
    assert status == 2 and out == ""
    assert "argument --level: " in err and says in err


def test_a_bare_level_is_seated_as_before(tmp_path):
    """A level read as a spec is the very player make_player gives for the same seed, so
    the runs and records of earlier simulations replay unchanged."""
    rules = Rules.parse("standard:rounds=2")
    for level in ("random", "normal", "expert:iterations=4"):
        old = [make_player(level.partition(":")[0], f"g/seat-{seat}",
                           iterations=4 if ":" in level else None) for seat in range(4)]
        new = [seat_player(level, seat, rules, f"g/seat-{seat}") for seat in range(4)]
        assert game_record(play_game(rules, old, "g")) == game_record(play_game(rules, new, "g"))


def test_a_spec_with_a_fixed_number_of_worlds_replays_byte_for_byte(hearts_cli, tmp_path):
    """The help's promise: hard and expert search on the clock, so their games differ run
    to run; with iterations they replay exactly, as the help says."""
    runs = []
    for run, games in (("one", ["--games", "2"]), ("two", ["--games", "2"]),
                       ("alone", ["--first", "2", "--games", "1"])):
        folder = tmp_path / run
        done = hearts_cli("simulate", *games, "--seed", "rep", "--rules",
                          "standard:rounds=1", "--levels",
                          "expert:iterations=6,hard:iterations=5,expert:iterations=6,random",
                          "--records", str(folder), "--quiet")
        assert done.returncode == 0, done.stderr
        runs.append({path.name: path.read_bytes() for path in folder.glob("*.json")})
    assert sorted(runs[0]) == ["game-rep-1.json", "game-rep-2.json"]
    assert runs[0] == runs[1]
    assert runs[2] == {"game-rep-2.json": runs[0]["game-rep-2.json"]}
    helped = " ".join(hearts_cli("simulate", "--help").stdout.split())
    assert ("plays game n again, unless a level decides by the clock: hard and expert "
            "search for a time budget, so they replay exactly only with a fixed number of "
            "worlds (expert:iterations=300)") in helped


@pytest.mark.parametrize(("rules", "players", "played"), [
    ("classic:players=6", "6", 6),  # the same count twice agrees
    ("classic", "6", 6),            # --players changes the preset's own count
    ("classic:target=40", "3", 3),
])
def test_players_given_twice_must_agree(hearts_main, rules, players, played):
    status, out, err = hearts_main("simulate", "--games", "1", "--rules", rules,
                                   "--players", players, "--json")
    assert status == 0, err
    assert json.loads(out)["players"] == played


def test_players_that_disagree_with_the_rules_text_are_refused_in_words(hearts_cli):
    """The README: options that disagree are an error, never one silently winning."""
    done = hearts_cli("simulate", "--games", "1", "--rules", "classic:players=2",
                      "--players", "6")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == ("hearts: error: --rules 'classic:players=2' says 2 players and "
                           "--players says 6: give the count once\n")
