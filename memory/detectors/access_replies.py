"""A value handed over for getting in, with no credential word (round 12 of issue 32).

People pass on a code by what it does, or as the reply to an earlier request, and never
say "password" or "code":

- **what gets one in**: "what gets me into the storage cage — it's 7-7-0-3", "if anyone
  needs to get into my Xbox, it's Saffron88": a phrase of getting in (gets/lets me in,
  get/log/sign into …) and, in the same sentence after a comma, a dash, a colon or "it's",
  a value that ends its clause;
- **the reply to a request**: "you asked for the storage unit one earlier — 40-17-92",
  "you wanted the number for the shed: 3 1 7 7": the speaker answers someone's request
  with a value after a dash or a colon.

The value is a code told in pieces (four or more single digits apart, or three groups of
one or two digits that are not a date), a run of four to eight digits (not a year), or a
made token with letters and digits (``looks_like_secret``). An amount, a time, a count
with a unit or a plain word is none of these ("to get into the museum it's 12 euros",
"you asked when — 12-14-26", "you asked about the score — 3-1").
"""

from __future__ import annotations

import re
from collections.abc import Callable

from memory.detectors.literal_gated import literal_gated

_GETTING_IN = re.compile(
    r"\b(?:(?:gets?|got|lets?)\s+(?:me|us|you|him|her|them|people|anyone|someone)\s+in(?:to)?"
    r"|(?:get|getting|log|logging|sign|signing)\s+(?:in(?:to)?|on(?:to)?)\s+(?:my|our|the|his|her|their|your)"
    r"|unlock(?:s|ing)?\s+(?:my|our|the|his|her|their|your))\b",
    re.IGNORECASE,
)
_REPLYING = re.compile(
    r"\byou\s+(?:asked|wanted|needed|were\s+asking)\s+(?:me\s+)?(?:for|about|what|which|the)\b",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|[\n。！？]")
_LEAD = re.compile(r"\s*(?:[,:;]|—|–|--|\s-\s)\s*(?:(?:it's|it\s+is|that's|use|type|enter|just)\s+)?"
                   r"|\s+(?:it's|it\s+is)\s+", re.IGNORECASE)  # fmt: skip
_PIECES = re.compile(r"\d(?:[- .]\d){3,7}(?![\d])")
_GROUPS = re.compile(r"\d{1,2}(?:-\d{1,2}){2,3}(?![\d])")
_DIGITS = re.compile(r"\d{4,8}(?![\d])")
_TOKEN = re.compile(r"[A-Za-z0-9][!-~]{3,40}")
_CLAUSE_AFTER = re.compile(
    # the clause ends, a closing quotation, a CJK sentence, or a word that adds to the value
    r"\s*(?:$|[.,;!?)\n—–”\"'」』，。、\u3040-\u9fff\uac00-\ud7af]|"
    r"\s(?:with|then|and|but|for|if|no|all|in)\b)",
    re.IGNORECASE,
)
_YEAR = re.compile(r"(?:19|20)\d\d")


def _is_date(groups: list[str]) -> bool:
    a, b = int(groups[0]), int(groups[1])
    return (1 <= a <= 12 and 1 <= b <= 31) or (1 <= b <= 12 and 1 <= a <= 31)


def _value_at(
    text: str, at: int, looks_like_secret: Callable[[str], bool]
) -> tuple[int, int] | None:
    for rx in (_PIECES, _GROUPS, _DIGITS):
        m = rx.match(text, at)
        if m and _CLAUSE_AFTER.match(text, m.end()):
            if rx is _GROUPS and _is_date(m.group().split("-")):
                return None
            if rx is _DIGITS and _YEAR.fullmatch(m.group()):
                return None
            return m.start(), m.end()
    m = _TOKEN.match(text, at)
    if m:
        value = m.group().rstrip(".,;!?)")
        if (
            any(c.isalpha() for c in value)
            and any(c.isdigit() for c in value)
            and looks_like_secret(value, numeric_ok=False)
            and _CLAUSE_AFTER.match(text, m.start() + len(value))
        ):
            return m.start(), m.start() + len(value)
    return None


# Asked only where their literals are (memory/detectors/literal_gated.py).
_GETTING_IN, _REPLYING = literal_gated(_GETTING_IN), literal_gated(_REPLYING)


def access_reply_spans(text: str, looks_like_secret: Callable[..., bool]) -> list[tuple[int, int]]:
    """Values after a phrase of getting in, or given as the reply to a request."""
    if not re.search(r"\d", text):
        return []
    spans = []
    for cue in [*_GETTING_IN.finditer(text), *_REPLYING.finditer(text)]:
        end = _SENTENCE_END.search(text, cue.end())
        hi = end.start() if end else len(text)
        for lead in _LEAD.finditer(text, cue.end(), hi):
            found = _value_at(text, lead.end(), looks_like_secret)
            if found:
                spans.append(found)
                break
    return spans
