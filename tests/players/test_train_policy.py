"""``examples/train_policy.py``: its draws of the learner's actions keep to the mask."""

from __future__ import annotations

import numpy as np
from tests.players.benchmark_scripts import EXAMPLES, load_script

from hearts.env.batched import BatchedHearts

train_policy = load_script(EXAMPLES / "train_policy.py")


class _Highest:
    """A generator whose every draw is the highest [0, 1) gives: the edge float32 rounding
    of a row's sum to just under 1 once turned into a masked action."""

    def random(self, size: int) -> np.ndarray:
        return np.full(size, np.nextafter(1.0, 0.0))


class _Lowest:
    def random(self, size: int) -> np.ndarray:
        return np.zeros(size)


def test_a_drawn_action_is_always_allowed_even_at_the_edges_of_a_draw() -> None:
    batch = BatchedHearts(64, "standard", seed=3)
    _, masks, _ = batch.reset()
    rng = np.random.default_rng(5)
    scores = rng.standard_normal((len(masks), masks.shape[1])).astype(np.float32) * 30
    probs = train_policy.masked_softmax(scores, masks)
    assert (probs.sum(axis=1) < 1).any()  # float32 leaves some rows short of 1
    for draws in (_Highest(), _Lowest(), np.random.default_rng(7)):
        chosen = train_policy.sample_actions(probs, draws)
        assert masks[np.arange(len(masks)), chosen].all()
        assert (probs[np.arange(len(probs)), chosen] > 0).all()
