"""Time is read from the event, in wordings the resolver was not written for (issue 31,
class 2, second round). Every case resolves against when it was said — a Wednesday in
November 2024, two years before the test machine's clock — never the server's clock:

- a past month without a year is the latest such month not after the event;
- a past relative expression gives a start that far before the event;
- a future relative expression, a weekday with its day of the month, a part of a month,
  or a holiday (Western ones and the lunar ones, computed) gives a future start;
- a future with no findable date is held (``future_undated``);
- no time words, or words that only look like time words ("以后天天", "next to", "may I",
  a birthday month, a habit at Christmas), give no date at all.

Written before the resolver was changed, in phrasings of our own, in English and Chinese;
the API cases show the cited event's time, an explicit ``valid_from`` and the hold at work.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from memory.temporal import TimeHint, valid_time_hint

# A Wednesday; the test machine's clock is years later.
SAID = datetime(2024, 11, 20, 9, 0, tzinfo=UTC)


def _hint(text: str, said: datetime = SAID, slot: bool = True):
    hint = valid_time_hint(text, said, slot=slot)
    return (hint.kind, hint.start.date() if hint.start else None) if hint else None


PAST = [
    # a month without a year: the latest such month not after the event
    ("I switched to the night shift in August", date(2024, 8, 1)),
    ("The user relocated to Tartu in December", date(2023, 12, 1)),
    ("She changed jobs in November", date(2024, 11, 1)),
    ("我十二月换到了运营部", date(2023, 12, 1)),
    ("用户8月份搬去了青岛", date(2024, 8, 1)),
    ("我是七月份入职这家公司的", date(2024, 7, 1)),
    # relative to the event
    ("Four days ago I moved into a flat in Lyon", date(2024, 11, 16)),
    ("a couple of months ago the user started learning Welsh", date(2024, 9, 20)),
    ("The user moved to Cork last Friday", date(2024, 11, 15)),
    ("we relocated to Bern the week before last", date(2024, 11, 6)),
    ("I started cycling to work earlier this month", date(2024, 11, 1)),
    ("Earlier this year I moved to Perth", date(2024, 1, 1)),
    ("I quit my job at the bank at the end of last year", date(2023, 12, 1)),
    ("用户五天前搬到了武汉", date(2024, 11, 15)),
    ("我上礼拜换了新手机号", date(2024, 11, 13)),
    ("我去年底搬到了南京", date(2023, 12, 1)),
    ("大前天用户换了工作", date(2024, 11, 17)),
    ("半年前我开始学日语", date(2024, 5, 20)),
    ("我年初搬到了重庆", date(2024, 1, 1)),
    ("上上周我开始健身", date(2024, 11, 6)),
    ("两个月前我搬到了厦门", date(2024, 9, 20)),
    ("We bought a house in Ghent in October", date(2024, 10, 1)),
    ("I became vegetarian last spring", date(2024, 3, 1)),
    ("用户去年十月换了工作", date(2023, 10, 1)),
    ("用户上周一搬到了深圳", date(2024, 11, 11)),
]


@pytest.mark.parametrize(("text", "day"), PAST)
def test_a_past_expression_starts_before_the_event(text, day):
    assert _hint(text) == ("past", day)


FUTURE = [
    ("In ten days the user moves to Malmö", date(2024, 11, 30)),
    ("I'm moving to Quito the week after next", date(2024, 12, 2)),
    ("the user will start at the lab a fortnight from now", date(2024, 12, 4)),
    ("I'll switch to the Berlin office on Friday the 6th", date(2024, 12, 6)),
    ("From next Monday I will work from home", date(2024, 11, 25)),
    ("The user moves to Oslo on December 9", date(2024, 12, 9)),
    ("I'm starting at the new school in January", date(2025, 1, 1)),
    ("我大后天搬到天津", date(2024, 11, 23)),
    ("用户下个月起改用新邮箱", date(2024, 12, 1)),
    ("再过三天我就搬去长沙", date(2024, 11, 23)),
    ("下下周我要换工作", date(2024, 12, 2)),
    ("我明年三月搬到苏州", date(2025, 3, 1)),
    ("下周五我入职新公司", date(2024, 11, 29)),
    ("十二月中旬用户搬到合肥", date(2024, 12, 11)),
    ("三个星期后用户调去深圳", date(2024, 12, 11)),
]


# Said on a Tuesday in June 2025: weekdays, weekends, this month and parts of next year.
JUNE_10_2025 = datetime(2025, 6, 10, 12, 0, tzinfo=UTC)
AROUND_THE_WEEK = [
    ("I'm moving to Bonn on Friday", "future", date(2025, 6, 13)),
    ("On Friday I moved to Bonn", "past", date(2025, 6, 6)),
    ("The user will start at Acme this Thursday", "future", date(2025, 6, 12)),
    ("We move to Turin this weekend", "future", date(2025, 6, 14)),
    ("I'm moving to Oslo in June", "future", date(2025, 6, 11)),
    ("early next year the user relocates to Madrid", "future", date(2026, 1, 1)),
    ("I relocated to Oslo this month", "past", date(2025, 6, 1)),
    ("I moved to Nantes this year", "past", date(2025, 1, 1)),
    ("周五我搬到宁波", "future", date(2025, 6, 13)),
    ("用户周一搬到了宁波", "past", date(2025, 6, 9)),
    ("这个周末我搬家到无锡", "future", date(2025, 6, 14)),
    ("明年年底用户搬到澳门", "future", date(2026, 12, 1)),
    ("我这个月搬到了南宁", "past", date(2025, 6, 1)),
    ("我今年搬到了南宁", "past", date(2025, 1, 1)),
    ("六月我要搬到昆明", "future", date(2025, 6, 11)),
]


@pytest.mark.parametrize(("text", "kind", "day"), AROUND_THE_WEEK)
def test_weekdays_weekends_and_the_current_month(text, kind, day):
    assert _hint(text, JUNE_10_2025, slot=False) == (kind, day)


# Said on a Wednesday in August 2025: spans with "a few" and halves, "since", quarters,
# seasons, numeric dates, and an event with no date before a change.
AUG_20_2025 = datetime(2025, 8, 20, 10, 0, tzinfo=UTC)
SPANS_AND_SINCE = [
    ("前几天用户换了新工作", "past", date(2025, 8, 17)),
    ("几个月前我搬到了贵阳", "past", date(2025, 5, 20)),
    ("a year and a half ago I moved to Kraków", "past", date(2024, 2, 20)),
    ("用户一年半前搬到了兰州", "past", date(2024, 2, 20)),
    ("I have lived in Trieste since 2019", "past", date(2019, 1, 1)),
    ("Since March I've been working at Tesco", "past", date(2025, 3, 1)),
    ("我从2020年起就住在青岛", "past", date(2020, 1, 1)),
    ("自从五月我一直在药房上班", "past", date(2025, 5, 1)),
    ("年后我打算换工作", "future", date(2026, 2, 24)),  # Spring Festival 2026: 17 February
    ("过了年用户就换工作", "future", date(2026, 2, 24)),
    ("三年后我打算搬回国", "future", date(2028, 1, 1)),
    ("下个季度起用户负责华东区", "future", date(2025, 10, 1)),
    ("第一季度开始我调到销售部", "future", date(2026, 1, 1)),
    (
        "Starting in the second quarter of next year the user leads sales",
        "future",
        date(2026, 4, 1),
    ),
    ("In a couple of weeks I'm moving to Bruges", "future", date(2025, 9, 3)),
    ("I'm relocating to Perth after the summer", "future", date(2025, 9, 1)),
    ("I'm moving to Tours on 9/15", "future", date(2025, 9, 15)),
    ("我下个月中旬搬到常州", "future", date(2025, 9, 11)),
    ("I start the new job next week", "future", date(2025, 8, 25)),
    ("开学后我搬到学校宿舍", "future_undated", None),
]


@pytest.mark.parametrize(("text", "kind", "day"), SPANS_AND_SINCE)
def test_spans_since_quarters_and_seasons(text, kind, day):
    assert _hint(text, AUG_20_2025) == (kind, day)


@pytest.mark.parametrize("text", ["开学后我搬进了宿舍", "装修完以后我们换了沙发"])
def test_a_change_after_an_undated_event_told_as_done_is_not_held(text):
    assert _hint(text, AUG_20_2025) is None


@pytest.mark.parametrize(
    "text", ["我周一到周五在公司上班", "I always go swimming on Friday", "用户每周五去健身房"]
)
def test_a_weekday_habit_gives_no_date(text):
    assert _hint(text, JUNE_10_2025) is None


@pytest.mark.parametrize(("text", "day"), FUTURE)
def test_a_future_expression_starts_after_the_event(text, day):
    assert _hint(text) == ("future", day)


HOLIDAYS = [
    # Thanksgiving 2024 is Thursday 28 November; Easter 2025 is 20 April.
    ("After Thanksgiving the user will move to Denver", date(2024, 11, 29)),
    ("I'm moving to Rome after Easter", date(2025, 4, 21)),
    ("From Christmas Eve I will work from Lisbon", date(2024, 12, 24)),
    ("Come New Year I'll switch to the Madrid team", date(2025, 1, 1)),
    # Spring Festival 2025 is 29 January; "after" it starts a week later.
    ("after Chinese New Year I'll move to Xiamen", date(2025, 2, 5)),
    ("春节后用户要搬到广州", date(2025, 2, 5)),
    ("过了元旦我就换工作", date(2025, 1, 2)),
    ("中秋节后我调到北京分公司", date(2025, 10, 7)),  # 6 October 2025
    ("端午以后用户换新公司", date(2025, 6, 1)),  # 31 May 2025
    ("元宵节以后我开始上班", date(2025, 2, 13)),  # 12 February 2025
    ("除夕那天我搬回老家", date(2025, 1, 28)),  # the day before the Spring Festival
    ("劳动节后用户换工作", date(2025, 5, 6)),  # after the five-day holiday
    ("重阳节后我搬去养老院", date(2025, 10, 30)),  # 29 October 2025
    ("after the Dragon Boat Festival I will move to Fuzhou", date(2025, 6, 1)),
    ("From National Day the user will work in Hefei", date(2025, 10, 1)),
]


@pytest.mark.parametrize(("text", "day"), HOLIDAYS)
def test_a_holiday_is_computed_for_the_year_after_the_event(text, day):
    assert _hint(text) == ("future", day)


def test_the_same_holiday_said_in_other_years():
    # National Day said on 3 October 2031: "after" it is a week after the 1st.
    assert _hint("国庆后我搬去西安", datetime(2031, 10, 3, tzinfo=UTC)) == (
        "future",
        date(2031, 10, 8),
    )
    # Thanksgiving said on 1 December 2030 is next year's (27 November 2031).
    assert _hint("after Thanksgiving I will move to Austin", datetime(2030, 12, 1, tzinfo=UTC)) == (
        "future",
        date(2031, 11, 28),
    )
    # Easter 2038 is on 25 April.
    assert _hint("I will move to Naples after Easter", datetime(2038, 1, 5, tzinfo=UTC)) == (
        "future",
        date(2038, 4, 26),
    )


UNDATED = [
    "When the baby arrives we'll move to a bigger flat",
    "Once I finish my thesis I'm going to relocate to Vienna",
    "after my visa comes through the user will move to Toronto",
    "等房子装修好了，用户就搬进去",
    "等我拿到签证以后就搬去多伦多",
    "孩子毕业后我们打算搬到大理",
    "总有一天我会搬去海边",
    # the time of another sentence does not date the plan
    "我周六学陶艺；等新房交钥匙以后我要搬到烟台",
    "Tomorrow is my day off; once the sale closes I will move to Leeds",
]


@pytest.mark.parametrize("text", UNDATED)
def test_a_future_without_a_findable_date_is_held(text):
    assert _hint(text) == ("future_undated", None)


NO_TIME = [
    "I keep my bike in the hallway",
    "用户喜欢喝乌龙茶",
    "The user's favourite season is autumn",
]
FALSE_FRIENDS = [
    "我以后天天早起",
    "今后天天都要喝水",
    "every evening after dinner I walk the dog",
    "The user works next to the harbour",
    "may I note that I prefer tea",
    "用户的生日在五月",
    "My birthday is in May",
    "I was born in March",
    "The user's daughter is named April",
    "User's sister, June, lives in Ghent",
    "I prefer meetings after lunch",
    "我周末喜欢爬山",
    "用户每年春节都回老家",
    "I always visit my parents at Christmas",
    "我喜欢上个世纪的音乐",
    "Our anniversary is on the 12th",
    "I love Easter eggs",
    "我晚上周末都在家",
    "用户看了一下月报",
    "用户每逢中秋都吃月饼",
    # a time word that qualifies a thing is not a start
    "用户负责下个季度的预算",
    "我在准备下个月的考试",
    "I'm preparing for next month's exam",
    "The user reads tomorrow's agenda first",
    "用户喜欢第三季度的报告",
    # a weekday with no change is a habit
    "我周日拉大提琴",
    "The user plays squash on Thursday",
]


@pytest.mark.parametrize("slot", [True, False])
@pytest.mark.parametrize("text", NO_TIME + FALSE_FRIENDS)
def test_words_that_are_not_a_time_give_no_date(text, slot):
    assert _hint(text, slot=slot) is None


# --- through the API: the cited event's time --------------------------------------------


def _append(api, text: str, client_id: str, when: str, role: str = "user"):
    appended = api.post_json(
        "/api/v1/events",
        {
            "events": [
                {
                    "client_event_id": client_id,
                    "kind": "message",
                    "role": role,
                    "content": text,
                    "occurred_at": when,
                }
            ]
        },
    )
    assert appended.status_code == 200, appended.content


def _propose(api, text: str, sources: list[str], **extra):
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
                    "source_client_event_ids": sources,
                    **extra,
                }
            ]
        },
    )
    assert response.status_code == 200, response.content
    return response.json()["results"][0]


NOV_20_2024 = "2024-11-20T09:00:00Z"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("text", "valid_from"),
    [
        ("我去年底搬到了南京", "2023-12-01"),
        ("The user relocated to Tartu in December", "2023-12-01"),
        ("we relocated to Bern the week before last", "2024-11-06"),
        ("大前天用户换了工作", "2024-11-17"),
        ("In ten days the user moves to Malmö", "2024-11-30"),
        ("元宵节以后我开始上班", "2025-02-13"),
        ("用户喜欢喝乌龙茶", "2024-11-20"),
        ("I keep my bike in the hallway", "2024-11-20"),
        ("我以后天天早起", "2024-11-20"),
    ],
)
def test_a_record_starts_where_its_event_says(api, text, valid_from):
    from memory.models import MemoryRecord

    client_id = f"tp-{abs(hash(text))}"
    _append(api, text, client_id, NOV_20_2024)
    result = _propose(api, text, [client_id])
    assert result["operation"] == "ADD", result
    record = MemoryRecord.objects.get(pk=result["record_id"])
    assert record.valid_from.date().isoformat() == valid_from


@pytest.mark.django_db
def test_the_latest_cited_user_event_is_the_reference(api):
    from memory.models import MemoryRecord

    _append(api, "I moved to Riga.", "tp-early", "2024-03-02T10:00:00Z")
    _append(api, "That was last month, actually.", "tp-late", NOV_20_2024)
    result = _propose(api, "Last month the user moved to Riga", ["tp-early", "tp-late"])
    assert result["operation"] == "ADD", result
    record = MemoryRecord.objects.get(pk=result["record_id"])
    assert record.valid_from.date() == date(2024, 10, 1)


@pytest.mark.django_db
def test_an_explicit_valid_from_wins_over_the_words(api):
    from memory.models import MemoryRecord

    _append(api, "我去年底搬到了南京", "tp-explicit-zh", NOV_20_2024)
    result = _propose(
        api, "我去年底搬到了南京", ["tp-explicit-zh"], valid_from="2023-12-17T00:00:00Z"
    )
    record = MemoryRecord.objects.get(pk=result["record_id"])
    assert record.valid_from.date() == date(2023, 12, 17)
    # An undated plan with an explicit start is not held: the start is the date.
    _append(api, "Once my visa comes through I will move to Toronto", "tp-explicit-en", NOV_20_2024)
    result = _propose(
        api,
        "Once my visa comes through the user will move to Toronto",
        ["tp-explicit-en"],
        valid_from="2025-02-01T00:00:00Z",
    )
    assert result["operation"] == "ADD", result
    record = MemoryRecord.objects.get(pk=result["record_id"])
    assert record.valid_from.date() == date(2025, 2, 1)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "text",
    ["When the baby arrives the user will move to a bigger flat", "等我拿到签证以后就搬去多伦多"],
)
def test_an_undated_plan_is_held(api, text):
    client_id = f"tp-held-{abs(hash(text))}"
    _append(api, text, client_id, NOV_20_2024)
    result = _propose(api, text, [client_id])
    assert (result["operation"], result["reason_code"]) == (
        "QUARANTINE",
        "future_needs_confirmation",
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("content", "valid_from"),
    [
        ("Two weeks ago I moved to Tallinn", date(2024, 11, 6)),
        ("我去年底搬到了南京", date(2023, 12, 1)),
        ("我住在成都", date(2024, 11, 20)),
        # a time phrase before the subject, or between 我 and the verb
        ("前几天我搬到了珠海", date(2024, 11, 17)),
        ("我前几天搬到了珠海", date(2024, 11, 17)),
        ("自从五月我就住在厦门", date(2024, 5, 1)),
        ("年后我要搬到杭州", date(2025, 2, 5)),
        ("Since 2019 I have lived in Trieste", date(2019, 1, 1)),
        ("Next week I am moving to Rome", date(2024, 11, 25)),
        ("A year and a half ago I moved to Krakow", date(2023, 5, 20)),
    ],
)
def test_extraction_reads_time_from_the_turn(api, owner_subject, content, valid_from):
    """Server-side extraction of a conversation turn dated two years back."""
    from memory.models import MemoryRecord

    response = api.post_json(
        "/api/v1/conversation",
        {
            "thread_id": "tp-thread",
            "messages": [
                {
                    "client_event_id": f"tp-turn-{abs(hash(content))}",
                    "role": "user",
                    "content": content,
                    "occurred_at": NOV_20_2024,
                }
            ],
        },
    )
    assert response.status_code == 200, response.content
    stored = [d for d in response.json()["decisions"] if d["operation"] == "ADD"]
    assert stored, response.json()
    record = MemoryRecord.objects.get(pk=stored[0]["record_id"])
    assert record.predicate == "home_city"
    assert record.valid_from.date() == valid_from


@pytest.mark.django_db
@pytest.mark.parametrize(
    "text", ["Last month the user switched to a standing desk", "用户上个月开始用站立式办公桌"]
)
def test_without_a_cited_event_the_request_time_is_the_reference(api, text):
    from django.utils import timezone

    from memory.models import MemoryRecord

    before = timezone.now()
    result = _propose(api, text, [], assertion_kind="agent_inference", confidence=0.7)
    after = timezone.now()
    assert result["operation"] == "ADD", result
    record = MemoryRecord.objects.get(pk=result["record_id"])
    # the first day of the month before the request's
    expected = {
        (moment.year - (moment.month == 1), (moment.month - 2) % 12 + 1)
        for moment in (before, after)
    }
    assert (record.valid_from.year, record.valid_from.month) in expected
    assert record.valid_from.day == 1


# --- any day of any year: past words give a start before it, future words one after -------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

PAST_WORDS = [text for text, _ in PAST] + [t for t, kind, _ in AROUND_THE_WEEK if kind == "past"]
FUTURE_WORDS = (
    [text for text, _ in FUTURE + HOLIDAYS]
    + [t for t, kind, _ in AROUND_THE_WEEK if kind == "future"]
    + ["下周日我搬到温州", "the user will move to Cádiz on Sunday", "上海下个月我就搬过去了"]
)


@settings(max_examples=150, deadline=None)
@given(
    said=st.datetimes(
        min_value=datetime(1990, 1, 1), max_value=datetime(2090, 12, 31), timezones=st.just(UTC)
    ),
    past=st.sampled_from(PAST_WORDS),
    future=st.sampled_from(FUTURE_WORDS),
    held=st.sampled_from(UNDATED),
    plain=st.sampled_from(NO_TIME + FALSE_FRIENDS),
)
def test_on_any_day_the_direction_holds(said, past, future, held, plain):
    """Whatever day it was said on (month and year ends, leap days, Sundays, a holiday
    itself): a past expression starts before it and within about three years, a future
    one after it and within about two, an undated plan is held, and a non-time gives
    nothing."""
    hint = valid_time_hint(past, said, slot=False)
    assert hint is not None and hint.kind == "past", (past, said, hint)
    assert said.replace(year=said.year - 3, day=min(said.day, 28)) <= hint.start <= said
    hint = valid_time_hint(future, said, slot=True)
    assert hint is not None and hint.kind == "future", (future, said, hint)
    assert said < hint.start <= said.replace(year=said.year + 2, day=min(said.day, 28))
    assert valid_time_hint(held, said) == TimeHint("future_undated")
    assert valid_time_hint(plain, said, slot=False) is None
