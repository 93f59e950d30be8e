"""Derived indexes: written with the record (lexical) or after commit (embeddings), never
for secrets or restricted memories, rebuilt from records, and gone with an erasure."""

from __future__ import annotations

import importlib
import re
import uuid
from types import SimpleNamespace

import numpy as np
import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection, transaction
from django.test import override_settings
from django.utils import timezone

from accounts.models import Sensitivity
from core.actor import Actor
from core.codes import Operation
from memory import lexical
from memory.embedders import get_embedder
from memory.models import (
    MemoryEmbedding,
    MemoryRecord,
    MemorySearchDoc,
    MemoryStatus,
)
from memory.services.erasure import memory_lineage_erase
from memory.services.index_maintenance import reindex
from memory.services.indexing import (
    embed_queue_join,
    index_pending_records,
    search_docs_write,
)
from memory.write_policy import Intent
from tests.helpers.retrieval import ids, recall, remember


def _raw_record(subject, statement: str, **kw) -> MemoryRecord:
    """A record created directly (bypassing the write policy) to test the indexer's own
    guards; the write path would refuse most of these."""
    fields = {
        "tenant_id": subject.tenant_id,
        "subject": subject,
        "namespace": "assistant/profile",
        "memory_type": "semantic",
        "statement": statement,
        "content_key": uuid.uuid4().hex,
        "assertion_kind": "user_explicit",
        "confidence": 1.0,
        "valid_from": timezone.now(),
        "lineage_id": uuid.uuid4(),
        "status": MemoryStatus.ACTIVE,
        "purpose": "personalization",
        "consent_basis": "explicit_consent",
    }
    fields.update(kw)
    return MemoryRecord.objects.create(**fields)


def test_write_path_writes_the_lexical_doc_in_the_same_transaction(owner_subject):
    outcome = remember(owner_subject, "用户喜欢喝乌龙茶 and prefers oolong tea")
    doc = MemorySearchDoc.objects.get(record_id=outcome.record_id)
    assert doc.tenant_id == owner_subject.tenant_id and doc.subject_id == owner_subject.id
    assert "乌龙茶" in doc.segmented_text.split()
    assert "oolong" in doc.trigram_text


TRIGRAM_CASES = [
    "2026年1月23日用户从昆明飞往新加坡的KL1412航班因流量管制备降",
    "故障INC-27849：监控指标管道延迟飙升到2700毫秒",
    "用户用Surface Laptop 5办公",
    "a中b中c 12中34",
    "Plain English text with ERR-4012",
]


@pytest.mark.parametrize("statement", TRIGRAM_CASES)
def test_trigram_text_separates_chinese_from_latin_and_digits(statement):
    text = lexical.trigram_text(statement=statement, predicate="", value=None)
    assert not re.search(lexical.CJK_CLASS + "[a-z0-9]|[a-z0-9]" + lexical.CJK_CLASS, text)
    assert text.replace(" ", "") == statement.lower().replace(" ", "")


def test_migration_0009_rewrites_stored_docs_like_the_write_path(owner_subject):
    rewrite = importlib.import_module("memory.migrations.0009_trigram_script_boundaries").rewrite
    outcomes = [remember(owner_subject, s, embed=False) for s in TRIGRAM_CASES]
    expected = dict(MemorySearchDoc.objects.values_list("record_id", "trigram_text"))
    # Docs as they were stored before the rule: the scripts run together.
    for o in outcomes:
        statement = MemoryRecord.objects.get(id=o.record_id).statement
        MemorySearchDoc.objects.filter(record_id=o.record_id).update(
            trigram_text=f"{statement}  ".lower()
        )
    assert MemorySearchDoc.objects.filter(trigram_text__contains="的kl1412航").exists()
    rewrite(None, SimpleNamespace(connection=connection))
    assert dict(MemorySearchDoc.objects.values_list("record_id", "trigram_text")) == expected


def test_a_rolled_back_write_leaves_no_lexical_doc(owner_subject):
    with pytest.raises(RuntimeError), transaction.atomic():
        outcome = remember(owner_subject, "User likes sailing")
        assert MemorySearchDoc.objects.filter(record_id=outcome.record_id).exists()
        raise RuntimeError("abort")
    assert not MemorySearchDoc.objects.filter(record_id=outcome.record_id).exists()


def test_embedding_is_deferred_and_idempotent(owner_subject):
    outcome = remember(owner_subject, "User likes sailing on weekends", embed=False)
    # The write did not embed (the test transaction never commits, so no after-commit hook).
    assert not MemoryEmbedding.objects.filter(record_id=outcome.record_id).exists()
    assert index_pending_records([outcome.record_id]) == 1
    assert index_pending_records([outcome.record_id]) == 0
    emb = MemoryEmbedding.objects.get(record_id=outcome.record_id)
    assert emb.model_id == get_embedder().model_id
    assert len(emb.vector) == 384
    assert np.isclose(np.linalg.norm(emb.vector), 1.0, atol=1e-3)
    record = MemoryRecord.objects.get(pk=outcome.record_id)
    assert record.embedding_model == get_embedder().model_id


def test_restricted_and_secret_bearing_records_are_never_embedded(owner_subject):
    restricted = _raw_record(
        owner_subject, "User's diagnosis is kept private", sensitivity=Sensitivity.RESTRICTED
    )
    secret = _raw_record(owner_subject, "the password is hunter2-Sup3r$ecret")
    quarantined = _raw_record(owner_subject, "held for review", status=MemoryStatus.QUARANTINED)
    assert index_pending_records([restricted.id, secret.id, quarantined.id]) == 0
    reindex()
    assert not MemoryEmbedding.objects.filter(
        record_id__in=[restricted.id, secret.id, quarantined.id]
    ).exists()


@pytest.mark.django_db(transaction=True)
@override_settings(
    ENGRAM_RETRIEVAL={
        **settings.ENGRAM_RETRIEVAL,
        "EMBED_AFTER_COMMIT": "thread",
    }
)
def test_after_commit_queue_embeds_committed_records(owner_subject):
    outcome = remember(owner_subject, "User collects vintage fountain pens", embed=False)
    embed_queue_join()
    assert MemoryEmbedding.objects.filter(record_id=outcome.record_id).exists()


def test_recall_sees_a_record_before_it_is_embedded(read_agent, owner_subject):
    """While the vector index lags, lexical and exact routes still find the record."""
    outcome = remember(
        owner_subject, "Checkout fails with ERR-4012", predicate="checkout_error", embed=False
    )
    result = recall(read_agent.agent, owner_subject, "ERR-4012 checkout")
    assert ids(result) == [outcome.record_id]
    assert result.vector_pending == 1
    assert "vector" not in result.items[0].scores
    # Recall never embeds on the read path: the queue (here, by hand) catches up.
    index_pending_records([outcome.record_id])
    again = recall(read_agent.agent, owner_subject, "ERR-4012 checkout")
    assert again.vector_pending == 0 and "vector" in again.items[0].scores


def test_erasure_removes_derived_rows_and_nothing_is_retrievable(read_agent, owner_subject):
    outcome = remember(
        owner_subject, "User's locker code hint is the blue door", predicate="locker"
    )
    index_pending_records([outcome.record_id])
    assert MemoryEmbedding.objects.filter(record_id=outcome.record_id).exists()
    forget = remember(
        owner_subject,
        "User's locker code hint is the blue door",
        predicate="locker",
        intent=Intent.FORGET,
        target_record_id=outcome.record_id,
    )
    assert forget.operation == Operation.DELETE
    assert not MemoryEmbedding.objects.filter(record_id=outcome.record_id).exists()
    assert not MemorySearchDoc.objects.filter(record_id=outcome.record_id).exists()
    for query in ("locker blue door", "locker", "What is the hint for the user's locker?"):
        assert recall(read_agent.agent, owner_subject, query).items == []
    # A rebuild does not bring it back either.
    reindex()
    assert not MemorySearchDoc.objects.filter(record_id=outcome.record_id).exists()
    assert not MemoryEmbedding.objects.filter(record_id=outcome.record_id).exists()


def test_erasure_of_a_lineage_removes_every_versions_rows(owner_subject):
    first = remember(owner_subject, "User lives in Shanghai", predicate="home_city")
    second = remember(
        owner_subject,
        "User lives in Hangzhou",
        predicate="home_city",
        intent=Intent.SUPERSEDE,
        target_record_id=first.record_id,
    )
    reindex()
    lineage = MemoryRecord.objects.get(pk=first.record_id).lineage_id
    versions = list(MemoryRecord.objects.filter(lineage_id=lineage).values_list("id", flat=True))
    assert second.record_id in versions and len(versions) >= 2
    memory_lineage_erase(
        actor=Actor.system(owner_subject.tenant_id),
        tenant_id=owner_subject.tenant_id,
        lineage_id=lineage,
        reason_code="user_request",
    )
    assert not MemoryEmbedding.objects.filter(record_id__in=versions).exists()
    assert not MemorySearchDoc.objects.filter(record_id__in=versions).exists()


def test_reindex_rebuilds_from_records_and_keeps_other_models_side_by_side(owner_subject):
    outcome = remember(owner_subject, "User prefers window seats", embed=False)
    MemorySearchDoc.objects.all().delete()
    old_model = MemoryEmbedding.objects.create(
        tenant_id=owner_subject.tenant_id,
        subject=owner_subject,
        record_id=outcome.record_id,
        model_id="old-model",
        vector=np.zeros(384, dtype=np.float32) + 0.05,
    )
    result = reindex()
    assert result.search_docs >= 1 and result.embeddings >= 1
    assert MemorySearchDoc.objects.filter(record_id=outcome.record_id).exists()
    models = set(
        MemoryEmbedding.objects.filter(record_id=outcome.record_id).values_list(
            "model_id", flat=True
        )
    )
    assert models == {"old-model", get_embedder().model_id}
    assert MemoryEmbedding.objects.filter(pk=old_model.pk).exists()


def test_search_docs_skip_deleted_records(owner_subject):
    record = _raw_record(owner_subject, "", status=MemoryStatus.DELETED)
    assert search_docs_write([record]) == 0


def test_reindex_command(owner_subject, tenant):
    remember(owner_subject, "User prefers green tea")
    MemorySearchDoc.objects.all().delete()
    call_command("engram_reindex", "--tenant", tenant.slug)
    assert MemorySearchDoc.objects.filter(subject=owner_subject).count() == 1
    with pytest.raises(Exception, match="No tenant"):
        call_command("engram_reindex", "--tenant", "nope")
