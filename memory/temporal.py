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
expressions) behind a cheap cue filter — it costs ~20 ms a call, so it runs only when the
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

import calendar
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import lru_cache


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
    past = _zh_past(text, now) or _en_past(text, now)
    if past is not None and past <= now:
        return TimeHint("past", past)
    if not slot and not _CHANGE_CUE.search(text):
        return None
    start = _holiday(text, now) or _zh_date(text, now) or _en_date(text, now)
    if start is not None:
        return TimeHint("future", start) if start > now else None
    if _UNDATED_FUTURE.search(text):
        return TimeHint("future_undated")
    return None


# --- helpers ---------------------------------------------------------------------------


def _day(now: datetime, d: date) -> datetime:
    return now.replace(
        year=d.year, month=d.month, day=d.day, hour=0, minute=0, second=0, microsecond=0
    )


def _add_months(now: datetime, n: int) -> datetime:
    index = now.month - 1 + n
    return _day(now, date(now.year + index // 12, index % 12 + 1, 1))


def _shift(now: datetime, n: int, unit: str) -> datetime:
    if unit == "day":
        return _day(now, (now + timedelta(days=n)).date())
    if unit == "week":
        return _day(now, (now + timedelta(weeks=n)).date())
    if unit == "year":
        return _day(now, date(now.year + n, 1, 1))
    return _add_months(now, n)


# --- Chinese ---------------------------------------------------------------------------

_ZH_NUM = "零〇一二两三四五六七八九十百"
_ZH_DIGIT = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}


def _zh_int(raw: str) -> int | None:
    if raw.isdigit():
        return int(raw)
    if raw == "半":
        return None
    total, current = 0, 0
    for ch in raw:
        if ch in _ZH_DIGIT:
            current = _ZH_DIGIT[ch]
        elif ch == "十":
            total += (current or 1) * 10
            current = 0
        elif ch == "百":
            total += (current or 1) * 100
            current = 0
        else:
            return None
    return total + current


_ZH_UNITS = {
    "天": "day",
    "日": "day",
    "周": "week",
    "星期": "week",
    "礼拜": "week",
    "个月": "month",
    "月": "month",
    "年": "year",
}
_ZH_RELATIVE = re.compile(
    rf"(?P<n>\d+|[{_ZH_NUM}]+)(?:来|多|几)?\s*(?P<unit>天|日|周|个?星期|个?礼拜|个多?月|年)"
    rf"(?:以?后|之后|过后|内)"
    # "还有十来天" / "再过两周": the amount left before it happens
    rf"|(?:还有|再过)\s*(?P<n2>\d+|[{_ZH_NUM}]+)(?:来|多|几)?\s*(?P<unit2>天|周|个?星期|个?礼拜|个多?月|年)"
)
_ZH_AGO = re.compile(
    rf"(?P<n>\d+|[{_ZH_NUM}]+)(?:来|多|几)?\s*(?P<unit>天|日|周|个?星期|个?礼拜|个多?月|年)(?:以?前|之前)"
)
_ZH_HALF = re.compile(r"半(?:个)?(?P<unit>月|年)(?:以?后|之后)")
_ZH_MONTH_DAY = re.compile(
    rf"(?:(?P<year>\d{{4}}|明|今|后)年)?(?P<month>\d{{1,2}}|[{_ZH_NUM}]+)月(?:(?P<day>\d{{1,2}}|[{_ZH_NUM}]+)[日号])?"
)
_ZH_ISO = re.compile(r"(?P<y>\d{4})[-/.年](?P<m>\d{1,2})[-/.月](?P<d>\d{1,2})日?")
_ZH_PAST = re.compile(r"去年|上个?月|上周|上星期|以前|之前|前年|昨天|前天|当年|那年|小时候")


def _zh_unit(raw: str) -> str:
    return raw.replace("多", "").lstrip("个")


def _zh_words(text: str) -> set[str]:
    """The segmenter's words: day words are matched as words ("以后天天" holds no "后天")."""
    import rjieba

    return set(rjieba.cut(text))


def _back(now: datetime, n: int, unit: str) -> datetime:
    """``n`` units before ``now``, to the day (the same day of the month, clamped)."""
    if unit == "day":
        return _day(now, (now - timedelta(days=n)).date())
    if unit == "week":
        return _day(now, (now - timedelta(weeks=n)).date())
    months = n * 12 if unit == "year" else n
    index = now.year * 12 + now.month - 1 - months
    year, month = divmod(index, 12)
    last_day = calendar.monthrange(year, month + 1)[1]
    return _day(now, date(year, month + 1, min(now.day, last_day)))


def _latest_month(now: datetime, month: int) -> datetime:
    """The first day of the latest ``month`` that began on or before ``now``."""
    year = now.year if month <= now.month else now.year - 1
    return _day(now, date(year, month, 1))


def _zh_past(text: str, now: datetime) -> datetime | None:
    """A start before it was said: "三周前", "上个月", "去年", "前天", "九月搬到了…"."""
    if not re.search(r"[\u4e00-\u9fff]", text):
        return None
    m = _ZH_AGO.search(text)
    if m:
        n = _zh_int(m["n"])
        if n:
            return _back(now, n, _ZH_UNITS[_zh_unit(m["unit"])])
    words = _zh_words(text)
    if "昨天" in words:
        return _back(now, 1, "day")
    if "前天" in words:
        return _back(now, 2, "day")
    if words & {"上周", "上星期", "上礼拜"} or re.search(r"上个?(?:星期|礼拜)", text):
        return _back(now, 1, "week")
    if re.search(r"(?<!马)上个?月", text):  # not 马上 + 月底
        return _add_months(now, -1)
    if "去年" in words:
        m = re.search(rf"去年(?P<month>\d{{1,2}}|[{_ZH_NUM}]+)月", text)
        month = _zh_int(m["month"]) if m else None
        return _day(now, date(now.year - 1, month if month and 1 <= month <= 12 else 1, 1))
    if "前年" in words:
        return _day(now, date(now.year - 2, 1, 1))
    # A month with a completed action ("九月搬到了厦门", "三月份换了工作"), no future cue.
    m = re.search(rf"(?P<month>\d{{1,2}}|[{_ZH_NUM}]+)月份?", text)
    if (
        m
        and re.search(r"了|过(?!来|去|年|节)", text)
        and _CHANGE_CUE.search(text)
        and not _UNDATED_FUTURE.search(text)
    ):
        month = _zh_int(m["month"])
        if month and 1 <= month <= 12:
            return _latest_month(now, month)
    return None


def _zh_date(text: str, now: datetime) -> datetime | None:
    if not re.search(r"[\u4e00-\u9fff]", text):
        return None
    m = _ZH_ISO.search(text)
    if m:
        try:
            return _day(now, date(int(m["y"]), int(m["m"]), int(m["d"])))
        except ValueError:
            return None
    m = _ZH_RELATIVE.search(text)
    if m:
        n = _zh_int(m["n"] or m["n2"])
        unit = _ZH_UNITS[_zh_unit(m["unit"] or m["unit2"])]
        if n:
            return _shift(now, n, unit)
    m = _ZH_HALF.search(text)
    if m:
        return (
            _shift(now, 6 if m["unit"] == "年" else 0, "month")
            if m["unit"] == "年"
            else _day(now, (now + timedelta(days=15)).date())
        )
    words = _zh_words(text)
    if "明天" in words:
        return _shift(now, 1, "day")
    if "后天" in words:
        return _shift(now, 2, "day")
    if re.search(r"下(?:个)?(?:周|星期|礼拜)", text):
        return _day(now, (now + timedelta(days=7 - now.weekday())).date())
    if re.search(r"下(?:个)?月", text) and not re.search(
        r"下(?:个)?月(?:\d|[一二三四五六七八九十])", text
    ):
        return _add_months(now, 1)
    if "月底" in text and "上个月底" not in text:
        return _add_months(now, 1) - timedelta(days=1) if now.day < 20 else _add_months(now, 1)
    if re.search(r"年底|年末|今年底|年终", text):
        december = _day(now, date(now.year, 12, 1))
        return december if december > now else _day(now, date(now.year, 12, 31))
    if "下半年" in text:
        july = _day(now, date(now.year, 7, 1))
        return july if july > now else _day(now, date(now.year + 1, 7, 1))
    m = _ZH_MONTH_DAY.search(text)
    if m and not _ZH_PAST.search(text):
        month = _zh_int(m["month"])
        day = _zh_int(m["day"]) if m["day"] else 1
        if not month or not 1 <= month <= 12 or not day:
            return None
        year_word = m["year"]
        if year_word and year_word.isdigit():
            year = int(year_word)
        elif year_word == "明":
            year = now.year + 1
        elif year_word == "后":
            year = now.year + 2
        else:
            year = now.year
        try:
            when = _day(now, date(year, month, day))
        except ValueError:
            return None
        if when <= now and not year_word:  # "3月" said in November: next March
            when = _day(now, date(year + 1, month, day))
        return when
    if "明年" in text:
        return _day(now, date(now.year + 1, 1, 1))
    return None


# --- English -----------------------------------------------------------------------------

_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december|"
    "jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec"
)
_EN_NUM = r"\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a\s+couple\s+of|a\s+few|several"
_EN_RELATIVE = re.compile(
    rf"\b(?:in|within|after)\s+(?:{_EN_NUM})\s+(?:day|week|month|year)s?\b", re.IGNORECASE
)
_EN_NEXT = re.compile(
    r"\b(?:next|this\s+coming)\s+(?:week|month|year|spring|summer|autumn|fall|winter|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b|\btomorrow\b",
    re.IGNORECASE,
)
_EN_END_OF = re.compile(
    r"\b(?:(?:at|by|towards?|before)\s+)?the\s+end\s+of\s+(?:this|the)\s+(?P<what>year|month)\b|\b(?:year|month)[-\s]end\b|\blater\s+this\s+(?P<what2>year|month)\b",
    re.IGNORECASE,
)
_EN_ABSOLUTE = re.compile(
    rf"\b(?:on|from|starting|beginning|as\s+of|effective|in|by|after|before|until|around|early|mid|late)\s+(?:the\s+)?(?:(?:{_MONTHS})\b|\d{{4}}-\d{{1,2}}-\d{{1,2}}|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTHS})\b)",
    re.IGNORECASE,
)
_EN_FUTURE_VERB = re.compile(
    r"\b(?:will|'ll|shall|going\s+to|gonna|plan(?:s|ning)?\s+to|about\s+to|moving|relocating|"
    r"starting|start|begin(?:ning)?|from|effective|as\s+of|once|after|until|by|intend|expect|"
    r"scheduled|due|next|upcoming|coming)\b",
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


def _en_past(text: str, now: datetime) -> datetime | None:
    """A start before it was said: "three weeks ago", "last month", "yesterday", "in March"
    with a verb in the past."""
    m = _EN_AGO.search(text)
    if m:
        n = _en_int(m["n"])
        if n:
            return _back(now, n, m["unit"].lower())
    lowered = text.lower()
    if re.search(r"\bthe\s+day\s+before\s+yesterday\b", lowered):
        return _back(now, 2, "day")
    if re.search(r"\byesterday\b", lowered):
        return _back(now, 1, "day")
    m = re.search(rf"\blast\s+(?P<month>{_MONTHS})\b", text, re.IGNORECASE)
    if m:  # "last March": the latest March before this month
        month = _MONTH_NUMBER[m["month"].lower()]
        year = now.year if month < now.month else now.year - 1
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
    if (
        m
        and _EN_PAST_VERB.search(text)
        and _CHANGE_CUE.search(text)
        and not _EN_FUTURE_VERB.search(text)
    ):
        return _latest_month(now, _MONTH_NUMBER[m["month"].lower()])
    return None


_EN_COME = re.compile(rf"\bcome\s+(?P<month>{_MONTHS})\b", re.IGNORECASE)
_EN_QUARTER = re.compile(
    r"\b(?:starting|from|in|by|beginning|as\s+of|after)\s+(?:the\s+)?(?:Q(?P<q>[1-4])|"
    r"(?P<word>first|second|third|fourth)\s+quarter)\b",
    re.IGNORECASE,
)


def _en_future_words(text: str, now: datetime) -> datetime | None:
    """ "come September", "starting Q3"."""
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
        start = _day(now, date(now.year, 3 * q - 2, 1))
        return start if start > now else _day(now, date(now.year + 1, 3 * q - 2, 1))
    return None


# --- holidays, computed for the year ------------------------------------------------------


def _lunar(month: int, day: int):
    def on(year: int) -> date | None:
        from lunardate import LunarDate

        try:
            return LunarDate(year, month, day).to_solar_date()
        except ValueError:  # outside the library's years (1900-2099)
            return None

    return on


# name pattern -> (the day in a given year, how many days "after it" starts later)
_HOLIDAYS: list[tuple[re.Pattern[str], object, int]] = [
    (re.compile(r"春节|过年|农历新年|大年初一|(?<=过完)年(?![底初末终中])"), _lunar(1, 1), 7),
    (re.compile(r"中秋"), _lunar(8, 15), 1),
    (re.compile(r"端午"), _lunar(5, 5), 1),
    (re.compile(r"国庆"), lambda y: date(y, 10, 1), 7),
    (re.compile(r"元旦"), lambda y: date(y, 1, 1), 1),
    (re.compile(r"\bchristmas\b|\bxmas\b", re.IGNORECASE), lambda y: date(y, 12, 25), 1),
    (
        re.compile(r"\bnew\s+year(?:'s)?(?:\s+day)?\b(?!'s\s+eve)", re.IGNORECASE),
        lambda y: date(y, 1, 1),
        1,
    ),
]
# After the holiday: "after Christmas", "过完春节", "国庆以后"; from it: "from New Year",
# "元旦起", "春节开始".
_AFTER_EN = re.compile(r"\b(?:after|once|past|following)\s+(?:the\s+)?$", re.IGNORECASE)
_FROM_EN = re.compile(
    # not "by", "before" or "until": those name an end or a deadline, not a start
    r"\b(?:from|starting|beginning|as\s+of|on|at)\s+(?:the\s+)?$",
    re.IGNORECASE,
)
_AFTER_ZH_BEFORE = re.compile(r"(?:过完|过了|等|等到)$")
_AFTER_ZH = re.compile(r"^(?:节|假期|假)?(?:以?后|之后|过后|过完|一过)")
_FROM_ZH = re.compile(r"^(?:节|假期)?(?:起|开始|那天)")


def _holiday(text: str, now: datetime) -> datetime | None:
    """The next occurrence (not before ``now``) of a holiday named as a time: its day, or
    when "after" it begins."""
    for pattern, day_in, after_days in _HOLIDAYS:
        for m in pattern.finditer(text):
            before, rest = text[: m.start()], text[m.end() :]
            if _AFTER_EN.search(before) or _AFTER_ZH_BEFORE.search(before) or _AFTER_ZH.match(rest):
                offset = after_days
            elif _FROM_EN.search(before) or _FROM_ZH.match(rest):
                offset = 0
            else:
                continue  # named, not as a time ("I love Christmas")
            for year in (now.year, now.year + 1):
                day = day_in(year)
                if day is not None and _day(now, day) + timedelta(days=offset) > now:
                    return _day(now, day + timedelta(days=offset))
            return None
    return None


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
    if not relative and not absolute:
        return None
    found = _dateparser_future(text, now)
    return found


@lru_cache(maxsize=1)
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
        if when > base + timedelta(hours=12):
            start = when.replace(hour=0, minute=0, second=0, microsecond=0)
            return start.replace(tzinfo=now.tzinfo)
    return None


# --- clearly future, no date -------------------------------------------------------------

_UNDATED_FUTURE = re.compile(
    r"\b(?:after|once|when)\s+(?:the|my|our|his|her|their)\s+\w+(?:\s+\w+)?\s+(?:is|are|has|have|ends?|finish(?:es)?|over|done|starts?)\b"
    r"|\bafter\s+(?:the|my|our)\s+(?:wedding|graduation|move|lease|contract|renovation|baby|holidays?|vacation|trip|project|exams?)\b"
    r"|\b(?:some\s*day|someday|one\s+day|eventually|in\s+the\s+(?:near\s+)?future|sometime\s+(?:soon|later)|at\s+some\s+point|soon)\b"
    r"|\b(?:will|'ll|going\s+to|gonna|plan(?:ning)?\s+to)\s+(?:move|relocate|switch|join|start|change|leave)\b"
    r"|(?:等|待)(?:到)?.{1,12}?(?:以后|之后|后|了|完|结束)(?:再|就|我|你|他|她|我们|用户)?"
    r"|(?:将来|迟早|早晚|不久以后|过段时间|过阵子|过些日子|有朝一日)"
    r"|(?:准备|打算|计划|要|将要|快要)(?:搬|搬家|换|去|加入|离开|调)",
    re.IGNORECASE,
)

_CHANGE_CUE = re.compile(
    r"\b(?:mov(?:e|es|ed|ing)|relocat\w+|switch\w*|join\w*|start\w*|chang\w+|leav\w+|left|"
    r"transfer\w*|becom\w+|became|took\s+(?:up|over)|will|'ll|going\s+to|from|as\s+of|"
    r"effective|until)\b"
    r"|搬|换|调到|加入|开始|起|生效|转到|离开|入职|跳槽|将|要|打算|准备",
    re.IGNORECASE,
)
