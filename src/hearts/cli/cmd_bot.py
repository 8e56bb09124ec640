"""``hearts bot LEVEL``: a built-in player speaking the bot protocol on stdin/stdout.

Lets our players sit in other programs' games (and in ours, as ``ext:hearts bot
LEVEL``). The protocol is described in ``docs/bot-protocol.md``.
"""

from __future__ import annotations

import argparse
import io
import secrets
import sys
from itertools import count

from hearts.arena.errors import BotSpecError
from hearts.arena.specs import BotSpec, build_player
from hearts.cli.common import levels_text, seed_text
from hearts.core import Rules
from hearts.players import Player
from hearts.protocol.bot import serve

__all__ = ["configure"]


def configure(parser: argparse.ArgumentParser) -> None:
    """The ``bot`` subcommand's options and function (its one-line help is in
    :data:`hearts.cli.main.COMMANDS`)."""
    parser.description = ("Speak the Card Commons Hearts bot protocol (docs/bot-protocol.md) "
                          "on stdin/stdout with a built-in player. Messages for people go to "
                          "stderr.")
    parser.add_argument("level", metavar="LEVEL",
                        help=f"the player: a level ({levels_text()}), with options as "
                             "LEVEL:key=value, or policy:PATH (a trained policy's .npz file)")
    parser.add_argument("--seed", type=seed_text, default=None,
                        help="seed of the player's randomness, joined to the seed the host "
                             "sends in hello (default: hello's seed alone, else fresh each "
                             "run)")
    parser.add_argument("--name", default=None,
                        help="the name sent in 'ready' (default: the level)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Serve the protocol until end of input."""
    spec = BotSpec.parse(args.level)
    if spec.is_external:
        raise BotSpecError("hearts bot serves a built-in player; ext: bots already speak "
                           "the protocol themselves")
    own = args.seed if args.seed is not None else secrets.token_hex(8)
    games = count(1)

    def make_player(seat: int, rules: Rules, *, seed: int | None = None) -> Player:
        # hello's seed makes a host's seeded games replay the same (--seed, if given, joins it)
        game = next(games)
        base = f"{own}/g{game}" if seed is None else f"{args.seed or ''}/hello{seed}"
        return build_player(spec, seat=seat, rules=rules, seed=f"{base}/s{seat}")

    # fail on a bad spec now, before the host is kept waiting
    make_player(0, Rules.preset_rules("standard"))
    # The protocol is UTF-8 whatever the locale: read bytes (serve refuses a line that is
    # not UTF-8) and write UTF-8.
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(encoding="utf-8", errors="backslashreplace")
    infile = getattr(sys.stdin, "buffer", sys.stdin)
    return serve(make_player, infile, sys.stdout, name=args.name or spec.text, log=sys.stderr)
