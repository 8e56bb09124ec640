"""Saved games and score sheets in the user's data directory.

The directory is ``platformdirs.user_data_dir("card-commons-hearts")``, or ``$HEARTS_HOME``
when set (tests point it at a temporary directory). Every write goes to a temporary
file first and then replaces the target, so a crash never leaves half a file (a file that
must not replace another is linked into place instead, or created exclusively where the
filesystem has no hard links)::

    current-game.json      the game in progress: its record plus the app's settings
    games/<stamp>.json     finished games, as game records (never one over another)
    sheets/<name>.json     score sheets of ``hearts score``
"""

from __future__ import annotations

import errno
import json
import os
import re
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

import platformdirs

from hearts.core import HeartsError, JsonTextError, Sheet, read_json

__all__ = [
    "APP_NAME",
    "HOME_ENV",
    "SavedGameError",
    "atomic_write_json",
    "atomic_write_text",
    "clear_current_game",
    "data_dir",
    "finished_games",
    "free_sheet_name",
    "import_sheet",
    "list_sheets",
    "load_current_game",
    "load_sheet",
    "names_sheet_file",
    "read_sheet_file",
    "save_current_game",
    "save_finished_game",
    "save_new_file",
    "save_new_sheet",
    "save_sheet",
    "sheet_path",
]

APP_NAME: Final = "card-commons-hearts"
HOME_ENV: Final = "HEARTS_HOME"
_CURRENT: Final = "current-game.json"
_SAVED_FORMAT: Final = "card-commons-hearts/saved-game"
_NAME: Final = re.compile(r"^[\w][\w .-]{0,63}$")
_NO_HARD_LINKS: Final = frozenset({errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV,
                                   errno.ENOSYS})
"""What ``os.link`` fails with on a filesystem that has no hard links (FAT, some FUSE
mounts, some network shares)."""


class SavedGameError(HeartsError, ValueError):
    """A saved file that is missing, unreadable or not what it should be."""


def data_dir() -> Path:
    """Where games and sheets are kept (created on first use); a :class:`SavedGameError`
    when it cannot be a folder (``$HEARTS_HOME`` names a file, no permission)."""
    home = os.environ.get(HOME_ENV)
    path = Path(home) if home else Path(platformdirs.user_data_dir(APP_NAME))
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        where = f"${HOME_ENV} ({path})" if home else str(path)
        why = "it is a file, not a folder" if path.is_file() else exc.strerror or str(exc)
        raise SavedGameError(f"cannot keep games and sheets in {where}: {why}") from None
    return path


def atomic_write_text(path: Path, text: str, *, create: bool = False) -> Path:
    """Write text through a temporary file and ``os.replace``: all or nothing.

    With ``create`` the file must not exist yet (it is linked into place, which fails
    when another process got there first): a :class:`SavedGameError`, nothing replaced.
    A filesystem without hard links gets the file created exclusively instead (still
    never over another; see :func:`_create_exclusive`).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if create:
            _link_new(temp, path, text)
        else:
            os.replace(temp, path)
    finally:
        Path(temp).unlink(missing_ok=True)
    return path


def _link_new(temp: str, path: Path, text: str) -> None:
    """Put the written ``temp`` at ``path`` where no file is, never replacing one: a hard
    link, or on a filesystem without them ``text`` written to a file created exclusively."""
    try:
        os.link(temp, path)
    except FileExistsError:
        raise _exists(path) from None
    except OSError as exc:
        if exc.errno not in _NO_HARD_LINKS:
            raise
        _create_exclusive(path, text)


def _create_exclusive(path: Path, text: str) -> None:
    """Create ``path`` (only where no file is) and write ``text`` into it, synced to disk.
    Not all or nothing, as a link is: the file is removed again when the write fails,
    but a reader may see it being written, and a crash may leave it short."""
    try:
        handle = path.open("x", encoding="utf-8")
    except FileExistsError:
        raise _exists(path) from None
    try:
        with handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException:  # a full disk, Ctrl-C: no half file is left as the game's
        path.unlink(missing_ok=True)
        raise


def _exists(path: Path) -> SavedGameError:
    return SavedGameError(f"{path} exists already; it is left as it was")


def save_new_file(path: Path, text: str) -> Path:
    """Write ``text`` to a new file, never over another: ``path``, or ``STEM-2.SUFFIX``,
    ``STEM-3.SUFFIX``..., the first name free when it is written (another process may
    take a name between the look and the write: its file is kept, and the next name
    taken). Returns where it went."""
    chosen, number = path, 1
    while True:
        if not chosen.exists():
            try:
                return atomic_write_text(chosen, text, create=True)
            except SavedGameError:  # taken between the look and the write: the next name
                pass
        number += 1
        chosen = path.with_name(f"{path.stem}-{number}{path.suffix}")


def atomic_write_json(path: Path, data: Any, *, create: bool = False) -> Path:
    """Write JSON atomically (see :func:`atomic_write_text`)."""
    return atomic_write_text(path, _json_text(data), create=create)


def _json_text(data: Any) -> str:
    """The text of every JSON file kept here."""
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def _read_json(path: Path) -> Any:
    try:
        return read_json(path.read_bytes())
    except FileNotFoundError:
        raise SavedGameError(f"{path} does not exist") from None
    except (OSError, JsonTextError) as exc:
        raise SavedGameError(f"{path} cannot be read: {exc}") from None


# ------------------------------------------------------------------ games
def save_current_game(record: dict[str, Any], settings: dict[str, Any]) -> Path:
    """Save the game in progress (its record and the app settings that resume needs)."""
    return atomic_write_json(data_dir() / _CURRENT,
                             {"format": _SAVED_FORMAT, "record": record, "settings": settings})


def load_current_game() -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The saved game in progress as (record, settings), or None if there is none."""
    path = data_dir() / _CURRENT
    if not path.exists():
        return None
    data = _read_json(path)
    if not isinstance(data, dict) or data.get("format") != _SAVED_FORMAT \
            or not isinstance(data.get("record"), dict) \
            or not isinstance(data.get("settings"), dict):
        raise SavedGameError(f"{path} is not a saved game")
    return data["record"], data["settings"]


def clear_current_game() -> None:
    """Forget the game in progress (it finished, or a new one replaces it)."""
    (data_dir() / _CURRENT).unlink(missing_ok=True)


def save_finished_game(record: dict[str, Any], *, now: datetime | None = None) -> Path:
    """Keep a finished game's record under ``games/``, named by the time (``now``, by
    default the clock's) to the second and its seed; returns where it went. It never
    replaces another game's file: two games of one seed kept in the same second (two
    windows, two rules) are ``STAMP-SEED.json`` and ``STAMP-SEED-2.json``, each file
    created only where none is (another process may take a name meanwhile)."""
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S")
    seed = re.sub(r"[^\w-]", "_", str(record.get("seed") or "dealt"))[:32]
    return save_new_file(data_dir() / "games" / f"{stamp}-{seed}.json", _json_text(record))


def finished_games() -> list[Path]:
    """The files of the finished games kept under ``games/``, oldest first (by the stamp
    that starts each name; of one second, a name before the ``-2``, ``-3``... that
    followed it)."""
    folder = data_dir() / "games"
    if not folder.exists():
        return []
    return sorted(folder.glob("*.json"), key=lambda path: (path.name[:15], len(path.name),
                                                           path.name))


# ----------------------------------------------------------------- sheets
def sheet_path(name: str) -> Path:
    """The file of a named sheet; names are letters, digits, spaces, ``.``, ``-``, ``_``."""
    if not _NAME.match(name) or name.endswith((".", " ")):
        raise SavedGameError(
            f"sheet name {name!r}: use letters, digits, spaces, '.', '-' or '_' (up to 64)")
    return data_dir() / "sheets" / f"{name}.json"


def save_sheet(name: str, sheet: Sheet, *, create: bool = False) -> Path:
    """Save a score sheet under a name; returns the file. With ``create`` (a new sheet's
    first save) an existing sheet of that name is never replaced: a SavedGameError."""
    return atomic_write_json(sheet_path(name), sheet.to_json(), create=create)


def save_new_sheet(name: str, sheet: Sheet) -> tuple[str, Path]:
    """A new sheet's first save, which never replaces another's file: under ``name``, or
    the next free name when another run saved that name meanwhile. The name and file."""
    try:
        return name, save_sheet(name, sheet, create=True)
    except SavedGameError:
        name = free_sheet_name(name)
        return name, save_sheet(name, sheet, create=True)


def free_sheet_name(base: str) -> str:
    """``base``, or ``base-2``, ``base-3``... : the first name no saved sheet has yet."""
    name, number = base, 1
    while sheet_path(name).exists():
        number += 1
        name = f"{base}-{number}"
    return name


def load_sheet(name: str) -> Sheet:
    """Reopen a saved sheet (checked round by round)."""
    path = sheet_path(name)
    if not path.exists():
        known = ", ".join(list_sheets()) or "none yet"
        raise SavedGameError(f"no sheet named {name!r}; saved sheets: {known}")
    return read_sheet_file(path)


def names_sheet_file(text: str) -> bool:
    """Whether ``--open`` names a sheet file rather than a saved sheet: a path (a name
    never holds a folder separator) or a name ending ``.json``, as a download does."""
    return "/" in text or os.sep in text or text.endswith(".json")


def read_sheet_file(path: Path) -> Sheet:
    """A sheet from a file of its own, as the phone page downloads it (checked round by
    round)."""
    return Sheet.from_json(_read_json(path))


def import_sheet(path: Path) -> tuple[str, Path, Sheet]:
    """Keep a sheet file among the saved sheets, under the first free name made from the
    file's (a download's ``hearts-score-2026-12-07.json`` becomes that name). The name,
    its file and the sheet."""
    sheet = read_sheet_file(path)
    base = re.sub(r"[^\w .-]", "-", path.stem)[:56].strip(" .-") or "imported"
    name, saved = save_new_sheet(free_sheet_name(base), sheet)
    return name, saved, sheet


def list_sheets() -> list[str]:
    """Names of the saved sheets, alphabetical."""
    folder = data_dir() / "sheets"
    return sorted(p.stem for p in folder.glob("*.json")) if folder.exists() else []
