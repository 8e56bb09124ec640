"""Every message and stored event goes through ``compact_json`` (orjson, with the standard
library for what orjson refuses): whatever JSON-like value it gets, the text is the
standard library's compact UTF-8 text, and it reads back as the value."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from hearts.server.protocol import compact_json

# Text without lone surrogates (the protocol refuses them on the way in).
TEXT = st.text(st.characters(exclude_categories=["Cs"]), max_size=12)
# Beyond 64 bits orjson refuses, and the standard library takes over.
WHOLE = st.integers(min_value=-(2**70), max_value=2**70)
KEYS = st.one_of(TEXT, st.integers(-5, 5))  # int keys: orjson refuses, json writes "3"


def _values(scalars: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.recursive(scalars, lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(KEYS, inner, max_size=4)), max_leaves=12)


def _standard(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@given(_values(st.one_of(st.none(), st.booleans(), WHOLE, TEXT)))
def test_the_text_is_the_standard_librarys_compact_utf8(value: Any) -> None:
    assert compact_json(value) == _standard(value)


@given(_values(st.one_of(st.none(), WHOLE, TEXT, st.floats(allow_nan=False,
                                                           allow_infinity=False))))
def test_it_reads_back_as_the_value(value: Any) -> None:
    assert json.loads(compact_json(value)) == json.loads(_standard(value))


def test_characters_are_themselves_and_there_are_no_spaces() -> None:
    assert compact_json({"name": "Zoë ♠", "seats": [1, 2]}) == '{"name":"Zoë ♠","seats":[1,2]}'
