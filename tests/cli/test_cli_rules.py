"""``hearts rules``: the presets and options in 80 columns, through the real command."""

from __future__ import annotations

import pytest

from hearts.core import OPTION_HELP, PLAYER_COUNTS, PRESET_HELP, PRESETS

TEXTS = [f"{preset}:players={count}" for preset in PRESETS for count in PLAYER_COUNTS[preset]]


def _columns(text: str) -> int:
    return max(len(line) for line in text.splitlines())


def test_the_listing_fits_80_columns_and_keeps_every_word(hearts_cli) -> None:
    done = hearts_cli("rules")
    assert done.returncode == 0, done.stderr
    assert _columns(done.stdout) <= 80
    words = done.stdout.split()
    for meaning in [*OPTION_HELP.values(), *PRESET_HELP.values()]:  # wrapped, never cut
        said = meaning.split()
        assert any(words[i:i + len(said)] == said for i in range(len(words))), meaning


@pytest.mark.parametrize("text", TEXTS)
def test_one_rules_text_fits_80_columns(hearts_cli, text: str) -> None:
    done = hearts_cli("rules", text)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("rules: ")  # the text as the core writes it
    assert _columns("\n".join(lines[1:])) <= 80
    for key in OPTION_HELP:
        assert any(line.startswith(f"  {key} ") for line in lines)
