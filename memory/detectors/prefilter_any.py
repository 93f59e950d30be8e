"""Many patterns' literals as one gate (``ENGRAM_DETECTOR_TIME_PAST_GATE``), beside the
one-pass prefilter (``memory.detectors.prefilter``).

A reader that tries several patterns in turn and finds nothing unless one matches (the
English past readings of ``memory.temporal.en._en_past``) may ask first whether any of
them can: every match of a pattern holds a literal of each of its clauses, so when the
text lowercased holds no literal of any pattern's most telling clause (the one whose
shortest literal is longest, then the one of fewest literals), none matches
(``prefilter_whole``'s premise). The literals are looked for by one alternation, which
``re`` scans for by their first characters in C.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from memory.detectors.prefilter import ASCII_CASE_TWINS, UNEVEN_LOWER, required_literals


def literal_gate(patterns: Iterable[re.Pattern[str]]) -> re.Pattern[str] | None:
    """A pattern that finds something in a text lowercased whenever one of ``patterns``
    may match the text (see ``may_any_match``); None when one of them derives no literal
    (it may match anything). Built once, when the caller's module is imported."""
    literals: set[str] = set()
    for p in patterns:
        clauses = required_literals(p)
        if not clauses:
            return None
        best = max(clauses, key=lambda c: (min(len(s) for s, _ in c), -len(c)))
        literals |= {s.lower() for s, _icase in best}
    # A literal holding another is implied by it ("september" by "sep"): only the other.
    literals = {s for s in literals if not any(o != s and o in s for o in literals)}
    ordered = sorted(literals, key=lambda s: (-len(s), s))
    return re.compile("|".join(re.escape(s) for s in ordered))


def may_any_match(gate: re.Pattern[str] | None, text: str) -> bool:
    """False only when none of the patterns ``gate`` was built from (``literal_gate``)
    can match ``text``; a text the pieces cannot speak for answers yes."""
    if gate is None:
        return True
    if not text.isascii() and not (
        ASCII_CASE_TWINS.isdisjoint(text) and UNEVEN_LOWER.isdisjoint(text)
    ):
        return True
    return gate.search(text.lower()) is not None
