"""Two token patterns start only where a run of printable ASCII starts
(``secrets._VALUE_BEFORE_CUE``, ``unlabelled_values._CANDIDATE``). From inside a run they
scanned to its end at every character, so a statement of one long run cost its length
squared (8,000 characters: about 3 s); from the run's start alone it costs its length.
The matches are the same: a match from inside a run needs what follows the run, and so
does the match from its start, which finditer tries first. Hypothesis checks that over
texts built from the pieces these patterns read."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from memory.detectors import secrets, unlabelled_values

_START = "(?<![!-~])"
_PIECES = st.sampled_from(
    [
        " ",
        "  ",
        ",",
        ", ",
        "\n",
        "x",
        "Ab",
        "7",
        "!",
        "_",
        "-",
        "hunter2",
        "Tr0ub4dor&3",
        " is ",
        " as ",
        " was ",
        " that's ",
        " my ",
        " the ",
        " wifi ",
        "password",
        "passphrase",
        "pin",
        "PIN",
        "密码",
        "是",
        "作为",
        "我的",
        "新的",
        "口令",
        "我",
        "。",
        "aaaa",
        "1234",
    ]
)
_TEXTS = st.lists(_PIECES, max_size=30).map("".join)


def _without_start(pattern: re.Pattern) -> re.Pattern:
    assert _START in pattern.pattern
    return re.compile(pattern.pattern.replace(_START, ""), pattern.flags)


def _found(pattern: re.Pattern, text: str) -> list:
    return [(m.span(), m.groupdict()) for m in pattern.finditer(text)]


@settings(max_examples=600, deadline=None)
@given(text=_TEXTS)
def test_a_value_before_its_credential_word_is_found_as_before(text):
    pattern = secrets._VALUE_BEFORE_CUE
    assert _found(pattern, text) == _found(_without_start(pattern), text), text


@settings(max_examples=600, deadline=None)
@given(text=_TEXTS)
def test_the_made_value_candidates_are_found_as_before(text):
    pattern = unlabelled_values._CANDIDATE
    assert pattern.findall(text) == _without_start(pattern).findall(text), text
