"""``hearts rules``: the presets and every option with its meaning."""

from __future__ import annotations

import argparse
import textwrap
from typing import Final

from hearts.core import OPTION_HELP, PRESET_HELP, PRESETS, Rules

__all__ = ["WIDTH", "configure"]

WIDTH: Final = 80
"""The columns the text fits: a terminal's classic width, whatever the one showing it."""
_NAME_WIDTH: Final = max(len(key) for key in OPTION_HELP)
_LEAST_MEANING: Final = 30
"""The narrowest column a meaning is wrapped in beside its option; a wider value puts the
meaning on the lines below instead."""


def configure(parser: argparse.ArgumentParser) -> None:
    """The ``rules`` subcommand's options and function (its one-line help is in
    :data:`hearts.cli.main.COMMANDS`)."""
    parser.description = ("List the presets and every rule option with its meaning and its "
                          "card-commons default; given a rules text, check it and show the "
                          "value of every option under it. A rules text is a preset and "
                          "options, PRESET:option=value,..., as every --rules takes it.")
    parser.add_argument("rules", nargs="?", default=None, metavar="RULES",
                        help="a rules text to check and show, e.g. standard:moon=shooter-choice")
    parser.set_defaults(func=run)


def _beside(first: str, text: str) -> list[str]:
    """``text`` wrapped to :data:`WIDTH` beside ``first`` (its lines after the first
    indented as far), or below it where too little room is left beside it."""
    if WIDTH - len(first) < _LEAST_MEANING:
        return [first.rstrip(), *textwrap.wrap(text, WIDTH, initial_indent=" " * 6,
                                                subsequent_indent=" " * 6,
                                                break_on_hyphens=False)]
    return textwrap.wrap(text, WIDTH, initial_indent=first, subsequent_indent=" " * len(first),
                         break_on_hyphens=False)  # keeps after-heart-or-queen whole


def _show(rules: Rules) -> list[str]:
    lines = [f"rules: {rules.text}"]
    values = {key: rules.option_text(key) for key in OPTION_HELP}
    value_width = max(len(value) for value in values.values())
    for key, meaning in OPTION_HELP.items():
        lines += _beside(f"  {key:<{_NAME_WIDTH}}  {values[key]:<{value_width}}  ", meaning)
    return lines


def run(args: argparse.Namespace) -> int:
    """Print the presets and options, or one rules text in full."""
    if args.rules is not None:
        print("\n".join(_show(Rules.parse(args.rules))))
        return 0
    print("Presets (use as --rules NAME, then :option=value,... to change options):")
    name_width = max(len(name) for name in PRESETS)
    for name in PRESETS:
        print("\n".join(_beside(f"  {name:<{name_width}}  ", PRESET_HELP[name])))
    print()
    print("Options and the card-commons defaults:")
    print("\n".join(_show(Rules())[1:]))
    print()
    print("Example: --rules standard:moon=shooter-choice,target=50")
    return 0
