"""The literal prefilter's clauses checked by their whole literals
(``ENGRAM_DETECTOR_WHOLE_LITERAL_GATE``, issue 39).

The one-pass prefilter (``memory/detectors/prefilter.py``) looks for each required literal
by one piece of it, three characters long: "checklist" holds "che", the piece chosen for
"chest", so a rule that needs "chest" is searched in it. Before a pattern the pieces let
through is searched, this asks whether the text lowercased holds a whole literal of each
of its clauses; when one clause has none, the pattern is skipped.

Why it is exact: it is the prefilter's own premise, taken whole. Every match of the
pattern holds one literal of each clause (``required_literals``, derived from the parse
tree); a case-insensitive literal (ASCII or without case) matches only characters that
lowercase to its own, and a case-sensitive one, present in the text, is present lowercased
in the text lowercased, since ``str.lower`` maps each character to one character. The
texts for which that fails (``ASCII_CASE_TWINS``, ``UNEVEN_LOWER``) have no pieces and are
searched in full before this runs. A piece of a literal is in a text whenever the literal
is; the literal itself is the stronger test of the same fact.

A pattern without clauses, a wrapper without ``prefilter_pattern`` or a rule list added
later by anyone is handled as before: whatever derives no literal is searched.
Only clauses holding a literal longer than a piece are kept: for the others the piece is
the literal, and the prefilter has already checked it.
"""

from __future__ import annotations

_Whole = tuple[tuple[str, ...], ...]


def _shortest_first(literal: str) -> tuple[int, str]:
    return len(literal), literal  # a total order: the same in every process


def whole_clauses(clauses, gram: int) -> _Whole | None:
    """The clauses (sets of (literal, case-insensitive) pairs) as tuples of literals
    lowercased, keeping those with a literal longer than ``gram``; None: nothing to check."""
    if not clauses:
        return None
    kept = tuple(
        tuple(sorted({literal.lower() for literal, _icase in clause}, key=_shortest_first))
        for clause in clauses
        if any(len(literal) > gram for literal, _icase in clause)
    )
    return kept or None


def holds_whole(whole: _Whole, low: str) -> bool:
    """Whether the text lowercased (``low``) holds one literal of each clause."""
    for clause in whole:
        for literal in clause:
            if literal in low:
                break
        else:
            return False
    return True
