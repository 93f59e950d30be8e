"""What a text names (``memory.entities``): Latin and Chinese names, dates, kinds read from
their surroundings, normalised forms and the other names a text gives. No model, no list
of names: the tests use names nobody tuned on."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memory.entities import (
    DATE,
    MAX_PER_TEXT,
    ORGANISATION,
    PERSON,
    PLACE,
    extract,
    keys,
    normalise,
)


def _kinds(text: str) -> dict[str, str]:
    return {m.norm: m.kind for m in extract(text)}


def test_latin_names_not_the_first_word_of_a_sentence():
    found = _kinds("Tomasz: Hey Ingrid! I hiked with Oluwaseun near Trondheim yesterday.")
    assert found["ingrid"] and found["oluwaseun"] == PERSON and found["trondheim"] == PLACE
    # The speaker and the greeting open sentences: by their case they say nothing.
    assert "tomasz" not in found and "hey" not in found and "i" not in found


def test_a_name_that_opens_a_sentence_is_kept_by_its_rest():
    found = keys("Zhou Wenjing (周文静) joined Harbin Institute of Technology in May 2021.")
    assert "wenjing" in found and "周文静" in found and "zhou wenjing" not in found
    # A question naming the whole name looks it up by its rest too.
    assert {"zhou wenjing", "wenjing"} <= set(keys("Where does Zhou Wenjing work?"))
    assert "harbin institute of technology" in found and "may 2021" in found


def test_kinds_dates_and_organisations():
    found = _kinds("She started at Kestrel Analytics Ltd on 3 March 2022, then visited Quito.")
    assert found["kestrel analytics ltd"] == ORGANISATION
    assert found["3 march 2022"] == DATE and found["quito"] == PLACE
    assert "march" not in found  # a word of a longer name is that name's


def test_chinese_names_places_and_pinyin():
    found = {m.norm: m for m in extract("上个月我和欧阳娜娜在成都见了面，她说想去拉萨。")}
    assert found["欧阳娜娜"].kind == PERSON and found["成都"].kind == PLACE
    assert found["拉萨"].kind == PLACE
    # The pinyin of a Chinese person's name, both orders, point at the name.
    assert {m.alias_of for m in found.values() if m.norm.isascii()} == {"欧阳娜娜"}
    assert "ou yangnana" in found  # the most common reading of each character


def test_latin_inside_chinese_quoted_titles_and_bracketed_other_names():
    found = keys("我在Figma上画了《山海经》的插图，住在旧金山（San Francisco）。")
    assert {"figma", "山海经", "旧金山", "san francisco"} <= set(found)
    alias = {m.norm: m.alias_of for m in extract("旧金山（San Francisco）很冷")}
    assert alias["san francisco"] == "旧金山"


def test_chinese_dates_and_traditional_characters_fold():
    assert "2024年7月" in keys("我们2024年7月搬了家")
    assert normalise("學員報") == "学员报" and normalise("Ｋｙｏｔｏ") == "kyoto"


@pytest.mark.parametrize(
    ("text", "months"),
    [
        ("四月的时候我们把船屋重新刷了漆。", {"四月": "april"}),
        ("十二月的集市我要去烤饼干", {"十二月": "december"}),
        (
            "我十一月去了，一月和四月份也去了",
            {"十一月": "november", "一月": "january", "四月": "april"},
        ),
        ("2025年三月搬的家", {"三月": "march"}),
        ("九月開學", {"九月": "september"}),  # traditional characters around it
    ],
)
def test_a_month_in_chinese_numerals_is_a_date_with_its_english_name(text, months):
    found = {m.norm: m for m in extract(text) if m.kind == "date"}
    for month, english in months.items():
        assert found[month].alias_of == "" and found[english].alias_of == month
        assert english in keys(text)


@pytest.mark.parametrize(
    "text",
    [
        "三个月前我开始学游泳",
        "你几月去？",
        "十月一日是国庆节",
        "第一月",
        "每月一次",
        "上月",
        "这个月",
    ],
)
def test_a_span_a_question_or_a_day_without_a_year_is_no_month(text):
    assert not any(m.kind == "date" for m in extract(text))


def test_english_months_are_read_as_before():
    told = extract("Back in April we repainted the boathouse.")
    assert {(m.norm, m.alias_of) for m in told if m.kind == "date"} == {("april", "")}
    assert "may 2023" in keys("We met in May 2023 at the lake.")
    assert not any(m.norm == "march" for m in extract("They march on Sunday."))


def test_aka_gives_another_name():
    found = {m.norm: m.alias_of for m in extract("Our dog is called Biscuit, aka Bisky.")}
    assert found.get("bisky") == "biscuit"


def test_nothing_named():
    assert extract("i think it went well, thanks!") == [] and extract("") == []
    assert extract("好的，谢谢") == []  # 谢谢 is tagged a name: a doubled word is none


@given(st.text(max_size=200))
def test_normalise_is_idempotent_and_extract_is_bounded(text):
    assert normalise(normalise(text)) == normalise(text)
    mentions = extract(text)
    norms = [m.norm for m in mentions]
    assert len(norms) == len(set(norms)) and len(norms) <= MAX_PER_TEXT + 3
    # An alias points at a name of the same text.
    assert all(m.alias_of in norms for m in mentions if m.alias_of)
