"""The one error boundary of ``hearts.cli.main.main``: bad input of any kind is one
``hearts: error:`` line and exit 2; a bug is one line that says so and where its
traceback went, exit 1; random argument lists never give a traceback."""

from __future__ import annotations

import io
import os
import re
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hearts.cli.main import build_parser, main
from hearts.server.store import SqliteStore

MainResult = tuple[int, str, str]
HeartsMain = Callable[..., MainResult]


@pytest.fixture(autouse=True)
def hearts_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("HEARTS_HOME", str(home))
    monkeypatch.delenv("HEARTS_DEBUG", raising=False)
    return home


def failing_rules(monkeypatch: pytest.MonkeyPatch, error: BaseException) -> None:
    """``hearts rules`` raises ``error`` when it runs."""

    def run(args: object) -> int:
        raise error

    monkeypatch.setattr("hearts.cli.cmd_rules.run", run)


@pytest.mark.parametrize(("error", "said"), [
    (FileNotFoundError(2, "No such file or directory", "game.json"),
     "game.json: No such file or directory"),
    (IsADirectoryError(21, "Is a directory", "/tmp"), "/tmp: Is a directory"),
    (RecursionError("maximum recursion depth exceeded"), "nested too deeply"),
    (UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"), "not UTF-8"),
])
def test_bad_input_of_any_kind_is_one_error_line(
        hearts_main: HeartsMain, monkeypatch: pytest.MonkeyPatch, error: BaseException,
        said: str) -> None:
    failing_rules(monkeypatch, error)
    status, _, err = hearts_main("rules")
    assert status == 2
    assert err.startswith("hearts: error: ") and said in err and len(err.splitlines()) == 1


@pytest.mark.parametrize(("kind", "said"), [
    ("junk", "file is not a database"), ("folder", "unable to open database file"),
    ("newer", "newer than this server"),
])
def test_serve_refuses_a_db_it_cannot_use_in_one_line(hearts_main: HeartsMain, tmp_path: Path,
                                                      kind: str, said: str) -> None:
    db = tmp_path / "hearts.db"
    if kind == "junk":
        db.write_text("not a database\n" * 200)
    elif kind == "folder":
        db.mkdir()
    else:
        SqliteStore(db).close()
        with sqlite3.connect(db) as later:
            later.execute("INSERT INTO schema_version VALUES (999)")
    status, _, err = hearts_main("serve", "--db", str(db), "--port", "18765")
    assert status == 2, err
    assert err.startswith("hearts: error: ") and said in err and len(err.splitlines()) == 1


@pytest.mark.parametrize(("options", "said"), [
    (["--route-tag", "a"], "--route-tag routes tables between the processes of a cluster: "
                           "give --bus too"),
    (["--bus", "http://x"], "--bus takes a redis:// URL, not 'http://x'"),
    (["--bus", "redis://127.0.0.1:1"], "processes connected by a bus share their tables: "
                                       "give them a PostgreSQL store"),
    (["--bus", "redis://localhost:abc"], "the bus URL 'redis://localhost:abc' cannot be "
                                         "used: Port could not be cast"),
    (["--bus", "redis://[::1/0"], "the bus URL 'redis://[::1/0' cannot be used: Invalid IPv6"),
])
def test_serve_refuses_a_cluster_it_cannot_form_in_one_line(
        hearts_main: HeartsMain, tmp_path: Path, options: list[str], said: str) -> None:
    """Each refusal is a typed error (CommandLineError, ServerConfigError) said before
    anything listens or connects."""
    status, out, err = hearts_main("serve", "--db", str(tmp_path / "h.db"), "--port", "18765",
                                   *options)
    assert status == 2 and out == "", err
    assert err.startswith(f"hearts: error: {said}") and len(err.splitlines()) == 1


@pytest.mark.parametrize(("url", "said"), [
    ("postgresql://u:secret@127.0.0.1:abc/db", "at 127.0.0.1:abc/db: connection is bad: "
                                               "invalid integer value \"abc\""),
    ("postgresql://u:secret@127.0.0.1:1/db", "at 127.0.0.1:1/db: connection failed"),
])
def test_serve_refuses_a_postgres_it_cannot_use_in_one_line(hearts_main: HeartsMain, url: str,
                                                            said: str) -> None:
    """Once a traceback from the server's start-up, ten seconds in, exit 3; the password
    is never shown."""
    status, out, err = hearts_main("serve", "--db", url, "--port", "18765")
    assert status == 2 and out == "", err
    assert err.startswith(f"hearts: error: cannot use the PostgreSQL database {said}"), err
    assert len(err.splitlines()) == 1 and "secret" not in err


def test_serve_refuses_a_log_level_the_logging_module_lacks_before_making_its_db(
        hearts_main: HeartsMain, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HEARTS_LOG", "bogus")
    status, out, err = hearts_main("serve", "--db", str(tmp_path / "h.db"), "--port", "18765")
    assert status == 2 and out == "", err
    assert err == ("hearts: error: HEARTS_LOG is one of NOTSET, DEBUG, INFO, WARN, WARNING, "
                   "ERROR, CRITICAL, FATAL, not 'BOGUS'\n")
    assert not (tmp_path / "h.db").exists()


@pytest.mark.parametrize("error", [TypeError("an unexpected None"),
                                   ValueError("an unexpected None")], ids=repr)
def test_a_bug_says_so_and_where_its_traceback_went(
        hearts_main: HeartsMain, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        error: Exception) -> None:
    """Bad input is a typed error (a HeartsError) by the time it reaches the boundary, so
    a bare ValueError there is a bug too, not the user's input."""
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr("tempfile.tempdir", None)
    failing_rules(monkeypatch, error)
    status, _, err = hearts_main("rules")
    assert status == 1 and len(err.splitlines()) == 1 and "Traceback" not in err
    assert "internal error (a bug" in err and f"{type(error).__name__}: an unexpected None" in err
    found = re.search(r"the traceback is in (\S+\.txt)", err)
    assert found is not None
    kept = Path(found.group(1)).read_text()
    assert kept.startswith("Traceback") and "an unexpected None" in kept


def test_hearts_debug_shows_the_traceback(hearts_main: HeartsMain,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HEARTS_DEBUG", "1")
    failing_rules(monkeypatch, TypeError("an unexpected None"))
    status, _, err = hearts_main("rules")
    assert status == 1 and err.startswith("Traceback") and "its traceback is above" in err


def test_the_exit_statuses_are_documented() -> None:
    text = " ".join(build_parser(()).format_help().split())
    assert "2 a usage error or bad input" in text and "an internal error, a bug" in text
    assert "1 a record that a check found wrong (replay, verify, challenge check" in text
    assert "HEARTS_DEBUG=1" in text


def test_stdin_that_is_not_utf8_is_answered_and_asked_again(tmp_path: Path) -> None:
    """Once the end of the session (an error line, exit 2); now the line is refused at
    its prompt and the session goes on to the end of input."""
    env = {**os.environ, "HEARTS_HOME": str(tmp_path), "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run([sys.executable, "-m", "hearts.cli.main", "score", "--plain"],
                          input=b"Ann,\xff\xfe,Cy\n", capture_output=True, env=env,
                          timeout=60, check=False)
    out, err = done.stdout.decode(), done.stderr.decode()
    assert done.returncode == 0 and err == "", err
    assert "error: that line is not UTF-8 text" in out and "No names entered" in out


# --------------------------------------------------------------------- the fuzzer
_WORD = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
_OPTIONS = ("--names", "--rules", "--name", "--open", "--export", "--list", "--plain",
            "--players", "--json", "-")


@st.composite
def cheap_command(draw: st.DrawFn, garbage: Path) -> list[str]:
    """A random argument list for a command that ends at once: rules, replay or verify of
    a garbage file, score with random names and rules."""
    command = draw(st.sampled_from(["rules", "replay", "verify", "score"]))
    if command in ("replay", "verify"):
        data = draw(st.one_of(st.binary(max_size=200),
                              st.sampled_from([10, 2000, 100_000]).map(lambda n: b"[" * n),
                              st.sampled_from([b'{"format": "card-commons-hearts/game"}',
                                               b'{"version": 1e999}', b"\xef\xbb\xbf{}"])))
        garbage.write_bytes(data)
        return [command, str(garbage), *draw(st.lists(st.sampled_from(_OPTIONS), max_size=2))]
    words = draw(st.lists(st.one_of(st.sampled_from(_OPTIONS), _WORD), max_size=6))
    return [command, *words]


def _check_main(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    sys.stdin = io.StringIO("13 13 0 0\nquit\n")
    try:
        status = main(argv)
    except SystemExit as exit_:  # argparse's usage errors
        status = int(exit_.code or 0)
    finally:
        sys.stdin = sys.__stdin__
    _, err = capsys.readouterr()
    assert status in (0, 1, 2), (argv, status, err)
    assert "Traceback" not in err, (argv, err)
    assert "internal error" not in err, (argv, err)


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_arguments_never_give_a_traceback(
        data: st.DataObject, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _check_main(data.draw(cheap_command(tmp_path / "garbage.json")), capsys)


@pytest.mark.slow
@settings(max_examples=1500, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_arguments_never_give_a_traceback_deeper(
        data: st.DataObject, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _check_main(data.draw(cheap_command(tmp_path / "garbage.json")), capsys)
