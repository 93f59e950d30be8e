"""A standing rule or how something behaves, which is no change to come (round 21 of
issue 32).

"This API returns 429 when the rate limit is exceeded", "once a ticket is closed it is
archived", "每当库存低于阈值，系统就会自动补货": a clause of time or condition in the
present beside a main clause in the present tells what happens each time, not a change
that lies ahead. The time rules' undated future ("when the … is", a change verb after an
event clause) and the learned future head read the connective and the verb and held such
texts for the user to confirm. ``standing_present`` says a text is of the standing kind
by its grammar, with closed classes only:

- **nothing points ahead and nothing is told as past**: no future auxiliary or verb of
  intending (will, 'll, shall, going to, gonna, about to; plan, intend, hope, expect, set
  or due to; 要, 将, 打算, 准备, 计划), no word of a time to come (soon, next, tomorrow,
  one day, eventually, starting, as of, effective, a definite "new" thing; 明年, 下个月, 以后…起), no past (was,
  were, did, had, ago, yesterday, last, used to, a finite ``-ed`` verb; 了, 已经, 过);
- **and the shape of a standing fact**: a habitual connective (whenever, every/each/any
  time, 每当, 每逢, 每次, 每到, 凡是) whoever the subject is; or a connective of time or
  condition (when, once, after, as soon as, if, until, unless, the moment; 一旦, 只要,
  如果, 一…就) when no person is named (no I, we, he, she and their forms; no 我, 我们,
  他, 她) and, unless a tool says it, no verb of becoming follows ("after the renovation
  is done, the kitchen becomes the dining room" is a change to come; "when the battery
  drops below 10%, the device switches to power-saving mode" in a tool's text is how the
  device behaves). "When the baby arrives my partner becomes the main carer" names a
  person: a one-time change to a person is what the time rules read.

Each sentence is read on its own: standing, a change (something ahead, or a person or,
from the user, a becoming after a connective), or neither. The text is standing when some
sentence is and none is a change, so a real plan beside a rule keeps the whole text held.
The caller reads only texts the time rules or the learned head would hold as an undated
future change: a dated change ("from next Monday they will expire after 15 minutes")
never reaches here.
"""

from __future__ import annotations

import re

from memory.temporal.common import fold_traditional

_CJK = re.compile(r"[\u3400-\u9fff]")

_EN_AHEAD = re.compile(
    r"\b(?:will|shall|going\s+to|gonna|about\s+to|soon(?!\s+as\b)|someday|some\s+day|one\s+day|eventually|"
    r"next|tomorrow|later|upcoming|starting|beginning|as\s+of|effective|from\s+now\s+on|"
    # A definite "new" thing (the new lease, our new contract) is one that is not yet in
    # place: a one-time event, where "a new user" is any (round 21, after the merge).
    r"(?:the|our|your|their)\s+new|"
    r"no\s+longer|any\s?more|(?:plan|intend|hope|expect|want|mean|aim)(?:s|ed|ing)?\s+to|"
    r"(?:set|due|scheduled)\s+to)\b|'ll\b",
    re.IGNORECASE,
)
# A past: an auxiliary or a word of the past, or a finite -ed verb (not a participle after
# a form of "be" or "get": "when the limit is exceeded", "gets locked").
_EN_PAST = re.compile(
    r"\b(?:was|were|did|had|ago|yesterday|last|used\s+to)\b"
    r"|(?<!\bis\s)(?<!\bare\s)(?<!\bbe\s)(?<!\bbeen\s)(?<!\bget\s)(?<!\bgets\s)(?<!\bam\s)"
    r"\b[a-z]{3,}ed\b(?!\s+(?:by|within|after|for|from|to|in|on|at)\b)",
    re.IGNORECASE,
)
_EN_HABITUAL = re.compile(
    r"\b(?:whenever|(?:every|each|any)\s*time|always|usually|normally|automatically|"
    r"by\s+default|as\s+a\s+rule)\b",
    re.IGNORECASE,
)
_EN_CONNECTIVE = re.compile(
    r"\b(?:when|once|after|as\s+soon\s+as|if|until|unless|before|the\s+moment|whenever)\b",
    re.IGNORECASE,
)
_EN_PERSON = re.compile(
    r"\b(?:i|i'm|i've|i'd|me|my|mine|myself|we|we're|we've|us|our|ours|he|he's|him|his|"
    r"she|she's|her|hers)\b",
    re.IGNORECASE,
)

# A verb of becoming in the main clause ("the kitchen becomes the dining room", "the rent
# goes up"): told by the user after an event clause, it is as often a one-time change to
# come; a tool's text of that shape tells how a thing behaves ("the device switches to
# power-saving mode"), so only a tool's is read as standing (``from_tool``).
_EN_BECOMING = re.compile(
    r"\b(?:becomes?|chang(?:es?|ing)\s+(?:to|over|into)|switch(?:es)?\s+(?:to|over)|"
    r"pass(?:es)?\s+to|turns?\s+into|goes\s+(?:up|down|back)|moves?\s+(?:to|into)|"
    r"converts?\s+(?:to|into))\b",
    re.IGNORECASE,
)
_ZH_BECOMING = re.compile(r"[变改换转]成|成为|[改转]为|不再")

_ZH_AHEAD = re.compile(
    r"(?<![只需重主不])要(?!求)|将|打算|准备|计划|想|明年|来年|后年|明天|后天|下(?:个|一|周|星期|礼拜|月|年|学期|次)|"
    r"年底|年后|以后|之后|起|开始|马上|即将|快要|等|到时"
)
_ZH_PAST = re.compile(r"了|已经|曾经|过(?!来|去|年|节|期|夜|滤)")
_ZH_HABITUAL = re.compile(r"每当|每逢|每次|每到|凡是|总是|通常|一般")
_ZH_CONNECTIVE = re.compile(r"一旦|只要|如果|若|当.{1,12}(?:时|的时候)|一.{1,6}就")
_ZH_PERSON = re.compile(r"我|咱|俺|他|她|您|你")


def _reading_en(sentence: str, from_tool: bool) -> str | None:
    """ "standing", "change" (points ahead, or a person's or a becoming after a
    connective), or None (neither: a plain statement, or a past)."""
    if _EN_AHEAD.search(sentence):
        return "change"
    if _EN_PAST.search(sentence):
        return None
    if _EN_HABITUAL.search(sentence):
        return "standing"
    if not _EN_CONNECTIVE.search(sentence):
        return None
    if _EN_PERSON.search(sentence) or (not from_tool and _EN_BECOMING.search(sentence)):
        return "change"
    return "standing"


def _reading_zh(sentence: str, from_tool: bool) -> str | None:
    if _ZH_AHEAD.search(sentence) or _EN_AHEAD.search(sentence):
        return "change"
    if _ZH_PAST.search(sentence) or _EN_PAST.search(sentence):
        return None
    if _ZH_HABITUAL.search(sentence):
        return "standing"
    if not _ZH_CONNECTIVE.search(sentence):
        return None
    if _ZH_PERSON.search(sentence) or (not from_tool and _ZH_BECOMING.search(sentence)):
        return "change"
    return "standing"


_SENTENCES = re.compile(r"(?<=[.!?])\s+|[;。！？；\n]")


def standing_present(text: str, *, from_tool: bool = False) -> bool:
    """Whether ``text`` tells a standing rule or a habit in the present (module
    docstring): some sentence of it does, and none tells a change (a sentence beside it
    that points ahead keeps the whole text a change to come). ``from_tool``: the text is
    a tool's, whose verbs of becoming after a condition tell how a thing behaves."""
    if not text or not text.strip():
        return False
    text = fold_traditional(text)
    readings = [
        (_reading_zh if _CJK.search(sentence) else _reading_en)(sentence, from_tool)
        for sentence in _SENTENCES.split(text)
        if sentence.strip()
    ]
    return "standing" in readings and "change" not in readings
