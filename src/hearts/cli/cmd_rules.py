"""``hearts rules``: the presets and every option with its meaning."""

from __future__ import annotations

import argparse

from hearts.core import OPTION_HELP, PRESET_HELP, PRESETS, Rules

__all__ = ["configure"]


def configure(parser: argparse.ArgumentParser) -> None:
    """The ``rules`` subcommand's options and function (its one-line help is in
    :data:`hearts.cli.main.COMMANDS`)."""
    parser.add_argument("rules", nargs="?", default=None,
                        help="a rules text to check and show, e.g. standard:moon=shooter-choice")
    parser.set_defaults(func=run)


def _show(rules: Rules) -> list[str]:
    lines = [f"rules: {rules.text}"]
    for key, meaning in OPTION_HELP.items():
        lines.append(f"  {key:<17} {rules.option_text(key):<24} {meaning}")
    return lines


def run(args: argparse.Namespace) -> int:
    """Print the presets and options, or one rules text in full."""
    if args.rules is not None:
        print("\n".join(_show(Rules.parse(args.rules))))
        return 0
    print("Presets (use as --rules NAME, then :option=value,... to change options):")
    for name in PRESETS:
        print(f"  {name:<13} {PRESET_HELP[name]}")
    print()
    print("Options and the card-commons defaults:")
    print("\n".join(_show(Rules())[1:]))
    print()
    print("Example: --rules standard:moon=shooter-choice,target=50")
    return 0
