"""A file that is no game record is refused in the same words by every command that
reads one: ``FILE: not a record: WHY``, the file named (``analyze`` once said "invalid
record", which ``replay`` keeps for a record that fails its check, and ``challenge
check`` and ``replay --step`` named no file)."""

from __future__ import annotations

from pathlib import Path

import pytest

READERS = {
    "replay": [],
    "replay --step": [],
    "verify": [],
    "analyze": [],
    "challenge check": [],
    "challenge submit": ["--server", "http://127.0.0.1:9"],  # refused before any request
}
NOT_RECORDS = {
    "empty.json": ("", "not JSON (Expecting value at line 1, column 1)"),
    "cut.json": ('{"format": "card-commons-hearts/game", "ru',
                 "not JSON (Unterminated string starting at at line 1, column 40)"),
    "chess.json": ('{"format": "chess/pgn"}',
                   "format must be 'card-commons-hearts/game' or "
                   "'card-commons-hearts/hand', not 'chess/pgn'"),
    "list.json": ("[1, 2]", "a record is a JSON object"),
}


@pytest.mark.parametrize("command", list(READERS))
@pytest.mark.parametrize("name", list(NOT_RECORDS))
def test_a_file_that_is_no_record_is_refused_naming_it_in_one_wording(
        hearts_main, tmp_path: Path, command: str, name: str) -> None:
    text, why = NOT_RECORDS[name]
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    status, out, err = hearts_main(*command.split(), str(path), *READERS[command])
    assert (status, out) == (2, "")
    assert err == f"hearts: error: {path}: not a record: {why}\n"


@pytest.mark.parametrize("command", [c for c in READERS if c != "replay --step"])
def test_standard_input_that_is_no_record_is_named_stdin(hearts_main, command: str) -> None:
    status, out, err = hearts_main(*command.split(), "-", *READERS[command], stdin="[1]")
    assert (status, out) == (2, "")
    assert err == "hearts: error: <stdin>: not a record: a record is a JSON object\n"
