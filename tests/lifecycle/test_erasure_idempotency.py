"""Answers kept for ``Idempotency-Key`` replays are part of what erasure reaches: deleting a
memory removes the stored answers that name it, erasing a person removes all of theirs, and
the verification counts them (the same workflow as every other store)."""

from __future__ import annotations

import pytest

from memory.models import DeletionScope, IdempotencyKey
from tests.helpers.cast import candidate
from tests.helpers.lifecycle import erase

pytestmark = pytest.mark.django_db


def _submit(api, statement: str, key: str) -> str:
    response = api.post_json(
        "/api/v1/candidates",
        {"candidates": [candidate(statement=statement)]},
        HTTP_IDEMPOTENCY_KEY=key,
    )
    assert response.status_code == 200, response.content
    return response.json()["results"][0]["record_id"]


def test_deleting_a_memory_removes_the_stored_answer_that_names_it(api, owner_subject):
    tea = _submit(api, "User likes oolong tea", "k-tea")
    _submit(api, "User cycles to work", "k-bike")
    request = erase(owner_subject, DeletionScope.MEMORY, tea)
    assert request.receipt["idempotency_answers"] == 1
    assert request.verification["idempotency_answers"] == 0
    assert list(IdempotencyKey.objects.values_list("key", flat=True)) == ["k-bike"]


def test_erasing_a_person_removes_all_their_stored_answers(api, owner_subject, same_tenant_user):
    _submit(api, "User likes oolong tea", "k-tea")
    _submit(api, "User cycles to work", "k-bike")
    request = erase(owner_subject, DeletionScope.SUBJECT, owner_subject.id)
    assert request.receipt["idempotency_answers"] == 2
    assert request.verification["idempotency_answers"] == 0
    assert not IdempotencyKey.objects.filter(subject=owner_subject).exists()
