"""What ``hearts serve`` prints about its store and bus: no password, and a bus it cannot
use refused in one line before the banner (like an unreachable PostgreSQL)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from tests.cluster.real_servers import POSTGRES, needs_postgres

from hearts.server.bus import redact_url

SERVICES = Path(__file__).parents[1] / "cluster" / "services.sh"


@pytest.mark.parametrize(("url", "shown"), [
    ("redis://:s3cret@127.0.0.1:6379/0", "redis://:***@127.0.0.1:6379/0"),
    ("rediss://user:p%40ss@redis.example/1", "rediss://user:***@redis.example/1"),
    ("postgresql://hearts:change-me@127.0.0.1/hearts", "postgresql://hearts:***@127.0.0.1/hearts"),
    ("postgresql://hearts@127.0.0.1:5432/hearts", "postgresql://hearts@127.0.0.1:5432/hearts"),
    ("redis://127.0.0.1:6379/0", "redis://127.0.0.1:6379/0"),
    ("redis://:s3cret@[::1/0", "redis://***@[::1/0"),  # no URL urllib can split
    # a raw "@" in the password: the userinfo ends at the last one
    ("redis://:p@ss@127.0.0.1:6379/0", "redis://:***@127.0.0.1:6379/0"),
    ("redis://user:a@b:c@redis.example:6380/2", "redis://user:***@redis.example:6380/2"),
    # a password as a query parameter, in any case, beside others kept as they were
    ("postgresql://hearts@db.example/hearts?password=s3cret&sslmode=require",
     "postgresql://hearts@db.example/hearts?password=***&sslmode=require"),
    ("postgresql:///hearts?host=/run/pg&PASSWORD=s3cret",
     "postgresql:///hearts?host=/run/pg&PASSWORD=***"),
    ("redis://:s3cret@127.0.0.1/0?password=s3cret#x", "redis://:***@127.0.0.1/0?password=***#x"),
    ("redis://127.0.0.1/0?db=1&passwords=kept", "redis://127.0.0.1/0?db=1&passwords=kept"),
])
def test_a_password_in_a_url_is_never_shown(url: str, shown: str) -> None:
    assert redact_url(url) == shown


def _serve(*options: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    hearts = Path(sys.executable).with_name("hearts")
    return subprocess.run([str(hearts), "serve", "--port", "8104", *options],
                          capture_output=True, text=True, timeout=60,
                          env={"HEARTS_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"})


@needs_postgres
@pytest.mark.parametrize("bus", ["redis://127.0.0.1:1/0", "redis://:s3cret@127.0.0.1:1/0"])
def test_an_unreachable_bus_is_one_error_line_before_the_banner(bus: str,
                                                                tmp_path: Path) -> None:
    done = _serve("--db", POSTGRES, "--bus", bus, tmp_path=tmp_path)
    assert done.returncode == 2, done
    assert done.stdout == ""  # no banner: nothing listens
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"hearts: error: cannot use the Redis bus at "
                               f"{redact_url(bus)}: "), lines[0]
    assert "s3cret" not in done.stderr


def test_services_started_twice_into_one_folder_fail_loudly(tmp_path: Path) -> None:
    (tmp_path / "pg").mkdir()  # as a first start leaves it
    done = subprocess.run(["bash", str(SERVICES), "start", str(tmp_path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "already holds services" in done.stderr
    # what `eval "$(services.sh start DIR)"` runs: it fails too, not silently
    assert subprocess.run(["bash", "-c", f"eval {done.stdout.strip()!r}"]).returncode != 0


def test_a_bus_that_is_no_redis_url_is_refused_without_its_password(tmp_path: Path) -> None:
    done = _serve("--bus", "http://user:s3cret@example.org/", tmp_path=tmp_path)
    assert done.returncode == 2, done
    assert "--bus takes a redis:// URL, not 'http://user:***@example.org/'" in done.stderr
    assert "s3cret" not in done.stderr
