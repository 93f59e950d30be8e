"""Valid-time hints written in words: "I move to Berlin in three weeks", "年底搬到杭州",
"after the wedding in May", "过完春节".

``valid_time_hint(text, now)`` answers one of:

- ``TimeHint("past", start)`` — the change started before it was said ("three weeks
  ago", "last month", "in March" with a past verb, "上个月", "去年", "三周前");
- ``TimeHint("future", start)`` — the change starts at a resolved future date, so a
  future-dated fact does not replace the current one before its time;
- ``TimeHint("future_undated", None)`` — clearly future ("after the wedding", "once the
  lease ends", "等孩子毕业以后") but with no date: the write policy holds it for the user's
  confirmation instead of applying it now;
- ``None`` — nothing forward-looking (the fact holds from when it was said).

English dates come from ``dateparser`` (maintained, offline, relative and absolute
expressions) behind a cheap cue filter — it costs more than the rest of a write, so it runs only when the
text has a time expression. Its Chinese support misreads common forms (``12月15日`` one
year and a day off, no ``三周后``, ``年底``, ``春节``), so Chinese is parsed here: relative
amounts with Chinese or Arabic numerals, 下周/下个月/明年, 月/日 dates, 月底/年底/下半年,
and the holidays — the Spring Festival, the Mid-Autumn and Dragon Boat festivals from the
lunar calendar (``lunardate``), National Day, New Year, Christmas — computed for the year.
Words are read as words: "以后天天" is "from now on, every day", not "后天" (the day after
tomorrow), because the day words are matched on the segmenter's tokens.

``now`` below is the reference time: when the words were said — the source event's
``occurred_at`` — never the server's clock (the caller passes it). A candidate's explicit
``valid_from`` always wins.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from core.process_state import memoized
from memory.temporal.common import (
    _CHANGE_CUE,
    _HABITUAL,
    _HYPOTHETICAL,
    _UNDATED_FUTURE,
    _add_months,
    _day,
    fold_traditional,
    zh_prospective,
)
from memory.temporal.en import (
    _EN_ABSOLUTE,
    _EN_END_OF,
    _EN_FUTURE_VERB,
    _EN_NEXT,
    _EN_PAST,
    _EN_RELATIVE,
    _SEASON_START,
    _en_future_words,
    _en_past,
)
from memory.temporal.event_clause import (
    _EN_FUTURE,
    event_clause_future,
    named_year_start,
    zh_day_of_month_start,
)
from memory.temporal.follow_up import without_follow_up
from memory.temporal.holidays import _HOLIDAY_NAME, _holiday
from memory.temporal.jako import _jako_date
from memory.temporal.standing import standing_present
from memory.temporal.zh import _zh_date, _zh_done, _zh_past


@dataclass(frozen=True)
class TimeHint:
    kind: str  # "past" | "future" | "future_undated"
    start: datetime | None = None


def future_valid_from(text: str, now: datetime) -> datetime | None:
    """A future start of validity named in ``text``, or None (kept for callers that only
    want a date)."""
    hint = valid_time_hint(text, now)
    return hint.start if hint and hint.kind == "future" else None


def valid_time_hint(text: str, now: datetime, *, slot: bool = True) -> TimeHint | None:
    """``slot``: the candidate names a slot (a predicate). A free statement gets a hint only
    when it describes a change of state ("moving", "搬到"): "my sister's wedding is in May"
    is true now, not from May."""
    if not text:
        return None
    text = fold_traditional(text)
    # "…changed, I'll update my profile tomorrow": the bookkeeping is not the change's start.
    text = without_follow_up(text)
    # Several sentences: the time is read where the change is ("我周日拉大提琴；等装修完
    # 以后我要搬到青岛" is a plan with no date, not one for Sunday).
    sentences = [part for part in re.split(r"[；;。！!？?\n]+", text) if part.strip()]
    changing = [part for part in sentences if _CHANGE_CUE.search(part)]
    if 0 < len(changing) < len(sentences):
        text = "；".join(changing)
    past = _zh_past(text, now) or _en_past(text, now)
    if past is not None and past <= now:
        return TimeHint("past", past)
    if not slot and not (_CHANGE_CUE.search(text) or zh_prospective(text)):
        return None
    # A conditional is not a plan ("if I moved to Japan next year…", "如果明年换工作的话").
    if not slot and _HYPOTHETICAL.search(text):
        return None
    start = (
        _holiday(text, now)
        or _zh_date(text, now)
        or _jako_date(text, now)
        or _en_date(text, now)
        or named_year_start(text, now)
        or zh_day_of_month_start(text, now)
    )
    if start is not None:
        return TimeHint("future", start) if start > now else None
    # A habit told with an event ("I always visit my gran when the holidays start") is no
    # change to come, unless a future verb says one is.
    habit = _HABITUAL.search(text) and not _EN_FUTURE.search(text)
    undated = (
        (_UNDATED_FUTURE.search(text) and not habit)
        or (_ZH_AFTER_EVENT.search(text) and not _zh_done(text))
        or event_clause_future(text)  # a change after an event told as a clause (round 11)
    )
    # A standing rule or a habit in the present ("this API returns 429 when the limit is
    # exceeded", 每当库存不足，系统就补货) tells what happens each time: no change to come.
    if undated and not standing_present(text):
        return TimeHint("future_undated")
    return None


def names_time(text: str) -> bool:
    """Whether ``text`` (a phrase: "前几天", "Next week", "After Thanksgiving") names a time
    this module reads, in either direction — extraction uses it to see past a time phrase
    before the subject."""
    if not text or not text.strip():
        return False
    now = datetime.now(UTC)
    probes = (_zh_past, _en_past, _holiday, _zh_date, _en_date)
    return any(probe(text, now) is not None for probe in probes) or bool(
        _UNDATED_FUTURE.search(text) or _HOLIDAY_NAME.search(text)
    )


def _en_date(text: str, now: datetime) -> datetime | None:
    lowered = text.lower()
    m = _EN_END_OF.search(text)
    if m:
        what = (m["what"] or m["what2"] or "year").lower()
        if what == "month":
            return _add_months(now, 1) - timedelta(days=1) if now.day < 20 else _add_months(now, 1)
        december = _day(now, date(now.year, 12, 1))
        return december if december > now else _day(now, date(now.year, 12, 31))
    m = re.search(r"\bnext\s+(spring|summer|autumn|fall|winter)\b", lowered)
    if m:
        month = _SEASON_START[m[1]]
        year = now.year if month > now.month else now.year + 1
        return _day(now, date(year, month, 1))
    words = _en_future_words(text, now)
    if words is not None:
        return words
    relative = _EN_RELATIVE.search(text) or _EN_NEXT.search(text)
    absolute = _EN_ABSOLUTE.search(text)
    if absolute and _EN_PAST.search(text) and not _EN_FUTURE_VERB.search(text):
        absolute = None  # "I was born in June", "I moved there in May"
    if absolute and not (_CHANGE_CUE.search(text) or _EN_FUTURE_VERB.search(text)):
        absolute = None  # the date is the fact: "my birthday is in May"
    if not relative and not absolute:
        return None
    found = _dateparser_future(text, now)
    return found


@memoized("temporal.dateparser", maxsize=1)
def _dateparser():
    from dateparser.search import search_dates

    return search_dates


def _dateparser_future(text: str, now: datetime) -> datetime | None:
    base = now.replace(tzinfo=None)
    settings = {
        "RELATIVE_BASE": base,
        "PREFER_DATES_FROM": "future",
        "PREFER_DAY_OF_MONTH": "first",
        "RETURN_AS_TIMEZONE_AWARE": False,
    }
    try:
        found = _dateparser()(text, languages=["en"], settings=settings) or []
    except (ValueError, OverflowError, TypeError):
        return None
    for phrase, when in found:
        # A bare number ("2 cats", "8 hours") is not a date.
        if not re.search(r"[a-z]{3,}|\d{4}-\d", phrase.lower()) or re.fullmatch(
            r"[\d\s:]+", phrase
        ):
            continue
        if re.search(r"\b(?:hours?|minutes?|seconds?)\b", phrase.lower()):
            continue
        if when.date() > base.date():  # a later day, however late it was said
            start = when.replace(hour=0, minute=0, second=0, microsecond=0)
            return start.replace(tzinfo=now.tzinfo)
    return None


# "开学后我搬到…", "装修完以后用户换…": after an event with no date, a change not yet done.
_ZH_AFTER_EVENT = re.compile(
    r"^[^，,。；;0-9一二两三四五六七八九十几]{1,8}?(?:以后|之后|后|完)[，,]?\s*"
    r"(?:我们|我|用户|他们|他|她)?(?:就|再|会|要|将|打算|准备)?"
    r"(?:搬|换|调|加入|入职|离职|离开|去|转到|改用|开始)"
)
