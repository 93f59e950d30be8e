"""One scanner of regular-expression sources (``memory/detectors/regex_source.py``) for
the branch gate and the ASCII gate (issue 39, D7): its cuts, group and class ends and the
ASCII gate's cut sources are those of the two scanners it replaced (kept below, as they
were, as the reference), on generated sources of the characters that carry structure and
on every registered rule's source; and the cut lists decide alike."""

from __future__ import annotations

import re

from hypothesis import example, given
from hypothesis import strategies as st

from memory.detectors import prefilter_ascii
from memory.detectors.regex_source import (
    class_end,
    group_end,
    marks,
    split_top_level,
    top_level_items,
)
from tests.memory.test_detector_prefilter import PATTERNS

# --- the reference: prefilter_branches' and prefilter_ascii's scanners before D7 -------


def ref_split_top_level(source: str) -> list[str]:
    parts, start, depth, i, n = [], 0, 0, 0, len(source)
    in_class = False
    while i < n:
        ch = source[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            if ch == "]":
                in_class = False
        elif ch == "[":
            in_class = True
            if source.startswith("^]", i + 1):
                i += 2
            elif source.startswith("]", i + 1):
                i += 1
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            parts.append(source[start:i])
            start = i + 1
        i += 1
    parts.append(source[start:])
    return parts


def ref_group_end(source: str, start: int) -> int:
    depth, i, in_class = 0, start, False
    while i < len(source):
        ch = source[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
            if source.startswith("^]", i + 1):
                i += 2
            elif source.startswith("]", i + 1):
                i += 1
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def ref_class_end(source: str, start: int) -> int:
    i = start + 1
    if source.startswith("^", i):
        i += 1
    if source.startswith("]", i):
        i += 1
    while i < len(source):
        if source[i] == "\\":
            i += 2
            continue
        if source[i] == "]":
            return i
        i += 1
    return -1


def ref_ascii_source(source: str, flags: int) -> str:
    cut = prefilter_ascii._cut
    parts = ref_split_top_level(source)
    if len(parts) > 1:
        return cut(parts, flags)
    out, i = [], 0
    while i < len(source):
        if source.startswith("\\", i):
            out.append(source[i : i + 2])
            i += 2
            continue
        if source.startswith("(?:", i):
            end = ref_group_end(source, i)
            if end < 0:
                return source
            inner = ref_split_top_level(source[i + 3 : end])
            out.append("(?:" + (cut(inner, flags) if len(inner) > 1 else inner[0]) + ")")
            i = end + 1
            continue
        if source[i] == "(" or source[i] == "[":
            end = ref_group_end(source, i) if source[i] == "(" else ref_class_end(source, i)
            if end < 0:
                return source
            out.append(source[i : end + 1])
            i = end + 1
            continue
        out.append(source[i])
        i += 1
    return "".join(out)


# --- generated sources: the structural characters, escapes, and letters ASCII lacks -----

_PIECES = [
    "(",
    ")",
    "[",
    "]",
    "^",
    "|",
    "\\",
    "\\(",
    "\\]",
    "(?:",
    "a",
    "b",
    "κ",
    "п",
    "?",
    ":",
    "\\b",
]
sources = st.lists(st.sampled_from(_PIECES), max_size=24).map("".join)
_FLAGS = re.IGNORECASE | re.UNICODE


def _same_scan(source: str) -> None:
    assert split_top_level(source) == ref_split_top_level(source)
    for i, ch in enumerate(source):
        if ch == "(":
            assert group_end(source, i) == ref_group_end(source, i), (source, i)
        if ch == "[":
            assert class_end(source, i) == ref_class_end(source, i), (source, i)
    assert prefilter_ascii._ascii_source(source, _FLAGS) == ref_ascii_source(source, _FLAGS)


@given(sources)
@example(r"a\|b|[|\]]c|(?:d|e)|f")
@example(r"[]|]x|[^]|]y")
@example(r"(?:κ|a)[^]|)]\\(?:b|п")
@example("\\")
def test_the_shared_scanner_reads_generated_sources_as_the_old_ones(source: str) -> None:
    _same_scan(source)


def test_the_shared_scanner_reads_every_registered_rule_as_the_old_ones() -> None:
    sources = [p.pattern for p in PATTERNS if isinstance(p.pattern, str)]
    assert len(sources) > 400
    for source in sources:
        _same_scan(source)


@given(sources)
def test_top_level_items_tile_the_source(source: str) -> None:
    items = top_level_items(source)
    if items is None:  # a group or class left open, as ``group_end``/``class_end`` say
        assert any(
            (ch == "(" and group_end(source, i) < 0) or (ch == "[" and class_end(source, i) < 0)
            for i, ch in enumerate(source)
        )
        return
    assert "".join(source[s:e] for s, e in items) == source
    assert all(e > s for s, e in items)


def test_marks_see_no_structure_in_escapes_or_classes() -> None:
    assert list(marks(r"\(\|[(|)]")) == [(4, "[", 0), (8, "]", 0)]
    assert [m for _i, m, _d in marks("(a|(b))")] == ["(", "|", "(", ")", ")"]
    assert [d for _i, _m, d in marks("(a|(b))")] == [1, 1, 2, 1, 0]
    # Negative: a "]" first in a class does not close it; an escaped one neither.
    assert class_end("[]a]", 0) == 3 and class_end("[^]a]", 0) == 4
    assert class_end(r"[\]a]", 0) == 4 and class_end("[a", 0) == -1


def test_the_ascii_variant_of_every_list_is_the_old_one() -> None:
    """The cut lists the ASCII gate makes (``_variant``) with the shared scanner are the
    lists the old scanner made: the same patterns, so the same decisions."""
    kept = 0
    for p in PATTERNS:
        if not isinstance(p.pattern, str) or p.flags & re.VERBOSE:
            continue
        flags = p.flags & ~re.UNICODE
        try:
            old = ref_ascii_source(p.pattern, flags)
        except (re.error, RecursionError):
            continue
        (new,) = prefilter_ascii._variant([p])
        expected = p
        if old != p.pattern:
            try:
                candidate = re.compile(old, p.flags)
            except re.error:
                candidate = None
            if (
                candidate is not None
                and candidate.groups == p.groups
                and candidate.groupindex == p.groupindex
            ):
                expected = candidate
        assert new.pattern == expected.pattern and new.flags == expected.flags
        kept += new is not p
    assert kept > 0  # some lists are cut (the foreign credential words among them)
