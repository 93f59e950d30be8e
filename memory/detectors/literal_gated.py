"""A reading's pattern searched only in text that may hold a match (issue 39).

The secret scan runs some forty readings over every text, and each walks its patterns
over the whole text with ``finditer``/``search``: Python's ``re`` tries a case-insensitive
alternation at every position, a few microseconds a pattern, though most texts hold none
of its words. ``literal_gated(pattern)`` wraps such a pattern: its ``search``, ``match``,
``fullmatch``, ``finditer``, ``findall`` and ``sub`` answer at once "nothing" where the
literal prefilter (``memory.detectors.prefilter``) shows the text lacks a literal of one of
the clauses every match of the pattern holds, and ask the pattern itself otherwise.

Exact by the prefilter's own premise: a match lies in the text, so the text holds a literal
of each of the pattern's required clauses; where it does not, there is no match, with or
without ``pos``/``endpos`` (a match in a slice is a match in the text). A pattern with no
derived literal, or a text the prefilter cannot speak for, is always searched.

Shared work, once a text: every wrapped pattern joins one list (``_GATED``, filled as the
modules are imported), and the patterns of it a text may match are computed once per text
(``prefilter.matchable``, the same one-pass pieces every rule list reads), so each call
costs a set look-up. ``ENGRAM_DETECTOR_READING_LITERAL_GATE`` (default on;
config/settings/detector_gates.py) selects it; off, every call goes to the pattern (the
reference). tests/memory/test_literal_gated.py shows both give the same findings.
"""

from __future__ import annotations

import re
import sys

from core.process_state import memoized
from memory.detectors.prefilter import matchable
from memory.detectors.switches import detection_switch

# Every wrapped pattern, in the order wrapped (import time); a wrapper knows its index.
_GATED: list[re.Pattern[str]] = []


@memoized("memory.detectors.literal_gated.possible", maxsize=64)
def _possible(text: str, count: int) -> frozenset[int] | None:
    """The indexes of the wrapped patterns that may match ``text`` (``count``, how many
    are wrapped, keys the answer: one asked while modules are imported is not reused)."""
    return matchable(_GATED, text)


def _may_match(at: int, text: str) -> bool:
    if not detection_switch("READING_LITERAL_GATE"):
        return True
    possible = _possible(text, len(_GATED))
    return possible is None or at in possible


class LiteralGated:
    """``pattern``, asked only where ``prefilter.matchable`` says it may match."""

    __slots__ = ("_at", "prefilter_pattern")

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.prefilter_pattern = pattern  # what the literal prefilter reads of a wrapper
        self._at = len(_GATED)
        _GATED.append(pattern)

    def __getattr__(self, name: str):  # pattern (the source), flags, groups, groupindex
        return getattr(self.__getattribute__("prefilter_pattern"), name)

    def __repr__(self) -> str:
        return f"literal_gated({self.prefilter_pattern!r})"

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match | None:
        if not _may_match(self._at, text):
            return None
        return self.prefilter_pattern.search(text, pos, endpos)

    def match(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match | None:
        if not _may_match(self._at, text):
            return None
        return self.prefilter_pattern.match(text, pos, endpos)

    def fullmatch(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match | None:
        if not _may_match(self._at, text):
            return None
        return self.prefilter_pattern.fullmatch(text, pos, endpos)

    def finditer(self, text: str, pos: int = 0, endpos: int = sys.maxsize):
        if not _may_match(self._at, text):
            return iter(())
        return self.prefilter_pattern.finditer(text, pos, endpos)

    def findall(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> list:
        if not _may_match(self._at, text):
            return []
        return self.prefilter_pattern.findall(text, pos, endpos)

    def sub(self, repl, text: str, count: int = 0) -> str:
        if not _may_match(self._at, text):
            return text
        return self.prefilter_pattern.sub(repl, text, count)


def literal_gated(pattern: re.Pattern[str]) -> LiteralGated:
    """``pattern`` behind its literals (the module docstring)."""
    return LiteralGated(pattern)
