"""``examples/train_playout.py``: the decisions it collects are the search's, card by
card, and the fit prints weights the kernel can take."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest
from tests.players.benchmark_scripts import EXAMPLES, load_script

from hearts.players.search.kernel import N_FEATURES


def _trainer():  # type: ignore[no-untyped-def]
    return load_script(EXAMPLES / "train_playout.py")


@pytest.mark.parametrize("rules", ["standard:rounds=1", "card-commons:players=3,rounds=1"])
def test_collect_then_fit(rules: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                          capsys: pytest.CaptureFixture[str]) -> None:
    trainer = _trainer()
    data = tmp_path / "data.npz"
    monkeypatch.setattr(sys, "argv", ["train_playout.py", "collect", "--games", "1",
                                      "--worlds", "30", "--rules", rules,
                                      "--playout", "learned", "--out", str(data)])
    trainer.main()
    saved = np.load(data)
    features, values, sizes = saved["features"], saved["values"], saved["sizes"]
    assert len(sizes) > 10 and sizes.min() >= 2 and sizes.sum() == len(values)
    assert features.shape == (len(values), N_FEATURES)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    # exactly one card a decision is the heuristic's (feature 0)
    assert all(features[s:s + n, 0].sum() == 1 for s, n in zip(starts, sizes, strict=True))
    monkeypatch.setattr(sys, "argv", ["train_playout.py", "fit", str(data), "--steps", "50"])
    trainer.main()
    printed = capsys.readouterr().out
    assert re.search(r"lead +held out: search's card \d+\.\d%", printed)
    weights = re.search(r"LEARNED_WEIGHTS = np\.array\(\[(.*)\]\)", printed)
    assert weights is not None and len(weights.group(1).split(",")) == N_FEATURES


def test_observe_then_fit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                          capsys: pytest.CaptureFixture[str]) -> None:
    """``observe`` keeps a level's own cards (one marked a decision), and ``fit`` on them
    reports how often each model's card is the one played and its log-likelihood."""
    trainer = _trainer()
    data = tmp_path / "seen.npz"
    monkeypatch.setattr(sys, "argv", ["train_playout.py", "observe", "--games", "2",
                                      "--rules", "standard:rounds=1", "--out", str(data)])
    trainer.main()
    saved = np.load(data)
    values, sizes = saved["values"], saved["sizes"]
    # saved after the last game, with every game's decisions
    assert capsys.readouterr().out.splitlines()[-1].startswith(f"game 2: {len(sizes)} ")
    assert bool(saved["played"]) and len(sizes) > 20 and sizes.min() >= 2
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    assert set(np.unique(values)) == {0.0, 1.0}
    assert np.array_equal(np.add.reduceat(values, starts), np.ones(len(sizes)))
    monkeypatch.setattr(sys, "argv", ["train_playout.py", "fit", str(data), "--steps", "50"])
    trainer.main()
    printed = capsys.readouterr().out
    for model in ("lead", "kernel", "learned"):
        assert re.search(model + r" +held out: card played \d+\.\d%, loses \d\.\d{3}, "
                         r"log-likelihood -\d+\.\d{3} a decision", printed)


def test_fit_refuses_search_values_with_observed_plays(tmp_path: Path) -> None:
    trainer = _trainer()
    features = np.zeros((2, N_FEATURES))
    for name, played in (("search", False), ("seen", True)):
        np.savez(tmp_path / f"{name}.npz", features=features, values=np.array([1.0, 0.0]),
                 sizes=np.array([2]), played=played)
    with pytest.raises(SystemExit, match="cannot fit the search's values and observed"):
        trainer.load([str(tmp_path / "search.npz"), str(tmp_path / "seen.npz")])
