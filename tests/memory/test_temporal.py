"""Future changes in words (issue 14, class 4): resolved to a future start (dateparser for
English, our own parser for Chinese), held for confirmation when clearly future but
undated, and never applied "now". Positive and negative cases, zh and en."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memory.models import MemoryRecord, MemoryStatus
from memory.temporal import valid_time_hint
from tests.helpers.lifecycle import append, extract

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def _d(y, m, d):
    return datetime(y, m, d, tzinfo=UTC)


DATED = [
    ("I'm moving to Hangzhou at the end of this year", _d(2026, 12, 1)),
    ("By the end of the year we relocate to Austin", _d(2026, 12, 1)),
    ("I move to Berlin in three weeks", _d(2026, 12, 20)),
    ("in 2 months I'll be on the data team", _d(2027, 1, 1)),
    ("After the wedding in May I'll live in Shanghai", _d(2027, 5, 1)),
    ("from March 3 I work at Google", _d(2027, 3, 3)),
    ("starting next month I'm on the platform team", _d(2026, 12, 1)),
    ("next spring we relocate to Austin", _d(2027, 3, 1)),
    ("on 2027-03-01 I join Acme", _d(2027, 3, 1)),
    ("年底搬到杭州", _d(2026, 12, 1)),
    ("过完春节我搬去深圳", _d(2027, 2, 13)),
    ("下个月搬到上海", _d(2026, 12, 1)),
    ("三周后我调到销售部", _d(2026, 12, 20)),
    ("两个月后搬家去广州", _d(2027, 1, 1)),
    ("明年三月起我在上海工作", _d(2027, 3, 1)),
    ("12月15日起搬到北京", _d(2026, 12, 15)),
    ("2027年1月5日开始我在成都", _d(2027, 1, 5)),
    ("下半年我要换到深圳办公室", _d(2027, 7, 1)),
]

UNDATED = [
    "After the wedding I'll live in Shanghai",
    "Once the lease ends I will move to Lyon",
    "I will move to Paris someday",
    "等孩子毕业以后搬回老家",
    "我打算搬到成都",
    "将来我要搬到大理",
]

NOT_FUTURE = [
    "I live in Hangzhou",
    "我住在杭州",
    "I moved to Shanghai last week",
    "I was born in June",
    "I have 2 cats and a dog",
    "I work 8 hours a day",
    "以后技术回答请先给结论，再给证据",
    "我上个月搬到了上海",
    "去年三月我在北京",
    "My sister's wedding is in May",  # a free statement that is true now
]


@pytest.mark.parametrize(("text", "start"), DATED)
def test_dated_future_changes_resolve_to_their_start(text, start):
    hint = valid_time_hint(text, NOW)
    assert hint is not None and hint.kind == "future", (text, hint)
    assert hint.start == start, (text, hint.start)


@pytest.mark.parametrize("text", UNDATED)
def test_clearly_future_but_undated_is_flagged(text):
    hint = valid_time_hint(text, NOW)
    assert hint is not None and hint.kind == "future_undated", (text, hint)


@pytest.mark.parametrize("text", NOT_FUTURE)
def test_present_and_past_statements_are_not_future(text):
    """Nothing forward-looking: no hint, or a past start (tests/memory/
    test_time_from_the_event.py holds what that start is)."""
    hint = valid_time_hint(text, NOW, slot="wedding" not in text)
    assert hint is None or (hint.kind == "past" and hint.start <= NOW), (text, hint)


# --- through the write path ----------------------------------------------------------------


def _current(subject):
    now = datetime.now(UTC)
    return [
        r.value
        for r in MemoryRecord.objects.filter(
            subject=subject, status=MemoryStatus.ACTIVE, predicate="home_city", valid_from__lte=now
        )
        if r.valid_to is None or r.valid_to > now
    ]


FUTURE_MOVES = [
    (
        "I live in Shanghai",
        "Shanghai",
        "I'm moving to Hangzhou at the end of this year",
        "Hangzhou",
    ),
    ("I live in Shanghai", "Shanghai", "In three weeks, I move to Berlin", "Berlin"),
    ("我住在上海", "上海", "年底我搬到杭州", "杭州"),
    ("我住在上海", "上海", "过完春节我搬去深圳", "深圳"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("said", "city", "future", "new_city"), FUTURE_MOVES)
def test_a_future_move_never_answers_now(write_agent, owner_subject, said, city, future, new_city):
    extract(append(write_agent, owner_subject, said))
    extract(append(write_agent, owner_subject, future))
    assert _current(owner_subject) == [city]
    planned = MemoryRecord.objects.get(subject=owner_subject, value=new_city)
    assert planned.valid_from > datetime.now(UTC)


UNDATED_MOVES = [
    ("I live in Shanghai", "Shanghai", "After the wedding, I will move to Hangzhou", "Hangzhou"),
    ("我住在上海", "上海", "等孩子毕业以后我搬回成都", "成都"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("said", "city", "future", "new_city"), UNDATED_MOVES)
def test_an_undated_future_move_waits_for_confirmation(
    write_agent, owner_subject, said, city, future, new_city
):
    extract(append(write_agent, owner_subject, said))
    extract(append(write_agent, owner_subject, future))
    assert _current(owner_subject) == [city]
    held = MemoryRecord.objects.get(subject=owner_subject, value=new_city)
    assert held.status == MemoryStatus.PENDING_CONFIRMATION
    assert held.status_reason == "future_needs_confirmation"


@pytest.mark.django_db
def test_api_candidate_with_future_words_and_no_valid_from(api, owner_subject):
    def submit(statement, value):
        return api.post_json(
            "/api/v1/candidates",
            {
                "candidates": [
                    {
                        "memory_type": "semantic",
                        "namespace": "assistant/profile",
                        "predicate": "home_city",
                        "statement": statement,
                        "value": value,
                        "assertion_kind": "user_explicit",
                        "confidence": 1.0,
                        "purpose": "personalization",
                        "consent_basis": "explicit_consent",
                    }
                ]
            },
        ).json()["results"][0]

    assert submit("User lives in Shanghai", "Shanghai")["operation"] == "ADD"
    later = submit("User moves to Hangzhou after the wedding", "Hangzhou")
    assert (later["operation"], later["reason_code"]) == ("QUARANTINE", "future_needs_confirmation")
    dated = submit("User moves to Chengdu in three weeks", "Chengdu")
    assert dated["operation"] in ("ADD", "SUPERSEDE"), dated
    assert _current(owner_subject) == ["Shanghai"]
