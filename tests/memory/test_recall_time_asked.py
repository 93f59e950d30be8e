"""A question that asks for a time prefers the memories that tell one (``time_asked``,
``memory.recall.timewin``): the times a statement tells are resolved at ingest into the
entity index (``date`` mentions, ``memory.temporal.said``), and recall reads them only for
what it already ranked. Governance: a record out of the request's reach never comes back,
whatever time it tells."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from core.actor import Actor
from core.tenancy import tenant_context
from memory.models import MemoryMention, MemoryRecord, MemoryStatus
from memory.recall.weights import RecallWeights
from memory.services.forgetting import records_expire
from memory.services.subject_data import subject_export
from memory.services.user_memory import memory_correct, memory_delete_with_undo
from tests.helpers.conversation import SESSION, converse
from tests.helpers.retrieval import final, ids, weighed

pytestmark = pytest.mark.django_db

ON = RecallWeights(time_asked=0.3, adjacent_reply=0)
OFF = RecallWeights(time_asked=0, adjacent_reply=0)

EN = [
    ("Ines", "The glass-blowing workshop was loud and hot, I loved every minute."),
    ("Ines", "I went to a glass-blowing workshop with my aunt yesterday."),
    ("Ines", "Glass-blowing needs patience; the workshop teacher was strict."),
]
EN_ASKED = "When did Ines go to the glass-blowing workshop?"
ZH = [
    ("何静", "吹玻璃工坊又热又吵，我每一分钟都很喜欢。"),
    ("何静", "我上周和姑姑去了一个吹玻璃工坊。"),
    ("何静", "吹玻璃很需要耐心，工坊的老师很严格。"),
]
ZH_ASKED = "何静什么时候去的吹玻璃工坊？"


def _dates(record_id) -> set[str]:
    return set(
        MemoryMention.objects.filter(record_id=record_id, kind="date").values_list(
            "norm", flat=True
        )
    )


@pytest.mark.parametrize(
    ("turns", "asked", "told"), [(EN, EN_ASKED, "yesterday"), (ZH, ZH_ASKED, "上周")]
)
def test_the_memory_that_tells_a_time_gains(
    write_agent, read_agent, owner_subject, turns, asked, told
):
    rids = converse(write_agent.agent, owner_subject, turns)
    timed = rids[1]
    said = SESSION.date()
    assert _dates(timed) and not _dates(rids[0]) and not _dates(rids[2])
    if told == "yesterday":
        assert _dates(timed) == {(said - timedelta(days=1)).isoformat()}
    off = weighed(read_agent.agent, owner_subject, asked, OFF)
    on = weighed(read_agent.agent, owner_subject, asked, ON)
    assert timed in ids(off) and timed in ids(on)
    assert final(on, timed) == pytest.approx(final(off, timed) + ON.time_asked, abs=1e-3)
    for other in (rids[0], rids[2]):
        if other in ids(off):
            assert final(on, other) == pytest.approx(final(off, other), abs=1e-3)
    assert ids(on)[0] == timed


@pytest.mark.parametrize(
    "asked", ["What did Ines do at the glass-blowing workshop?", "何静在吹玻璃工坊做了什么？"]
)
def test_a_question_that_asks_no_time_is_untouched(write_agent, read_agent, owner_subject, asked):
    converse(write_agent.agent, owner_subject, EN + ZH)
    off = weighed(read_agent.agent, owner_subject, asked, OFF)
    on = weighed(read_agent.agent, owner_subject, asked, ON)
    assert [(i.id, i.scores["final"]) for i in on.items] == [
        (i.id, i.scores["final"]) for i in off.items
    ]


def test_on_by_default_and_clamped():
    assert RecallWeights().time_asked == 0.2  # since issue 34 round 3
    assert RecallWeights.for_tenant({"recall_weights": {"time_asked": -2}}).time_asked == 0.0


def _never_back(read_agent, owner_subject, record_id):
    on = weighed(read_agent.agent, owner_subject, EN_ASKED, ON)
    assert on.items  # the others answer
    assert record_id not in ids(on)


def _two(write_agent, owner_subject):
    rids = converse(write_agent.agent, owner_subject, EN)
    assert _dates(rids[1])
    return rids


def test_a_deleted_record_never_comes_back(write_agent, read_agent, owner_subject, owner):
    rids = _two(write_agent, owner_subject)
    memory_delete_with_undo(
        user=owner[0], subject=owner_subject, record=MemoryRecord.objects.get(id=rids[1])
    )
    _never_back(read_agent, owner_subject, rids[1])


def test_an_expired_record_never_comes_back(write_agent, read_agent, owner_subject):
    rids = _two(write_agent, owner_subject)
    MemoryRecord.objects.filter(id=rids[1]).update(expires_at=timezone.now() + timedelta(hours=1))
    records_expire(
        actor=Actor.system(owner_subject.tenant_id, "test"),
        tenant_id=owner_subject.tenant_id,
        now=timezone.now() + timedelta(hours=2),
    )
    assert MemoryRecord.objects.get(id=rids[1]).status == MemoryStatus.EXPIRED
    _never_back(read_agent, owner_subject, rids[1])


@pytest.mark.parametrize("held", [MemoryStatus.PENDING_CONFIRMATION, MemoryStatus.QUARANTINED])
def test_a_held_record_never_comes_back(write_agent, read_agent, owner_subject, held):
    rids = _two(write_agent, owner_subject)
    MemoryRecord.objects.filter(id=rids[1]).update(status=held)
    _never_back(read_agent, owner_subject, rids[1])


def test_a_superseded_record_never_comes_back(write_agent, read_agent, owner_subject, owner):
    rids = _two(write_agent, owner_subject)
    result = memory_correct(
        user=owner[0],
        subject=owner_subject,
        record=MemoryRecord.objects.get(id=rids[1]),
        statement="Ines: I went to a glass-blowing workshop with my aunt last Sunday.",
    )
    assert result.ok
    on = weighed(read_agent.agent, owner_subject, EN_ASKED, ON)
    assert rids[1] not in ids(on)
    current = MemoryRecord.objects.get(supersedes_id=rids[1])
    assert _dates(current.id)  # the new version tells its own time


def test_another_subjects_and_tenants_records_never_come_back(
    write_agent,
    read_agent,
    owner_subject,
    same_tenant_user,
    other_tenant_agent,
    other_tenant_user,
):
    mine = converse(write_agent.agent, owner_subject, [EN[0], EN[2]])
    bobs = converse(write_agent.agent, same_tenant_user[1], [EN[1]], thread="b")[0]
    _, mallory = other_tenant_user
    with tenant_context(mallory.tenant_id):
        theirs = converse(other_tenant_agent.agent, mallory, [EN[1]], thread="m")[0]
        assert _dates(theirs)
    assert _dates(bobs)
    on = weighed(read_agent.agent, owner_subject, EN_ASKED, ON)
    assert set(ids(on)) <= set(mine) and on.items
    assert bobs not in ids(on) and theirs not in ids(on)


def test_told_times_are_exported_and_erased(write_agent, owner_subject):
    from tests.helpers.lifecycle import erase

    rids = _two(write_agent, owner_subject)
    data = subject_export(subject=owner_subject, actor=Actor.system(owner_subject.tenant_id, "t"))
    [record] = [r for r in data["records"] if r["id"] == str(rids[1])]
    assert {e["kind"] for e in record["entities"]} >= {"date"}
    lineage = MemoryRecord.objects.get(id=rids[1]).lineage_id
    request = erase(owner_subject, "memory", lineage)
    assert request.verification["entity_mentions"] == 0
    assert _dates(rids[1]) == set()
