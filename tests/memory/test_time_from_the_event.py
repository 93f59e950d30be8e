"""Time is read from the event (issue 31, class 2): every relative expression resolves
against when it was said — the cited event's ``occurred_at`` — never the server's clock.
Past expressions give a past start, future ones a future start or a hold when no date can
be found, holidays are computed (lunar ones too, past any table's end), and words that
only look like time words give no date. Written before the resolver was changed, in
phrasings of our own, in English and Chinese."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from memory.temporal import valid_time_hint

JUNE_10_2025 = datetime(2025, 6, 10, 15, 30, tzinfo=UTC)


def _start(text: str, said: datetime = JUNE_10_2025, slot: bool = True):
    hint = valid_time_hint(text, said, slot=slot)
    return (hint.kind, hint.start.date() if hint.start else None) if hint else None


@pytest.mark.parametrize(
    ("text", "kind", "day"),
    [
        # a month without a year: the latest such month not after the event
        ("I started at the bakery in March", "past", date(2025, 3, 1)),
        ("We moved to Ghent in September", "past", date(2024, 9, 1)),
        ("我三月份换了工作", "past", date(2025, 3, 1)),
        ("用户九月搬到了厦门", "past", date(2024, 9, 1)),
        # relative to the event
        ("two months ago I took up climbing", "past", date(2025, 4, 10)),
        ("Three weeks ago the user finished moving to Leeds", "past", date(2025, 5, 20)),
        ("last week we relocated to Bristol", "past", date(2025, 6, 3)),
        ("I adopted a greyhound yesterday", "past", date(2025, 6, 9)),
        ("last year the user switched to a standing desk", "past", date(2024, 1, 1)),
        ("我三周前搬到了大连", "past", date(2025, 5, 20)),
        ("上个月我开始学大提琴", "past", date(2025, 5, 1)),
        ("去年用户搬到了西安", "past", date(2024, 1, 1)),
        ("前天我换了新工作", "past", date(2025, 6, 8)),
        ("用户两年前开始养鸡", "past", date(2023, 6, 10)),
        ("去年三月我搬到了南京", "past", date(2024, 3, 1)),
        ("last March the user switched to the night desk", "past", date(2025, 3, 1)),
        ("last June we relocated to Cork", "past", date(2024, 6, 1)),
    ],
)
def test_a_past_expression_gives_a_past_start_from_the_event(text, kind, day):
    assert _start(text) == (kind, day)


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("next month I'll move to Oslo", date(2025, 7, 1)),
        ("in three weeks the user starts at the clinic", date(2025, 7, 1)),
        ("the user will switch teams tomorrow", date(2025, 6, 11)),
        ("come September the user moves to night shifts", date(2025, 9, 1)),
        ("Starting Q3 the user leads the data team", date(2025, 7, 1)),
        ("after Christmas I will move to Lisbon", date(2025, 12, 26)),
        ("from New Year the user will work remotely", date(2026, 1, 1)),
        ("我下周要搬到青岛", date(2025, 6, 16)),
        ("后天我搬到杭州", date(2025, 6, 12)),
        ("我以后天天跑步，下周搬到上海", date(2025, 6, 16)),
        ("还有十来天我就搬去深圳", date(2025, 6, 20)),
        ("国庆以后用户去新公司上班", date(2025, 10, 8)),
        ("过完中秋我要换工作", date(2025, 10, 7)),
        ("元旦起用户改用新邮箱", date(2026, 1, 1)),
        ("端午节后我搬到成都", date(2026, 6, 20)),  # 2025's was on May 31
    ],
)
def test_a_future_expression_gives_a_future_start_from_the_event(text, day):
    assert _start(text) == ("future", day)


def test_the_spring_festival_is_computed_in_any_year():
    """Not a table: 2033 and 2041 lie past the former table's end (2032)."""
    assert _start("春节后搬到昆明", datetime(2032, 12, 1, tzinfo=UTC)) == (
        "future",
        date(2033, 2, 7),  # 2033-01-31 + a week
    )
    assert _start("过完年我要换工作", datetime(2040, 11, 20, tzinfo=UTC)) == (
        "future",
        date(2041, 2, 8),  # 2041-02-01 + a week
    )


@pytest.mark.parametrize(
    "text",
    [
        "once the house sale closes I will move to the coast",
        "after the renovation the user will switch offices",
        "等婚礼办完我们搬去广州",
        "等孩子上了初中，用户就换工作",
    ],
)
def test_a_future_without_a_date_is_held(text):
    assert _start(text) == ("future_undated", None)


@pytest.mark.parametrize(
    "text",
    [
        "我以后天天跑步",
        "every day after work I swim",
        "next to the station there's my gym",
        "May I say I love jazz",
        "User prefers the March Hare edition",
        "用户后天性听力不好",
        "用户过去年轻时住在海边",  # 过去 + 年轻: not 去年
        "User lives in Porto",
        "用户住在成都",
    ],
)
def test_words_that_only_look_like_time_give_no_date(text):
    assert _start(text) is None


def test_the_same_words_said_a_year_apart_resolve_a_year_apart():
    a = _start("I moved to Graz last month", datetime(2024, 3, 5, tzinfo=UTC))
    b = _start("I moved to Graz last month", datetime(2025, 3, 5, tzinfo=UTC))
    assert a == ("past", date(2024, 2, 1)) and b == ("past", date(2025, 2, 1))


# --- through the API: the cited event's time, not the server's -----------------------------

EVENT_TIME = "2025-06-10T15:30:00Z"


def _said_then(api, text: str, client_id: str, **extra):
    appended = api.post_json(
        "/api/v1/events",
        {
            "events": [
                {
                    "client_event_id": client_id,
                    "kind": "message",
                    "role": "user",
                    "content": text,
                    "occurred_at": EVENT_TIME,
                }
            ]
        },
    )
    assert appended.status_code == 200, appended.content
    response = api.post_json(
        "/api/v1/candidates",
        {
            "candidates": [
                {
                    "memory_type": "semantic",
                    "namespace": "assistant/profile",
                    "statement": text,
                    "assertion_kind": "user_explicit",
                    "confidence": 1.0,
                    "purpose": "personalization",
                    "consent_basis": "explicit_consent",
                    "source_client_event_ids": [client_id],
                    **extra,
                }
            ]
        },
    )
    assert response.status_code == 200, response.content
    return response.json()["results"][0]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("text", "valid_from"),
    [
        ("I moved to Hangzhou in June", "2025-06-01"),
        ("Three weeks ago I finished moving to Leeds", "2025-05-20"),
        ("我上个月搬到了苏州", "2025-05-01"),
        ("I keep a sourdough starter in the fridge", "2025-06-10"),  # no time words: when said
        ("用户养了一只柯基", "2025-06-10"),
        ("next month I will move to Oslo", "2025-07-01"),  # future then, past now: in force
    ],
)
def test_a_statement_holds_from_what_its_event_says(api, text, valid_from):
    from memory.models import MemoryRecord

    result = _said_then(api, text, f"t-{abs(hash(text))}")
    assert result["operation"] == "ADD", result
    record = MemoryRecord.objects.get(pk=result["record_id"])
    assert record.valid_from.date().isoformat() == valid_from


@pytest.mark.django_db
def test_an_explicit_valid_from_wins_and_an_undated_plan_is_held(api):
    from memory.models import MemoryRecord

    explicit = _said_then(
        api, "I moved to Hangzhou in June", "t-explicit", valid_from="2025-06-05T00:00:00Z"
    )
    assert MemoryRecord.objects.get(pk=explicit["record_id"]).valid_from.date().isoformat() == (
        "2025-06-05"
    )
    held = _said_then(api, "等装修完我就搬到厦门", "t-held")
    assert (held["operation"], held["reason_code"]) == ("QUARANTINE", "future_needs_confirmation")


@pytest.mark.parametrize(
    "text",
    [
        "until Christmas the user works remotely",
        "I love Christmas markets",
        "New Year's resolutions bore me",
    ],
)
def test_a_holiday_named_but_not_as_a_start_gives_no_start(text):
    assert _start(text) in (None, ("future_undated", None))


def test_soon_before_the_month_end_is_not_last_month():
    """马上 ("soon") + 月底 ("month end") holds no 上月 ("last month")."""
    hint = _start("马上月底了，用户在赶报告")
    assert hint is None or hint[0] != "past"
