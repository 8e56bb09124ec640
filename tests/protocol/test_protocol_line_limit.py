"""A line longer than the protocol's 1 MiB is refused as such, on both sides, without
either side holding it in memory (a bot author's report: a 400 MB line took ~715 MB of
the host's memory and was logged as a timeout)."""

from __future__ import annotations

import io
import json
import logging
import time
from pathlib import Path

import pytest
from tests.protocol.scripted_bots import play_with_random, write_bot

from hearts.core import Rules
from hearts.players import make_player
from hearts.protocol import ExternalPlayer, ProtocolError, serve
from hearts.protocol.messages import MAX_LINE_BYTES, hello_message, read_lines

RULES = Rules.parse("standard:target=30")
HELLO = hello_message(0, RULES)
HUGE = 5 << 20  # 5 MB: five times the limit, and quick to write

class _Stream(io.BytesIO):
    """A byte stream that records the most each ``readline`` was allowed to read."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.limits: list[int] = []

    def readline(self, size: int | None = -1, /) -> bytes:
        self.limits.append(-1 if size is None else size)
        return super().readline(size)


def test_read_lines_refuses_a_long_line_at_once_and_skips_its_rest() -> None:
    stream = _Stream(b"first\n" + b"x" * HUGE + b"\nlast\n")
    lines = read_lines(stream.readline)
    assert next(lines) == b"first\n"
    refused = next(lines)
    assert isinstance(refused, ProtocolError)
    assert str(refused) == f"line too long (at most {MAX_LINE_BYTES} bytes, the newline " \
                           "included)"
    assert stream.tell() <= 6 + MAX_LINE_BYTES + 1  # refused before the rest was read
    assert list(lines) == [b"last\n"]
    assert stream.limits and all(0 < limit <= MAX_LINE_BYTES + 1 for limit in stream.limits)


def test_a_line_of_exactly_the_limit_is_read() -> None:
    line = b"y" * (MAX_LINE_BYTES - 1) + b"\n"
    assert list(read_lines(io.BytesIO(line + line[:-1]).readline)) == [line, line[:-1]]


def test_the_bot_side_refuses_a_long_line_and_answers_the_next() -> None:
    stream = _Stream(b"x" * HUGE + b"\n" + json.dumps(HELLO).encode() + b"\n")
    out = io.StringIO()
    status = serve(lambda seat, rules: make_player("random", seat), stream, out, name="t")
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert status == 1
    assert replies[0]["type"] == "error" and replies[0]["code"] == "bad_message"
    assert replies[0]["message"].startswith(f"line too long (at most {MAX_LINE_BYTES} bytes")
    assert replies[1]["type"] == "ready"
    assert all(0 < limit <= MAX_LINE_BYTES + 1 for limit in stream.limits)


@pytest.mark.parametrize("end", ["newline", "none"])
def test_the_host_fails_a_bot_that_writes_a_long_line_saying_so(
        end: str, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    # on its third decision the bot writes HUGE bytes of junk, then a newline, or nothing
    # and a long sleep
    junk = f'sys.stdout.write("x" * {HUGE}{" + chr(10)" if end == "newline" else ""})\n' \
        "sys.stdout.flush()\n" + ("" if end == "newline" else "time.sleep(60)\n") + "continue"
    external = ExternalPlayer(write_bot(tmp_path, "huge", junk), 0, RULES,
                              fallback=make_player("random", 1), timeout=20)
    started = time.monotonic()
    with caplog.at_level(logging.ERROR, logger="hearts.protocol"):
        state = play_with_random(external, RULES, "long-line")
    assert state.is_over
    assert external.error is not None
    assert "decision 3: line too long (at most 1048576 bytes" in external.error
    assert time.monotonic() - started < 15  # refused when seen, not after the 20 s timeout
    assert any("line too long" in r.getMessage() for r in caplog.records)
