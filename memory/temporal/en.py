"""Time phrases in English: past ("three weeks ago", "last May"…), days of the month, and
words for days to come."""

from __future__ import annotations

import calendar
import re
from datetime import date, datetime, timedelta

from memory.detectors.prefilter_any import literal_gate, may_any_match
from memory.detectors.switches import detection_switch
from memory.temporal.common import (
    _CHANGE_CUE,
    _HABITUAL,
    _add_months,
    _back,
    _day,
    _latest_month,
    _shift,
)

_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december|"
    "jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec"
)


_EN_NUM = r"\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a\s+couple\s+of|a\s+few|several"


_EN_RELATIVE = re.compile(
    rf"\b(?:in|within|after)\s+(?:{_EN_NUM})\s+(?:day|week|month|year)s?\b", re.IGNORECASE
)


_EN_NEXT = re.compile(
    r"\b(?:next|this\s+coming)\s+(?:week|month|year|spring|summer|autumn|fall|winter|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b(?!['’]s)|\btomorrow\b(?!['’]s)",
    re.IGNORECASE,
)


_EN_END_OF = re.compile(
    r"\b(?:(?:at|by|towards?|before)\s+)?the\s+end\s+of\s+(?:this|the)\s+(?P<what>year|month)\b|\b(?:year|month)[-\s]end\b|\blater\s+this\s+(?P<what2>year|month)\b",
    re.IGNORECASE,
)


_EN_ABSOLUTE = re.compile(
    rf"\b(?:on|from|starting|beginning|as\s+of|effective|in|by|after|before|until|around|early|mid|late)\s+(?:the\s+)?(?:(?:{_MONTHS})\b|\d{{4}}-\d{{1,2}}-\d{{1,2}}|\d{{1,2}}/\d{{1,2}}\b|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTHS})\b)",
    re.IGNORECASE,
)


_EN_FUTURE_VERB = re.compile(
    r"\b(?:will|'ll|shall|going\s+to|gonna|plan(?:s|ning)?\s+to|about\s+to|moving|relocating|"
    r"starting|start|begin(?:ning)?|from|effective|as\s+of|once|after|until|by|intend|expect|"
    r"scheduled|due|next|upcoming|coming|get(?:s|ting)?\s+\w+ed)\b",
    re.IGNORECASE,
)


_EN_PAST = re.compile(
    r"\b(?:was|were|did|had|ago|last|used\s+to|born|graduated|back\s+in)\b", re.IGNORECASE
)


_SEASON_START = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}


_EN_UNIT = r"(?P<unit>day|week|month|year)s?"


_EN_AGO = re.compile(rf"\b(?P<n>{_EN_NUM})\s+{_EN_UNIT}\s+ago\b", re.IGNORECASE)


_EN_LAST = re.compile(
    r"\b(?:last|past)\s+(?P<what>week|month|year|monday|tuesday|wednesday|thursday|friday|"
    r"saturday|sunday)\b",
    re.IGNORECASE,
)


_EN_MONTH_PAST = re.compile(
    rf"\b(?:in|since|back\s+in|during|early|mid|late|around)\s+(?:the\s+)?(?P<month>{_MONTHS})\b"
    r"(?!\s+\d)",
    re.IGNORECASE,
)


# A verb in the past: an irregular one, or a regular "-ed" form.
_EN_PAST_VERB = re.compile(
    r"\b(?:was|were|did|had|went|got|took|began|left|came|made|moved|bought|sold|became|"
    r"\w{2,}ed)\b",
    re.IGNORECASE,
)


# Something that happened, in the past tense ("moved", "bought", "married"); not a state
# ("was", "had") and not a birth ("I was born in March").
_EN_EVENT_VERB = re.compile(
    r"\b(?:went|got|took|began|left|came|made|moved|bought|sold|became|found|won|lost|"
    r"quit|wed|\w{2,}(?<!e)ed)\b",
    re.IGNORECASE,
)


_EN_WORD_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "a couple of": 2,
    "a few": 3,
    "several": 3,
}


_MONTH_NUMBER = {
    name: index
    for index, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for name in names
}


def _en_int(raw: str) -> int | None:
    raw = re.sub(r"\s+", " ", raw.lower())
    return int(raw) if raw.isdigit() else _EN_WORD_NUMBERS.get(raw)


_EN_WEEKDAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"

# The past readings of ``_en_past`` (compiled once; the later ones are searched in the text
# lowercased, as written).
_EN_AND_A_HALF_AGO = re.compile(
    r"\b(?P<n>a|one|\d+)\s+(?P<unit>year|month)s?\s+and\s+a\s+half\s+ago\b", re.I
)
_EN_SINCE = re.compile(rf"\bsince\s+(?:(?P<month>{_MONTHS})\b\s*)?(?P<year>(?:19|20)\d\d)?\b", re.I)
_EN_PART_OF_LAST = re.compile(
    r"\b(?:(?:at|by|towards?|in)\s+the\s+(?P<end>end|start|beginning|middle)\s+of|"
    r"(?P<late>late|early|mid)[-\s]?)\s*last\s+(?P<what>year|month)\b"
)
_EN_ON_WEEKDAY = re.compile(r"\b(?:on|this\s+past)\s+(?P<wd>" + _EN_WEEKDAYS + r")\b")
_EN_IN_SEASON = re.compile(
    r"\b(?:(?:in|during|over)\s+the|this)\s+(?P<season>spring|summer|autumn|fall|winter)\b"
)
_EN_THIS_SPAN = re.compile(r"\b(?:earlier\s+)?this\s+(?P<what>week|month|year)\b")
_EN_WEEK_BEFORE_LAST = re.compile(r"\bthe\s+week\s+before\s+last\b")
_EN_FORTNIGHT_AGO = re.compile(r"\ba\s+fortnight\s+ago\b")
_EN_DAY_BEFORE_YESTERDAY = re.compile(r"\bthe\s+day\s+before\s+yesterday\b")
_EN_YESTERDAY = re.compile(r"\byesterday\b")
_EN_LAST_MONTH_NAME = re.compile(rf"\blast\s+(?P<month>{_MONTHS})\b", re.IGNORECASE)
_EN_LAST_SEASON = re.compile(r"\blast\s+(?P<season>spring|summer|autumn|fall|winter)\b")


# Every reading ``_en_past`` answers by (its gate's list: add a reading here too).
_EN_PAST_READINGS = (
    _EN_AGO,
    _EN_AND_A_HALF_AGO,
    _EN_SINCE,
    _EN_PART_OF_LAST,
    _EN_ON_WEEKDAY,
    _EN_IN_SEASON,
    _EN_THIS_SPAN,
    _EN_WEEK_BEFORE_LAST,
    _EN_FORTNIGHT_AGO,
    _EN_DAY_BEFORE_YESTERDAY,
    _EN_YESTERDAY,
    _EN_LAST_MONTH_NAME,
    _EN_LAST_SEASON,
    _EN_LAST,
    _EN_MONTH_PAST,
)
_EN_PAST_GATE = literal_gate(_EN_PAST_READINGS)


def _en_past(text: str, now: datetime) -> datetime | None:
    """A start before it was said: "three weeks ago", "last month", "yesterday", "in March"
    with a verb in the past."""
    # Every answer below needs one of its readings to match: when none can, by their
    # required literals (``ENGRAM_DETECTOR_TIME_PAST_GATE``), there is none.
    if detection_switch("TIME_PAST_GATE") and not may_any_match(_EN_PAST_GATE, text):
        return None
    m = _EN_AGO.search(text)
    if m:
        n = _en_int(m["n"])
        if n:
            return _back(now, n, m["unit"].lower())
    m = _EN_AND_A_HALF_AGO.search(text)
    if m:  # "a year and a half ago"
        n = _en_int(m["n"]) or 1
        return (
            _back(now, n * 12 + 6, "month")
            if m["unit"].lower() == "year"
            else _back(now, n * 30 + 15, "day")
        )
    m = _EN_SINCE.search(text)
    if m and (m["month"] or m["year"]):  # "since 2019", "since March": it holds from then
        month = _MONTH_NUMBER[m["month"].lower()] if m["month"] else 1
        when = _day(now, date(int(m["year"]), month, 1)) if m["year"] else _latest_month(now, month)
        if when <= now:
            return when
    lowered = text.lower()
    m = _EN_PART_OF_LAST.search(lowered)
    if m:
        part = m["end"] or m["late"]
        if m["what"] == "year":
            month = {"end": 12, "late": 12, "middle": 6, "mid": 6}.get(part, 1)
            return _day(now, date(now.year - 1, month, 1))
        first = _add_months(now, -1)
        if part in ("end", "late"):
            return _add_months(now, 0) - timedelta(days=1)
        return first.replace(day=11 if part in ("middle", "mid") else 1)
    done = bool(_EN_EVENT_VERB.search(text)) and not _EN_FUTURE_VERB.search(text)
    m = _EN_ON_WEEKDAY.search(lowered)
    if m and done:  # "on Friday I moved …": the latest Friday before it was said
        weekday = list(calendar.day_name).index(m["wd"].capitalize())
        return _back(now, (now.weekday() - weekday) % 7 or 7, "day")
    m = _EN_IN_SEASON.search(lowered)
    if m and done:
        month = _SEASON_START[m["season"]]
        return _day(now, date(now.year if month <= now.month else now.year - 1, month, 1))
    m = _EN_THIS_SPAN.search(lowered)
    if m and (done or "earlier" in m[0]) and _EN_PAST_VERB.search(text):
        if m["what"] == "week":
            return _back(now, now.weekday(), "day")
        if m["what"] == "month":
            return _day(now, date(now.year, now.month, 1))
        return _day(now, date(now.year, 1, 1))
    if _EN_WEEK_BEFORE_LAST.search(lowered):
        return _back(now, 2, "week")
    if _EN_FORTNIGHT_AGO.search(lowered):
        return _back(now, 2, "week")
    if _EN_DAY_BEFORE_YESTERDAY.search(lowered):
        return _back(now, 2, "day")
    if _EN_YESTERDAY.search(lowered):
        return _back(now, 1, "day")
    m = _EN_LAST_MONTH_NAME.search(text)
    if m:  # "last March": the latest March before this month
        month = _MONTH_NUMBER[m["month"].lower()]
        year = now.year if month < now.month else now.year - 1
        return _day(now, date(year, month, 1))
    m = _EN_LAST_SEASON.search(lowered)
    if m:  # the latest such season that is not the current one
        month = _SEASON_START[m["season"]]
        year = now.year if month <= now.month - 3 else now.year - 1
        return _day(now, date(year, month, 1))
    m = _EN_LAST.search(text)
    if m:
        what = m["what"].lower()
        if what == "week":
            return _back(now, 1, "week")
        if what == "month":
            return _add_months(now, -1)
        if what == "year":
            return _day(now, date(now.year - 1, 1, 1))
        weekday = list(calendar.day_name).index(what.capitalize())
        days = (now.weekday() - weekday) % 7 or 7
        return _back(now, days, "day")
    # "in March" with a change in the past tense ("moved", "started"); not a birth month.
    m = _EN_MONTH_PAST.search(text)
    if m and _EN_EVENT_VERB.search(text) and not _EN_FUTURE_VERB.search(text):
        return _latest_month(now, _MONTH_NUMBER[m["month"].lower()])
    return None


_EN_COME = re.compile(rf"\bcome\s+(?P<month>{_MONTHS})\b", re.IGNORECASE)


_EN_QUARTER = re.compile(
    r"\b(?:starting|from|in|by|beginning|as\s+of|after)\s+(?:the\s+)?(?:Q(?P<q>[1-4])|"
    r"(?P<word>first|second|third|fourth)\s+quarter)\b",
    re.IGNORECASE,
)


_EN_FROM_NOW = re.compile(
    rf"\b(?P<n>{_EN_NUM})\s+(?P<unit>day|week|fortnight|month|year)s?\s+(?:from\s+(?:now|today)|hence)\b"
    r"|\bin\s+(?P<n2>a|one|two|three)\s+(?P<unit2>fortnight)s?\b",
    re.IGNORECASE,
)


_EN_IN_SPAN = re.compile(
    rf"\b(?:in|within)\s+(?P<n>{_EN_NUM})\s+(?P<unit>day|week|fortnight|month|year)s?\b",
    re.IGNORECASE,
)


_EN_DAY_OF_MONTH = re.compile(
    rf"\b(?:(?P<on>on|from|starting|by)\s+)?(?:(?P<wd>{_EN_WEEKDAYS})\s*,?\s+)?the\s+"
    rf"(?P<d>\d{{1,2}})(?:st|nd|rd|th)\b(?!\s+(?:of\s+)?(?:{_MONTHS})\b)",
    re.IGNORECASE,
)


def _en_day_of_month(text: str, now: datetime) -> datetime | None:
    """ "on Friday the 18th", "from the 3rd": the next such day after ``now`` (on that
    weekday, when one is named and falls within a year)."""
    m = _EN_DAY_OF_MONTH.search(text)
    if not m or not (m["on"] or m["wd"]):
        return None
    if not (_CHANGE_CUE.search(text) or _EN_FUTURE_VERB.search(text)):
        return None  # the day is the fact: "our anniversary is on the 12th"
    day = int(m["d"])
    weekday = list(calendar.day_name).index(m["wd"].capitalize()) if m["wd"] else None
    first = None
    for ahead in range(0, 14):
        index = now.year * 12 + now.month - 1 + ahead
        year, month = divmod(index, 12)
        if day > calendar.monthrange(year, month + 1)[1]:
            continue
        when = _day(now, date(year, month + 1, day))
        if when <= now:
            continue
        first = first or when
        if weekday is None or when.weekday() == weekday:
            return when
    return first


def _en_future_words(text: str, now: datetime) -> datetime | None:
    """ "come September", "starting Q3", "the week after next", "a fortnight from now",
    "on Friday the 18th"."""
    lowered = text.lower()
    m = re.search(
        r"\b(?:(?P<end>(?:at|by|towards?|in)\s+the\s+end\s+of|late|end\s+of)|"
        r"(?P<start>(?:at|in)\s+the\s+(?:start|beginning)\s+of|early|beginning\s+of)|"
        r"(?P<mid>(?:in\s+the\s+)?middle\s+of|mid))[-\s]*next\s+(?P<what>year|month)\b",
        lowered,
    )
    if m:  # "early next year", "by the end of next month"
        if m["what"] == "year":
            month = 12 if m["end"] else 6 if m["mid"] else 1
            return _day(now, date(now.year + 1, month, 1))
        if m["end"]:
            return _add_months(now, 2) - timedelta(days=1)
        return _add_months(now, 1).replace(day=11 if m["mid"] else 1)
    m = re.search(r"\b(?:on|from|by|starting|until)\s+(?P<a>\d{1,2})/(?P<b>\d{1,2})\b(?!/)", text)
    if m:  # "on 9/15" (month first; "15/9" read day first)
        a, b = int(m["a"]), int(m["b"])
        month, day = (a, b) if a <= 12 else (b, a)
        for year in (now.year, now.year + 1):
            try:
                when = _day(now, date(year, month, day))
            except ValueError:
                break
            if when > now:
                return when
    m = _EN_IN_SPAN.search(text)
    if m:  # "in a couple of weeks", "within ten days", "in a fortnight"
        n = _en_int(m["n"])
        unit = m["unit"].lower()
        if n:
            return _shift(now, 2 * n, "week") if unit == "fortnight" else _shift(now, n, unit)
    m = re.search(r"\bnext\s+(?P<what>week|month|year)\b(?!['’]s)", lowered)
    if m and not _EN_QUARTER.search(
        text
    ):  # next week: its Monday; next month, next year: their first day
        if m["what"] == "week":
            return _shift(now, 7 - now.weekday(), "day")
        return _shift(now, 1, m["what"])
    m = re.search(r"\bafter\s+(?:the\s+)?(?P<season>spring|summer|autumn|fall|winter)\b", lowered)
    if m:  # "after the summer": when the next season begins
        month = _SEASON_START[m["season"]] % 12 + 3
        year = now.year if month > now.month else now.year + 1
        return _day(now, date(year, month, 1))
    m = re.search(r"\bnext\s+(?P<wd>" + _EN_WEEKDAYS + r")\b", lowered)
    if m:  # "next Monday": that day of the next calendar week
        weekday = list(calendar.day_name).index(m["wd"].capitalize())
        return _shift(now, 7 - now.weekday() + weekday, "day")
    if re.search(r"\bthe\s+day\s+after\s+tomorrow\b", lowered):
        return _shift(now, 2, "day")
    if re.search(r"\btomorrow\b(?!['’]s)", lowered):
        return _shift(now, 1, "day")
    m = re.search(r"\b(?P<which>this|next)\s+weekend\b", lowered)
    if m:
        if m["which"] == "this" and now.weekday() >= 5:
            return _shift(now, 1, "day")  # said during the weekend it names
        saturday = now + timedelta(days=(5 - now.weekday()) % 7 or 7)
        if m["which"] == "next" and now.weekday() < 5:
            saturday += timedelta(weeks=1)  # the weekend after this one
        return _day(now, saturday.date())
    m = re.search(
        r"\b(?:on|this|by|from|starting|until|before|coming)\s+(?P<wd>" + _EN_WEEKDAYS + r")\b"
        r"(?!\s*,?\s+the\s+\d)",
        lowered,
    )
    if (
        m
        and not _HABITUAL.search(text)
        and (_CHANGE_CUE.search(text) or _EN_FUTURE_VERB.search(text))
    ):  # "on Friday", "this Thursday": the next one
        weekday = list(calendar.day_name).index(m["wd"].capitalize())
        return _shift(now, (weekday - now.weekday()) % 7 or 7, "day")
    m = re.search(r"\bthis\s+(?P<season>spring|summer|autumn|fall|winter)\b", lowered)
    if m and not (_EN_PAST.search(text) and not _EN_FUTURE_VERB.search(text)):
        # "this summer": the next one to begin, or later on when it has begun.
        month = _SEASON_START[m["season"]]
        if month <= now.month < month + 3 or (month == 12 and now.month < 3):
            return _shift(now, 1, "day")
        return _day(now, date(now.year if month > now.month else now.year + 1, month, 1))
    m = re.search(r"\bin\s+the\s+(?P<season>spring|summer|autumn|fall|winter)\b", lowered)
    if m:
        month = _SEASON_START[m["season"]]
        return _day(now, date(now.year if month > now.month else now.year + 1, month, 1))
    m = re.search(rf"\b(?:in|during|this|later\s+in)\s+(?P<month>{_MONTHS})\b(?!\s+\d)", lowered)
    if (
        m
        and _MONTH_NUMBER[m["month"]] == now.month
        and (_CHANGE_CUE.search(text) or _EN_FUTURE_VERB.search(text))
        and not (_EN_PAST.search(text) and not _EN_FUTURE_VERB.search(text))
    ):
        return _shift(now, 1, "day")  # the month it was said in: later this month
    if re.search(r"\bthe\s+week\s+after\s+next\b", text, re.IGNORECASE):
        return _day(now, (now - timedelta(days=now.weekday()) + timedelta(weeks=2)).date())
    m = _EN_FROM_NOW.search(text)
    if m:
        n = _en_int(m["n"] or m["n2"])
        unit = (m["unit"] or m["unit2"]).lower()
        if n:
            return _shift(now, 2 * n, "week") if unit == "fortnight" else _shift(now, n, unit)
    found = _en_day_of_month(text, now)
    if found is not None:
        return found
    m = _EN_COME.search(text)
    if m:
        month = _MONTH_NUMBER[m["month"].lower()]
        year = now.year if month > now.month else now.year + 1
        return _day(now, date(year, month, 1))
    m = _EN_QUARTER.search(text)
    if m:
        q = (
            int(m["q"])
            if m["q"]
            else ["first", "second", "third", "fourth"].index(m["word"].lower()) + 1
        )
        if re.search(r"\bof\s+next\s+year\b", text[m.end() :], re.IGNORECASE):
            return _day(now, date(now.year + 1, 3 * q - 2, 1))
        start = _day(now, date(now.year, 3 * q - 2, 1))
        return start if start > now else _day(now, date(now.year + 1, 3 * q - 2, 1))
    return None
