"""Holidays computed for a year: the lunar ones (Spring Festival, Mid-Autumn, Dragon Boat)
from the lunar calendar, Easter, Thanksgiving, and fixed dates."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

from memory.temporal.common import _HABITUAL, _day, _zh_starts


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
