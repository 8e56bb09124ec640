#!/usr/bin/env python3
"""A complete outside bot for Card Commons Hearts, in plain Python (no ``hearts`` import).

It speaks the bot protocol (docs/bot-protocol.md, version 1): JSON lines on stdin
and stdout. Its play is simple on purpose: pass the most dangerous cards, duck
under the trick's winning card when it can, otherwise get rid of high cards. It
leads one of its lowest cards at random, seeded from hello's ``seed`` so that a
host's seeded match plays the same each time.

Seat it in a match with::

    hearts arena --rules standard --bot 'ext:python3 examples/external_bot.py' --bot random
"""

import json
import random
import sys

RANKS = "23456789TJQKA"
rng = random.Random()  # seeded again by each hello that carries a seed


def rank(card):
    """0 for a two ... 12 for an ace."""
    return RANKS.index(card[:-1])


def danger(card):
    """How much we want to be rid of a card when passing or discarding."""
    if card == "QS":
        return 100
    if card in ("AS", "KS"):
        return 90
    return rank(card) + (20 if card.endswith("H") else 0)


def choose_pass(view):
    return sorted(view["hand"], key=danger, reverse=True)[: view["pass_count"]]


def choose_play(view):
    legal = view["legal"]
    trick = view["trick"]
    if not trick:  # leading: one of the lowest cards we may lead
        lowest = min(rank(card) for card in legal)
        return rng.choice([card for card in legal if rank(card) == lowest])
    led = trick[0][1][-1]
    following = [c for c in legal if c.endswith(led)]
    if not following:  # void: discard the most dangerous card
        return max(legal, key=danger)
    best = max(rank(card) for _, card in trick if card.endswith(led))
    under = [c for c in following if rank(c) < best]
    if under:
        return max(under, key=rank)  # the highest card that still loses the trick
    if len(trick) == view["players_in_trick"] - 1 and "QS" not in following:
        return max(following, key=rank)  # last to play and taking it anyway
    return min(following, key=rank)


def answer(message):
    """The reply to one host message, or None."""
    kind = message.get("type")
    if kind == "hello":
        if message.get("protocol") != "card-commons-hearts-bot" or message.get("version") != 1:
            return {"type": "error", "message": "this bot speaks card-commons-hearts-bot v1"}
        rng.seed(message.get("seed"))  # no seed: a fresh one from the system
        return {"type": "ready", "name": "example-ducker"}
    if kind != "decide":
        return None  # end, error, or a message type added after version 1
    view = message["view"]
    view["players_in_trick"] = len(view["hand_sizes"])
    reply = {"type": "action", "id": message["id"]}
    if message["decision"] == "pass":
        reply["cards"] = choose_pass(view)
    elif message["decision"] == "play":
        reply["card"] = choose_play(view)
    else:
        reply["choice"] = "subtract"
    return reply


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        reply = answer(json.loads(line))
        if reply is not None:
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
