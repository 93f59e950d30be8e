"""Time phrases to come in Japanese and Korean: the calendar words (来週, 来月, 来年, 明日,
再来月; 다음 주, 다음 달, 내년, 내일, 모레), amounts after now (3か月後, 2週間後; 3개월 후,
2주 뒤) and a named month (4月から, 4월부터). Past words (先月, 去年, 지난달, 작년) are never
read as a start here: a statement about the past holds from when it was said."""

from __future__ import annotations

import re
from datetime import date, datetime

from memory.temporal.common import _CHANGE_CUE, _add_months, _day, _shift

_JA_NUM = {
    "一": 1,
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
_KO_NUM = {
    "한": 1,
    "두": 2,
    "세": 3,
    "네": 4,
    "다섯": 5,
    "여섯": 6,
    "일곱": 7,
    "여덟": 8,
    "아홉": 9,
    "열": 10,
}

# (pattern, unit, amount): the next calendar unit and the one after.
_JA_WORDS = (
    (r"再来週", "week", 2),
    (r"来週", "week", 1),
    (r"再来月", "month", 2),
    (r"来月", "month", 1),
    (r"再来年", "year", 2),
    (r"来年|翌年", "year", 1),
    (r"明後日|あさって", "day", 2),
    (r"明日|あした|あす", "day", 1),
    (r"다다음\s?주", "week", 2),
    (r"다음\s?주", "week", 1),
    (r"다다음\s?달", "month", 2),
    (r"다음\s?달", "month", 1),
    (r"내후년", "year", 2),
    (r"내년", "year", 1),
    (r"모레", "day", 2),
    (r"내일", "day", 1),
)
_AFTER = re.compile(
    r"(?P<n>\d+|[一二三四五六七八九十]+|한|두|세|네|다섯|여섯|일곱|여덟|아홉|열)\s*"
    r"(?P<unit>日|週間|か月|ヶ月|カ月|ヵ月|年|일|주|개월|달|년)\s*(?:後|후|뒤)"
)
_UNITS = {
    "日": "day",
    "일": "day",
    "週間": "week",
    "주": "week",
    "年": "year",
    "년": "year",
}
_MONTH = re.compile(r"(?P<m>\d{1,2})\s*(?:月|월)(?:\s*(?P<d>\d{1,2})\s*(?:日|일))?")
# "전에" (before) after a time or on its own, not inside a word ("대전에서", in Daejeon).
_PAST = re.compile(
    r"先月|先週|去年|昨年|昨日|前に|지난|작년|어제|(?<![가-힣])전에|(?<=[년월일주달래간])\s*전에"
)


def _number(raw: str) -> int | None:
    if raw.isdigit():
        return int(raw)
    if raw in _KO_NUM:
        return _KO_NUM[raw]
    if raw == "十":
        return 10
    if raw.startswith("十"):
        return 10 + _JA_NUM.get(raw[1:], 0)
    if raw.endswith("十"):
        return 10 * _JA_NUM.get(raw[0], 0)
    return _JA_NUM.get(raw)


def _jako_date(text: str, now: datetime) -> datetime | None:
    if not re.search(r"[\u3040-\u30ff\uac00-\ud7a3]", text):
        return None  # neither kana nor hangul: not Japanese or Korean
    if _PAST.search(text):
        return None
    if re.search(r"올해\s?말|연말|年末|年内|今年中", text):  # the end of this year
        december = _day(now, date(now.year, 12, 1))
        return december if december > now else _day(now, date(now.year, 12, 31))
    for pattern, unit, n in _JA_WORDS:
        if re.search(pattern, text):
            if unit == "week":  # that week's Monday
                return _shift(now, 7 * n - now.weekday(), "day")
            if unit == "day":
                return _shift(now, n, "day")
            return _shift(now, n, unit) if unit == "year" else _add_months(now, n)
    m = _AFTER.search(text)
    if m:
        n = _number(m["n"])
        unit = _UNITS.get(m["unit"], "month")
        if n:
            return _shift(now, n, unit) if unit != "month" else _add_months(now, n)
    m = _MONTH.search(text)
    # A month is a start only beside a change ("4月から", "4월부터"), not "誕生日は5月".
    if m and _CHANGE_CUE.search(text):
        month, day = int(m["m"]), int(m["d"] or 1)
        if not 1 <= month <= 12:
            return None
        try:
            when = _day(now, date(now.year, month, day))
        except ValueError:
            return None
        if when <= now:
            when = (
                _day(now, date(now.year + 1, month, day))
                if month != now.month
                else _shift(now, 1, "day")
            )
        return when
    return None
