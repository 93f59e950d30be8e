"""The phrasings ``memory.temporal.said_more`` adds to the times a statement tells: a unit
two back ("the weekend before last", "上上周"), abbreviated weekdays, "this past", a
weekday on its own read by the tense of its sentence, "the other day", 大前天, 前几天, and a
month of a named year. Words of their own, not LoCoMo's."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memory.temporal.said import said_times, told_window

# A Wednesday (ISO week 42).
SAID = datetime(2024, 10, 16, 19, 30, tzinfo=UTC)


def values(text: str) -> list[str]:
    return [value for _, value in said_times(text, SAID)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The weekend before last we sailed to Hydra", ["2024-w40"]),
        ("the week before last the boiler broke", ["2024-w40"]),
        ("The Tuesday before last Rosa got her visa", ["2024-10-08"]),
        ("the month before last I quit smoking", ["2024-08"]),
        ("Last Fri I repotted the fig", ["2024-10-11"]),
        ("last Tues. the ferry was cancelled", ["2024-10-15"]),
        ("this past weekend we picked apples", ["2024-w41"]),
        ("two weekends ago Ivo proposed", ["2024-w40"]),
        ("a couple weeks ago I joined a choir", ["2024-w40"]),
        ("few days ago the kiln cracked", ["2024-10-13"]),
        ("I ran my first trail race on Sunday", ["2024-10-13"]),
        ("We're going to the lake on Saturday", ["2024-10-19"]),
        ("The new vet will see Bruno on Monday.", ["2024-10-21"]),
        ("I swim on Mondays", []),
        ("Every Sunday I call my aunt on Sunday", []),
        ("Ida lent me her tent the other day", ["2024-w41"]),
        ("我们上上周去了苏州", ["2024-w40"]),
        ("上上周五他搬走了", ["2024-10-04"]),
        ("上上个月开始学滑板", ["2024-08"]),
        ("大前天我拔了智齿", ["2024-10-13"]),
        ("前几天收到了录取通知", ["2024-10-13"]),
        ("前两天下了一场冰雹", ["2024-10-14"]),
        ("周六我们去看了菊花展", ["2024-10-12"]),
        ("礼拜天我要去外婆家", ["2024-10-20"]),
        ("周末我一般在家看书", []),
        ("去年十月我们在敦煌", ["2023-10", "2023"]),
        ("今年3月换了工作", ["2024-03", "2024"]),
    ],
)
def test_resolves(text, expected):
    assert values(text) == expected


@pytest.mark.parametrize("text", ["上周三去了集市", "上个月搬家了", "前天下了雨"])
def test_one_back_stays_one_back(text):
    # "上上周" is not also "上周"; 大前天 is not also 前天.
    got = values("上上" + text[1:]) if text.startswith("上") else values("大" + text)
    assert got and got != values(text)
    assert len(got) == 1


@given(
    st.lists(
        st.sampled_from(
            [
                "the weekend before last",
                "last Thu",
                "this past year",
                "on Friday",
                "will",
                "the other night",
                "a couple months ago",
                "上上周日",
                "下下个月",
                "大后天",
                "前些天",
                "明年12月",
                "星期天",
                "要",
                "。",
                ". ",
                "x",
            ]
        ),
        max_size=6,
    ).map(" ".join),
    st.datetimes(
        min_value=datetime(1990, 1, 1), max_value=datetime(2090, 12, 31), timezones=st.just(UTC)
    ),
)
def test_every_value_is_a_time_the_index_reads(text, when):
    for words, value in said_times(text, when):
        assert words.strip() in text
        assert told_window(value, when) is not None
