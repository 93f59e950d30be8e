"""A question that names a time ranks up the memories whose words tell a time inside it
(``time_told`` with ``time_named``, ``memory.recall.timewin.told_in``), not only those
said inside it: "Two months ago I went to a workshop", said on 8 May 2023, is in March
2023. The told times are the entity index's ``date`` mentions, resolved at ingest
(``memory.temporal.said``) and read back as stretches (``said.told_window``).
Governance: a record out of the request's reach never comes back, whatever it tells."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.tenancy import tenant_context
from memory.models import MemoryRecord
from memory.recall.timewin import month_told, overlaps
from memory.recall.weights import RecallWeights
from memory.services.user_memory import memory_correct, memory_delete_with_undo
from memory.temporal.said import told_window
from memory.temporal.window import Window
from tests.helpers.conversation import converse
from tests.helpers.retrieval import final, ids, weighed

ON = RecallWeights(time_told=1, time_named=0.4, adjacent_reply=0)
OFF = RecallWeights(time_told=0, time_named=0.4, adjacent_reply=0)
NOW = datetime(2024, 1, 1, tzinfo=UTC)

# Said on 8 May 2023 (``SESSION``): the second turn tells March 2023.
EN = [
    ("Ines", "The glass-blowing workshop was loud and hot, I loved every minute."),
    ("Ines", "Two months ago I went to a glass-blowing workshop with my aunt."),
    ("Ines", "Glass-blowing needs patience; the workshop teacher was strict."),
]
EN_NAMED = "Which glass-blowing workshop did Ines go to in March 2023?"
ZH = [
    ("何静", "吹玻璃工坊又热又吵，我每一分钟都很喜欢。"),
    ("何静", "两个月前我和姑姑去了一个吹玻璃工坊。"),
    ("何静", "吹玻璃很需要耐心，工坊的老师很严格。"),
]
ZH_NAMED = "何静2023年3月去的吹玻璃工坊怎么样？"


@pytest.mark.parametrize(
    ("norm", "start", "end"),
    [
        ("2023-05-07", datetime(2023, 5, 7), datetime(2023, 5, 8)),
        ("2023-w18", datetime(2023, 5, 1), datetime(2023, 5, 8)),
        ("2023-03", datetime(2023, 3, 1), datetime(2023, 4, 1)),
        ("2022-winter", datetime(2022, 12, 1), datetime(2023, 3, 1)),
        ("2023", datetime(2023, 1, 1), datetime(2024, 1, 1)),
        ("7 may 2023", datetime(2023, 5, 7), datetime(2023, 5, 8)),
        ("2023年3月", datetime(2023, 3, 1), datetime(2023, 4, 1)),
    ],
)
def test_a_told_time_reads_back_as_its_stretch(norm, start, end):
    assert told_window(norm, NOW) == Window(start.replace(tzinfo=UTC), end.replace(tzinfo=UTC))


@pytest.mark.parametrize("norm", ["may 7", "5月7日", "2023-13", "2023-w60", "glass", ""])
def test_what_tells_no_stretch_reads_as_none(norm):
    assert told_window(norm, NOW) is None


def test_overlap_of_stretches_and_months_of_any_year():
    march = told_window("2023-03", NOW)
    assert overlaps(march, told_window("2023-03-31", NOW))
    assert overlaps(march, told_window("2023", NOW))
    assert not overlaps(march, told_window("2023-04-01", NOW))
    assert not overlaps(march, told_window("2022-03", NOW))
    assert overlaps(Window(months=(3,)), told_window("2021-03-05", NOW))
    assert not overlaps(Window(months=(3,)), told_window("2021-04-05", NOW))


@pytest.mark.parametrize(
    ("norm", "said", "start", "end"),
    [
        # Told after it: "Back in April we repainted the boathouse", said in July.
        ("april", datetime(2025, 7, 12), datetime(2025, 4, 1), datetime(2025, 5, 1)),
        # Told before it: a plan for December, said in November.
        ("december", datetime(2025, 11, 8), datetime(2025, 12, 1), datetime(2026, 1, 1)),
        ("january", datetime(2025, 12, 20), datetime(2026, 1, 1), datetime(2026, 2, 1)),
        ("december", datetime(2025, 1, 10), datetime(2024, 12, 1), datetime(2025, 1, 1)),
    ],
)
def test_a_month_without_a_year_is_the_one_nearest_to_when_it_was_said(norm, said, start, end):
    said = said.replace(tzinfo=UTC)
    assert month_told(norm, said) == Window(start.replace(tzinfo=UTC), end.replace(tzinfo=UTC))


@pytest.mark.parametrize("norm", ["2025-04", "summer", "may 7", "glass", ""])
def test_only_a_lone_month_is_read_against_when_it_was_said(norm):
    assert month_told(norm, datetime(2025, 7, 12, tzinfo=UTC)) is None


def test_on_by_default_and_clamped():
    assert RecallWeights().time_told == 1.0
    assert RecallWeights.for_tenant({"recall_weights": {"time_told": 7}}).time_told == 1.0


def _only_the_told_memory_gains(read_agent, owner_subject, named, rids):
    """Recall ``named`` with the lever off and on: the second turn (the one that tells the
    named time) gains exactly ``time_named``, the others keep their scores; the "on" items."""
    off = weighed(read_agent.agent, owner_subject, named, OFF)
    on = weighed(read_agent.agent, owner_subject, named, ON)
    told = rids[1]
    assert told in ids(off) and told in ids(on)
    assert final(on, told) == pytest.approx(final(off, told) + ON.time_named, abs=1e-3)
    for other in (rids[0], rids[2]):
        if other in ids(off):
            assert final(on, other) == pytest.approx(final(off, other), abs=1e-3)
    return on


@pytest.mark.django_db
@pytest.mark.parametrize(("turns", "named"), [(EN, EN_NAMED), (ZH, ZH_NAMED)])
def test_the_memory_that_tells_the_named_time_gains(
    write_agent, read_agent, owner_subject, turns, named
):
    rids = converse(write_agent.agent, owner_subject, turns)
    on = _only_the_told_memory_gains(read_agent, owner_subject, named, rids)
    assert ids(on)[0] == rids[1]


# Said on 8 May 2023 (``converse``'s session), the second turn tells April 2023 in a month
# without a year; the session is outside April (and its week of slack).
LATER_YEAR = 2023
LATER = [
    ("Marek", "The boathouse looks great now, the whole crew loved the colour."),
    ("Marek", "Back in April we repainted the boathouse, it took three weekends."),
    ("Marek", "The boathouse roof still leaks when it rains hard."),
]


@pytest.mark.django_db
def test_a_month_told_without_a_year_is_read_against_when_it_was_said(
    write_agent, read_agent, owner_subject
):
    rids = converse(write_agent.agent, owner_subject, LATER)
    named = f"What did Marek repaint in April {LATER_YEAR}?"
    _only_the_told_memory_gains(read_agent, owner_subject, named, rids)


# The same in Chinese: the month told in Chinese numerals (an entity mention "四月" whose
# other form is "april", ``memory.entities``), the question's month in digits or numerals.
LATER_ZH = [
    ("韩涛", "船屋现在看起来很棒，大家都喜欢这个颜色。"),
    ("韩涛", "四月的时候我们把船屋重新刷了漆，花了三个周末。"),
    ("韩涛", "下大雨的时候船屋的屋顶还是漏水。"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "named",
    [f"韩涛{LATER_YEAR}年4月给什么刷了漆？", f"{LATER_YEAR}年四月韩涛把什么刷了漆？"],
)
def test_a_month_told_in_chinese_numerals_is_read_against_when_it_was_said(
    write_agent, read_agent, owner_subject, named
):
    rids = converse(write_agent.agent, owner_subject, LATER_ZH)
    _only_the_told_memory_gains(read_agent, owner_subject, named, rids)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "named",
    [
        "Which glass-blowing workshop did Ines go to in April 2023?",
        "Which glass-blowing workshop did Ines go to?",
        "何静2023年4月去的吹玻璃工坊怎么样？",
    ],
)
def test_another_time_or_none_is_untouched(write_agent, read_agent, owner_subject, named):
    converse(write_agent.agent, owner_subject, EN + ZH)
    off = weighed(read_agent.agent, owner_subject, named, OFF)
    on = weighed(read_agent.agent, owner_subject, named, ON)
    assert on.items
    assert [(i.id, i.scores["final"]) for i in on.items] == [
        (i.id, i.scores["final"]) for i in off.items
    ]


@pytest.mark.django_db
def test_a_deleted_record_never_comes_back(write_agent, read_agent, owner_subject, owner):
    rids = converse(write_agent.agent, owner_subject, EN)
    memory_delete_with_undo(
        user=owner[0], subject=owner_subject, record=MemoryRecord.objects.get(id=rids[1])
    )
    on = weighed(read_agent.agent, owner_subject, EN_NAMED, ON)
    assert on.items and rids[1] not in ids(on)


@pytest.mark.django_db
def test_a_superseded_record_never_comes_back(write_agent, read_agent, owner_subject, owner):
    rids = converse(write_agent.agent, owner_subject, EN)
    result = memory_correct(
        user=owner[0],
        subject=owner_subject,
        record=MemoryRecord.objects.get(id=rids[1]),
        statement="Ines: I went to a glass-blowing workshop with my aunt last Sunday.",
    )
    assert result.ok
    off = weighed(read_agent.agent, owner_subject, EN_NAMED, OFF)
    on = weighed(read_agent.agent, owner_subject, EN_NAMED, ON)
    assert rids[1] not in ids(on)
    current = MemoryRecord.objects.get(supersedes_id=rids[1]).id
    # The new version tells May, not March: it gains nothing.
    assert final(on, current) == pytest.approx(final(off, current), abs=1e-3)


@pytest.mark.django_db
def test_another_subjects_and_tenants_records_never_come_back(
    write_agent, read_agent, owner_subject, same_tenant_user, other_tenant_agent, other_tenant_user
):
    mine = converse(write_agent.agent, owner_subject, [EN[0], EN[2]])
    bobs = converse(write_agent.agent, same_tenant_user[1], [EN[1]], thread="b")[0]
    _, mallory = other_tenant_user
    with tenant_context(mallory.tenant_id):
        theirs = converse(other_tenant_agent.agent, mallory, [EN[1]], thread="m")[0]
    on = weighed(read_agent.agent, owner_subject, EN_NAMED, ON)
    assert on.items and set(ids(on)) <= set(mine)
    assert bobs not in ids(on) and theirs not in ids(on)


@given(
    st.sampled_from(
        [
            "january",
            "feb",
            "march",
            "april",
            "may",
            "june",
            "jul",
            "august",
            "sept",
            "october",
            "nov",
            "december",
        ]
    ),
    st.datetimes(min_value=datetime(1990, 1, 1), max_value=datetime(2090, 1, 1)),
)
def test_a_told_month_is_that_month_within_half_a_year_of_when_it_was_said(norm, said):
    said = said.replace(tzinfo=UTC)
    window = month_told(norm, said)
    assert window.start.day == 1 and window.start.strftime("%b").lower() == norm[:3]
    assert window.start < window.end
    # The nearest of three candidate years: never more than about half a year away.
    assert abs(window.start - said).days <= 186
