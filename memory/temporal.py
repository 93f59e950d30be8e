"""Valid-time hints written in words: "I move to Berlin next month", "从下周起".

Only forward-looking phrases are resolved here; they give a future ``valid_from`` so a
future-dated fact does not replace the current one before its time. A candidate's explicit
``valid_from`` always wins over a phrase.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

_ISO_DATE = re.compile(
    r"(from|starting|as of|effective|beginning|on)\s+(\d{4})-(\d{1,2})-(\d{1,2})", re.IGNORECASE
)
_ZH_DATE = re.compile(r"(?:从|自|于)?(\d{4})[年\-/.](\d{1,2})[月\-/.](\d{1,2})日?(?:起|开始|生效)")
_IN_N = re.compile(r"\bin (\d{1,3}) (day|week|month)s?\b", re.IGNORECASE)
_ZH_N_LATER = re.compile(r"(\d{1,3})\s*(天|周|个月)(后|以后|之后)")
_ZH_DIGITS = {
    "一": 1,
    "两": 2,
    "二": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
    "十": 10,
}


def _start_of_day(dt: datetime) -> datetime:
    return dt.replace(hour=0, minute=0, second=0, microsecond=0)


def _first_of_next_month(dt: datetime) -> datetime:
    year, month = (dt.year + 1, 1) if dt.month == 12 else (dt.year, dt.month + 1)
    return _start_of_day(dt).replace(year=year, month=month, day=1)


def _add_months(dt: datetime, n: int) -> datetime:
    month_index = dt.month - 1 + n
    year, month = dt.year + month_index // 12, month_index % 12 + 1
    return _start_of_day(dt).replace(year=year, month=month, day=1)


def future_valid_from(text: str, now: datetime) -> datetime | None:
    """A future start of validity named in ``text``, or None."""
    for pattern, groups in ((_ISO_DATE, (2, 3, 4)), (_ZH_DATE, (1, 2, 3))):
        m = pattern.search(text)
        if m:
            try:
                when = now.replace(
                    year=int(m.group(groups[0])),
                    month=int(m.group(groups[1])),
                    day=int(m.group(groups[2])),
                    hour=0,
                    minute=0,
                    second=0,
                    microsecond=0,
                )
            except ValueError:
                return None
            return when if when > now else None
    lowered = text.lower()
    if "tomorrow" in lowered or "明天" in text:
        return _start_of_day(now + timedelta(days=1))
    if "next week" in lowered or "下周" in text or "下星期" in text:
        return _start_of_day(now + timedelta(days=7 - now.weekday()))
    if "next month" in lowered or "下个月" in text or "下月" in text:
        return _first_of_next_month(now)
    if "next year" in lowered or "明年" in text:
        return _start_of_day(now).replace(year=now.year + 1, month=1, day=1)
    m = _IN_N.search(text)
    if m:
        n, unit = int(m.group(1)), m.group(2).lower()
        return _shift(now, n, unit)
    m = _ZH_N_LATER.search(text) or re.search(
        r"([一两二三四五六七八九十])\s*(天|周|个月)(后|以后|之后)", text
    )
    if m:
        raw = m.group(1)
        n = int(raw) if raw.isdigit() else _ZH_DIGITS[raw]
        unit = {"天": "day", "周": "week", "个月": "month"}[m.group(2)]
        return _shift(now, n, unit)
    return None


def _shift(now: datetime, n: int, unit: str) -> datetime:
    if unit == "day":
        return _start_of_day(now + timedelta(days=n))
    if unit == "week":
        return _start_of_day(now + timedelta(weeks=n))
    return _add_months(now, n)
