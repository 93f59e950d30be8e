"""A state of a thing or a place, which is no passing state of the speaker's (round 21 of
issue 32).

The learned transient head reads the predicate ("really slow", "terrible", 好慢) and held
"The wifi at the café is really slow" as the user's passing state. A passing state is the
speaker's (or the user's) own: how they feel, where they are, what they are doing this
moment. An observation about a thing or a place with no scope of the moment is a lasting
one about that thing ("the wifi at the café is slow": the café's, for the next visit).
``state_of_a_thing`` says a text is such an observation by its grammar, closed classes
only:

- **no person in it**: no personal pronoun (I, we, you, he, she, they and their forms; 我,
  咱, 你, 您, 他, 她) and no clause with its subject dropped (every clause, below, names
  its subject: "网太卡了，烦死了" drops the speaker in its second clause);
- **every clause names a thing as its subject**: English, a determiner or a demonstrative
  first (the, this, that, these, those, a, an, its, there, it, or a possessive "…'s");
  Chinese, a demonstrative first (这, 那, 该, 此) or a noun phrase joined by 的 before the
  predicate (公司楼下那家咖啡店的网);
- **and no scope of the moment or the day** (right now, at the moment, today, tonight, this
  morning, currently; 现在, 此刻, 这会儿, 今天, 今晚, 刚才): "It's really foggy right now",
  "The car won't start this morning" are a passing situation the speaker is in, left to
  the head.

Japanese and Korean, which drop the subject as a rule, are not read (never vetoed).
Only the learned head is vetoed: a rule's passing state is kept (``find_transient`` reads
the speaker's own already).
"""

from __future__ import annotations

import re

from memory.temporal.common import fold_traditional
from memory.text_normalize import normalize_for_detection

_KANA_HANGUL = re.compile(r"[\u3040-\u30ff\uac00-\ud7a3]")
_CJK = re.compile(r"[\u3400-\u9fff]")

_EN_PERSON = re.compile(
    r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|myself|we|we're|we've|us|our|ours|you|you're|your|"
    r"yours|he|he's|him|his|she|she's|her|hers|they|they're|them|their|user|user's)\b",
    re.IGNORECASE,
)
_EN_SCOPE = re.compile(
    r"\b(?:right\s+now|now|rn|at\s+(?:the|this)\s+moment|as\s+we\s+speak|just\s+now|currently|"
    r"at\s+present|this\s+(?:very\s+)?(?:minute|second|instant)|today|tonight|"
    r"this\s+(?:morning|afternoon|evening|week))\b",
    re.IGNORECASE,
)
_EN_CLAUSES = re.compile(r"[,;:.!?()\u2014\u2013]+|\s-\s|\b(?:and|but|because)\b", re.IGNORECASE)
# Words that may come before a clause's subject without being one.
_EN_LEAD = re.compile(
    r"^(?:(?:honestly|wow|ugh|oh|man|gosh|seriously|really|also|plus|still|by\s+the\s+way|"
    r"btw|in\s+general|generally|usually|always|often)\s+)*",
    re.IGNORECASE,
)
_EN_THING_SUBJECT = re.compile(
    r"^(?:the|this|that|these|those|a|an|its|there|it|it's|there's|[\w-]+'s)\b", re.IGNORECASE
)

_ZH_PERSON = re.compile(r"我|咱|俺|你|您|他|她|用户|本人")
_ZH_SCOPE = re.compile(r"现在|此刻|此时|这会|今天|今晚|今早|今儿|刚才|刚刚|眼下|当下|这两天")
_ZH_CLAUSES = re.compile(r"[，,；;。！!？?：:、\s]+")
_ZH_THING_SUBJECT = re.compile(r"^(?:这|那|该|此)|^[^的]{1,14}的[\u4e00-\u9fff]")


def _en(text: str) -> bool:
    if _EN_PERSON.search(text) or _EN_SCOPE.search(text):
        return False
    clauses = [c.strip() for c in _EN_CLAUSES.split(text) if c and c.strip()]
    if not clauses:
        return False
    return all(_EN_THING_SUBJECT.match(_EN_LEAD.sub("", clause)) for clause in clauses)


def _zh(text: str) -> bool:
    if _ZH_PERSON.search(text) or _ZH_SCOPE.search(text):
        return False
    if re.search(r"[A-Za-z]{2,}", text) and _EN_PERSON.search(text):
        return False
    clauses = [c for c in _ZH_CLAUSES.split(text) if c]
    if not clauses:
        return False
    return all(_ZH_THING_SUBJECT.search(clause) for clause in clauses)


def state_of_a_thing(text: str) -> bool:
    """Whether ``text`` tells only of a thing's or a place's state, with no person in it
    and no scope of the moment (module docstring)."""
    if not text or not text.strip():
        return False
    form = fold_traditional(normalize_for_detection(text))
    if _KANA_HANGUL.search(form):
        return False
    if _CJK.search(form):
        return _zh(form)
    return _en(form)
