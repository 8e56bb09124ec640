"""A bot spec's tag comes last: ``LEVEL#TAG:options`` is refused, saying where the options
go, where it used to take the options into the tag and play without them (a bot author's
report)."""

from __future__ import annotations

import pytest

from hearts.arena.specs import BotSpec, BotSpecError


@pytest.mark.parametrize(("text", "written"), [
    ("expert#fast:iterations=5", "expert:iterations=5#fast"),
    ("hard:budget=1#fast:iterations=5", "hard:budget=1,iterations=5#fast"),
    ("random#a:", "random#a"),
])
def test_options_after_the_tag_are_refused_saying_where_they_go(text: str,
                                                                written: str) -> None:
    with pytest.raises(BotSpecError, match=f"options go before the tag, as in '{written}'"):
        BotSpec.parse(text)


def test_options_before_the_tag_are_read() -> None:
    spec = BotSpec.parse("expert:iterations=5#fast")
    assert (spec.kind, spec.options, spec.text) == \
        ("expert", (("iterations", "5"),), "expert:iterations=5#fast")
    assert BotSpec.parse("random#a").kind == "random"
