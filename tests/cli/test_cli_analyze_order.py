"""``hearts analyze`` judges every argument before it says anything: a bad seat is
refused alone, with no note about ``--workers`` before it (the note once came first)."""

from __future__ import annotations

from pathlib import Path

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
RECORD = str(GOLDEN / "game-classic-3p.json")
# more processes than any machine running the tests has CPUs: the cut would be noted
MANY_WORKERS = "100000"


def test_a_bad_seat_is_refused_before_the_workers_note(hearts_main) -> None:
    status, out, err = hearts_main("analyze", RECORD, "--workers", MANY_WORKERS,
                                   "--seats", "0,9", "--seed", "1", "--iterations", "1")
    assert (status, out) == (2, "")
    assert err.startswith("hearts: error: ") and "seats run from 0 to 2" in err
    assert len(err.splitlines()) == 1, err


def test_a_file_that_is_no_record_is_refused_before_the_workers_note(
        hearts_main, tmp_path: Path) -> None:
    path = tmp_path / "empty.json"
    path.write_text("", encoding="utf-8")
    status, _, err = hearts_main("analyze", str(path), "--workers", MANY_WORKERS)
    assert status == 2 and len(err.splitlines()) == 1, err
