"""The user's clause read once more with its adjuncts of time taken out (issue 32, round 7).

The rules of ``special_categories`` and its form modules read a first-person subject
followed closely by its predicate: 我 + at most two time words + the verb, "I" + the past
tense. People put more between the two: 我年轻时进过局子, 我每天早晚念经,
我每周五中午都去…, "I've voted SDLP in every election", "I have always taken …". This
module yields the text read with those adjuncts removed, so the existing rules test the
bare subject-predicate pair; no rule or word of any category is added. What it removes is
closed grammatical classes only:

- **Chinese**, after a 我 that is the speaker (not 我们, not 我妈 — ``dropped_subject``'s
  persons): a run of time, frequency and aspect words (``dropped_subject``'s opening
  words: 年轻时, 每个月, 一直, 已经 …, and the parts of the day 中午/下午/早晚/夜里/周末),
  with the adverbs 都/就/也/还/又 and the modals 要/得/会 among them; then a reason or
  purpose adjunct (因为…, 由于…, 为了…) of up to eight characters naming no person, each
  possible end of it read in turn (its end is unmarked in the text);
- **English**: the perfect auxiliary and the adverbs of time after "I" ("I've always
  voted" reads "I voted"), only before a regular past participle (…ed), which is also the
  past tense the rules spell;
- **English coordination** (round 15): the first of two predicate nouns joined by "and"
  after "I'm" ("I'm a Celtic fan and a practising Catholic" reads "I'm a practising
  Catholic"): a club, a job or a mood before the "and" no longer hides what follows it,
  and what follows is read by the same rules as ever.

Another person's clause is never read (我妈每天都吃… stays another person's), and the
reading is only ever tested by the same rules.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memory.detectors.dropped_subject import ANCHOR_ZH, OTHER_ZH, PERSON_ZH

_ME_ZH = re.compile(rf"我(?!们|們|{OTHER_ZH})")
_ADJUNCTS_ZH = re.compile(
    rf"(?:{ANCHOR_ZH}|中午|下午|上午|早晚|早上|夜里|半夜|凌晨|周末|假期|平日|"
    r"[都就也还又要得会]|时|的时候)+"
)
_REASON_ZH = re.compile(r"(?:因为|因為|由于|由於|为了|為了)")
_REASON_MAX = 8
_CLAUSE_END = re.compile(r"[，,。！？!?；;：:\n]")
_PERFECT_EN = re.compile(
    r"\b(I)(?:'ve|\s+have|'d|\s+had)((?:\s+(?:always|never|just|already|recently|only|also|"
    r"ever|since|long|both|each|all))*)\s+(?=[a-z]+ed\b)",
    re.IGNORECASE,
)

# "I'm" + a first predicate of at most four words (no clause punctuation, no preposition:
# "I'm friends with Tom and a priest" joins Tom and the priest) + "and" (+ also).
_WORD = r"(?!(?:with|of|to|for|from|at|in|on|by|about|like|than)\b)[\w'-]+"
_COORDINATED_EN = re.compile(
    rf"\b(I(?:'m|\s+am))\s+(?:an?\s+|the\s+)?{_WORD}(?:\s+{_WORD}){{0,3}}?\s*,?\s+and\s+"
    r"(?:also\s+)?(?=\w)",
    re.IGNORECASE,
)


def adjunct_readings(text: str) -> Iterator[str]:
    """``text`` with the adjuncts between the user's subject and predicate taken out
    (module docstring), once per place where that changes it."""
    for me in _ME_ZH.finditer(text):
        run = _ADJUNCTS_ZH.match(text, me.end())
        start = run.end() if run else me.end()
        if start > me.end() and start < len(text):
            yield text[: me.end()] + text[start:]
        # A reason or purpose adjunct (因为打架, 由于工作): its end is unmarked, so each
        # cut of up to _REASON_MAX characters is read; a cut that names a person (因为他)
        # is not, since what follows may be that person's.
        reason = _REASON_ZH.match(text, start)
        if reason:
            for cut in range(reason.end() + 1, min(reason.end() + _REASON_MAX, len(text)) + 1):
                adjunct = text[reason.end() : cut]
                if _CLAUSE_END.search(adjunct) or PERSON_ZH.search(adjunct):
                    break
                yield text[: me.end()] + text[cut:]
    if _PERFECT_EN.search(text):
        yield _PERFECT_EN.sub(r"\1 ", text)
    if " and " in text and _COORDINATED_EN.search(text):
        yield _COORDINATED_EN.sub(r"\1 ", text)
