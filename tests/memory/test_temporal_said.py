"""The times a statement tells, resolved against when it was said (``memory.temporal.said``,
structured time for the entity index), and the questions that ask for a time
(``memory.recall.timewin.asks_time``). Written before the weights were measured, with
words of their own."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memory.entities import DATE, MAX_PER_TEXT, told_times
from memory.recall.timewin import asks_time
from memory.temporal.said import said_times

# A Wednesday.
SAID = datetime(2024, 10, 16, 19, 30, tzinfo=UTC)


def values(text: str, when: datetime = SAID) -> list[str]:
    return [value for _, value in said_times(text, when)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Petra: We repainted the boathouse yesterday.", ["2024-10-15"]),
        ("I'm baking rye bread tonight", ["2024-10-16"]),
        ("Tomorrow the orchard opens", ["2024-10-17"]),
        ("Last week I finished the quilt", ["2024-w41"]),
        ("We sold the van last month", ["2024-09"]),
        ("this year the harvest was thin", ["2024"]),
        ("last Friday the choir sang", ["2024-10-11"]),
        ("the recital is next Saturday", ["2024-10-19"]),
        ("three weeks ago I sprained my ankle", ["2024-w39"]),
        ("a couple of months ago we adopted a ferret", ["2024-08"]),
        ("Two years ago she learnt to sail", ["2022"]),
        ("last winter the pipes froze", ["2023-winter"]),
        ("last autumn we hiked the ridge", ["2023-autumn"]),
        ("back in 2017 I lived above a bakery", ["2017"]),
        ("the kiln will be fixed in 5 days", ["2024-10-21"]),
    ],
)
def test_english_times_resolve_against_when_said(text, expected):
    assert values(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("陈默：我们昨天把船屋重新刷了漆。", ["2024-10-15"]),
        ("前天下了一场冰雹", ["2024-10-14"]),
        ("上周我缝完了那床被子", ["2024-w41"]),
        ("上个月我们把面包车卖了", ["2024-09"]),
        ("上周五合唱团演出了", ["2024-10-11"]),
        ("去年果园收成不好", ["2023"]),
        ("三个星期前我扭伤了脚踝", ["2024-w39"]),
        ("两年前她学会了航海", ["2022"]),
        ("5天后窑就修好了", ["2024-10-21"]),
        ("下个月我去成都", ["2024-11"]),
    ],
)
def test_chinese_times_resolve_against_when_said(text, expected):
    assert values(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "May I borrow your ladder?",  # the modal verb
        "I keep 2 ferrets and 3 cats",  # numbers, not times
        "What a day it has been!",
        "The weekly market sells cheese",
        "以后天天练琴",  # "from now on, every day": no 后天 (the day after tomorrow)
        "我在忙呢",
        "她很喜欢秋天的颜色",  # a season's name, no time told
    ],
)
def test_ordinary_words_tell_no_time(text):
    assert values(text) == []


def test_precision_follows_the_words_and_each_time_once():
    text = "Yesterday, and again yesterday evening, the goats escaped; 昨天也是。"
    assert values(text) == ["2024-10-15"]


def test_told_times_are_date_mentions_within_the_cap():
    found = told_times("We moved the beehives last week", SAID)
    assert [(m.norm, m.kind, m.surface) for m in found] == [("2024-w41", DATE, "last week")]
    assert told_times("We moved the beehives last week", SAID, ["2024-w41"]) == []
    full = [f"n{i}" for i in range(MAX_PER_TEXT)]
    assert told_times("We moved the beehives last week", SAID, full) == []


@pytest.mark.parametrize(
    "question",
    [
        "When did Petra repaint the boathouse?",
        "when was the quilt finished",
        "Do you know when did they sell the van?",
        "What year did she learn to sail?",
        "Which month did the pipes freeze?",
        "How long ago did the ankle get sprained?",
        "Since when has he kept ferrets?",
        "陈默什么时候刷的船屋？",
        "她哪一年学会了航海？",
        "面包车是哪个月卖掉的？",
        "合唱团几号演出？",
        "窑何时能修好？",
    ],
)
def test_questions_that_ask_for_a_time(question):
    assert asks_time(question)


@pytest.mark.parametrize(
    "question",
    [
        "What did Petra do when she was a child?",  # "when" joins a clause
        "Where did they sell the van?",
        "Did you have a good time at the fair?",
        "What did she bake tonight?",
        "陈默在哪里刷的船屋？",
        "她为什么学航海？",
        "哪里的面包最好吃？",
    ],
)
def test_questions_that_ask_for_no_time(question):
    assert not asks_time(question)


@given(
    st.text(
        alphabet=st.sampled_from(list("abcdeyst 0123456789?.,我你上周天年月前后昨今明")),
        max_size=40,
    ),
    st.datetimes(
        min_value=datetime(1990, 1, 1), max_value=datetime(2090, 12, 31), timezones=st.just(UTC)
    ),
)
def test_any_text_resolves_to_well_formed_times(text, when):
    out = said_times(text, when)
    assert len({value for _, value in out}) == len(out)
    for words, value in out:
        assert words.strip() and words.strip() in text
        year = int(value[:4])
        assert 1900 <= year <= 2200


@pytest.mark.parametrize(
    "text, expected",
    [
        ("99年前", [("99年前", "1901")]),
        ("101年前", []),  # before 1900: history or a slip, and not the module's years
        ("999 years ago", []),  # would be a three-digit year
        ("in 250 years", []),
        ("999个月前", [("999个月前", "1916-10")]),
    ],
)
def test_times_outside_the_years_read_are_left_out(text, expected):
    assert said_times(text, datetime(2000, 1, 1, tzinfo=UTC)) == expected
