"""The times a statement tells, resolved against when it was said: structured time for
the entity index (``MemoryMention`` rows of kind ``date``, ``services.mentions``).

"I went camping yesterday", said on 8 May 2023, tells 2023-05-07; "上周我们去了杭州"
tells the week before; "two weeks ago" and "三个月前" a day that many units back; "last
summer", "去年" a season or a year. Each time is written at the precision the words give
it: a day ``2023-05-07``, an ISO week ``2023-w18``, a month ``2023-05``, a season
``2022-summer`` (northern), a year ``2023``. Absolute dates ("7 May 2023", "2023年5月")
are already read by ``memory.entities``.

The words are closed grammatical classes: deictic time adverbs (yesterday/today/tonight/
tomorrow, 昨天/今天/明天/前天/后天), a determiner with a unit of the calendar (last/this/
next + week, month, year, weekend, a weekday or a season; 上/下/这/本 + 周/星期/月,
去年/今年/明年/前年), a number with a unit and "ago"/"in" (前/后), and a year after a
preposition ("in 2022"). Chinese day words are read on the segmenter's words, as
``memory.temporal`` does ("以后天天" holds no 后天), or where one opens a clause.

With ``ENGRAM_WRITE_BATCH["TOLD_TIME_GATES"]`` (default on) a pattern is searched only in
text where a piece of it every match holds is found first, with the same flags (so the
same case folding): " ago" for the amounts back, "19xx"/"20xx" for the years, a Chinese
day word only where its characters stand in the text (and the segmenter runs only then),
``said_more``'s own; off: every pattern on every text (the reference). The same times
either way (tests/memory/test_told_time_gates.py).
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

from django.conf import settings

from memory.temporal.common import _add_months
from memory.temporal.en import _EN_NUM, _en_int
from memory.temporal.said_more import more_chinese, more_english
from memory.temporal.window import Window, named_window
from memory.temporal.zh import _zh_int, _zh_words

_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_SEASONS = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}
_EN_DEICTIC = re.compile(r"\b(?P<w>yesterday|today|tonight|tomorrow)\b", re.I)
_EN_DET = re.compile(
    r"\b(?P<det>last|this|next)\s+(?P<unit>night|morning|afternoon|evening|weekend|week|month"
    r"|year|" + "|".join(_WEEKDAYS) + "|" + "|".join(_SEASONS) + r")\b",
    re.I,
)
_EN_AGO = re.compile(rf"\b(?P<n>{_EN_NUM})\s+(?P<unit>day|week|month|year)s?\s+ago\b", re.I)
_EN_IN = re.compile(rf"\bin\s+(?P<n>{_EN_NUM})\s+(?P<unit>day|week|month|year)s?\b", re.I)
_FIRST_YEAR, _LAST_YEAR = 1900, 2199
_EN_YEAR = re.compile(r"\b(?:in|since|during|of|back in)\s+(?P<year>(?:19|20)\d\d)\b", re.I)
# The gates: a sub-pattern of every match of the pattern they stand before, same flags.
_AGO_GATE = re.compile(r"ago\b", re.I)  # _EN_AGO here and in said_more
_YEAR_GATE = re.compile(r"(?:19|20)\d\d\b", re.I)  # _EN_YEAR

_ZH_DAY_WORDS = {
    "前天": -2,
    "昨天": -1,
    "昨日": -1,
    "昨晚": -1,
    "今天": 0,
    "今日": 0,
    "今晚": 0,
    "今早": 0,
    "明天": 1,
    "后天": 2,
}
_ZH_WEEK = re.compile(
    r"(?<![上下])(?P<det>上|下|这|本)(?:个)?(?:周|星期|礼拜)(?P<day>[一二三四五六日天末])?"
)
_ZH_MONTH = re.compile(r"(?<![上下])(?P<det>上|下|这|本)个?月")
_ZH_YEARS = {"前年": -2, "去年": -1, "今年": 0, "明年": 1}
_ZH_AMOUNT = re.compile(
    r"(?P<n>\d{1,3}|[一二两三四五六七八九十几]{1,3})\s*(?:个)?"
    r"(?P<unit>天|日|周|星期|礼拜|月|年)(?P<dir>以前|之前|前|以后|之后|后)"
)
_ZH_UNIT = {
    "天": "day",
    "日": "day",
    "周": "week",
    "星期": "week",
    "礼拜": "week",
    "月": "month",
    "年": "year",
}


def _day(d: date) -> str:
    return d.isoformat()


def _week(d: date) -> str:
    year, week, _ = d.isocalendar()
    return f"{year}-w{week:02d}"


def _month(d: date) -> str:
    return f"{d.year}-{d.month:02d}"


def _back(d: date, n: int, unit: str) -> str:
    """``n`` units before (negative: after) ``d``, at that unit's precision."""
    if unit == "day":
        return _day(d - timedelta(days=n))
    if unit == "week":
        return _week(d - timedelta(weeks=n))
    if unit == "month":
        shifted = _add_months(datetime(d.year, d.month, 1), -n)
        return _month(shifted.date())
    return str(d.year - n)


def _season(d: date, season: str, det: str) -> str:
    """The season (labelled by the year it starts in) ``det`` names, said on ``d``: the
    one under way or coming ("this"), the latest one past ("last"), the next to start."""
    start = _SEASONS[season]
    year = d.year if d.month >= start else d.year - 1  # the latest to have started
    inside = (d.year - year) * 12 + d.month - start < 3
    if det == "last":
        year -= 1 if inside else 0
    elif det == "next" or not inside:
        year += 1
    return f"{year}-{season.replace('fall', 'autumn')}"


def _en_det(d: date, det: str, unit: str) -> str:
    step = {"last": -1, "this": 0, "next": 1}[det]
    if unit in ("night", "morning", "afternoon", "evening"):
        return _day(d + timedelta(days=-1 if det == "last" else 0))
    if unit in ("week", "weekend"):
        return _week(d + timedelta(weeks=step))
    if unit == "month":
        return _back(d, -step, "month")
    if unit == "year":
        return str(d.year + step)
    if unit in _SEASONS:
        return _season(d, unit, det)
    wanted = _WEEKDAYS.index(unit)
    if det == "last":
        back = (d.weekday() - wanted) % 7 or 7
        return _day(d - timedelta(days=back))
    ahead = (wanted - d.weekday()) % 7 or (7 if det == "next" else 0)
    return _day(d + timedelta(days=ahead))


def told_time_gates() -> bool:
    """``ENGRAM_WRITE_BATCH["TOLD_TIME_GATES"]``: the exact gates of ``said_times`` and
    ``said_more``; off: the reference."""
    return settings.ENGRAM_WRITE_BATCH.get("TOLD_TIME_GATES", True)


def said_times(text: str, when: datetime) -> list[tuple[str, str]]:
    """(words, resolved time) for each time ``text`` tells, read as said at ``when``,
    each resolved time once, in the order found."""
    gated = told_time_gates()
    d = when.date()
    out: dict[str, str] = {}

    def add(words: str, value: str | None) -> None:
        # Years the module reads at all: an explicit year is 19xx or 20xx (``_EN_YEAR``),
        # and an amount back or ahead ("101年前", "999 years ago") that leaves them is
        # history or a slip, not a time of the user's life (and would not be four digits).
        if value and value not in out and _FIRST_YEAR <= int(value[:4].rstrip("-")) <= _LAST_YEAR:
            out[value] = words

    for m in _EN_DEICTIC.finditer(text):
        w = m["w"].lower()
        add(m[0], _day(d + timedelta(days={"yesterday": -1, "tomorrow": 1}.get(w, 0))))
    for m in _EN_DET.finditer(text):
        add(m[0], _en_det(d, m["det"].lower(), m["unit"].lower()))
    ago = not gated or _AGO_GATE.search(text) is not None
    for pattern, sign in ((_EN_AGO, 1), (_EN_IN, -1)):
        if pattern is _EN_AGO and not ago:
            continue
        for m in pattern.finditer(text):
            n = _en_int(m["n"])
            if n:
                add(m[0], _back(d, sign * n, m["unit"].lower()))
    if not gated or _YEAR_GATE.search(text):
        for m in _EN_YEAR.finditer(text):
            add(m[0], m["year"])
    more_english(text, d, add, gated=gated, ago=ago)
    if re.search(r"[\u3400-\u9fff]", text):
        more_chinese(text, d, add)
        _chinese(text, d, add, gated=gated)
    return [(words, value) for value, words in out.items()]


def _chinese(text: str, d: date, add, *, gated: bool = False) -> None:
    # Gated: a day word not in the text is neither among the segmenter's words (pieces of
    # the text) nor found by either search, so it is skipped, and the segmenter runs only
    # for a text holding one.
    words = None if gated else _zh_words(text)
    for word, offset in _ZH_DAY_WORDS.items():
        if gated:
            if word not in text:
                continue
            words = _zh_words(text) if words is None else words
        # As the segmenter cuts it, or opening a clause ("前天下了雨" cuts as 前/天下).
        if re.search(rf"大{word}", text) and not re.search(rf"(?<!大){word}", text):
            continue  # 大前天, 大后天: said_more
        if word in words or re.search(rf"(?:^|[\s，。！？；：,.!?;:]){word}", text):
            add(word, _day(d + timedelta(days=offset)))
    for word, offset in _ZH_YEARS.items():
        if word in text:
            add(word, str(d.year + offset))
    for m in _ZH_WEEK.finditer(text):
        step = {"上": -1, "下": 1}.get(m["det"], 0)
        week_day = d + timedelta(weeks=step)
        if m["day"] and m["day"] != "末":
            index = "一二三四五六日".find(m["day"].replace("天", "日"))
            add(m[0], _day(week_day - timedelta(days=week_day.weekday() - index)))
        else:
            add(m[0], _week(week_day))
    for m in _ZH_MONTH.finditer(text):
        add(m[0], _back(d, -{"上": -1, "下": 1}.get(m["det"], 0), "month"))
    for m in _ZH_AMOUNT.finditer(text):
        n = 3 if m["n"] == "几" else _zh_int(m["n"])
        if n:
            sign = 1 if "前" in m["dir"] else -1
            add(m[0], _back(d, sign * n, _ZH_UNIT[m["unit"]]))


_TOLD_DAY = re.compile(r"(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})")
_TOLD_WEEK = re.compile(r"(?P<y>\d{4})-w(?P<w>\d{2})")
_TOLD_MONTH = re.compile(r"(?P<y>\d{4})-(?P<m>\d{2})")
_TOLD_SEASON = re.compile(r"(?P<y>\d{4})-(?P<s>spring|summer|autumn|winter)")
_TOLD_YEAR = re.compile(r"(?P<y>\d{4})")


def told_window(norm: str, now: datetime) -> Window | None:
    """The stretch of time one ``date`` mention of the entity index stands for: a time
    ``said_times`` resolved ("2023-05-07", "2023-w18", "2023-05", "2022-summer", "2023";
    a season labelled by the year it starts in), or an absolute date as written
    ("7 may 2023", "2023年5月", read by ``window.named_window`` against ``now``). None for
    a date without a year ("may 7") or anything else."""
    try:
        if m := _TOLD_DAY.fullmatch(norm):
            start = datetime(int(m["y"]), int(m["m"]), int(m["d"]), tzinfo=UTC)
            return Window(start, start + timedelta(days=1))
        if m := _TOLD_WEEK.fullmatch(norm):
            monday = date.fromisocalendar(int(m["y"]), int(m["w"]), 1)
            start = datetime(monday.year, monday.month, monday.day, tzinfo=UTC)
            return Window(start, start + timedelta(weeks=1))
        if m := _TOLD_MONTH.fullmatch(norm):
            start = datetime(int(m["y"]), int(m["m"]), 1, tzinfo=UTC)
            return Window(start, _add_months(start, 1))
        if m := _TOLD_SEASON.fullmatch(norm):
            start = datetime(int(m["y"]), _SEASONS[m["s"]], 1, tzinfo=UTC)
            return Window(start, _add_months(start, 3))
        if m := _TOLD_YEAR.fullmatch(norm):
            return Window(
                datetime(int(m["y"]), 1, 1, tzinfo=UTC), datetime(int(m["y"]) + 1, 1, 1, tzinfo=UTC)
            )
    except ValueError:
        return None
    # Title case: the index folds case, and the window reads lower-case "may" as the verb.
    window = named_window(norm.title(), now)
    return window if window is not None and window.start is not None else None
