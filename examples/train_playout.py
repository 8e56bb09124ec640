"""Fit the weights of the learned playout policy to the search's own choices (or to
another level's own plays).

The search player (:mod:`hearts.players.search`) plays its simulated seats by a cheap
policy; ``lead`` is hand-written. ``learned`` leads as ``lead`` does and scores each
card it may play to a trick in progress by a linear model over
:func:`~hearts.players.search.kernel.decision_features` (what the seat sees of playing
it) with weights fitted here, in two steps:

``collect`` plays whole games with a search player in every seat (fixed worlds a
decision, the ``lead`` playout, or ``--playout learned`` for a second round fitted to a
search that already plays out with the fitted weights) and keeps, for every decision
with a choice in a trick in progress, each legal card's features and the search's value
for it (cards that play alike share one value). The file is rewritten every half minute,
after a whole game, so a long run can be stopped at any time::

    .venv/bin/python examples/train_playout.py collect --games 100 --worlds 800 \\
        --seed a --out data-a.npz

``fit`` fits a softmax over each decision's cards to the softmax of the search's values
(``--temperature`` in points), holds a fifth of the decisions out, reports how often the
``lead`` policy, the kernel's current weights and the fitted model pick the search's best
card there, the value each loses a decision and the log-likelihood of the search's
softmax under each, and prints the weights for ``LEARNED_WEIGHTS`` in
``src/hearts/players/search/kernel.py``::

    .venv/bin/python examples/train_playout.py fit data-a.npz data-b.npz

``observe`` records another level's own plays instead (``--level normal`` by default, a
copy in every seat): the same features, and the card it played. ``fit`` on such a file
fits the model to be a good *distribution* of that level's cards (the cross-entropy
against the card played) and reports how often each model's best card is the one
played and the log-likelihood of the played cards, per decision::

    .venv/bin/python examples/train_playout.py observe --games 2000 --seed n --out n.npz
    .venv/bin/python examples/train_playout.py fit n.npz
"""

from __future__ import annotations

import argparse
import time
import zlib
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from hearts.cli.common import (
    non_negative_int,
    non_negative_number,
    positive_int,
    positive_number,
    rules_text,
    seed_text,
)
from hearts.core import Card, CardSet, MoonChoice, PlayerView, Rules
from hearts.players.base import Player
from hearts.players.driver import play_game
from hearts.players.knowledge import Knowledge
from hearts.players.levels import LEVELS, make_player
from hearts.players.search.encode import position_array, rules_array
from hearts.players.search.kernel import LEARNED_WEIGHTS, N_FEATURES, card_features, mix_seed
from hearts.players.search.player import PLAYOUTS, SearchPlayer, distinct_cards

Floats = npt.NDArray[np.float64]


class RecordingPlayer(SearchPlayer):
    """A search player that keeps, for each card it plays to a trick in progress, every
    legal card's features and search value."""

    def __init__(self, seed: int, worlds: int, playout: str = "lead") -> None:
        super().__init__(seed, level="expert", iterations=worlds, playout=playout)
        self.features: list[Floats] = []
        self.values: list[Floats] = []

    def choose_play(self, view: PlayerView) -> Card:
        """The search's card; every legal card's features and value are kept."""
        kept = distinct_cards(view)
        if len(view.legal) == 1 or not view.trick:
            return super().choose_play(view)
        found = dict(zip(kept, self.card_values(view, kept), strict=True)) if len(kept) > 1 \
            else {kept[0]: 0.0}
        legal = list(view.legal)
        values, value = [], 0.0
        for card in legal:  # a card not kept plays like the kept one before it
            value = found.get(card, value)
            values.append(value)
        self.features.append(legal_features(view, legal))
        self.values.append(np.array(values))
        return max(kept, key=found.__getitem__)


def legal_features(view: PlayerView, legal: list[Card]) -> Floats:
    """Each of ``legal``'s :func:`decision_features` rows, from the view's seat."""
    assert view.seat is not None
    hands = [0] * view.players
    hands[view.seat] = view.hand.mask
    features = np.zeros((len(legal), N_FEATURES), dtype=np.float64)
    card_features(position_array(view, hands), rules_array(view.rules, view.round_no),
                  Knowledge.of(view).out, np.array(legal, dtype=np.int64), features)
    return features


class WatchingPlayer:
    """Plays as ``inner`` does and keeps, for each card it plays to a trick in progress
    with a choice, every legal card's features and a value of 1 for the card it played
    (0 for the rest)."""

    def __init__(self, inner: Player) -> None:
        self.inner, self.name = inner, inner.name
        self.features: list[Floats] = []
        self.values: list[Floats] = []

    def choose_pass(self, view: PlayerView) -> CardSet:
        """``inner``'s pass."""
        return self.inner.choose_pass(view)

    def choose_moon(self, view: PlayerView) -> MoonChoice:
        """``inner``'s moon choice."""
        return self.inner.choose_moon(view)

    def choose_play(self, view: PlayerView) -> Card:
        """``inner``'s card, kept with the features of every legal card."""
        card = self.inner.choose_play(view)
        if view.trick and len(view.legal) > 1:
            legal = list(view.legal)
            self.features.append(legal_features(view, legal))
            self.values.append(np.array([float(c == card) for c in legal]))
        return card


def collect(games: int, worlds: int, seed: str, rules: Rules, out: str,
            playout: str = "lead") -> None:
    """Play ``games`` games with a recording player (playing out by ``playout``) in every
    seat; save the decisions to ``out``."""
    record(lambda game: [
        RecordingPlayer(mix_seed(zlib.crc32(seed.encode()), rules.players * game + s),
                        worlds, playout) for s in range(rules.players)],
        games, seed, rules, out, played=False)


def observe(games: int, level: str, seed: str, rules: Rules, out: str) -> None:
    """Play ``games`` games with ``level`` in every seat; save its plays to ``out``."""
    record(lambda game: [WatchingPlayer(make_player(level, f"{seed}-{game}-{s}"))
                         for s in range(rules.players)],
           games, seed, rules, out, played=True)


SAVE_EVERY = 30.0
"""The least time in seconds between two saves of a recording run (which saves after
whole games, and always after the last)."""


def record(table: Callable[[int], Sequence[RecordingPlayer | WatchingPlayer]],
           games: int, seed: str, rules: Rules, out: str, played: bool) -> None:
    """Play ``games`` seeded games between ``table(game)``'s seats and save every seat's
    kept decisions to ``out`` (``played``: the values mark the card played, not the
    search's values): after the last game, and after any game that ends
    :data:`SAVE_EVERY` seconds or more after the last save, so a long run can be stopped
    at any time without rewriting a growing file after every quick game."""
    features: list[Floats] = []
    values: list[Floats] = []
    start = saved = time.perf_counter()
    for game in range(games):
        seats = table(game)
        play_game(rules, seats, f"{seed}-{game}")
        for seat in seats:
            features += seat.features
            values += seat.values
        now = time.perf_counter()
        if game + 1 == games or now - saved >= SAVE_EVERY:
            np.savez(out, features=np.concatenate(features), values=np.concatenate(values),
                     sizes=np.array([len(v) for v in values]), played=played)
            saved = now
            print(f"game {game + 1}: {len(values)} decisions, {now - start:.0f} s", flush=True)


Decisions = tuple[Floats, Floats, npt.NDArray[np.int64]]
"""Every kept card's features and value, and each decision's number of cards."""


def load(paths: list[str]) -> tuple[Decisions, bool]:
    """The decisions of several collected files, joined, and whether their values mark
    the card played (``observe``) rather than the search's values (``collect``)."""
    parts = [np.load(path) for path in paths]
    kinds = {bool(p["played"]) if "played" in p else False for p in parts}
    if len(kinds) > 1:
        raise SystemExit("cannot fit the search's values and observed plays together")
    return (np.concatenate([p["features"] for p in parts]),
            np.concatenate([p["values"] for p in parts]),
            np.concatenate([p["sizes"] for p in parts])), kinds.pop()


def segment_softmax(scores: Floats, starts: npt.NDArray[np.int64],
                    owner: npt.NDArray[np.int64]) -> Floats:
    """Softmax of ``scores`` within each decision (rows from ``starts``)."""
    shifted = np.exp(scores - np.maximum.reduceat(scores, starts)[owner])
    return shifted / np.add.reduceat(shifted, starts)[owner]


def segments(sizes: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int64],
                                                     npt.NDArray[np.int64]]:
    """Each decision's first row, and each row's decision."""
    return (np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64),
            np.repeat(np.arange(len(sizes)), sizes))


def target_of(values: Floats, sizes: npt.NDArray[np.int64], temperature: float,
              played: bool) -> Floats:
    """What the model's softmax is fitted to: the card played, or the softmax of the
    search's values / ``temperature``."""
    return values if played else segment_softmax(values / temperature, *segments(sizes))


def fit_weights(features: Floats, target: Floats, sizes: npt.NDArray[np.int64],
                steps: int, l2: float) -> Floats:
    """Weights minimising the cross-entropy from ``target`` to the model's softmax over
    each decision's cards (Adam, full batch)."""
    starts, owner = segments(sizes)
    weights = np.zeros(features.shape[1])
    weights[0] = 1.0
    moment, square = np.zeros_like(weights), np.zeros_like(weights)
    for step in range(1, steps + 1):
        chosen = segment_softmax(features @ weights, starts, owner)
        grad = features.T @ (chosen - target) / len(sizes) + l2 * weights
        moment = 0.9 * moment + 0.1 * grad
        square = 0.999 * square + 0.001 * grad ** 2
        weights -= 0.05 * (moment / (1 - 0.9 ** step)) / (
            np.sqrt(square / (1 - 0.999 ** step)) + 1e-8)
    return weights


def judge(features: Floats, values: Floats, target: Floats, sizes: npt.NDArray[np.int64],
          weights: Floats) -> tuple[float, float, float]:
    """How often the highest-scored card is the best by ``values`` (share of decisions),
    the value it loses a decision on average (ties go to the lower card), and the
    log-likelihood a decision of ``target`` under the model's softmax."""
    hits, lost = 0, 0.0
    scores = features @ weights
    start = 0
    for size in sizes:
        value = values[start:start + size]
        pick = int(np.argmax(scores[start:start + size]))
        hits += value[pick] == value.max()
        lost += value.max() - value[pick]
        start += size
    model = segment_softmax(scores, *segments(sizes))
    likelihood = float(target @ np.log(np.maximum(model, 1e-300))) / len(sizes)
    return hits / len(sizes), lost / len(sizes), likelihood


def fit(paths: list[str], temperature: float, steps: int, l2: float, seed: int) -> None:
    """Fit on four fifths of the decisions, report on the rest, print the weights."""
    (features, values, sizes), played = load(paths)
    target = target_of(values, sizes, temperature, played)
    starts, _ = segments(sizes)
    held = np.random.default_rng(seed).random(len(sizes)) < 0.2

    def part(mask: npt.NDArray[np.bool_]) -> tuple[Floats, Floats, Floats,
                                                   npt.NDArray[np.int64]]:
        rows = np.concatenate([np.arange(starts[i], starts[i] + sizes[i])
                               for i in np.flatnonzero(mask)])
        return features[rows], values[rows], target[rows], sizes[mask]

    train, test = part(~held), part(held)
    weights = fit_weights(train[0], train[2], train[3], steps=steps, l2=l2)
    lead = np.zeros(N_FEATURES)
    lead[0] = 1.0
    best = "card played" if played else "search's card"
    print(f"{len(sizes)} decisions ({int(held.sum())} held out), {len(values)} cards")
    for name, w in (("lead", lead), ("kernel", LEARNED_WEIGHTS), ("learned", weights)):
        for label, data in (("train", train), ("held out", test)):
            share, lost, likelihood = judge(*data, w)
            print(f"{name:8} {label:8}: {best} {100 * share:.1f}%, "
                  f"loses {lost:.3f}, log-likelihood {likelihood:.3f} a decision")
    print("LEARNED_WEIGHTS = np.array([" + ", ".join(f"{w:.4f}" for w in weights) + "])")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    gather = commands.add_parser("collect", help="record the search's decisions")
    gather.add_argument("--games", type=positive_int, default=100,
                        help="games to play (default: %(default)s)")
    gather.add_argument("--worlds", type=positive_int, default=800,
                        help="worlds the recording search samples a decision "
                             "(default: %(default)s)")
    gather.add_argument("--seed", type=seed_text, default="train",
                        help="seed of the deals and the searches (default: %(default)s)")
    gather.add_argument("--rules", default="standard", type=rules_text,
                        help="rules text (default: %(default)s)")
    gather.add_argument("--playout", choices=list(PLAYOUTS), default="lead",
                        help="the recording search's playout policy (default: %(default)s)")
    gather.add_argument("--out", required=True,
                        help="the .npz file of the decisions (rewritten as games end)")
    watch = commands.add_parser("observe", help="record another level's own plays")
    watch.add_argument("--games", type=positive_int, default=1000,
                       help="games to play (default: %(default)s)")
    watch.add_argument("--level", choices=list(LEVELS), default="normal",
                       help="the level whose plays are recorded, in every seat "
                            "(default: %(default)s)")
    watch.add_argument("--seed", type=seed_text, default="observe",
                       help="seed of the deals and the players (default: %(default)s)")
    watch.add_argument("--rules", default="standard", type=rules_text,
                       help="rules text (default: %(default)s)")
    watch.add_argument("--out", required=True,
                       help="the .npz file of the plays (rewritten as games end)")
    fitting = commands.add_parser("fit", help="fit the weights to collected decisions")
    fitting.add_argument("paths", nargs="+", metavar="FILE",
                         help="the .npz files that collect or observe wrote")
    fitting.add_argument("--temperature", type=positive_number, default=1.0,
                         help="temperature of the softmax of the search's values, in points "
                              "(default: %(default)s)")
    fitting.add_argument("--steps", type=positive_int, default=3000,
                         help="Adam steps over all the decisions (default: %(default)s)")
    fitting.add_argument("--l2", type=non_negative_number, default=1e-4,
                         help="weight of the L2 penalty on the weights (default: %(default)s)")
    fitting.add_argument("--seed", type=non_negative_int, default=0,
                         help="seed of the choice of the decisions held out "
                              "(default: %(default)s)")
    args = parser.parse_args()
    if args.command == "collect":
        collect(args.games, args.worlds, args.seed, args.rules, args.out, args.playout)
    elif args.command == "observe":
        observe(args.games, args.level, args.seed, args.rules, args.out)
    else:
        fit(args.paths, args.temperature, args.steps, args.l2, args.seed)


if __name__ == "__main__":
    main()
