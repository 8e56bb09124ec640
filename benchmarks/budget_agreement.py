"""How often more time changes the search's decision, and what the change is worth in
the search's own judgement.

One search player at ``--reference`` seconds a decision plays seeded games against three
``normal`` players. At each of its decisions with a choice (passes and plays to a trick)
a player of the same level at each of ``--budgets`` seconds, and a twin of the reference
on other random numbers, choose too, from the same view. For each, by kind of decision,
it prints the share of decisions at which the choice is the reference's, and the mean
loss of the choice in the reference's own figures (its best candidate's utility minus
the choice's, in points; 95% t interval over decisions); then each player's loss a hand,
passes and plays together (95% t interval over hands): what the reference's budget would
gain over that one, by the search's own reckoning. The twin's rows are the floor, what
sampling alone changes at the reference's budget: a budget whose rows match the twin's
plays as the reference does, and the reference's extra time cannot make it stronger.

    .venv/bin/python benchmarks/budget_agreement.py
    .venv/bin/python benchmarks/budget_agreement.py --budgets 0.01,0.05 --games 4

Time budgets make it depend on the machine: run it alone on a core
(``taskset -c 1 ...``).
"""

from __future__ import annotations

import argparse
import dataclasses
import random

from hearts.arena import interval_text, t_interval
from hearts.cli.common import positive_int, positive_number, positive_numbers, rules_text, seed_text
from hearts.core import Card, CardSet, MoonChoice, PlayerView, Rules
from hearts.players import play_game
from hearts.players.base import Player
from hearts.players.rulebased import RuleBasedPlayer
from hearts.players.search.player import (
    LEVEL_BUDGETS,
    CandidateFigures,
    SearchPlayer,
    distinct_cards,
)

__all__ = ["Choice", "JudgedSearch", "main"]

TWIN = "twin"
KINDS = ("pass", "play")


@dataclasses.dataclass(frozen=True, slots=True)
class Choice:
    """One player's choice at one of the reference's decisions, judged by the reference."""

    hand: int  # the round number in its game, then the hand's index over all games
    kind: str
    player: str
    agreed: bool
    loss: float


class JudgedSearch:
    """Plays as the reference search, and has every other player choose at each of its
    decisions with a choice; keeps each choice, judged by the reference's figures."""

    def __init__(self, reference: SearchPlayer, others: dict[str, SearchPlayer]) -> None:
        self.name = reference.name
        self.reference = reference
        self.others = others
        self.choices: list[Choice] = []

    def _judge(self, view: PlayerView, kind: str, figures: list[CandidateFigures],
               choices: dict[str, CardSet]) -> CardSet:
        best = max(figures, key=lambda f: f.utility)
        value = {f.cards: f.utility for f in figures}
        self.choices += [Choice(view.round_no, kind, name, chosen == best.cards,
                                best.utility - value[chosen])
                         for name, chosen in choices.items()]
        return best.cards

    def choose_pass(self, view: PlayerView) -> CardSet:
        figures = self.reference.pass_figures(view)
        if len(figures) == 1:
            return figures[0].cards
        choices = {name: player.choose_pass(view) for name, player in self.others.items()}
        return self._judge(view, "pass", figures, choices)

    def choose_play(self, view: PlayerView) -> Card:
        legal = distinct_cards(view)
        if len(legal) == 1:
            return legal[0]
        figures = self.reference.card_figures(view, legal)
        choices = {name: CardSet(player.choose_play(view).mask)
                   for name, player in self.others.items()}
        (card,) = self._judge(view, "play", figures, choices)
        return card

    def choose_moon(self, view: PlayerView) -> MoonChoice:
        return self.reference.choose_moon(view)


def main(argv: list[str] | None = None) -> int:
    """Play the games and print one line a kind of decision and player, then one a
    player's loss a hand."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", choices=list(LEVEL_BUDGETS), default="expert")
    parser.add_argument("--reference", type=positive_number, default=1.0,
                        help="the reference's seconds a decision")
    parser.add_argument("--budgets", type=positive_numbers, default=[0.05, 0.2],
                        help="the seconds a decision to compare, comma-separated")
    parser.add_argument("--rules", type=rules_text, default="standard:rounds=4")
    parser.add_argument("--games", type=positive_int, default=2)
    parser.add_argument("--seed", type=seed_text, default="agreement")
    args = parser.parse_args(argv)
    rules: Rules = args.rules
    names = [TWIN] + [f"{budget:g}s" for budget in args.budgets]
    choices: list[Choice] = []
    hands = 0  # hands played so far, every game's numbered after the games before it
    for game in range(args.games):
        seed = f"{args.seed}-{game}"
        reference = SearchPlayer(random.Random(f"{seed}-reference"), level=args.level,
                                 budget_s=args.reference)
        others = {name: SearchPlayer(random.Random(f"{seed}-{name}"), level=args.level,
                                     budget_s=budget)
                  for name, budget in zip(names, [args.reference, *args.budgets],
                                          strict=True)}
        judged = JudgedSearch(reference, others)
        players: list[Player] = [RuleBasedPlayer() for _ in range(rules.players)]
        players[game % rules.players] = judged
        final = play_game(rules, players, seed=seed)
        choices += [dataclasses.replace(choice, hand=hands + choice.hand - 1)
                    for choice in judged.choices]
        hands += final.round_no
    print(f"{args.level} against itself at {args.reference:g} s a decision, {args.games} "
          f"games of {rules.text} against normal")
    print(f"{'kind':6} {'player':8} {'decisions':>9} {'agree':>7}   loss (95% CI)")
    for kind in KINDS:
        for name in names:
            mine = [choice for choice in choices if choice.kind == kind and choice.player == name]
            if mine:
                share = sum(choice.agreed for choice in mine) / len(mine)
                loss = t_interval([choice.loss for choice in mine]).to_json()
                print(f"{kind:6} {name:8} {len(mine):9} {share:7.1%}   "
                      f"{interval_text(loss, bounds=True)}")
    for name in names:
        by_hand = [0.0] * hands  # a hand without a choice loses nothing
        for choice in choices:
            if choice.player == name:
                by_hand[choice.hand] += choice.loss
        loss = t_interval(by_hand).to_json()
        print(f"{'hand':6} {name:8} {hands:9} {'':>7}   {interval_text(loss, bounds=True)}")
    print("loss: the reference's best utility minus its utility for the choice, points")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
