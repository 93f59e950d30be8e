"""The stretch of time a question names ("in May 2023", "on 7 July, 2023", "last summer",
"去年", "2023年5月"): a start and an end, or a month or season of any year when no year is
named ("in June", "夏天"). ``memory.recall.timewin`` ranks up the memories whose
structured time (``valid_from``: when it happened or was said) falls in it.

Relative names ("last year", "last month", "last summer", 去年, 上个月, 今年) are read
against ``now``; a season is the northern one (summer: June to August). The most specific
name in the question wins: a day, then a month of a year, then a season of a year or a
relative name, then a year, then a month or season of any year.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from memory.temporal.en import _MONTH_NUMBER, _MONTHS

_SEASONS = {
    "spring": (3, 4, 5),
    "summer": (6, 7, 8),
    "autumn": (9, 10, 11),
    "fall": (9, 10, 11),
    "winter": (12, 1, 2),
}
_ZH_SEASONS = {"春": "spring", "夏": "summer", "秋": "autumn", "冬": "winter"}
_M = rf"(?P<month>{_MONTHS})\b\.?"
_EN_DAY = re.compile(
    rf"\b(?:(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_M}|(?P<month2>{_MONTHS})\.?\s+"
    rf"(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\b),?\s+(?P<year>(?:19|20)\d\d)\b",
    re.IGNORECASE,
)
_EN_MONTH_YEAR = re.compile(rf"\b{_M},?\s+(?:of\s+)?(?P<year>(?:19|20)\d\d)\b", re.IGNORECASE)
_EN_SEASON_YEAR = re.compile(
    r"\b(?P<season>spring|summer|autumn|fall|winter)\s+(?:of\s+)?(?P<year>(?:19|20)\d\d)\b", re.I
)
_EN_LAST = re.compile(
    r"\b(?P<which>last|this)\s+(?P<unit>year|month|spring|summer|autumn|fall|winter)\b", re.I
)
_EN_YEAR = re.compile(r"\b(?:in|during|of|throughout)\s+(?P<year>(?:19|20)\d\d)\b", re.I)
_EN_MONTH = re.compile(rf"\b(?:in|during|early|mid|late|since)\s+(?:the\s+)?{_M}", re.I)
_EN_SEASON = re.compile(
    r"\b(?:in|during|over)\s+the\s+(?P<season>spring|summer|autumn|fall|winter)\b", re.I
)
# A month in digits or in Chinese numerals (三月, 十月, 十二月); not the 月 of 几月 (asks),
# 三个月 (a span) or 二十一月 (no such month).
_ZH_M = r"(?P<month>\d{1,2}|十[一二]?|[一二三四五六七八九])"
_ZH_DAY = re.compile(r"(?P<year>\d{4})年(?P<month>\d{1,2})月(?P<day>\d{1,2})[日号]")
_ZH_MONTH_YEAR = re.compile(rf"(?P<year>\d{{4}})年{_ZH_M}月")
_ZH_SEASON_YEAR = re.compile(r"(?P<year>\d{4})年(?:的)?(?P<season>[春夏秋冬])(?:天|季)")
_ZH_RELATIVE = re.compile(
    r"(?P<which>去年|今年|上个月|这个月|本月)(?:(?P<season>[春夏秋冬])[天季]?)?"
)
_ZH_YEAR = re.compile(r"(?P<year>\d{4})年")
_ZH_MONTH = re.compile(
    rf"(?<![\d一二三四五六七八九十百几]){_ZH_M}月(?!\d{{1,2}}[日号]|[一二三四五六七八九十]+[日号])"
)
_ZH_MONTH_NUMBER = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}


def _zh_month(raw: str) -> int:
    """ "3", "三", "十", "十二" -> 3, 3, 10, 12 (0 for anything else)."""
    if raw.isdigit():
        return int(raw)
    if raw.startswith("十"):
        return 10 + _ZH_MONTH_NUMBER.get(raw[1:], 0) if raw != "十" else 10
    return _ZH_MONTH_NUMBER.get(raw, 0)


_ZH_SEASON = re.compile(r"(?P<season>[春夏秋冬])(?:天|季)")


@dataclass(frozen=True)
class Window:
    """[start, end), or, without them, any year's ``months``."""

    start: datetime | None = None
    end: datetime | None = None
    months: tuple[int, ...] = ()

    def holds(self, when: datetime, slack: timedelta = timedelta(0)) -> bool:
        if self.start is not None and self.end is not None:
            return self.start <= when < self.end + slack
        return when.month in self.months or (when - slack).month in self.months


def _month(year: int, month: int) -> Window:
    start = datetime(year, month, 1, tzinfo=UTC)
    end = datetime(year + month // 12, month % 12 + 1, 1, tzinfo=UTC)
    return Window(start, end)


def _year(year: int) -> Window:
    return Window(datetime(year, 1, 1, tzinfo=UTC), datetime(year + 1, 1, 1, tzinfo=UTC))


def _season(year: int, season: str) -> Window:
    months = _SEASONS[season]
    start_year = year - 1 if months[0] == 12 else year  # winter 2024: Dec 2023 – Feb 2024
    start = datetime(start_year, months[0], 1, tzinfo=UTC)
    last = _month(year, months[-1])
    return Window(start, last.end)


def _last_season(now: datetime, season: str, this: bool) -> Window:
    """The season of this year, or the latest one fully past ("last summer")."""
    window = _season(now.year, season)
    if this or (window.end is not None and window.end <= now):
        return window
    return _season(now.year - 1, season)


def _is_month(raw: str) -> bool:
    return raw != "may"  # the modal verb; the month is written "May"


def _relative(which: str, unit: str, now: datetime) -> Window:
    this = which in ("this", "今年", "这个月", "本月")
    if unit == "year":
        return _year(now.year if this else now.year - 1)
    if unit == "month":
        if this:
            return _month(now.year, now.month)
        return _month(now.year - (now.month == 1), (now.month - 2) % 12 + 1)
    return _last_season(now, unit, this)


def named_window(text: str, now: datetime) -> Window | None:
    """The stretch of time ``text`` names, or None."""
    found = named_time(text, now)
    return found[0] if found else None


def named_time(text: str, now: datetime) -> tuple[Window, tuple[int, int]] | None:
    """The stretch of time ``text`` names and where in ``text`` it is named (the span
    of the words that name it), or None."""
    m = _ZH_DAY.search(text)
    if m and 1 <= int(m["month"]) <= 12 and 1 <= int(m["day"]) <= 31:
        try:
            start = datetime(int(m["year"]), int(m["month"]), int(m["day"]), tzinfo=UTC)
        except ValueError:
            start = None
        if start:
            return Window(start, start + timedelta(days=1)), m.span()
    m = _EN_DAY.search(text)
    if m:
        month = (m["month"] or m["month2"]).lower().rstrip(".")
        if _is_month(m["month"] or m["month2"]):
            try:
                start = datetime(
                    int(m["year"]), _MONTH_NUMBER[month], int(m["d1"] or m["d2"]), tzinfo=UTC
                )
                return Window(start, start + timedelta(days=1)), m.span()
            except (ValueError, KeyError):
                pass
    m = _ZH_MONTH_YEAR.search(text)
    if m and 1 <= _zh_month(m["month"]) <= 12:
        return _month(int(m["year"]), _zh_month(m["month"])), m.span()
    m = _EN_MONTH_YEAR.search(text)
    if m and _is_month(m["month"]):
        return _month(int(m["year"]), _MONTH_NUMBER[m["month"].lower().rstrip(".")]), m.span()
    m = _EN_SEASON_YEAR.search(text)
    if m:
        return _season(int(m["year"]), m["season"].lower()), m.span()
    m = _ZH_SEASON_YEAR.search(text)
    if m:
        return _season(int(m["year"]), _ZH_SEASONS[m["season"]]), m.span()
    m = _ZH_RELATIVE.search(text)
    if m:
        if m["season"] and m["which"] in ("去年", "今年"):
            season = _last_season(
                now if m["which"] == "今年" else now.replace(year=now.year - 1, month=12, day=31),
                _ZH_SEASONS[m["season"]],
                True,
            )
            return season, m.span()
        return _relative(m["which"], "year" if "年" in m["which"] else "month", now), m.span()
    m = _EN_LAST.search(text)
    if m:
        return _relative(m["which"].lower(), m["unit"].lower(), now), m.span()
    m = _EN_YEAR.search(text) or _ZH_YEAR.search(text)
    if m:
        return _year(int(m["year"])), m.span()
    m = _EN_MONTH.search(text)
    if m and _is_month(m["month"]):
        return Window(months=(_MONTH_NUMBER[m["month"].lower().rstrip(".")],)), m.span()
    m = _ZH_MONTH.search(text)
    if m and 1 <= _zh_month(m["month"]) <= 12:
        return Window(months=(_zh_month(m["month"]),)), m.span()
    m = _EN_SEASON.search(text)
    if m:
        return Window(months=_SEASONS[m["season"].lower()]), m.span()
    m = _ZH_SEASON.search(text)
    if m:
        return Window(months=_SEASONS[_ZH_SEASONS[m["season"]]]), m.span()
    return None


# A preposition (and article) left dangling once the time it introduced is taken out
# ("What did she do in | May 2023?", "on the evening of | 7 July, 2023").
_DANGLING = re.compile(
    r"\b(?:in|on|at|of|during|over|throughout|since|around|from|by)\s+(?:the\s+)?$", re.I
)


def without_named_time(text: str, now: datetime) -> str:
    """``text`` without the words that name a time (``named_time``) and a preposition
    left dangling before them: "What did Ada cook in May 2023?" -> "What did Ada cook?".
    Unchanged if ``text`` names no time or nothing but the time."""
    found = named_time(text, now)
    if found is None:
        return text
    start, end = found[1]
    head = _DANGLING.sub("", text[:start].rstrip() + " ").rstrip() if start else ""
    tail = text[end:].lstrip()
    cjk = re.compile(r"[\u3400-\u9fff]")
    joint = "" if (head and cjk.match(head[-1])) or (tail and cjk.match(tail[0])) else " "
    out = f"{head}{joint}{tail}".strip()
    out = re.sub(r"\s+([,.;:?!，。；：？！])", r"\1", out)
    out = re.sub(r"^[\s,，;；:：]+", "", out)
    out = re.sub(r"\s{2,}", " ", out)
    return out if re.search(r"\w", re.sub(r"[?？!！.。]", "", out)) else text
