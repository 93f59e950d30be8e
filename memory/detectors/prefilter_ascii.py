"""A rule list as ASCII text can match it (``ENGRAM_DETECTOR_ASCII_BRANCH_GATE``, issue 39).

The literal prefilter (``memory/detectors/prefilter.py``) derives no clause for an
alternation with one branch it cannot read: a case-insensitive Greek or Cyrillic word
("κωδικός", "пароль") gives no literal, so the whole alternation, thirty foreign words for
"password", is searched in every text, though nearly every text is ASCII and none of those
branches can match in it.

``ascii_variant(patterns, text)`` returns, for ASCII text, the list with each pattern's
alternations cut to the branches that can match ASCII text: a branch whose sequence
requires a character that no ASCII character matches (with ``re.IGNORECASE`` added, so a
branch that turns case off is judged as leniently) is dropped. The cut pattern then
usually has clauses the prefilter can read, and is skipped in text that lacks them.

Why it is exact: a branch that requires a character absent from the text matches at no
position of it, so the regular-expression engine tries it and fails everywhere; removing
it changes neither whether nor where nor how the pattern matches (the leftmost match and
its branch are the same). A group left with no branch becomes ``(?!)``, which also never
matches. Only the whole pattern and its groups at the top level are cut (a dropped branch
is removed whole, whatever it nests); a pattern whose cut would renumber its capture
groups, or whose pieces do not parse alone, is kept as it is. Non-ASCII text gets the list
unchanged. Off: the list unchanged (the reference); tests/memory/test_ascii_branches.py
shows both give the same matches.
"""

from __future__ import annotations

import re

from core.process_state import Cache
from memory.detectors.regex_source import split_top_level, top_level_items
from memory.detectors.switches import detection_switch

try:
    from re import _constants as _sc
    from re import _parser as _sp
except ImportError:  # pragma: no cover - another Python
    _sc = _sp = None  # type: ignore[assignment]

_ASCII = [chr(a) for a in range(128)]


def _matches_no_ascii(ch: str, flags: int) -> bool:
    if ch.isascii():
        return False
    rx = re.compile(re.escape(ch), flags | re.IGNORECASE)
    return not any(rx.fullmatch(a) for a in _ASCII)


def _requires_non_ascii(items, flags: int) -> bool:
    """Whether every match of the parsed sequence holds a character no ASCII matches."""
    for op, av in items:
        if op is _sc.LITERAL and _matches_no_ascii(chr(av), flags):
            return True
        if op is _sc.SUBPATTERN and _requires_non_ascii(av[3], flags):
            return True
    return False


def _dead_on_ascii(source: str, flags: int) -> bool:
    try:
        return _requires_non_ascii(_sp.parse(source, flags), flags)
    except Exception:  # noqa: BLE001 - a piece that does not parse alone is kept
        return False


def _cut(parts: list[str], flags: int) -> str:
    kept = [p for p in parts if not _dead_on_ascii(p, flags)]
    return "|".join(kept) if kept else "(?!)"


def _ascii_source(source: str, flags: int) -> str:
    """``source`` with the dead branches of its top level and of its top-level
    non-capturing groups removed (read by ``regex_source``'s scanner)."""
    parts = split_top_level(source)
    if len(parts) > 1:
        return _cut(parts, flags)
    items = top_level_items(source)
    if items is None:
        return source
    out = []
    for start, end in items:
        if source.startswith("(?:", start):
            inner = split_top_level(source[start + 3 : end - 1])
            out.append("(?:" + (_cut(inner, flags) if len(inner) > 1 else inner[0]) + ")")
        else:
            out.append(source[start:end])
    return "".join(out)


# Keyed by the list's id, holding the list itself (so the id is not reused while kept).
_variants: Cache[int, tuple[list, int, list]] = Cache(
    "memory.detectors.prefilter_ascii.variants", max_items=256, pure=True
)


def _variant(patterns: list) -> list:
    """The list's patterns cut for ASCII text (each kept as it is where nothing is cut)."""
    held = _variants.get(id(patterns))
    if held is not None and held[0] is patterns and held[1] == len(patterns):
        return held[2]
    out = []
    for p in patterns:
        cut = p
        if _sp is not None and isinstance(p, re.Pattern) and isinstance(p.pattern, str):
            flags = p.flags & ~re.UNICODE
            if not flags & re.VERBOSE:
                try:
                    source = _ascii_source(p.pattern, flags)
                    if source != p.pattern:
                        candidate = re.compile(source, p.flags)
                        if candidate.groups == p.groups and candidate.groupindex == p.groupindex:
                            cut = candidate
                except (re.error, RecursionError):
                    cut = p
        out.append(cut)
    _variants.put(id(patterns), (patterns, len(patterns), out))
    return out


def ascii_variant(patterns: list, text: str) -> list:
    """``patterns`` as ASCII text can match them when ``text`` is ASCII and the gate is on
    (one list kept per list, so the prefilter plans it once); otherwise ``patterns``."""
    if not text.isascii() or not detection_switch("ASCII_BRANCH_GATE"):
        return patterns
    return _variant(patterns)
