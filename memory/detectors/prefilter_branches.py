"""The literal prefilter's clauses asked branch by branch of a top-level alternation
(``ENGRAM_DETECTOR_BRANCH_GATE``, issue 39).

Many rules are one long alternation of readings (``A|B|C``, the panic signs, the
``I …/the user …`` frames of a category). The prefilter derives for such a pattern the
union of one clause a branch (``prefilter._required``): "the", "for" or "and" from one
branch is enough to let the whole pattern through, and then every branch is tried at
every position of the text. Here each branch's own clauses are asked of the text
lowercased; the pattern is skipped when no branch is live, and otherwise only the live
branches are searched, joined again in their order into one pattern (compiled once per
set of live branches, kept).

Why it is exact, for a caller that asks only whether there is a match: a top-level
alternation matches at a position exactly when one of its branches does, so the pattern
finds something in a text exactly when one of its branches does; a branch whose required
literals are not all in the text finds nothing there (the prefilter's premise, taken whole
as in ``prefilter_whole``: the text is one the prefilter could read, with no
``ASCII_CASE_TWINS`` or ``UNEVEN_LOWER``). The match itself may differ (its span, its
groups), so this serves ``search_any``'s yes/no and the sentence-by-sentence reading of
``life_frames._Stated`` (a branch dead in the text is dead in each of its sentences), not
a wrapper that reads the match.

Split only where the split is checked: the pattern's text is cut at its top-level ``|``
(``regex_source.split_top_level``, the scanner ``prefilter_ascii`` reads sources with too)
and the cut must give as many branches as ``re``'s own parse tree has at its top (after
the prefix all branches share, which ``re`` moves out in front), each compiling alone. A pattern with a back-reference or a conditional group (numbers would
shift), a verbose pattern (``|`` in a comment), one without a top-level alternation or
whose parse fails is searched whole, as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from core.process_state import Cache, memoized
from memory.detectors.prefilter_whole import whole_clauses
from memory.detectors.regex_source import split_top_level

try:
    from re import _constants as _sc
    from re import _parser as _sp
except ImportError:  # pragma: no cover - another Python
    _sc = _sp = None  # type: ignore[assignment]

# A branch's literals, lowercased, one tuple a clause (every match holds one of each);
# () when the branch derives none (always live).
_Branch = tuple[str, tuple[tuple[str, ...], ...]]


def _refers(items) -> bool:
    """Whether the parsed sequence holds a back-reference or a conditional group."""
    for op, av in items:
        if op in (_sc.GROUPREF, _sc.GROUPREF_EXISTS, getattr(_sc, "GROUPREF_IGNORE", None)):
            return True
        for part in av if isinstance(av, (tuple, list)) else ():
            if isinstance(part, _sp.SubPattern) and _refers(part):
                return True
            if isinstance(part, list) and any(
                isinstance(x, _sp.SubPattern) and _refers(x) for x in part
            ):
                return True
    return False


@memoized("memory.detectors.prefilter_branches.branches", maxsize=4096)
def branches(pattern: re.Pattern[str], derive: Callable) -> tuple[_Branch, ...] | None:
    """Each top-level branch's source and clauses, or None: search the pattern whole.
    ``derive`` is the prefilter's ``required_literals`` (passed in: it imports this)."""
    if _sp is None or not isinstance(pattern.pattern, str) or pattern.flags & re.VERBOSE:
        return None
    try:
        parsed = _sp.parse(pattern.pattern, pattern.flags)
        # ``re`` moves a prefix every branch shares (``\b``) out in front of the branch.
        if not parsed.data or parsed.data[-1][0] is not _sc.BRANCH or _refers(parsed):
            return None
        sources = split_top_level(pattern.pattern)
        if len(sources) < 2 or len(sources) != len(parsed.data[-1][1][1]):
            return None
        out = []
        for source in sources:
            clauses = derive(re.compile(source, pattern.flags))
            out.append((source, whole_clauses(clauses, 0) or ()))
    except Exception:  # noqa: BLE001 - an unreadable pattern is searched whole
        return None
    return tuple(out)


# The live branches joined, by (the pattern's id, the live branches' places); each entry
# holds its pattern, so an id is not read for another pattern while kept.
_joined: Cache[tuple[int, tuple[int, ...]], tuple[re.Pattern[str], re.Pattern[str]]] = Cache(
    "memory.detectors.prefilter_branches.joined", max_items=4096, pure=True
)


def live_pattern(
    pattern: re.Pattern[str], parts: tuple[_Branch, ...], low: str
) -> re.Pattern[str] | None:
    """The pattern to search in a text whose lowercased form is ``low`` (one the literal
    prefilter reads), ``parts`` being ``branches(pattern)``: the pattern itself, its live
    branches joined, or None when no branch can match. Only whether it finds something is
    the pattern's."""
    live = []
    for at, (_source, clauses) in enumerate(parts):
        for clause in clauses:
            for literal in clause:
                if literal in low:
                    break
            else:
                break
        else:
            live.append(at)
    if not live:
        return None
    if len(live) == len(parts):
        return pattern
    key = (id(pattern), tuple(live))
    held = _joined.get(key)
    if held is not None and held[0] is pattern:
        return held[1]
    joined = re.compile("|".join(parts[at][0] for at in live), pattern.flags)
    _joined.put(key, (pattern, joined))
    return joined
