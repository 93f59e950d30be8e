"""More of the times a statement tells (``said.said_times``): the phrasings that name a
day or a week by its distance from another one, in both languages.

- "the weekend before last", "the Saturday before last", "the week before last", "the month
  before last", "上上周", "上上个月", "上上周三" (and 下下…): two units back (or ahead);
- "last Fri", "this past weekend", "last Tues": abbreviated weekdays and "this past" as
  "last";
- "two weekends ago", "a couple weeks ago", "few days ago": weekends count as weeks, and
  "a couple" and "few" need no "of" or "a";
- a weekday on its own ("on Sunday", "周六我去爬山了", "礼拜天"): the latest such day before
  it was said, or the next one when the sentence speaks of what is to come (a closed class
  of future markers: will, 'll, going to, gonna, plan, 要, 会, 打算, 准备, 将), and none when
  it recurs ("every", "usually", 每, 一般);
- "the other day": some days before, written as the week of three days before;
- 大前天 / 大后天: three days back or ahead; 前几天, 前些天, 前两天: a few (two) days back;
- 去年十月, 今年3月: a month of a named year.

Each is a closed grammatical class (determiners, units of the calendar, weekday names,
numbers), not a list of things people did.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, timedelta

from memory.temporal.en import _en_int
from memory.temporal.zh import _zh_int

_WEEKDAY = {
    "monday": 0,
    "mon": 0,
    "tuesday": 1,
    "tues": 1,
    "tue": 1,
    "wednesday": 2,
    "wed": 2,
    "thursday": 3,
    "thurs": 3,
    "thur": 3,
    "thu": 3,
    "friday": 4,
    "fri": 4,
    "saturday": 5,
    "sat": 5,
    "sunday": 6,
    "sun": 6,
}
_WD = "|".join(sorted(_WEEKDAY, key=len, reverse=True))
_FULL_WD = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_EN_ABBR = re.compile(rf"\b(?P<det>last|this\s+past|next)\s+(?P<wd>{_WD})\b\.?", re.I)
_EN_PAST_WEEK = re.compile(r"\bthis\s+past\s+(?P<unit>weekend|week|month|year)\b", re.I)
_EN_BEFORE_LAST = re.compile(
    rf"\b(?P<unit>weekend|week|month|year|{_FULL_WD})\s+(?P<dir>before\s+last|after\s+next)\b",
    re.I,
)
_EN_NUM = (
    r"\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
    r"|a\s+couple(?:\s+of)?|couple(?:\s+of)?|a\s+few|few|several"
)
_EN_AGO = re.compile(rf"\b(?P<n>{_EN_NUM})\s+(?P<unit>day|weekend|week|month|year)s?\s+ago\b", re.I)
_EN_ON_DAY = re.compile(rf"\b(?:on|since|from|until|till)\s+(?P<wd>{_FULL_WD})\b", re.I)
# Gates (``said.said_times``'s TOLD_TIME_GATES): a sub-pattern of every match, same flags.
_BEFORE_LAST_GATE = re.compile(r"before\s+last|after\s+next", re.I)
# What recurs ("every Sunday", "周末我一般在家") names no one day.
_EN_HABIT = re.compile(r"\b(?:every|usually|always|often|normally)\b", re.I)
_ZH_HABIT = re.compile(r"每|一般|经常|总是|通常")
_EN_OTHER_DAY = re.compile(r"\bthe\s+other\s+(?:day|night)\b", re.I)
_EN_FUTURE = re.compile(
    r"\b(?:will|shall|going\s+to|gonna|plan(?:ning|s)?\s+to|about\s+to|next|tomorrow"
    r"|can't\s+wait|looking\s+forward)\b|'ll\b",
    re.I,
)

_ZH_TWO_WEEKS = re.compile(
    r"(?P<det>上上|下下)(?:个)?(?:周|星期|礼拜)(?P<day>[一二三四五六日天末])?"
)
_ZH_TWO_MONTHS = re.compile(r"(?P<det>上上|下下)个?月")
_ZH_BARE_DAY = re.compile(r"(?<![上下这本个每])(?:周|星期|礼拜)(?P<day>[一二三四五六日天末])")
_ZH_FEW_DAYS = {"前几天": 3, "前些天": 3, "前两天": 2, "大前天": 3, "大后天": -3}
_ZH_YEAR_MONTH = re.compile(
    r"(?P<y>前年|去年|今年|明年)(?P<m>1[0-2]|[1-9]|十[一二]?|[一二三四五六七八九])月"
)
_ZH_YEARS = {"前年": -2, "去年": -1, "今年": 0, "明年": 1}
_ZH_FUTURE = re.compile(r"要|会|打算|准备|将|计划|想|下(?:个|周|星期|礼拜)")
_SENTENCE = re.compile(r"[^.!?。！？;；\n]+")


def _week(d: date) -> str:
    year, week, _ = d.isocalendar()
    return f"{year}-w{week:02d}"


def _months_back(d: date, n: int) -> str:
    total = d.year * 12 + d.month - 1 - n
    return f"{total // 12}-{total % 12 + 1:02d}"


def _weekday_near(d: date, wanted: int, future: bool) -> date:
    """The latest ``wanted`` weekday before ``d`` (a week back on the same weekday), or
    the next one after it when ``future``."""
    if future:
        return d + timedelta(days=(wanted - d.weekday()) % 7 or 7)
    return d - timedelta(days=(d.weekday() - wanted) % 7 or 7)


def _sentences(text: str):
    for m in _SENTENCE.finditer(text):
        yield m[0]


def more_english(
    text: str,
    d: date,
    add: Callable[[str, str | None], None],
    *,
    gated: bool = False,
    ago: bool = True,
) -> None:
    """``gated``: skip a pattern where its gate finds nothing (``ago``: whether " ago"'s gate
    found it, asked once by the caller for both of its amount patterns). A weekday "on
    Sunday" found in a sentence is found in the whole text at the same place (a sentence
    ends at a character that is no word's, so the same word boundaries): where the whole
    text holds none, no sentence is read."""
    for m in _EN_ABBR.finditer(text):
        wanted = _WEEKDAY[m["wd"].lower()]
        add(m[0], _weekday_near(d, wanted, m["det"].lower() == "next").isoformat())
    for m in _EN_PAST_WEEK.finditer(text):
        unit = m["unit"].lower()
        if unit in ("week", "weekend"):
            add(m[0], _week(d - timedelta(weeks=1)))
        elif unit == "month":
            add(m[0], _months_back(d, 1))
        else:
            add(m[0], str(d.year - 1))
    for m in _EN_BEFORE_LAST.finditer(text if not gated or _BEFORE_LAST_GATE.search(text) else ""):
        unit, sign = m["unit"].lower(), (1 if m["dir"].lower().startswith("before") else -1)
        if unit in ("week", "weekend"):
            add(m[0], _week(d - timedelta(weeks=2 * sign)))
        elif unit == "month":
            add(m[0], _months_back(d, 2 * sign))
        elif unit == "year":
            add(m[0], str(d.year - 2 * sign))
        else:
            day = _weekday_near(d, _WEEKDAY[unit], sign < 0)
            add(m[0], (day - timedelta(weeks=sign)).isoformat())
    for m in _EN_AGO.finditer(text if ago else ""):
        raw = re.sub(r"\s+of$", "", re.sub(r"\s+", " ", m["n"].lower()))
        n = _en_int(raw) or {"a couple": 2, "couple": 2, "few": 3}.get(raw)
        unit = m["unit"].lower()
        if not n:
            continue
        if unit == "day":
            add(m[0], (d - timedelta(days=n)).isoformat())
        elif unit in ("week", "weekend"):
            add(m[0], _week(d - timedelta(weeks=n)))
        elif unit == "month":
            add(m[0], _months_back(d, n))
        else:
            add(m[0], str(d.year - n))
    on_day = not gated or _EN_ON_DAY.search(text) is not None
    for sentence in _sentences(text) if on_day else ():
        if _EN_HABIT.search(sentence):
            continue
        future = bool(_EN_FUTURE.search(sentence))
        for m in _EN_ON_DAY.finditer(sentence):
            add(m[0], _weekday_near(d, _WEEKDAY[m["wd"].lower()], future).isoformat())
    for m in _EN_OTHER_DAY.finditer(text):
        add(m[0], _week(d - timedelta(days=3)))


def more_chinese(text: str, d: date, add: Callable[[str, str | None], None]) -> None:
    for m in _ZH_TWO_WEEKS.finditer(text):
        step = -2 if m["det"] == "上上" else 2
        week_day = d + timedelta(weeks=step)
        if m["day"] and m["day"] != "末":
            index = "一二三四五六日".find(m["day"].replace("天", "日"))
            add(m[0], (week_day - timedelta(days=week_day.weekday() - index)).isoformat())
        else:
            add(m[0], _week(week_day))
    for m in _ZH_TWO_MONTHS.finditer(text):
        add(m[0], _months_back(d, 2 if m["det"] == "上上" else -2))
    for word, back in _ZH_FEW_DAYS.items():
        if word in text:
            add(word, (d - timedelta(days=back)).isoformat())
    for m in _ZH_YEAR_MONTH.finditer(text):
        month = int(m["m"]) if m["m"].isdigit() else _zh_int(m["m"])
        if month and 1 <= month <= 12:
            add(m[0], f"{d.year + _ZH_YEARS[m['y']]}-{month:02d}")
    for sentence in re.split(r"[。！？；!?;\n]", text):
        if _ZH_HABIT.search(sentence):
            continue
        future = bool(_ZH_FUTURE.search(sentence))
        for m in _ZH_BARE_DAY.finditer(sentence):
            if m["day"] == "末":
                saturday = _weekday_near(d, 5, future)
                add(m[0], _week(saturday))
            else:
                index = "一二三四五六日".find(m["day"].replace("天", "日"))
                add(m[0], _weekday_near(d, index, future).isoformat())
