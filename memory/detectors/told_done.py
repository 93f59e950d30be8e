"""A change told as already done, which the learned future head must not hold (round 20).

The learned ``future`` head reads the topic of a change ("switched to the new one", 换到新
公司) and holds it as a change that lies ahead when the time rules found no start. A change
the speaker tells in the completed aspect has happened: it is stored, like any past fact.
This module says a text is told as done by its grammar, in two parts, both closed classes:

- **a completed aspect**: in English a past-tense verb (an ``-ed`` form or one of the
  common irregular pasts) or a perfect (have/has/'ve + a participle); in Chinese a verb's
  perfective 了 with words after it (换到了新公司 — a sentence-final 了 is a change of state
  and is as often ahead: 明年我就是律师了), or 已经 / 曾经;
- **and nothing that points ahead**: a future auxiliary or a verb of intending (will, 'll,
  going to; plan, intend, hope or want to; 要, 将, 会, 打算, 准备, 想), a conditional or a
  clause of time to come (if, once, when, after, until; 如果, 等, 就, 再, …起), a word of
  the next period (next, soon, tomorrow; 下个月, 明年, 马上), or a past verb that takes a
  to-infinitive ("agreed to transfer", "decided to move": the deciding is done, the change
  is not) and the present progressive of an arrangement ("I'm moving over").

Only the learned head is vetoed: a rule's reading of a future change is kept.
"""

from __future__ import annotations

import re

from memory.temporal.common import fold_traditional
from memory.text_normalize import detection_form

_CJK = re.compile(r"[\u3400-\u9fff]")
_KANA_HANGUL = re.compile(r"[\u3040-\u30ff\uac00-\ud7a3]")

_ZH_PERFECTIVE = re.compile(r"了(?=[\u3400-\u9fff])|已经|曾经")
_ZH_AHEAD = re.compile(
    r"要|将|会|打算|准备|计划|想|就|起|如果|要是|假如|等|再|到时|即将|马上|快|"
    r"下(?:个|一|周|月|年|次|回|学期)|明(?:天|年|早|晚)|后天|后年"
)

_EN_PAST = re.compile(
    r"\b(?:went|got|took|began|left|came|made|moved|bought|sold|became|found|won|lost|quit|"
    r"gave|sent|put|set|swapped|\w{2,}ed)\b"
    r"|\b(?:have|has|'ve|had)\s+(?:just\s+|already\s+|finally\s+)?\w+(?:ed|en|ne|ot|ught|ght)\b",
    re.IGNORECASE,
)
_EN_AHEAD = re.compile(
    r"\b(?:will|'ll|shall|going\s+to|gonna|about\s+to|soon|next|tomorrow|later|once|until|"
    r"till|when|after|before|from\s+now|starting|would|'d|upcoming|eventually|someday|if)\b"
    # a verb of intending with its infinitive after a subject or an auxiliary ("we plan to",
    # "I'm hoping to"; not the noun: "the phone plan to the back room")
    r"|\b(?:I|we|you|he|she|they|who|am|are|is|was|were|'m|'re|'s|'ve|have|has|had|do|does|"
    r"did|still|also|really)\s+(?:\w+\s+)?(?:plan|intend|want|hope|expect|mean|aim)"
    r"(?:s|ed|ing)?\s+to\b|\bdue\s+(?:to|in|on|at)\b"
    # the present progressive of an arrangement: "I'm moving over", "we are switching"
    r"|\b(?:I'm|I\s+am|we're|we\s+are|(?:he|she)'s|(?:he|she)\s+is|they're|they\s+are)\s+\w+ing\b",
    re.IGNORECASE,
)
# A past verb and a to-infinitive: "agreed to transfer", "decided to move" (not "moved to
# the flat": a determiner, a pronoun or a name after "to" is a place or a person).
_EN_TO_VERB = re.compile(
    r"\b\w+ed\s+to\s+(?!(?:the|a|an|my|our|his|her|their|your|its|this|that|these|those|it|"
    r"him|them|us|me|one|some|any|every|each|no)\b)(?-i:[a-z])",
    re.IGNORECASE,
)


def told_done(text: str) -> bool:
    """Whether ``text`` tells a change as already done (the module docstring)."""
    form = detection_form(text).text
    if _KANA_HANGUL.search(form):
        return False
    if _CJK.search(form):
        zh = fold_traditional(form)
        return bool(_ZH_PERFECTIVE.search(zh)) and not _ZH_AHEAD.search(zh)
    return bool(
        _EN_PAST.search(form) and not _EN_AHEAD.search(form) and not _EN_TO_VERB.search(form)
    )
