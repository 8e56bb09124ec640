"""A player that follows a trained policy network saved as NumPy weights (``.npz``).

The network reads a seat's observation (:func:`hearts.players.observation.observe`, so it
sees only what the seat may know) and scores the ``ACTION_COUNT`` actions; the player takes
the best-scored action its mask allows. Passing goes one card at a time, as the policy was
trained (each pick sees the picks before it). ``examples/train_policy.py`` trains one on
the batched simulator.

The file holds the layers as ``w0, b0, w1, b1, ...``: ``w0`` is ``OBSERVATION_SIZE`` by
some width, the last ``w`` ends in ``ACTION_COUNT``, with a ReLU between layers (one layer:
a linear policy).
"""

from __future__ import annotations

import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from hearts.core import Card, CardSet, HeartsError, MoonChoice, PlayerView
from hearts.players.observation import (
    ACTION_COUNT,
    MOON_ACTIONS,
    OBSERVATION_SIZE,
    action_mask,
    observe,
)

__all__ = ["Layers", "PolicyFileError", "PolicyPlayer", "load_layers", "policy_logits",
           "save_layers"]

Layers = list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]


class PolicyFileError(HeartsError, ValueError):
    """A policy file that is missing, unreadable, not a network of the expected shape, or
    one whose weights are not all finite numbers."""


def policy_logits(layers: Sequence[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]],
                  observations: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The action scores of a batch of observations (``[batch, OBSERVATION_SIZE]``)."""
    x = observations
    for k, (weights, bias) in enumerate(layers):
        x = x @ weights + bias
        if k + 1 < len(layers):
            x = np.maximum(x, 0.0)
    return x


def save_layers(path: str | Path, layers: Layers) -> None:
    """Write the layers as ``w0, b0, w1, b1, ...`` into an ``.npz`` file."""
    arrays: dict[str, Any] = {}
    for k, (weights, bias) in enumerate(layers):
        arrays[f"w{k}"] = weights
        arrays[f"b{k}"] = bias
    np.savez(path, **arrays)


def load_layers(path: str | Path) -> Layers:
    """Read and check the layers of a policy file."""
    try:
        loaded = np.load(path, allow_pickle=False)
        if not isinstance(loaded, np.lib.npyio.NpzFile):  # one array: a .npy file
            raise PolicyFileError(f"{str(path)!r} is not a policy .npz file: it holds one "
                                  "array (a .npy file), not the layers w0, b0, w1, b1, ...")
        with loaded as data:
            arrays = {name: np.asarray(data[name], dtype=np.float32) for name in data.files}
    except PolicyFileError:
        raise
    except FileNotFoundError:
        raise PolicyFileError(f"no policy file {str(path)!r}") from None
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as exc:
        # NumPy takes any file it cannot read for pickled data and advises loading it
        # unsafely: never advice to give about a file from anyone
        why = ("it is no NumPy file (a policy is the .npz of the layers w0, b0, w1, b1, "
               "... that examples/train_policy.py saves)") if "pickle" in str(exc) else exc
        raise PolicyFileError(f"{str(path)!r} is not a policy .npz file: {why}") from None
    layers: Layers = []
    width = OBSERVATION_SIZE
    while f"w{len(layers)}" in arrays:
        k = len(layers)
        weights, bias = arrays[f"w{k}"], arrays.get(f"b{k}")
        if weights.ndim != 2 or weights.shape[0] != width or bias is None \
                or bias.shape != (weights.shape[1],):
            raise PolicyFileError(
                f"{str(path)!r}: layer {k} must be w{k} [{width}, width] and b{k} [width]; "
                f"got w{k} {weights.shape} and b{k} {None if bias is None else bias.shape}")
        for name, array in ((f"w{k}", weights), (f"b{k}", bias)):
            wrong = np.flatnonzero(~np.isfinite(array))
            if wrong.size:  # NaN or inf: the scores mean nothing, the player plays blind
                first = np.unravel_index(wrong[0], array.shape)
                raise PolicyFileError(
                    f"{str(path)!r}: {name} holds a value that is not a finite number "
                    f"({array[first]} at {list(map(int, first))}; {wrong.size} in all): a "
                    "policy's weights are finite")
        layers.append((weights, bias))
        width = weights.shape[1]
    if not layers or width != ACTION_COUNT:
        raise PolicyFileError(
            f"{str(path)!r}: a policy is layers w0, b0, w1, b1, ... from {OBSERVATION_SIZE} "
            f"observation values to {ACTION_COUNT} action scores (found arrays "
            f"{sorted(arrays)}, ending at width {width})")
    return layers


class PolicyPlayer:
    """Plays the legal action its network scores highest (deterministic)."""

    def __init__(self, layers: Layers, name: str = "policy") -> None:
        self.layers = layers
        self.name = name

    @classmethod
    def load(cls, path: str | Path, name: str | None = None) -> PolicyPlayer:
        """The player of a policy file (raises :class:`PolicyFileError` if it is bad)."""
        return cls(load_layers(path), name or f"policy:{path}")

    def _best(self, view: PlayerView, selected: int = 0) -> int:
        scores = policy_logits(self.layers, observe(view, selected)[None, :])[0]
        allowed = action_mask(view, selected).astype(bool)
        return int(np.flatnonzero(allowed)[np.argmax(scores[allowed])])

    def choose_pass(self, view: PlayerView) -> CardSet:
        selected = 0
        for _ in range(view.rules.pass_count):
            selected |= Card(self._best(view, selected)).mask
        return CardSet(selected)

    def choose_play(self, view: PlayerView) -> Card:
        return Card(self._best(view))

    def choose_moon(self, view: PlayerView) -> MoonChoice:
        best = self._best(view)
        return next(choice for choice, index in MOON_ACTIONS.items() if index == best)
