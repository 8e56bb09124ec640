"""Shared test settings: Hypothesis profiles sized for a 2-core CI machine, the folder
where tests leave screenshots for people to look at (made here once, so no test depends on
another having made it: a clean clone has none), and a data folder of the run's own
(``$HEARTS_HOME``), so no test files a game or a sheet among the user's."""

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

SCREENSHOTS = Path(__file__).resolve().parents[1] / "test-artifacts" / "screenshots"

settings.register_profile(
    "default", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("default")


# set on import, before any test's conftest or module copies the environment for the
# commands it starts
os.environ["HEARTS_HOME"] = tempfile.mkdtemp(prefix="hearts-home-")
atexit.register(shutil.rmtree, os.environ["HEARTS_HOME"], ignore_errors=True)


def pytest_configure(config: pytest.Config) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
