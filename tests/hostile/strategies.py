"""Hypothesis strategies for hostile input: table messages and form fields.

Shapes a careless or hostile client could send: not JSON, JSON of the wrong shape, the
right shape with wrong types, sizes and encodings, extra fields naming other seats and
tables, versions stale, future, negative or not quite digits, action texts that are
moves of another seat or another game, and replays of a message that once was valid.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from hypothesis import strategies as st

from webapp.play.emotes import PRESETS

#: Texts that look like numbers to someone, but are not a plain ASCII version.
NEAR_NUMBERS = [
    "",
    " ",
    "0 ",
    " 1",
    "+1",
    "-0",
    "-1",
    "1e3",
    "0x10",
    "1_0",
    "1.0",
    "²",  # str.isdigit() says yes, int() says no
    "٣",  # Arabic-Indic three
    "３",  # full-width three
    "9" * 5000,
    "NaN",
    "null",
]

#: Odd strings: control characters, lone surrogates' replacements, right-to-left marks,
#: markup, template syntax and very long ones.
ODD_TEXTS = [
    "\x00",
    "\ufffd",
    "\u202e",
    "<script>alert(1)</script>",
    "{{ config }}",
    "' OR 1=1 --",
    "%s%n",
    "play ../../etc/passwd",
    "a" * 65,
    "x" * 10000,  # long, yet within the body limit
    "x" * 20000,  # past it
    "😀" * 40,
]

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)

texts = st.one_of(st.text(max_size=80), st.sampled_from(ODD_TEXTS))

#: Arrays and objects nested deeper than any message: json's parser recurses once a level,
#: and runs out of stack near a thousand.
nested = st.integers(2, 2000).flatmap(
    lambda depth: st.sampled_from(
        [
            "[" * depth,
            "[" * depth + "]" * depth,
            '{"a":' * min(depth, 800) + "1" + "}" * min(depth, 800),
            '{"dismiss":' * min(depth, 350),
        ]
    )
)


def versions(current: int) -> st.SearchStrategy[Any]:
    """Versions a message might carry: stale, future, negative, odd or the right one."""
    numbers = st.one_of(
        st.integers(min_value=0, max_value=max(0, current - 1)),
        st.integers(min_value=current + 1, max_value=current + 1000),
        st.integers(max_value=-1),
        st.just(current),
    )
    return st.one_of(
        numbers,
        numbers.map(str),
        st.sampled_from(NEAR_NUMBERS),
        st.floats(),
        json_values,
    )


def actions(moves: Sequence[str]) -> st.SearchStrategy[Any]:
    """Action texts: ``moves`` (this seat's, another seat's, another game's) or junk."""
    return st.one_of(st.sampled_from(list(moves)), texts, json_values)


def message_dicts(
    moves: Sequence[str], current: int, other_ids: Sequence[str]
) -> st.SearchStrategy[dict[str, Any]]:
    """The ``{a, v}`` shape (or ``{e}``) with any part wrong or missing, and extra fields."""
    extras = st.fixed_dictionaries(
        {},
        optional={
            "seat": st.integers(-2, 5) | texts,
            "table": st.sampled_from(list(other_ids)) | texts,
            "player": st.sampled_from(list(other_ids)) | texts,
            "HEADERS": json_values,
            "csrf_token": texts,
            "version": versions(current),
            "": json_values,
            # A reaction's preset (webapp/play/emotes.py), or what only looks like one.
            "e": st.sampled_from([*PRESETS, "Thanks!", "", "thanks "]) | json_values,
        },
    )
    core = st.fixed_dictionaries({}, optional={"a": actions(moves), "v": versions(current)})
    return st.builds(lambda c, e: {**c, **e}, core, extras)


def encoded(message: dict[str, Any]) -> st.SearchStrategy[str]:
    return st.sampled_from(
        [
            json.dumps(message),
            json.dumps(message, ensure_ascii=False),
            json.dumps(message, indent=2),
        ]
    )


def raw_messages(
    moves: Sequence[str], current: int, other_ids: Sequence[str], replays: Sequence[str] = ()
) -> st.SearchStrategy[str | bytes]:
    """Whole socket messages: encoded dicts, other JSON, not JSON, bytes, replays."""
    choices: list[st.SearchStrategy[Any]] = [
        message_dicts(moves, current, other_ids).flatmap(encoded),
        json_values.map(json.dumps),
        texts,
        nested,
        st.binary(max_size=200),
    ]
    if replays:
        choices.append(st.sampled_from(list(replays)))
    return st.one_of(*choices)


def form_data(fields: Sequence[str]) -> st.SearchStrategy[list[tuple[str, str]]]:
    """Form posts: known fields with any values, repeated fields, unknown fields."""
    names = st.one_of(st.sampled_from(list(fields)), st.text(max_size=12))
    values = st.one_of(texts, st.sampled_from(NEAR_NUMBERS), st.text(max_size=300))
    return st.lists(st.tuples(names, values), max_size=8)
