"""A regular expression's source read for its structure: one scanner for the prefilter's
branch gate (``prefilter_branches``: a pattern cut at its top-level ``|``) and its ASCII
gate (``prefilter_ascii``: groups and classes stepped over whole), so both read a source
alike (issue 39).

``marks`` walks the source once, left to right: a backslash and the character after it
are an escape (never structure); inside a character class nothing but its closing ``]``
counts, and a ``]`` first in a class (after an optional ``^``) is a literal, as ``re``
reads it. What it reports: each ``(`` and ``)`` with the number of parentheses open after
it, each ``|`` with the number open around it, and each class's ``[`` and closing ``]``.
The rest is built on it: ``split_top_level``, ``group_end``, ``class_end`` and
``top_level_items``. These read the source only. Whether a cut is right (the same number
of branches as ``re``'s own parse, each compiling alone) is for the caller to check.
"""

from __future__ import annotations

from collections.abc import Iterator


def marks(source: str, start: int = 0) -> Iterator[tuple[int, str, int]]:
    """(index, mark, depth) for each ``(``, ``)``, ``|``, class-opening ``[`` and
    class-closing ``]`` of ``source`` from ``start``, outside escapes and class contents.
    ``depth``: the parentheses open (counted from ``start``) after the mark."""
    depth, i, n, in_class = 0, start, len(source), False
    while i < n:
        ch = source[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            if ch == "]":
                in_class = False
                yield i, "]", depth
        elif ch == "[":
            in_class = True
            yield i, "[", depth
            # A "]" (after an optional "^") first in a class is a literal.
            if source.startswith("^]", i + 1):
                i += 2
            elif source.startswith("]", i + 1):
                i += 1
        elif ch == "(":
            depth += 1
            yield i, "(", depth
        elif ch == ")":
            depth -= 1
            yield i, ")", depth
        elif ch == "|":
            yield i, "|", depth
        i += 1


def split_top_level(source: str) -> list[str]:
    """``source`` cut at each ``|`` outside parentheses, character classes and escapes."""
    parts, start = [], 0
    for i, mark, depth in marks(source):
        if mark == "|" and depth == 0:
            parts.append(source[start:i])
            start = i + 1
    parts.append(source[start:])
    return parts


def group_end(source: str, start: int) -> int:
    """The index of the ``)`` closing the group opened at ``start``, or -1."""
    for i, mark, depth in marks(source, start):
        if mark == ")" and depth == 0:
            return i
    return -1


def class_end(source: str, start: int) -> int:
    """The index of the ``]`` closing the class opened at ``start``, or -1."""
    for i, mark, _depth in marks(source, start):
        if mark == "]":
            return i
    return -1


def top_level_items(source: str) -> list[tuple[int, int]] | None:
    """``source`` as its top-level items, (start, end) each: an escape, a group from its
    ``(`` to its ``)``, a character class, or one character. None: a group or a class is
    not closed."""
    items, i, n = [], 0, len(source)
    while i < n:
        ch = source[i]
        if ch == "\\":
            end = min(i + 2, n)
        elif ch == "(" or ch == "[":
            close = group_end(source, i) if ch == "(" else class_end(source, i)
            if close < 0:
                return None
            end = close + 1
        else:
            end = i + 1
        items.append((i, end))
        i = end
    return items
