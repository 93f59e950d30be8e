"""What the Chinese and English readers share: calendar arithmetic, and the cues of a
change, a habit and an undated plan."""

from __future__ import annotations

import calendar
import re
from datetime import date, datetime, timedelta


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


def _zh_starts(text: str) -> set[int]:
    """Where the segmenter's words begin: "上周" in "晚上周末" starts inside a word."""
    import rjieba

    starts, at = set(), 0
    for word in rjieba.cut(text):
        starts.add(at)
        at += len(word)
    return starts


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


# A habit is not a start: "I always visit my parents at Christmas", "每年春节都回老家".
_HABITUAL = re.compile(
    r"\b(?:always|every|each|usually|normally|often|annually|tradition(?:ally)?)\b"
    r"|每年|每逢|每次|每到|总是|通常|一般|向来|历来",
    re.IGNORECASE,
)


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


_CHANGE_CUE = re.compile(
    r"\b(?:mov(?:e|es|ed|ing)|relocat\w+|switch\w*|join\w*|start\w*|chang\w+|leav\w+|left|"
    r"transfer\w*|becom\w+|became|took\s+(?:up|over)|will|'ll|going\s+to|from|as\s+of|"
    r"effective|until)\b"
    r"|搬|换|调到|加入|开始|起|生效|转到|离开|入职|跳槽|将|要|打算|准备",
    re.IGNORECASE,
)
