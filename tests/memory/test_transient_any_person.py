"""Transient state does not depend on grammatical person (issue 31, class 4). Agents write
in the third person ("User is…", "用户…", a name), users in the first; a passing state
scoped to now is refused either way, and a durable fact that merely mentions the present,
or a state word used as a preference, is kept. Written before the detector was changed,
in phrasings of our own."""

from __future__ import annotations

import pytest

from memory.content_rules import find_transient

PASSING = [
    # en, third person, agents' style
    "User is exhausted at the moment",
    "The user is in a rush right now",
    "Customer is sleepy tonight",
    "Marta is on the train right now",
    "User feels really hungry right now",
    "The user is stuck in traffic at the moment",
    "She is on a call right now",
    "User's currently away from the laptop",
    # en, first person (unchanged)
    "I'm driving right now, keep it short",
    "we are about to board at the moment",
    # zh, any subject
    "用户现在很累",
    "用户此刻在开车",
    "他今天特别忙",
    "小林这会儿在排队",
    "用户现在有点饿",
    "她眼下赶时间",
    "我现在累了",
    "用户今晚很困",
]

DURABLE = [
    # en: a fact, a job, a preference that uses a state word, a habit
    "User is a night-shift nurse",
    "The user currently lives in Lyon",
    "User is tired of long emails",
    "User is usually sleepy after lunch",
    "User is driving a hybrid these days",
    "The user is busy with a house renovation this year",
    "User is hungry for feedback on the thesis",
    "Marta is a pilot and is often on the road",
    "The user is always in a hurry on Mondays",
    # zh
    "用户现在在上海工作",
    "用户目前住在成都",
    "用户每天下午都很困",
    "他现在是项目经理",
    "用户平时很忙，喜欢简短的回答",
    "她以后每天都开车上班",
    "用户今天跑完了半程马拉松，很累",
]


@pytest.mark.parametrize("text", PASSING)
def test_a_passing_state_is_transient_whoever_is_in_it(text):
    assert find_transient(text) == ["transient_state"]


@pytest.mark.parametrize("text", DURABLE)
def test_a_durable_fact_or_preference_is_not_transient(text):
    assert find_transient(text) == []
