"""A policy file whose weights hold NaN or infinity is refused when it loads, naming the
array: such a network scores actions alike or not at all, and used to play silently."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from hearts.arena.specs import BotSpec, BotSpecError
from hearts.players import make_player
from hearts.players.observation import ACTION_COUNT, OBSERVATION_SIZE
from hearts.players.policy import PolicyFileError, load_layers, save_layers


def _policy(path: Path, bad: str | None, value: float) -> Path:
    """A two-layer policy of zeros, with ``value`` written into the array ``bad``."""
    arrays = {"w0": np.zeros((OBSERVATION_SIZE, 8), dtype=np.float32),
              "b0": np.zeros(8, dtype=np.float32),
              "w1": np.zeros((8, ACTION_COUNT), dtype=np.float32),
              "b1": np.zeros(ACTION_COUNT, dtype=np.float32)}
    if bad is not None:
        arrays[bad].flat[3] = value
    save_layers(path, [(arrays["w0"], arrays["b0"]), (arrays["w1"], arrays["b1"])])
    return path


@pytest.mark.parametrize(("bad", "value"), [("w0", np.nan), ("b0", np.inf),
                                            ("w1", -np.inf), ("b1", np.nan)])
def test_weights_that_are_not_finite_are_refused_naming_the_array(
        tmp_path: Path, bad: str, value: float) -> None:
    path = _policy(tmp_path / f"{bad}.npz", bad, value)
    at = "[0, 3]" if bad.startswith("w") else "[3]"
    with pytest.raises(PolicyFileError, match=rf"{bad} holds a value that is not a finite "
                                              rf"number \({value} at {re.escape(at)}; 1 in "
                                              rf"all\)"):
        load_layers(path)
    with pytest.raises(PolicyFileError, match=f"{bad} holds"):
        make_player(f"policy:{path}")
    with pytest.raises(BotSpecError, match=f"{bad} holds"):  # the arena refuses it first
        BotSpec.parse(f"policy:{path}")


def test_finite_weights_still_load(tmp_path: Path) -> None:
    assert len(load_layers(_policy(tmp_path / "fine.npz", None, 0.0))) == 2
