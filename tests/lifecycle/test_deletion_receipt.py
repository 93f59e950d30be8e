"""The deletion receipt counts what was removed from every store, however it was removed:
erasing a record version also drops its vectors and lexical rows (memory.services.erasure),
so the embeddings and lexical stores found nothing left to erase themselves and reported
0 (an erasure of 439 vectors and 439 lexical docs said ``embeddings: 0``)."""

from __future__ import annotations

import pytest

from memory.models import DeletionStatus, MemoryEmbedding, MemorySearchDoc
from tests.helpers.lifecycle import erase
from tests.helpers.retrieval import remember

pytestmark = pytest.mark.django_db

STATEMENTS = [
    "User prefers oolong tea in the morning",
    "User's bike is a blue road bike",
    "用户每周三晚上练习大提琴",
]


def _rows(model, subject) -> int:
    return model.objects.filter(subject_id=subject.id).count()


def test_a_subject_erasure_receipt_counts_vectors_and_lexical_rows(owner_subject, same_tenant_user):
    for statement in STATEMENTS:
        remember(owner_subject, statement)
    bob = same_tenant_user[1]
    remember(bob, "User prefers oolong tea in the morning")
    vectors, docs = _rows(MemoryEmbedding, owner_subject), _rows(MemorySearchDoc, owner_subject)
    assert vectors >= len(STATEMENTS) and docs >= len(STATEMENTS)
    bob_rows = (_rows(MemoryEmbedding, bob), _rows(MemorySearchDoc, bob))

    request = erase(owner_subject, "subject", owner_subject.id)

    assert request.status == DeletionStatus.DONE, request.verification
    assert request.receipt["embeddings"] == vectors
    assert request.receipt["lexical_trigram_index"] == docs
    assert request.receipt["record_versions"] == len(STATEMENTS)
    assert request.verification["embeddings"] == request.verification["lexical_trigram_index"] == 0
    # Only what was removed is counted: the other subject's rows are untouched.
    assert (_rows(MemoryEmbedding, bob), _rows(MemorySearchDoc, bob)) == bob_rows


def test_a_single_memory_erasure_receipt_counts_its_own_rows(owner_subject):
    outcomes = [remember(owner_subject, statement) for statement in STATEMENTS]
    target = outcomes[0].record_id
    from memory.models import MemoryRecord

    lineage = MemoryRecord.objects.get(pk=target).lineage_id
    versions = list(MemoryRecord.objects.filter(lineage_id=lineage).values_list("id", flat=True))
    vectors = MemoryEmbedding.objects.filter(record_id__in=versions).count()
    docs = MemorySearchDoc.objects.filter(record_id__in=versions).count()
    assert vectors >= 1 and docs >= 1

    request = erase(owner_subject, "memory", lineage)

    assert request.status == DeletionStatus.DONE, request.verification
    assert request.receipt["embeddings"] == vectors
    assert request.receipt["lexical_trigram_index"] == docs
    # The other memories keep theirs.
    assert _rows(MemoryEmbedding, owner_subject) >= len(STATEMENTS) - 1
