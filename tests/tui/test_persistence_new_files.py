"""Files that must never replace another: a finished game kept under ``games/``, a file
saved under the first free name. Made by a hard link, or, on a filesystem without hard
links (FAT, some FUSE mounts), created exclusively: never over another file either way."""

from __future__ import annotations

import errno
import json
import os
from datetime import UTC, datetime
from pathlib import Path

import pytest

from hearts.persistence import (
    SavedGameError,
    atomic_write_text,
    finished_games,
    save_finished_game,
    save_new_file,
)

NOW = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


def _no_hard_links(monkeypatch: pytest.MonkeyPatch, code: int = errno.EPERM) -> list[str]:
    """``os.link`` fails as a filesystem without hard links makes it fail; the links
    tried are listed."""
    tried: list[str] = []

    def link(source: str, target: str, *args: object, **kwargs: object) -> None:
        tried.append(str(target))
        raise OSError(code, os.strerror(code), source)

    monkeypatch.setattr(os, "link", link)
    return tried


@pytest.mark.parametrize("code", [errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV],
                         ids=["EPERM", "ENOTSUP", "EOPNOTSUPP", "EXDEV"])
def test_a_finished_game_is_kept_where_the_filesystem_has_no_hard_links(
        monkeypatch: pytest.MonkeyPatch, code: int) -> None:
    tried = _no_hard_links(monkeypatch, code)
    first = save_finished_game({"seed": "7", "game": 1}, now=NOW)
    second = save_finished_game({"seed": "7", "game": 2}, now=NOW)
    assert tried  # the link was tried first
    assert [first.name, second.name] == ["20260102-030405-7.json", "20260102-030405-7-2.json"]
    assert json.loads(first.read_text(encoding="utf-8")) == {"seed": "7", "game": 1}
    assert json.loads(second.read_text(encoding="utf-8")) == {"seed": "7", "game": 2}
    assert finished_games() == [first, second]
    assert {p.name for p in first.parent.iterdir()} == {first.name, second.name}


def test_without_hard_links_a_file_is_still_never_replaced(monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:
    _no_hard_links(monkeypatch)
    target = tmp_path / "kept.json"
    target.write_text("another run's\n")
    with pytest.raises(SavedGameError, match="exists already"):
        atomic_write_text(target, "mine\n", create=True)
    assert target.read_text() == "another run's\n"
    assert save_new_file(target, "mine\n") == tmp_path / "kept-2.json"
    assert target.read_text() == "another run's\n"
    assert (tmp_path / "kept-2.json").read_text() == "mine\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept-2.json", "kept.json"]


def test_without_hard_links_a_failed_write_leaves_no_file(monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:
    _no_hard_links(monkeypatch)
    synced: list[int] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append(fd)
        if len(synced) > 1:  # the temporary file syncs; the file made in its place fails
            raise OSError(errno.ENOSPC, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    with pytest.raises(OSError, match="No space left"):
        atomic_write_text(tmp_path / "game.json", "text\n", create=True)
    assert list(tmp_path.iterdir()) == []


def test_a_link_that_fails_for_another_reason_is_said(monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Path) -> None:
    """Only a filesystem without hard links takes the other way: a folder that cannot
    be written is an error, as before."""
    _no_hard_links(monkeypatch, errno.EACCES)
    with pytest.raises(PermissionError):
        atomic_write_text(tmp_path / "game.json", "text\n", create=True)
    assert list(tmp_path.iterdir()) == []


def test_a_name_taken_between_the_look_and_the_write_goes_to_the_next(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Another run may create the name after it was seen free: its file is kept."""
    (tmp_path / "challenge.json").write_text("the other run's\n")
    monkeypatch.setattr(Path, "exists", lambda self: False)  # every look sees a free name
    assert save_new_file(tmp_path / "challenge.json", "mine\n") == tmp_path / "challenge-2.json"
    assert (tmp_path / "challenge.json").read_text() == "the other run's\n"
    assert (tmp_path / "challenge-2.json").read_text() == "mine\n"
