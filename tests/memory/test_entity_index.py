"""The entity index (``MemoryMention``): filled on write (one insert per batch), rebuilt by
``engram_mentions``, read by recall only through what the request may return
(``memory.recall.entities``), erased with its records and exported with them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from core.actor import Actor
from core.tenancy import tenant_context
from memory.models import MemoryMention, MemoryRecord, MemoryStatus
from memory.recall.entities import MAX_RECORDS, specificity
from memory.recall.weights import RecallWeights
from memory.services.forgetting import records_expire
from memory.services.subject_data import subject_export
from memory.services.user_memory import memory_correct, memory_delete_with_undo
from tests.helpers.conversation import converse
from tests.helpers.retrieval import (
    BACKGROUND,
    final,
    ids,
    remember,
    remember_many,
    weighed,
)

pytestmark = pytest.mark.django_db

ON = RecallWeights(entity_mention=0.8, entity_hop=0.8, adjacent_reply=0)
OFF = RecallWeights(entity_mention=0, entity_hop=0, adjacent_reply=0)

# Two sessions joined by a name only: the question finds the first, the name the second.
FIRST = [("Ada", "My cousin Leopold Marchetti taught me to build a kayak last summer.")]
SECOND = [("Bea", "Did you hear that Leopold Marchetti opened a boat shop in Ravenna?")]
QUESTION = "What did Ada's cousin teach her to build?"
NAME = "leopold marchetti"


def _norms(record_id) -> set[str]:
    return set(MemoryMention.objects.filter(record_id=record_id).values_list("norm", flat=True))


def test_written_with_the_record_in_both_languages(owner_subject):
    rid = remember(
        owner_subject, "User met Ingrid Solberg at Kestrel Analytics Ltd in Oslo"
    ).record_id
    assert {"ingrid solberg", "kestrel analytics ltd", "oslo"} <= _norms(rid)
    zid = remember(owner_subject, "用户和孙晓雯在厦门开了一家咖啡馆", embed=False).record_id
    assert {"孙晓雯", "sun xiaowen", "厦门"} <= _norms(zid)
    row = MemoryMention.objects.get(record_id=zid, norm="sun xiaowen")
    assert row.alias_of == "孙晓雯" and row.subject_id == owner_subject.id
    assert row.tenant_id == owner_subject.tenant_id


def test_a_batch_is_one_insert(owner_subject):
    statements = [f"User visited Quito with Oluwaseun Adeyemi, trip {i}" for i in range(5)]
    with CaptureQueriesContext(connection) as queries:
        outcomes = remember_many(owner_subject, statements)
    inserts = [q for q in queries if q["sql"].startswith('INSERT INTO "memory_memorymention"')]
    assert len(inserts) == 1
    assert len(outcomes) == 5
    for record_id in outcomes:
        assert {"quito", "oluwaseun adeyemi"} <= _norms(record_id)


def test_rebuilt_by_the_command(owner_subject, tenant):
    rid = remember(owner_subject, "User's sister lives in Valparaíso", embed=False).record_id
    MemoryMention.objects.filter(record_id=rid).delete()
    call_command("engram_mentions", "--tenant", tenant.slug, stdout=open("/dev/null", "w"))
    assert "valparaíso" in _norms(rid)


def test_one_hop_joins_two_sessions(write_agent, read_agent, owner_subject):
    for text in BACKGROUND:
        remember(owner_subject, text, embed=False)
    first = converse(write_agent.agent, owner_subject, FIRST, thread="t1")[0]
    second = converse(write_agent.agent, owner_subject, SECOND, thread="t2")[0]
    assert NAME in _norms(first) and NAME in _norms(second)
    off = weighed(read_agent.agent, owner_subject, QUESTION, OFF)
    on = weighed(read_agent.agent, owner_subject, QUESTION, ON)
    assert ids(off)[0] == first and ids(on)[0] == first
    assert second in ids(on)
    # Two records name the cousin: the hop carries that much of the first's score.
    assert final(on, second) >= ON.entity_hop * specificity(2) * final(on, first) - 1e-3
    assert final(on, second) > final(off, second)


def test_a_question_in_english_finds_a_chinese_name(write_agent, read_agent, owner_subject):
    """The English turn is found by its words; the Chinese one by the name's pinyin."""
    turns = [
        ("Bea", "I told Sun Xiaowen about the flats near the harbour."),
        ("小周", "孙晓雯下个月要搬去厦门了。"),
    ]
    rids = converse(write_agent.agent, owner_subject, turns)
    off = weighed(read_agent.agent, owner_subject, "Where is Sun Xiaowen moving?", OFF)
    on = weighed(read_agent.agent, owner_subject, "Where is Sun Xiaowen moving?", ON)
    assert ids(off)[0] == rids[0] and ids(on)[0] == rids[0]
    assert rids[1] in ids(on) and final(on, rids[1]) > final(off, rids[1])
    top = max(i.scores["final"] for i in on.items)
    assert final(on, rids[0]) >= ON.entity_mention * top - 1e-3


def test_off_changes_nothing_and_defaults(write_agent, read_agent, owner_subject):
    converse(write_agent.agent, owner_subject, FIRST + SECOND)
    a = weighed(read_agent.agent, owner_subject, QUESTION, OFF)
    b = weighed(read_agent.agent, owner_subject, QUESTION, OFF)
    assert [(i.id, i.scores["final"]) for i in a.items] == [
        (i.id, i.scores["final"]) for i in b.items
    ]
    weights = RecallWeights.for_tenant({"recall_weights": {"entity_hop": 3, "entity_mention": "x"}})
    assert weights.entity_hop == 1.0 and weights.entity_mention == RecallWeights().entity_mention
    assert MAX_RECORDS >= 1


def _hop_never_brings(read_agent, owner_subject, second_id):
    on = weighed(read_agent.agent, owner_subject, QUESTION, ON)
    assert on.items  # the first session is found
    assert second_id not in ids(on)


def test_another_subjects_record_never_comes_back(
    write_agent, read_agent, owner_subject, same_tenant_user
):
    _, bob = same_tenant_user
    converse(write_agent.agent, owner_subject, FIRST, thread="t1")
    theirs = converse(write_agent.agent, bob, SECOND, thread="t2")[0]
    assert NAME in _norms(theirs)  # indexed, under the other subject
    _hop_never_brings(read_agent, owner_subject, theirs)


def test_another_tenants_record_never_comes_back(
    write_agent, read_agent, owner_subject, other_tenant_agent, other_tenant_user
):
    _, mallory = other_tenant_user
    converse(write_agent.agent, owner_subject, FIRST, thread="t1")
    with tenant_context(mallory.tenant_id):
        theirs = converse(other_tenant_agent.agent, mallory, SECOND, thread="t2")[0]
        assert NAME in _norms(theirs)
    _hop_never_brings(read_agent, owner_subject, theirs)


def test_a_deleted_record_never_comes_back(write_agent, read_agent, owner_subject, owner):
    converse(write_agent.agent, owner_subject, FIRST, thread="t1")
    second = converse(write_agent.agent, owner_subject, SECOND, thread="t2")[0]
    memory_delete_with_undo(
        user=owner[0], subject=owner_subject, record=MemoryRecord.objects.get(id=second)
    )
    assert NAME in _norms(second)  # out of reach at once, erased later
    _hop_never_brings(read_agent, owner_subject, second)


def test_an_expired_record_never_comes_back(write_agent, read_agent, owner_subject):
    converse(write_agent.agent, owner_subject, FIRST, thread="t1")
    second = converse(write_agent.agent, owner_subject, SECOND, thread="t2")[0]
    MemoryRecord.objects.filter(id=second).update(expires_at=timezone.now() + timedelta(hours=1))
    records_expire(
        actor=Actor.system(owner_subject.tenant_id, "test"),
        tenant_id=owner_subject.tenant_id,
        now=timezone.now() + timedelta(hours=2),
    )
    assert MemoryRecord.objects.get(id=second).status == MemoryStatus.EXPIRED
    assert NAME in _norms(second)
    _hop_never_brings(read_agent, owner_subject, second)


def test_a_superseded_record_never_comes_back(write_agent, read_agent, owner_subject, owner):
    converse(write_agent.agent, owner_subject, FIRST, thread="t1")
    second = converse(write_agent.agent, owner_subject, SECOND, thread="t2")[0]
    result = memory_correct(
        user=owner[0],
        subject=owner_subject,
        record=MemoryRecord.objects.get(id=second),
        statement="Bea: I heard that Leopold Marchetti closed his boat shop in Ravenna.",
    )
    assert result.ok
    assert NAME in _norms(second)
    on = weighed(read_agent.agent, owner_subject, QUESTION, ON)
    assert second not in ids(on)
    current = MemoryRecord.objects.get(supersedes_id=second)
    assert NAME in _norms(current)  # the new version is indexed and may come along


def test_erasure_removes_the_mentions_and_verifies(write_agent, owner_subject):
    from tests.helpers.lifecycle import erase

    first = converse(write_agent.agent, owner_subject, FIRST, thread="t1")[0]
    second = converse(write_agent.agent, owner_subject, SECOND, thread="t2")[0]
    lineage = MemoryRecord.objects.get(id=first).lineage_id
    request = erase(owner_subject, "memory", lineage)
    assert "entity_mentions" in request.receipt
    assert request.verification["entity_mentions"] == 0
    assert _norms(first) == set() and NAME in _norms(second)
    whole = erase(owner_subject, "subject", owner_subject.id)
    assert whole.verification["entity_mentions"] == 0
    assert not MemoryMention.objects.filter(subject=owner_subject).exists()


def test_export_carries_each_versions_entities(owner_subject, same_tenant_user):
    rid = remember(owner_subject, "User met Ingrid Solberg in Oslo", embed=False).record_id
    remember(same_tenant_user[1], "User met Tomasz Wiśniewski in Gdańsk", embed=False)
    data = subject_export(subject=owner_subject, actor=Actor.system(owner_subject.tenant_id, "t"))
    [record] = [r for r in data["records"] if r["id"] == str(rid)]
    names = {e["normalised"]: e for e in record["entities"]}
    assert names["ingrid solberg"]["name"] == "Ingrid Solberg"
    assert names["oslo"]["kind"] == "place"
    everything = str(data)
    assert "Tomasz" not in everything and "gdańsk" not in everything


def test_specificity_falls_with_the_records_naming_an_entity():
    values = [specificity(n) for n in range(1, MAX_RECORDS + 1)]
    assert values[0] == 1.0 and all(a > b for a, b in zip(values, values[1:], strict=False))
    assert 0 < values[-1] < 0.1


def test_a_question_finds_the_memory_naming_its_thing(write_agent, read_agent, owner_subject):
    """A thing in common words ("the bee-keeping course") is an entity too: the memory
    naming it comes along although the question shares little else with it."""
    for text in BACKGROUND:
        remember(owner_subject, text, embed=False)
    turns = [
        ("Ada", "Guess what, I enrolled in a bee-keeping course at the allotment!"),
        ("Bea", "Lovely weather for the allotment this week."),
    ]
    rids = converse(write_agent.agent, owner_subject, turns)
    assert "bee-keeping course" in _norms(rids[0])
    question = "How is Ada finding the bee-keeping course?"
    on = weighed(read_agent.agent, owner_subject, question, ON)
    off = weighed(read_agent.agent, owner_subject, question, OFF)
    assert rids[0] in ids(on)
    assert rids[0] not in ids(off) or final(on, rids[0]) >= final(off, rids[0])
