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
from datetime import UTC, date, datetime, timedelta
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
    # Several sentences: the time is read where the change is ("我周日拉大提琴；等装修完
    # 以后我要搬到青岛" is a plan with no date, not one for Sunday).
    sentences = [part for part in re.split(r"[；;。！!？?\n]+", text) if part.strip()]
    changing = [part for part in sentences if _CHANGE_CUE.search(part)]
    if 0 < len(changing) < len(sentences):
        text = "；".join(changing)
    past = _zh_past(text, now) or _en_past(text, now)
    if past is not None and past <= now:
        return TimeHint("past", past)
    if not slot and not _CHANGE_CUE.search(text):
        return None
    start = _holiday(text, now) or _zh_date(text, now) or _en_date(text, now)
    if start is not None:
        return TimeHint("future", start) if start > now else None
    if _UNDATED_FUTURE.search(text) or (_ZH_AFTER_EVENT.search(text) and not _zh_done(text)):
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
    rf"(?P<n>\d+|[{_ZH_NUM}]+|几)(?:来|多|几)?\s*(?P<unit>天|日|周|个?星期|个?礼拜|个多?月|年)"
    rf"(?:以?后|之后|过后|内)"
    # "还有十来天" / "再过两周": the amount left before it happens
    rf"|(?:还有|再过)\s*(?P<n2>\d+|[{_ZH_NUM}]+)(?:来|多|几)?\s*(?P<unit2>天|周|个?星期|个?礼拜|个多?月|年)"
)
_ZH_AGO = re.compile(
    rf"(?P<n>\d+|[{_ZH_NUM}]+|几)(?:来|多|几)?\s*(?P<unit>天|日|周|个?星期|个?礼拜|个多?月|年)"
    r"(?P<half>半)?(?:以?前|之前)"
    # "前几天", "前两周": that many before
    rf"|(?<![之以])前(?P<n2>几|[两三四五六七八九十]|\d+)(?P<unit2>天|日|周|个?星期|个?礼拜|个多?月|年)"
)
_ZH_HALF = re.compile(r"半(?:个)?(?P<unit>月|年)(?:以?后|之后)")
_ZH_MONTH_DAY = re.compile(
    rf"(?:(?P<year>\d{{4}}|明|今|后)年)?(?P<month>\d{{1,2}}|[{_ZH_NUM}]+)月(?:(?P<day>\d{{1,2}}|[{_ZH_NUM}]+)[日号])?"
)
_ZH_ISO = re.compile(r"(?P<y>\d{4})[-/.年](?P<m>\d{1,2})[-/.月](?P<d>\d{1,2})日?")
_ZH_PAST = re.compile(r"去年|上个?月|上周|上星期|以前|之前|前年|昨天|前天|当年|那年|小时候")


_ZH_WEEKDAY = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
# A part of a named month: "十二月中旬" (from the 11th), "三月下旬" (the 21st), "五月初",
# "八月底" (its last day).
_ZH_MONTH_PART = re.compile(
    rf"(?:(?P<year>明|今)年)?(?P<month>\d{{1,2}}|[{_ZH_NUM}]+)月份?(?P<part>上旬|中旬|下旬|初|中|底|末)"
)
_ZH_MONTH_PARTS = {"上旬": 1, "初": 1, "中旬": 11, "中": 11, "下旬": 21, "底": 28, "末": 28}
_ZH_HALF_AGO = re.compile(r"半(?:个)?(?P<unit>月|年)(?:以?前|之前)")
_ZH_YEAR_PART = {"": 1, "初": 1, "中": 6, "底": 12, "末": 12, "终": 12}


def _zh_done(text: str) -> bool:
    """The change is told as done: "了", "过", or "是…的" ("我是七月份入职的")."""
    return bool(
        re.search(r"了|过(?!来|去|年|节)", text)
        or re.search(r"是.{1,20}的[。！!，,]?$", text.strip())
    )


def _zh_unit(raw: str) -> str:
    return raw.replace("多", "").lstrip("个")


def _zh_starts(text: str) -> set[int]:
    """Where the segmenter's words begin: "上周" in "晚上周末" starts inside a word."""
    import rjieba

    starts, at = set(), 0
    for word in rjieba.cut(text):
        starts.add(at)
        at += len(word)
    return starts


def _zh_find(pattern: str, text: str) -> re.Match[str] | None:
    """The first match of ``pattern`` that begins a word and is a time, not an attribute:
    "下个季度的预算" (next quarter's budget) names no start."""
    starts = None
    for m in re.finditer(pattern, text):
        starts = _zh_starts(text) if starts is None else starts
        if m.start() in starts and not text[m.end() : m.end() + 1] == "的":
            return m
    return None


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
    since = _zh_since(text, now)
    if since is not None:
        return since
    m = _ZH_AGO.search(text)
    if m:
        raw, unit = m["n"] or m["n2"], _ZH_UNITS[_zh_unit(m["unit"] or m["unit2"])]
        n = _zh_int(raw) or (3 if raw == "几" else None)  # "几" is a few: three
        if n and m["half"] and unit in ("year", "month"):
            if unit == "year":  # "一年半前": a year and six months
                return _back(now, n * 12 + 6, "month")
            return _back(now, n * 30 + 15, "day")
        if n:
            return _back(now, n, unit)
    m = _ZH_HALF_AGO.search(text)
    if m:
        return _back(now, 6, "month") if m["unit"] == "年" else _back(now, 15, "day")
    words = _zh_words(text)
    if "昨天" in words:
        return _back(now, 1, "day")
    if "前天" in words:
        return _back(now, 2, "day")
    if "大前天" in words:
        return _back(now, 3, "day")
    # 上上周 / 上上个月: two back; 上周 / 上个月: one back.
    m = _zh_find(r"(?P<up>上{1,2})个?(?:周|星期|礼拜)(?P<wd>[一二三四五六日天])?", text)
    if m:
        if m["wd"]:  # 上周三: that day of last week
            monday = (now - timedelta(days=now.weekday(), weeks=len(m["up"]))).date()
            return _day(now, monday + timedelta(days=_ZH_WEEKDAY[m["wd"]]))
        return _back(now, len(m["up"]), "week")
    m = _zh_find(r"(?P<up>上{1,2})个?月(?!\d|[一二三四五六七八九十])", text)
    if m:
        return _add_months(now, -len(m["up"]))
    m = _zh_find(
        rf"(?P<year>去|前)年(?:年)?(?:(?P<part>底|末|终|初|中)|(?P<month>\d{{1,2}}|[{_ZH_NUM}]+)月)?",
        text,
    )
    if m:
        year = now.year - (1 if m["year"] == "去" else 2)
        month = _zh_int(m["month"]) if m["month"] else _ZH_YEAR_PART[m["part"] or ""]
        return _day(now, date(year, month if month and 1 <= month <= 12 else 1, 1))
    if _zh_done(text) and not _UNDATED_FUTURE.search(text):
        m = _zh_find(
            r"这个月|本月|月初|今年|(?:这|本)(?:周|星期|礼拜)(?![一二三四五六日天末])", text
        )
        if m:
            if m[0] == "今年":
                return _day(now, date(now.year, 1, 1))
            if m[0] in ("这个月", "本月", "月初"):
                return _day(now, date(now.year, now.month, 1))
            return _back(now, now.weekday(), "day")
        m = _zh_find(r"(?:这|本)?个?(?:周|星期|礼拜)(?P<wd>[一二三四五六日天])", text)
        if m and not _HABITUAL.search(text):
            weekday = _ZH_WEEKDAY[m["wd"]]
            return _back(now, (now.weekday() - weekday) % 7 or 7, "day")
    # 年初 / 今年年初 with the change told as done ("我年初搬到了重庆"): this year's start.
    m = _zh_find(r"(?:今年)?年?年(?P<part>初|中)", text) or _zh_find(r"年(?P<part>初)", text)
    if m and _zh_done(text) and not _UNDATED_FUTURE.search(text):
        start = _day(now, date(now.year, _ZH_YEAR_PART[m["part"]], 1))
        if start <= now:
            return start
    # A month with a completed action ("九月搬到了厦门", "三月份换了工作"), no future cue.
    m = re.search(rf"(?P<month>\d{{1,2}}|[{_ZH_NUM}]+)月份?", text)
    if m and _zh_done(text) and not _UNDATED_FUTURE.search(text):
        month = _zh_int(m["month"])
        if month and 1 <= month <= 12:
            return _latest_month(now, month)
    return None


def _zh_since(text: str, now: datetime) -> datetime | None:
    """ "自从2019年…", "从2020年起就…", "从三月起我就一直…": it has held since then."""
    m = re.search(
        rf"(?P<since>自从?|从)\s*(?:(?P<year>\d{{4}})年)?(?:(?P<month>\d{{1,2}}|[{_ZH_NUM}]+)月份?)?",
        text,
    )
    if not m or not (m["year"] or m["month"]):
        return None
    # "从三月起" alone is a plan; with 就 / 一直 / 已经 / 了 / 以来, or after 自从, it holds.
    if m["since"] == "从" and not m["year"] and not re.search(r"就|一直|已经|了|以来", text):
        return None
    month = _zh_int(m["month"]) if m["month"] else 1
    if not month or not 1 <= month <= 12:
        return None
    when = _day(now, date(int(m["year"]), month, 1)) if m["year"] else _latest_month(now, month)
    return when if when <= now else None


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
        raw = m["n"] or m["n2"]
        n = _zh_int(raw) or (3 if raw == "几" else None)
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
    if "大后天" in words:
        return _shift(now, 3, "day")
    m = _zh_find(r"(?P<when>下{1,2}|这|本)个?周末", text)
    if m:  # 这个周末 / 下周末: that week's Saturday
        weeks = m["when"].count("下")
        monday = (now - timedelta(days=now.weekday()) + timedelta(weeks=weeks)).date()
        when = _day(now, monday + timedelta(days=5))
        # Said during the weekend it names: later that weekend.
        return when if when > now else _shift(now, 1, "day")
    m = _zh_find(r"(?P<year>明|后)年(?:年)?(?P<part>底|末|终|初|中)", text)
    if m:  # 明年年底, 明年初
        year = now.year + (1 if m["year"] == "明" else 2)
        return _day(now, date(year, _ZH_YEAR_PART[m["part"]], 1))
    m = _zh_find(r"(?:周|星期|礼拜)(?P<wd>[一二三四五六日天])", text)
    if (
        m
        and not _HABITUAL.search(text)
        and not re.search(r"(?:周|星期|礼拜)[一二三四五六日天](?:到|至|和|或)", text)
        and not re.search(r"[上下这本]个?(?:周|星期|礼拜)", text)
        and _CHANGE_CUE.search(text)  # "我周日拉大提琴" is a habit, not a date
    ):  # a bare weekday, "周五我搬到…": the next one
        weekday = _ZH_WEEKDAY[m["wd"]]
        return _shift(now, (weekday - now.weekday()) % 7 or 7, "day")
    # 下周 / 下下周, with a weekday (下周五) or without (its Monday); 这周五 / 本周五.
    m = _zh_find(r"(?P<when>下{1,2}|这|本)个?(?:周|星期|礼拜)(?P<wd>[一二三四五六日天])?", text)
    if m and (m["wd"] or m["when"].startswith("下")):
        weeks = m["when"].count("下")
        monday = (now - timedelta(days=now.weekday()) + timedelta(weeks=weeks)).date()
        when = _day(now, monday + timedelta(days=_ZH_WEEKDAY.get(m["wd"] or "一", 0)))
        if when > now:
            return when
    m = _zh_find(r"(?P<when>下{1,2}|这|本)个?月(?P<part>上旬|中旬|下旬|初|中|底|末)", text)
    if m:  # 下个月中旬, 这个月底
        first = _add_months(now, m["when"].count("下"))
        if m["part"] in ("底", "末"):
            when = _add_months(first, 1) - timedelta(days=1)
        else:
            when = first.replace(day=_ZH_MONTH_PARTS[m["part"]])
        if when > now:
            return when
    m = _zh_find(r"(?P<when>下{1,2})个?月(?!\d|[一二三四五六七八九十])", text)
    if m:
        return _add_months(now, len(m["when"]))
    m = _zh_find(r"(?P<when>下{1,2})个?季度|第(?P<q>[一二三四1-4])季度|Q(?P<q2>[1-4])", text)
    if m:  # 下个季度, 第三季度, Q3
        if m["when"]:
            quarter_start = (now.month - 1) // 3 * 3 + 1
            return _add_months(_day(now, date(now.year, quarter_start, 1)), 3 * len(m["when"]))
        q = (
            "一二三四".find(m["q"]) + 1
            if m["q"] and not m["q"].isdigit()
            else int(m["q"] or m["q2"])
        )
        start = _day(now, date(now.year, 3 * q - 2, 1))
        return start if start > now else _day(now, date(now.year + 1, 3 * q - 2, 1))
    m = _ZH_MONTH_PART.search(text)
    if m and not _ZH_PAST.search(text):
        month = _zh_int(m["month"])
        if month and 1 <= month <= 12:
            year = now.year + (1 if m["year"] == "明" else 0)
            when = _day(now, date(year, month, _ZH_MONTH_PARTS[m["part"]]))
            if m["part"] in ("底", "末"):
                when = _day(now, date(year, month, calendar.monthrange(year, month)[1]))
            if when <= now and not m["year"]:
                when = when.replace(year=year + 1)
            return when
    if "月底" in text and "上个月底" not in text:
        return _add_months(now, 1) - timedelta(days=1) if now.day < 20 else _add_months(now, 1)
    if re.search(r"年底|年末|今年底|年终", text):
        december = _day(now, date(now.year, 12, 1))
        return december if december > now else _day(now, date(now.year, 12, 31))
    if "下半年" in text:
        july = _day(now, date(now.year, 7, 1))
        return july if july > now else _day(now, date(now.year + 1, 7, 1))
    m = _ZH_MONTH_DAY.search(text)
    # A month or a date is a start only beside a change ("五月搬到…", "3月15日起"): in
    # "用户的生日在五月" it is the fact itself.
    if m and not _ZH_PAST.search(text) and _CHANGE_CUE.search(text):
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
        if when <= now and not year_word and not m["day"] and month == now.month:
            when = _shift(now, 1, "day")  # the month it was said in: later this month
        elif when <= now and not year_word:  # "3月" said in November: next March
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


def _en_past(text: str, now: datetime) -> datetime | None:
    """A start before it was said: "three weeks ago", "last month", "yesterday", "in March"
    with a verb in the past."""
    m = _EN_AGO.search(text)
    if m:
        n = _en_int(m["n"])
        if n:
            return _back(now, n, m["unit"].lower())
    m = re.search(
        r"\b(?P<n>a|one|\d+)\s+(?P<unit>year|month)s?\s+and\s+a\s+half\s+ago\b", text, re.I
    )
    if m:  # "a year and a half ago"
        n = _en_int(m["n"]) or 1
        return (
            _back(now, n * 12 + 6, "month")
            if m["unit"].lower() == "year"
            else _back(now, n * 30 + 15, "day")
        )
    m = re.search(
        rf"\bsince\s+(?:(?P<month>{_MONTHS})\b\s*)?(?P<year>(?:19|20)\d\d)?\b", text, re.I
    )
    if m and (m["month"] or m["year"]):  # "since 2019", "since March": it holds from then
        month = _MONTH_NUMBER[m["month"].lower()] if m["month"] else 1
        when = _day(now, date(int(m["year"]), month, 1)) if m["year"] else _latest_month(now, month)
        if when <= now:
            return when
    lowered = text.lower()
    m = re.search(
        r"\b(?:(?:at|by|towards?|in)\s+the\s+(?P<end>end|start|beginning|middle)\s+of|"
        r"(?P<late>late|early|mid)[-\s]?)\s*last\s+(?P<what>year|month)\b",
        lowered,
    )
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
    m = re.search(r"\b(?:on|this\s+past)\s+(?P<wd>" + _EN_WEEKDAYS + r")\b", lowered)
    if m and done:  # "on Friday I moved …": the latest Friday before it was said
        weekday = list(calendar.day_name).index(m["wd"].capitalize())
        return _back(now, (now.weekday() - weekday) % 7 or 7, "day")
    m = re.search(
        r"\b(?:in|during|over)\s+the\s+(?P<season>spring|summer|autumn|fall|winter)\b", lowered
    )
    if m and done:
        month = _SEASON_START[m["season"]]
        return _day(now, date(now.year if month <= now.month else now.year - 1, month, 1))
    m = re.search(r"\b(?:earlier\s+)?this\s+(?P<what>week|month|year)\b", lowered)
    if m and (done or "earlier" in m[0]) and _EN_PAST_VERB.search(text):
        if m["what"] == "week":
            return _back(now, now.weekday(), "day")
        if m["what"] == "month":
            return _day(now, date(now.year, now.month, 1))
        return _day(now, date(now.year, 1, 1))
    if re.search(r"\bthe\s+week\s+before\s+last\b", lowered):
        return _back(now, 2, "week")
    if re.search(r"\ba\s+fortnight\s+ago\b", lowered):
        return _back(now, 2, "week")
    if re.search(r"\bthe\s+day\s+before\s+yesterday\b", lowered):
        return _back(now, 2, "day")
    if re.search(r"\byesterday\b", lowered):
        return _back(now, 1, "day")
    m = re.search(rf"\blast\s+(?P<month>{_MONTHS})\b", text, re.IGNORECASE)
    if m:  # "last March": the latest March before this month
        month = _MONTH_NUMBER[m["month"].lower()]
        year = now.year if month < now.month else now.year - 1
        return _day(now, date(year, month, 1))
    m = re.search(r"\blast\s+(?P<season>spring|summer|autumn|fall|winter)\b", lowered)
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


_EN_WEEKDAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
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


# --- holidays, computed for the year ------------------------------------------------------


def _lunar(month: int, day: int):
    def on(year: int) -> date | None:
        from lunardate import LunarDate

        try:
            return LunarDate(year, month, day).to_solar_date()
        except ValueError:  # outside the library's years (1900-2099)
            return None

    return on


def _lunar_eve(year: int) -> date | None:
    """New Year's Eve of the lunar year (除夕): the day before the Spring Festival."""
    first = _lunar(1, 1)(year + 1)
    return first - timedelta(days=1) if first else None


def _easter(year: int) -> date:
    """Western Easter Sunday (the Gregorian computus, Meeus/Jones/Butcher)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    g = (8 * b + 13) // 25
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    leap = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * leap) // 451
    month, day = divmod(h + leap - 7 * m + 114, 31)
    return date(year, month, day + 1)


def _thanksgiving(year: int) -> date:
    """US Thanksgiving: the fourth Thursday of November."""
    first = date(year, 11, 1)
    return first + timedelta(days=(3 - first.weekday()) % 7 + 21)


# name pattern -> (the day in a given year, how many days "after it" starts later).
# The lunar new year comes before the Western one ("after Chinese New Year").
_HOLIDAYS: list[tuple[re.Pattern[str], object, int]] = [
    (
        re.compile(
            r"春节|过年|农历新年|大年初一|(?<=过完|过了)年(?![底初末终中])|"
            # "年后" on its own is after the Spring Festival ("三年后", "明年后" are not)
            r"(?<![\d零〇一二两三四五六七八九十百几多半明今去前后每当那这同周新])年(?=以?后|过后)|"
            r"\b(?:chinese|lunar)\s+new\s+year\b|\bspring\s+festival\b",
            re.IGNORECASE,
        ),
        _lunar(1, 1),
        7,
    ),
    (re.compile(r"除夕|大年三十"), _lunar_eve, 1),
    (re.compile(r"元宵"), _lunar(1, 15), 1),
    (re.compile(r"中秋|\bmid-?autumn\b", re.IGNORECASE), _lunar(8, 15), 1),
    (re.compile(r"端午|\bdragon\s+boat\b", re.IGNORECASE), _lunar(5, 5), 1),
    (re.compile(r"七夕"), _lunar(7, 7), 1),
    (re.compile(r"重阳"), _lunar(9, 9), 1),
    (re.compile(r"国庆|\bnational\s+day\b", re.IGNORECASE), lambda y: date(y, 10, 1), 7),
    (re.compile(r"劳动节|五一(?=节|假|长假|以?后|之后|过后|前)"), lambda y: date(y, 5, 1), 5),
    (re.compile(r"元旦"), lambda y: date(y, 1, 1), 1),
    (re.compile(r"平安夜|\bchristmas\s+eve\b", re.IGNORECASE), lambda y: date(y, 12, 24), 1),
    (
        re.compile(r"圣诞|\bchristmas\b(?!\s+eve)|\bxmas\b", re.IGNORECASE),
        lambda y: date(y, 12, 25),
        1,
    ),
    (re.compile(r"\bnew\s+year'?s\s+eve\b", re.IGNORECASE), lambda y: date(y, 12, 31), 1),
    (
        re.compile(
            r"(?<!chinese\s)(?<!lunar\s)\bnew\s+year(?:'s)?(?:\s+day)?\b(?!'?s\s+eve)",
            re.IGNORECASE,
        ),
        lambda y: date(y, 1, 1),
        1,
    ),
    (re.compile(r"复活节|\beaster\b", re.IGNORECASE), _easter, 1),
    (re.compile(r"感恩节|\bthanksgiving\b", re.IGNORECASE), _thanksgiving, 1),
]
# Any holiday named with "after"/"before"/"from" ("除夕前", "before Easter").
_HOLIDAY_NAME = re.compile(
    "(?:"
    + "|".join(p.pattern for p, _, _ in _HOLIDAYS)
    + r")\s*(?:节|假期|假)?\s*(?:以?[前后]|之[前后]|过后|起|开始)"
    r"|\b(?:after|before|from|until|by|come|once)\s+(?:the\s+)?(?:"
    + "|".join(p.pattern for p, _, _ in _HOLIDAYS)
    + ")",
    re.IGNORECASE,
)
# A habit is not a start: "I always visit my parents at Christmas", "每年春节都回老家".
_HABITUAL = re.compile(
    r"\b(?:always|every|each|usually|normally|often|annually|tradition(?:ally)?)\b"
    r"|每年|每逢|每次|每到|总是|通常|一般|向来|历来",
    re.IGNORECASE,
)
# After the holiday: "after Christmas", "过完春节", "国庆以后"; from it: "from New Year",
# "come New Year", "元旦起", "春节开始".
_AFTER_EN = re.compile(r"\b(?:after|once|past|following)\s+(?:the\s+)?$", re.IGNORECASE)
_FROM_EN = re.compile(
    # not "by", "before" or "until": those name an end or a deadline, not a start
    r"\b(?:from|starting|beginning|as\s+of|come|on|at)\s+(?:the\s+)?$",
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
            if (
                m[0] == "年"
                and not text[: m.start()].endswith(("过完", "过了"))
                and not {m.start(), m.end()} <= _zh_starts(text)
            ):
                continue  # "年后" is the new year only when 年 is a word ("成年后" is not)
            before, rest = text[: m.start()], text[m.end() :]
            if _AFTER_EN.search(before) or _AFTER_ZH_BEFORE.search(before) or _AFTER_ZH.match(rest):
                offset = after_days
            elif _FROM_EN.search(before) or _FROM_ZH.match(rest):
                offset = 0
                if _HABITUAL.search(text):
                    continue  # a habit around the day, not a start on it
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
    if absolute and not (_CHANGE_CUE.search(text) or _EN_FUTURE_VERB.search(text)):
        absolute = None  # the date is the fact: "my birthday is in May"
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
        if when.date() > base.date():  # a later day, however late it was said
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
    r"|(?:将来|迟早|早晚|不久以后|过段时间|过阵子|过些日子|有朝一日|总有一天|终有一天)"
    r"|(?:准备|打算|计划|要|将要|快要)(?:搬|搬家|换|去|加入|离开|调)"
    r"|会(?:搬|调到|跳槽|离职|入职)",
    re.IGNORECASE,
)

# "开学后我搬到…", "装修完以后用户换…": after an event with no date, a change not yet done.
_ZH_AFTER_EVENT = re.compile(
    r"^[^，,。；;0-9一二两三四五六七八九十几]{1,8}?(?:以后|之后|后|完)[，,]?\s*"
    r"(?:我们|我|用户|他们|他|她)?(?:就|再|会|要|将|打算|准备)?"
    r"(?:搬|换|调|加入|入职|离职|离开|去|转到|改用|开始)"
)

_CHANGE_CUE = re.compile(
    r"\b(?:mov(?:e|es|ed|ing)|relocat\w+|switch\w*|join\w*|start\w*|chang\w+|leav\w+|left|"
    r"transfer\w*|becom\w+|became|took\s+(?:up|over)|will|'ll|going\s+to|from|as\s+of|"
    r"effective|until)\b"
    r"|搬|换|调到|加入|开始|起|生效|转到|离开|入职|跳槽|将|要|打算|准备",
    re.IGNORECASE,
)
