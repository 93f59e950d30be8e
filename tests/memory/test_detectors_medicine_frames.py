"""A medicine the user takes, read by the grammar of prescribing and dosing (issue 32,
round 19, ``memory.detectors.medicine_frames``)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory.detectors.special_categories import find_special_categories

HELD = [
    "I'm three months into imatinib and my counts look better.",
    "Finished my course of flucloxacillin yesterday.",
    "My doctor added sitagliptin to my morning pills.",
    "The doc upped my Zyprexa to 15 mg.",
    "I take two puffs of Symbicort morning and night.",
    "My GP switched me from losartan to something stronger.",
    "I got switched to Fendrax 5 mg last month.",
    "I'm booked in for a colonoscopy on the 14th.",
    "I had a stroke in 2022 and my left hand is still weak.",
    "I'm going through the menopause and the hot flushes are awful.",
    "我每天吃两粒倍他乐克。",
    "我现在每晚睡前吃半片思瑞康。",
    "我吃奥司他韦已经三天了。",
    "저는 매일 로수바스타틴을 먹어요.",
    "私は毎朝アムロジピンを飲んでいます。",
]
PASSED = [
    "I take 500 ml of water to the gym.",
    "I take 2 units of annual leave next week.",
    "I take two spoons of honey in my porridge.",
    "I take the 8:15 bus to work most days.",
    "My husband takes bisoprolol for his heart, so I keep a spare box at home.",
    "As a pharmacist I hand out a lot of omeprazole on Mondays.",
    "I read an article about imatinib and how it changed leukaemia care.",
    "I voted for Pizza Friday in the office poll.",
    "I'm booked in for a haircut on the 14th.",
    "I had a stroke of luck at the quiz last night.",
    "I'm a member of the party planning committee.",
    "我每天吃两个鸡蛋当早饭。",
    "我每天吃一片面包当早餐。",
    "我给我妈买了瑞舒伐他汀。",
    "엄마는 매일 로수바스타틴을 먹어요.",
    "母は毎朝アムロジピンを飲んでいます。",
]


@pytest.mark.parametrize("text", HELD)
def test_a_medicine_in_a_frame_of_the_user_is_health(text: str) -> None:
    assert "health" in find_special_categories(text)


def test_a_party_membership_with_the_party_named_is_political() -> None:
    assert find_special_categories("I've been a member of the Green Party since 2019.") == [
        "political"
    ]


@pytest.mark.parametrize("text", PASSED)
def test_ordinary_and_other_peoples_medicines_pass(text: str) -> None:
    assert find_special_categories(text) == []


_PREFIX = st.text(alphabet="bcdfgklmnprstvz", min_size=1, max_size=2).flatmap(
    lambda c: st.sampled_from(["a", "e", "i", "o", "u"]).map(lambda v: c + v + "r")
)
_STEM = st.sampled_from(
    ["olol", "pril", "sartan", "statin", "tinib", "prazole", "cillin", "gliptin"]
)


@settings(max_examples=60, deadline=None)
@given(prefix=_PREFIX, stem=_STEM, frame=st.sampled_from([0, 1, 2]))
def test_any_name_of_an_inn_stem_in_a_course_frame_is_health(prefix, stem, frame) -> None:
    """The frame reads the stem, so a name nobody listed is a medicine in it; the same
    frame about another person's medicine does not make it the user's."""
    name = prefix + stem
    mine = [
        f"I'm two weeks into {name} now.",
        f"The GP put me on {name} last week.",
        f"Finished my course of {name} on Friday.",
    ][frame]
    theirs = [
        f"My dad is two weeks into {name} now.",
        f"The GP put him on {name} last week.",
        f"My sister finished her course of {name} on Friday.",
    ][frame]
    assert "health" in find_special_categories(mine)
    assert "health" not in find_special_categories(theirs)


@settings(max_examples=40, deadline=None)
@given(
    amount=st.integers(min_value=2, max_value=900),
    unit=st.sampled_from(["ml", "units"]),
    what=st.sampled_from(["water", "milk", "annual leave", "oat milk", "coffee", "juice"]),
)
def test_a_shared_unit_before_an_ordinary_noun_is_not_a_dose(amount, unit, what) -> None:
    assert "health" not in find_special_categories(f"I take {amount} {unit} of {what} with me.")


@pytest.mark.parametrize(
    ("label", "got", "ok"),
    [
        ("date_or_hold", "dated", True),
        ("date_or_hold", "hold", True),
        ("date_or_hold", "store", False),
        ("store", "dated", True),
        ("store", "hold", False),
        ("hold", "dated", False),
        ("refuse", "hold", False),
    ],
)
def test_the_probe_tool_counts_a_dated_store_as_heldout_does(label, got, ok) -> None:
    """``bench/detectors/decisions.py`` reads the future probes as the held-out bench does:
    a change stored with a start after the time said is dated, not applied now."""
    from bench.detectors.decisions import right

    assert right(label, got) is ok
