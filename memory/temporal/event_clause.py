"""A change placed after an event, a named year or a day of the month (issue 32, round 11).

``memory.temporal`` reads calendar words and a few shapes of "after the wedding". People
also put a change after any event, said as a clause of its own, and name years and days of
the month without a month. The readers here are grammatical frames, never the events:

- **event clause, then a future** (``event_clause_future``): a connective of time (when,
  once, after, as soon as, by the time, the moment) with a subject of its own (a
  determiner or possessive noun phrase: "when my visa comes through", "once the new lease
  kicks in"), and a future in the sentence (will, 'll, shall, going to, gonna, or the
  first person's progressive of arrangements "I'm Ving"), unless the future is a promise
  to the listener ("I'll tell you when…"). Chinese 等 + a clause + a
  comma + a modal of the future (会, 就, 要, 再, 打算, 准备); Japanese the "after" of a
  past form (〜た後は, 〜たら) before a plan (つもり, 予定, ます); Korean a conditional or an
  "after" (-면, -ㄴ 후에, -고 나면) before the prospective (-ㄹ 거, 예정, 려고). A sentence
  told in the past, a habit (always, every, 每次…) or a hypothetical (if, 如果, もし, 만약)
  is never read, and the caller has already ruled out the past; and a preposed start
  naming a calendar unit ("Starting the second week of January, …");
- **a named year to come** (``named_year_start``): "in 2028", "mid-2027", "by early
  2029", "2028年起": the year's first day (mid: 1 July; late: 1 October), when the year
  is after the one it was said in;
- **a day of the month to come** (``zh_day_of_month_start``): "从1号开始", "15号起", "20日から"
  with no month: the next such day.
"""

from __future__ import annotations

import re
from datetime import date, datetime

from memory.temporal.common import _HABITUAL, _HYPOTHETICAL, _add_months, _day

_EN_PAST = re.compile(r"\b(?:was|were|did|had|ago|last|used\s+to|yesterday)\b", re.IGNORECASE)
_EN_FUTURE = re.compile(
    r"\b(?:will|shall|going\s+to|gonna)\b|'ll\b"
    r"|\b(?:I'm|I\s+am|we're|we\s+are)\s+(?!going\b)\w{2,}ing\b",
    re.IGNORECASE,
)
# After an event clause, the present of a verb of becoming is a change to come as "will"
# is ("when the baby arrives my partner becomes the main carer").
_EN_CHANGE_PRESENT = re.compile(
    r"\b(?:becomes|changes\s+(?:to|over)|switches\s+(?:to|over)|passes\s+to|turns\s+into|"
    r"goes\s+(?:up|down|back))\b",
    re.IGNORECASE,
)
# A preposed limit naming a season or a holiday, with a future: "By Christmas I'll have…".
_EN_BY_SEASON = re.compile(
    r"^\s*by\s+(?:the\s+)?(?:end\s+of\s+(?:the\s+)?)?(?:next\s+)?(?:spring|summer|autumn|fall|"
    r"winter|christmas|easter|new\s+year|half[- ]term)\b",
    re.IGNORECASE,
)
# A future whose verb takes the listener as object is a promise in the conversation ("I'll
# let you know when the results come in"), not a change of the speaker's.
_EN_PROMISE = re.compile(
    r"(?:\bwill|'ll|\bgoing\s+to|\bgonna)\s+(?:\w+\s+)?(?:you|ya)\b", re.IGNORECASE
)
# The connective and a subject of its own: a determiner or a possessive and a noun.
_EN_EVENT_CLAUSE = re.compile(
    r"\b(?:when|once|after|following|upon|as\s+soon\s+as|by\s+the\s+time|the\s+moment)\s+"
    r"(?:the|my|our|his|her|their|this|that|your)\s+(?:[\w'-]+\s+){0,3}?[\w'-]+",
    re.IGNORECASE,
)

# A preposed start naming a calendar unit the date readers did not resolve: "Starting the
# second week of January, …", "Beginning the spring term, …", "As of the new quarter, …" (not "this" or "last" one).
_EN_PREPOSED_START = re.compile(
    r"^\s*(?:starting|beginning|from|as\s+of|effective|come)\s+(?![^,.;]*\b(?:this|last)\b)"
    r"(?:the\s+|next\s+)?"
    r"[^,.;]{0,30}?\b(?:week|month|year|term|semester|season|quarter|weekend|"
    r"spring|summer|autumn|fall|winter|christmas|easter|"
    r"january|february|march|april|may|june|july|august|september|october|november|december)"
    r"\b[^,.;]{0,20},",
    re.IGNORECASE,
)
_ZH_MODAL = r"(?:会|就|要|再|将|打算|准备|想|得)"
_ZH_EVENT_CLAUSE = re.compile(
    r"(?:^|[，,。；;]|我们|我|他们|他|她|用户)\s*(?:等|待)(?:到)?(?![了着过待会])"
    rf"[^，,。；;！？]{{1,14}}[，,]\s*(?:我们|我|他们|他|她|用户)?(?:也|都|还)?{_ZH_MODAL}"
)
# An event told as a clause before 以后/之后, then the speaker's modal of the future:
# "结婚以后我会随夫姓" (会, 将, 打算, 准备; not 就…了, which is as often the past).
_ZH_AFTER_CLAUSE = re.compile(
    r"^[^，,。；;]{2,10}?(?:以后|之后)[，,]?\s*(?:我们|我|他们|他|她)(?:也|都|还)?(?:会|将|打算|准备)"
)
_ZH_PAST = re.compile(r"已经|过了|了[，,。！]?$|去年|上个?月|上周|以前")

_JA_EVENT_CLAUSE = re.compile(
    r"(?:[たっ]た|んだ|した)(?:後|あと)(?:は|で|に|から)?[、,]?|(?:た|だ)ら[、,]?"
)
_JA_PLAN = re.compile(r"(?:つもり|予定|ます|ましょう|になる|になります)(?:です)?[。！!\s]*$")
_JA_PAST = re.compile(r"(?:ました|でした|かった|った|んだ)[。！!\s]*$")

# Hangul syllables ending in ㄹ (할, 갈, 옮길): the prospective "-ㄹ 거".
_HANGUL_RIEUL = "".join(chr(0xAC00 + 8 + 28 * i) for i in range(399))
_KO_EVENT_CLAUSE = re.compile(
    r"[가-힣](?:면|으면)\s|[가-힣]\s*(?:후에|뒤에|다음에|후엔|뒤엔)\s|고\s*나면\s"
)
_KO_PROSPECTIVE = re.compile(rf"[{_HANGUL_RIEUL}]\s*(?:거|것)|예정|려고|기로")


def event_clause_future(text: str) -> bool:
    """Whether ``text`` places a change after an event told as a clause (module docstring)."""
    if _HYPOTHETICAL.search(text) or _HABITUAL.search(text):
        return False
    for sentence in re.split(r"(?<=[.!?])\s+|[;。！？；\n]", text):
        if not sentence.strip():
            continue
        if re.search(r"[A-Za-z]", sentence) and not _EN_PAST.search(sentence):
            if _EN_PREPOSED_START.search(sentence):
                return True
            if (
                _EN_EVENT_CLAUSE.search(sentence)
                and (_EN_FUTURE.search(sentence) or _EN_CHANGE_PRESENT.search(sentence))
                and not _EN_PROMISE.search(sentence)
            ):
                return True
            if _EN_BY_SEASON.search(sentence) and _EN_FUTURE.search(sentence):
                return True
        if (
            _ZH_EVENT_CLAUSE.search(sentence) or _ZH_AFTER_CLAUSE.search(sentence)
        ) and not _ZH_PAST.search(sentence):
            return True
        if re.search(r"[\u3040-\u30ff]", sentence):
            if (
                _JA_EVENT_CLAUSE.search(sentence)
                and _JA_PLAN.search(sentence)
                and not _JA_PAST.search(sentence)
            ):
                return True
        if re.search(r"[\uac00-\ud7a3]", sentence):
            if _KO_EVENT_CLAUSE.search(sentence + " ") and _KO_PROSPECTIVE.search(sentence):
                return True
    return False


_YEAR_EN = re.compile(
    r"\b(?:(?P<part>early|mid|late)[\s-]+|(?:in|by|from|during|around|after|starting|"
    r"beginning|as\s+of)\s+(?:(?P<part2>early|mid|late)[\s-]+)?)(?P<year>20\d\d)\b"
    r"|^\s*(?P<part3>Early|Mid|Late)-(?P<year2>20\d\d)\b",
    re.IGNORECASE,
)
_YEAR_ZH = re.compile(
    r"(?P<year>20\d\d)\s*年(?P<part>初|中|底|末)?(?:起|开始|以后|之后|后|初|中|底|末)"
)
_PART_MONTH = {"early": 1, "mid": 7, "late": 10, "初": 1, "中": 7, "底": 12, "末": 12}


def named_year_start(text: str, now: datetime) -> datetime | None:
    """The start of a named year after the one ``now`` is in, or None."""
    m = _YEAR_EN.search(text)
    part = None
    if m:
        year = int(m["year"] or m["year2"])
        part = (m["part"] or m["part2"] or m["part3"] or "").lower() or None
    else:
        m = _YEAR_ZH.search(text)
        if not m:
            return None
        year = int(m["year"])
        part = m["part"]
    if year <= now.year:
        return None
    return _day(now, date(year, _PART_MONTH.get(part or "", 1), 1))


_ZH_DAY_OF_MONTH = re.compile(
    r"(?<![月\d年])(?:从|自)?(?P<day>[1-9]|[12]\d|3[01])\s*(?:号|日)(?:开始|起|から)"
)


def zh_day_of_month_start(text: str, now: datetime) -> datetime | None:
    """ "从1号开始", "15号起", "20日から" (no month named): the next such day."""
    m = _ZH_DAY_OF_MONTH.search(text)
    if not m or _ZH_PAST.search(text):
        return None
    day = int(m["day"])
    for months in (0, 1, 2):
        first = _add_months(now, months) if months else now
        try:
            when = _day(now, date(first.year, first.month, day))
        except ValueError:
            continue
        if when.date() > now.date():
            return when
    return None
