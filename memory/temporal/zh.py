"""Time phrases in Chinese: past (三周前, 上个月, 去年…), since, and dates to come."""

from __future__ import annotations

import calendar
import re
from datetime import date, datetime, timedelta

from memory.temporal.common import (
    _CHANGE_CUE,
    _HABITUAL,
    _UNDATED_FUTURE,
    _add_months,
    _back,
    _day,
    _latest_month,
    _shift,
    _zh_starts,
)

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
    rf"|(?:还有|再过|(?<![经通度超错越路过])过)\s*(?P<n2>\d+|[{_ZH_NUM}]+)(?:来|多|几)?\s*(?P<unit2>天|周|个?星期|个?礼拜|个多?月|年)"
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
    if re.search(r"(?:明|来)年(?!的)", text):  # "明年的计划" is an attribute, not a start
        return _day(now, date(now.year + 1, 1, 1))
    return None
