"""What a newcomer looks for is where they look: the README's command blocks show the
options that only ``--help`` told of, and say where a level's options are taken;
docs/analysis.md says how to see an analysis in the replay viewer."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _command_lines(command: str) -> list[str]:
    """The README's example lines of ``hearts COMMAND`` (its ```sh blocks)."""
    blocks = re.findall(r"```sh\n(.*?)```", README, flags=re.S)
    return [line for block in blocks for line in block.splitlines()
            if line.startswith(f".venv/bin/hearts {command} ")]


@pytest.mark.parametrize(("command", "options"), [
    ("replay", ["--step", "--analyze"]),
    ("replay", ["--step", "--analysis"]),
    ("stats", ["--player", "--preset", "--json"]),
    ("score", ["--list"]),
    ("score", ["--text"]),
    ("play", ["--auto-play"]),
    ("play", ["--plain"]),
])
def test_the_readme_shows_the_option_in_a_command_block(command: str,
                                                        options: list[str]) -> None:
    lines = _command_lines(command)
    assert any(all(re.search(rf"\s{option}(\s|$)", line) for option in options)
               for line in lines), (command, options, lines)


def test_the_readme_says_resume_is_full_screen_only() -> None:
    (line,) = [line for line in _command_lines("play") if "--resume" in line]
    assert "full screen" in line


def test_the_readme_names_play_where_a_level_takes_options() -> None:
    sentence = re.search(r"A level is written the same\s+wherever one is given to (.*?):",
                         README)
    assert sentence is not None
    assert "`play`" in sentence.group(1)


def test_the_analysis_doc_shows_the_replay_viewer_options() -> None:
    text = (ROOT / "docs" / "analysis.md").read_text(encoding="utf-8")
    assert "hearts replay RECORD --step --analyze" in text
    assert "--analysis" in text
