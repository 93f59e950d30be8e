"""Splitting a message into clauses, for the rule extractor and the thread summaries."""

from __future__ import annotations

import re

_CLAUSE_SPLIT = re.compile(r"(?<=[。！？!?；;\n])|(?<=\.)\s+")
LEAD_TRIM = " ，,：:、—-\"'“”‘’"


def split_clauses(text: str) -> list[str]:
    """The clauses of ``text``, split after sentence punctuation (Chinese and Latin) and
    newlines, trimmed of leading punctuation and closing sentence marks; empty ones dropped."""
    parts = [p.strip().strip(LEAD_TRIM).rstrip("。.!！?？;；") for p in _CLAUSE_SPLIT.split(text)]
    return [p for p in parts if p]
