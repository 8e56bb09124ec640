"""``hearts challenge`` and ``hearts play --challenge``: a challenge made, played in the
text game through a pipe, its record checked offline and submitted to a real server's
leaderboard; forged records refused offline and by the server."""

from __future__ import annotations

import contextlib
import json
import re
import socket
import subprocess
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.cli.conftest import CLI, CLI_ENV
from tests.cli.test_cli_play import PipeDriver

from hearts.challenge import Challenge, check_entry
from hearts.core import parse_record

# Few worlds a decision: the opponents stay quick; the code carries the number.
CHALLENGE = Challenge.create("card-commons", ["easy", "normal", "expert"], 2, "pype7", 16)


def test_new_prints_a_code_that_show_reads_back(hearts_main) -> None:
    # levels are read as --level reads one, whatever their case
    status, out, err = hearts_main("challenge", "new", "--preset", "classic", "--opponents",
                                   "Hard, RANDOM", "--deals", "3", "--seed", "abc9")
    assert status == 0, err
    code = out.splitlines()[0]
    assert Challenge.parse(code) == Challenge.create("classic", ["hard", "random"], 3, "abc9")
    assert f"/c/{code}" in out and f"hearts play --challenge {code}" in out
    status, out, _ = hearts_main("challenge", "show", code)
    assert status == 0
    assert "classic:players=3,target=10000,rounds=3" in out and "hard, random" in out


def test_new_draws_a_seed_when_none_is_given(hearts_main) -> None:
    codes = {hearts_main("challenge", "new")[1].splitlines()[0] for _ in range(3)}
    assert len(codes) == 3
    assert all(Challenge.parse(code).opponents == ("normal",) * 3 for code in codes)


@pytest.mark.parametrize(("args", "says"), [
    (("challenge", "show", "1c4nnn016e3abcq"), "does not check out"),
    (("challenge", "new", "--preset", "standard", "--opponents", "easy"),
     "standard is played by 4 players: give 3 opponents, not 1"),
    (("challenge", "new", "--opponents", "easy,wizard,easy"), "unknown level 'wizard'"),
    (("challenge", "new", "--seed", "hello"), "'l', 'o' cannot be in a code"),
    (("play", "--text", "--challenge", "nonsense"),
     "argument --challenge: a challenge code is 11 to 30 characters; 'nonsense' has 8"),
    (("play", "--text", "--challenge", CHALLENGE.code, "--seed", "4"),
     "--challenge sets the rules, the opponents and the deals; leave out --seed"),
])
def test_bad_input_is_one_error_line(hearts_main, args: tuple[str, ...], says: str) -> None:
    status, _, err = hearts_main(*args)
    assert status == 2
    assert says in err and "Traceback" not in err


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """One whole challenge played through the real command (its record and output)."""
    record = tmp_path_factory.mktemp("challenge") / "mine.json"
    proc = subprocess.Popen([*CLI, "play", "--text", "--challenge", CHALLENGE.code,
                             "--name", "Ada", "--record", str(record)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, encoding="utf-8",
                            env=CLI_ENV, bufsize=0)
    driver = PipeDriver(proc, seed=4)
    while (question := driver.read_prompt()) is not None:
        lines, prompt = question
        driver.answer(driver.choose(lines, prompt))
    code, out, err = driver.finish()
    assert code == 0, err
    return record, out


def test_the_text_game_plays_the_challenge_and_keeps_a_record_check_accepts(
        played: tuple[Path, str], hearts_cli) -> None:
    record, out = played
    assert out.startswith(f"Challenge {CHALLENGE.code}: card-commons, 2 deals against easy, "
                          "normal, expert (from your left)")
    assert "=== Round 2:" in out and "=== Round 3:" not in out and "Game over." in out
    assert f"Submit it with:  hearts challenge submit {record} --server URL" in out
    data = parse_record(record.read_text(encoding="utf-8"))
    assert data["challenge"] == CHALLENGE.code and data["seats"][0] == "Ada"
    result = check_entry(CHALLENGE, data)
    assert result.complete
    checked = hearts_cli("challenge", "check", str(record))
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.startswith(f"OK  Ada played challenge {CHALLENGE.code}\n")
    points = "  ".join(f"deal {n}: {p}" for n, p in enumerate(result.points, start=1))
    assert f"{points}  total {result.total}" in checked.stdout


def forge(record: Path, tmp_path: Path) -> Path:
    """The record with the last computer card of round 1 swapped for its neighbour's."""
    data = json.loads(record.read_text(encoding="utf-8"))
    plays = data["rounds"][0]["plays"]
    plays[-1], plays[-2] = plays[-2], plays[-1]
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(data), encoding="utf-8")
    return forged


def test_check_names_the_forgery(played: tuple[Path, str], hearts_cli, tmp_path: Path) -> None:
    record, _ = played
    checked = hearts_cli("challenge", "check", str(forge(record, tmp_path)))
    assert checked.returncode == 1
    assert checked.stdout.startswith(f"FORGED  not a play of challenge {CHALLENGE.code}: ")
    other = Challenge.create("card-commons", ["easy", "normal", "expert"], 2, "pype8", 16)
    checked = hearts_cli("challenge", "check", str(record), "--code", other.code)
    assert checked.returncode == 1 and "deals from seed 'pype8'" in checked.stdout


def test_check_needs_a_code_where_the_record_names_none(played: tuple[Path, str], hearts_cli,
                                                       tmp_path: Path) -> None:
    data = json.loads(played[0].read_text(encoding="utf-8"))
    del data["challenge"]
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps(data), encoding="utf-8")
    checked = hearts_cli("challenge", "check", str(bare))
    assert checked.returncode == 2 and "give it with --code CODE" in checked.stderr
    checked = hearts_cli("challenge", "check", str(bare), "--code", CHALLENGE.code)
    assert checked.returncode == 0, checked.stderr


def test_without_record_the_play_goes_to_a_new_file_here(tmp_path: Path) -> None:
    (tmp_path / f"challenge-{CHALLENGE.code}.json").write_text("an earlier play\n")
    proc = subprocess.run([*CLI, "play", "--text", "--challenge", CHALLENGE.code],
                          input="quit\n", capture_output=True, text=True, encoding="utf-8",
                          env=CLI_ENV, cwd=tmp_path, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    kept = tmp_path / f"challenge-{CHALLENGE.code}-2.json"
    assert f"Saved the game so far to {kept.name}" in proc.stdout
    assert "is not finished: only a complete play goes on a leaderboard" in proc.stdout
    assert (tmp_path / f"challenge-{CHALLENGE.code}.json").read_text() == "an earlier play\n"
    assert not check_entry(CHALLENGE, parse_record(kept.read_text(encoding="utf-8"))).complete


# ------------------------------------------------------------------- a real server
def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``hearts serve`` on a free port, with its own database."""
    port = _free_port()
    db = tmp_path_factory.mktemp("server") / "server.db"
    proc = subprocess.Popen([*CLI, "serve", "--port", str(port), "--db", str(db)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=CLI_ENV)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"{url}/api/challenges", timeout=2).close()
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail(f"the server did not start: {proc.communicate()[1]}")
            time.sleep(0.2)
    yield url
    proc.terminate()
    proc.wait(timeout=30)


def _board(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{url}/api/challenges/{CHALLENGE.code}", timeout=10) as reply:
        board: dict[str, Any] = json.loads(reply.read())
    return board


def test_a_terminal_result_goes_on_a_servers_leaderboard(played: tuple[Path, str], hearts_cli,
                                                         server: str) -> None:
    record, _ = played
    total = check_entry(CHALLENGE, parse_record(record.read_text(encoding="utf-8"))).total
    sent = hearts_cli("challenge", "submit", str(record), "--server", server + "/")
    assert sent.returncode == 0, sent.stderr
    assert sent.stdout.strip() == (f"Entered on the leaderboard of challenge {CHALLENGE.code}: "
                                   f"place 1, {total} points")
    assert "Ada" in json.dumps(_board(server))
    again = hearts_cli("challenge", "submit", str(record), "--server", server)
    assert again.returncode == 0 and "(this play was already there)" in again.stdout


def test_the_server_refuses_a_forged_result(played: tuple[Path, str], hearts_cli, server: str,
                                            tmp_path: Path) -> None:
    sent = hearts_cli("challenge", "submit", str(forge(played[0], tmp_path)),
                      "--server", server)
    assert sent.returncode == 1
    assert re.match(r"REFUSED \((forged_entry|bad_record)\): ", sent.stdout), sent.stdout


def test_an_unreachable_server_is_one_error_line(played: tuple[Path, str], hearts_cli) -> None:
    sent = hearts_cli("challenge", "submit", str(played[0]), "--server",
                      f"http://127.0.0.1:{_free_port()}")
    assert sent.returncode == 2 and sent.stderr.startswith("hearts: error: cannot reach")
    sent = hearts_cli("challenge", "submit", str(played[0]), "--server", "ftp://x")
    assert sent.returncode == 2 and "an http:// or https:// address" in sent.stderr


@pytest.mark.parametrize("address", ["http://[::1", "http://localhost:abc", "http://local host"])
def test_an_address_http_cannot_use_is_one_error_line(played: tuple[Path, str], hearts_cli,
                                                       address: str) -> None:
    sent = hearts_cli("challenge", "submit", str(played[0]), "--server", address)
    assert sent.returncode == 2, sent.stderr
    assert sent.stderr.startswith("hearts: error: ") and len(sent.stderr.splitlines()) == 1
    assert "Traceback" not in sent.stderr and "internal error" not in sent.stderr


@contextlib.contextmanager
def _answering(reply: bytes) -> Iterator[str]:
    """A server on loopback that answers every connection with ``reply`` and closes."""
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def serve() -> None:
        with contextlib.suppress(OSError):
            while True:
                connection, _ = listener.accept()
                with connection:
                    connection.recv(65536)
                    connection.sendall(reply)

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        listener.close()


@pytest.mark.parametrize(("reply", "said"), [
    (b"SSH-2.0-OpenSSH_9.2\r\n", "did not answer as a web server does: BadStatusLine"),
    (b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", "answered, but not with a place"),
    (b'HTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\n{"place": -1}', "not with a place"),
])
def test_a_server_that_is_no_hearts_server_is_one_error_line(
        played: tuple[Path, str], hearts_cli, reply: bytes, said: str) -> None:
    with _answering(reply) as address:
        sent = hearts_cli("challenge", "submit", str(played[0]), "--server", address)
    assert sent.returncode == 2 and sent.stdout == "", sent.stdout + sent.stderr
    assert sent.stderr.startswith("hearts: error: ") and said in sent.stderr, sent.stderr
