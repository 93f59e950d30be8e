"""The time a question names (``memory.temporal.window``) and the lever that ranks up the
memories whose time falls in it (``memory.recall.timewin``): both languages, absolute and
relative names, the modal "may", and a time alone never bringing a memory in."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memory.models import MemoryRecord
from memory.recall.signals import Candidate
from memory.recall.timewin import DEPTH, SLACK, time_named
from memory.recall.weights import RecallWeights
from memory.temporal.window import Window, named_window
from tests.helpers.retrieval import remember, weighed

NOW = datetime(2026, 3, 15, 12, tzinfo=UTC)


def _at(y, m, d=1):
    return datetime(y, m, d, tzinfo=UTC)


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        ("What did the user buy on 14 October, 2024?", _at(2024, 10, 14), _at(2024, 10, 15)),
        ("Who came over on February 2nd, 2025?", _at(2025, 2, 2), _at(2025, 2, 3)),
        ("Where did she travel in November 2022?", _at(2022, 11), _at(2022, 12)),
        ("What happened in December 2021?", _at(2021, 12), _at(2022, 1)),
        ("What did he build in the winter of 2024?", _at(2023, 12), _at(2024, 3)),
        ("What did I read last year?", _at(2025, 1), _at(2026, 1)),
        ("What changed last month?", _at(2026, 2), _at(2026, 3)),
        ("Where did we go last summer?", _at(2025, 6), _at(2025, 9)),
        ("How often did he swim in 2019?", _at(2019, 1), _at(2020, 1)),
        ("用户2024年9月3日去了哪里？", _at(2024, 9, 3), _at(2024, 9, 4)),
        ("她2023年11月换了什么工作？", _at(2023, 11), _at(2023, 12)),
        ("用户去年养了什么宠物？", _at(2025, 1), _at(2026, 1)),
        ("上个月用户学了什么？", _at(2026, 2), _at(2026, 3)),
        ("去年冬天用户去哪儿滑雪了？", _at(2024, 12), _at(2025, 3)),
    ],
)
def test_a_named_time_is_a_window(question, start, end):
    assert named_window(question, NOW) == Window(start, end)


@pytest.mark.parametrize(
    ("question", "months"),
    [
        ("What did she plant in April?", (4,)),
        ("Where did they hike during the autumn?", (9, 10, 11)),
        ("用户8月做了什么？", (8,)),
        ("用户夏天喜欢喝什么？", (6, 7, 8)),
        ("她八月在植物园看了什么花？", (8,)),
        ("韩涛十月去吃了哪家店？", (10,)),
        ("他十一月搬家了吗？", (11,)),
        ("他十二月要做什么？", (12,)),
    ],
)
def test_a_month_or_season_without_a_year_is_any_years(question, months):
    assert named_window(question, NOW) == Window(months=months)


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        ("她2025年三月去了哪里？", _at(2025, 3), _at(2025, 4)),
        ("他2024年十二月换了工作吗？", _at(2024, 12), _at(2025, 1)),
        ("周敏2025年夏天爬了哪座山？", _at(2025, 6), _at(2025, 9)),
        ("他们2024年的冬天去了哪里？", _at(2023, 12), _at(2024, 3)),
    ],
)
def test_chinese_numeral_months_and_a_season_of_a_year(question, start, end):
    assert named_window(question, NOW) == Window(start, end)


@pytest.mark.parametrize(
    "question", ["她几月搬的家？", "她三个月前搬的家", "二十一月", "十月一日他去了哪里？"]
)
def test_what_is_not_a_chinese_month(question):
    # 几月 asks for a month; 三个月 is a span; a day of a month without a year is no window
    # (as with digits, 10月1日).
    assert named_window(question, NOW) is None


@pytest.mark.parametrize(
    "question",
    ["What may the user like?", "Where does Ingrid live?", "用户喜欢什么颜色？", "What about 42?"],
)
def test_no_time_named(question):
    assert named_window(question, NOW) is None


@given(
    st.text(max_size=80),
    st.datetimes(min_value=datetime(1990, 1, 1), max_value=datetime(2090, 1, 1)),
)
def test_a_window_is_never_empty_or_backwards(text, now):
    window = named_window(text, now.replace(tzinfo=UTC))
    if window is not None and window.start is not None:
        assert window.start < window.end
    if window is not None and window.start is None:
        assert window.months and all(1 <= m <= 12 for m in window.months)


def _ranked(subject, dated):
    out = []
    for i, (when, final) in enumerate(dated):
        rid = remember(subject, f"User noted item {i}", embed=False, valid_from=when).record_id
        c = Candidate(rid, record=MemoryRecord.objects.get(id=rid))
        c.signals.final = final
        out.append(c)
    return out


@pytest.mark.django_db
def test_memories_in_the_window_rank_up_and_none_come_in(owner_subject):
    ranked = _ranked(
        owner_subject,
        [
            (_at(2024, 3, 2), 0.9),
            (_at(2024, 5, 20), 0.8),
            (_at(2024, 6, 3), 0.7),
            (_at(2024, 8, 1), 0.6),
        ],
    )
    ids = [c.id for c in ranked]
    off = time_named(
        list(ranked), RecallWeights(time_named=0), question="What happened in May 2024?", now=NOW
    )
    assert [c.id for c in off] == ids  # off by default
    on = time_named(
        list(ranked), RecallWeights(time_named=0.3), question="What happened in May 2024?", now=NOW
    )
    # May 20 is in May; June 3 within the slack after it; March and August are not.
    assert [c.id for c in on] == [ids[1], ids[2], ids[0], ids[3]]
    assert [c.signals.final for c in on] == [1.1, 1.0, 0.9, 0.6]
    assert SLACK == timedelta(days=7) and DEPTH >= 10
    none = time_named(list(ranked), RecallWeights(time_named=0.3), question="And then?", now=NOW)
    assert [c.id for c in none] == ids and set(c.id for c in on) == set(ids)


WINDOW_ON = RecallWeights(time_window=0.8, adjacent_reply=0, time_named=0)
WINDOW_Q = "What did the user buy at the harbour market in May 2024?"


def _window_memories(subject):
    from tests.helpers.retrieval import BACKGROUND

    for text in BACKGROUND:
        remember(subject, text, valid_from=_at(2023, 1, 5))
    hit = remember(
        subject, "User bought smoked fish at the harbour market", valid_from=_at(2024, 5, 10)
    )
    told = remember(
        subject, "User adopted a grey kitten called Pebble", valid_from=_at(2024, 5, 12)
    )
    return hit.record_id, told.record_id


@pytest.mark.django_db
def test_the_best_memories_inside_the_window_come_along(read_agent, owner_subject):
    hit, told = _window_memories(owner_subject)
    off = weighed(
        read_agent.agent, owner_subject, WINDOW_Q, RecallWeights(adjacent_reply=0, time_named=0)
    )
    on = weighed(read_agent.agent, owner_subject, WINDOW_Q, WINDOW_ON)
    assert [i.id for i in off.items][:1] == [hit] and told not in [i.id for i in off.items]
    assert told in [i.id for i in on.items]
    finals = {i.id: i.scores["final"] for i in on.items}
    assert finals[told] == pytest.approx(0.8 * finals[hit], abs=1e-3)
    # No time named: nothing comes along.
    plain = weighed(
        read_agent.agent, owner_subject, "What did the user buy at the harbour market?", WINDOW_ON
    )
    assert told not in [i.id for i in plain.items]


@pytest.mark.django_db
def test_a_deleted_or_another_subjects_memory_inside_the_window_never_comes(
    read_agent, owner_subject, owner, same_tenant_user
):
    from memory.services.user_memory import memory_delete_with_undo

    hit, told = _window_memories(owner_subject)
    theirs = remember(
        same_tenant_user[1], "User adopted a grey kitten called Pebble", valid_from=_at(2024, 5, 12)
    ).record_id
    memory_delete_with_undo(
        user=owner[0], subject=owner_subject, record=MemoryRecord.objects.get(id=told)
    )
    on = weighed(read_agent.agent, owner_subject, WINDOW_Q, WINDOW_ON)
    returned = [i.id for i in on.items]
    assert hit in returned and told not in returned and theirs not in returned
