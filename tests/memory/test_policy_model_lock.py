"""The policy model is asked before the write takes the subject's row lock
(memory/services/policy_model.py, ``answers_before_the_lock``): a slow model never holds up
the subject's other writes, and the decision made under the lock still governs — what
changed in between (another write, a withdrawal of consent) wins over the answer fetched
before it.

The guard model here is a real HTTP server whose handler looks at the database from its
own connection while it answers, so these tests commit (``transaction=True``)."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from core.tenancy import tenant_context
from memory.models import MemoryRecord, Subject
from tests.memory import test_policy_model as base
from tests.memory.test_policy_model import (
    SURE,
    UNSURE_CREDENTIAL,
    UNSURE_INSTRUCTION,
    _Guard,
    cand,
    flags,
    guard,
    submit,
)

# The guard model's fixtures, shared with the module they come from.
uses_model = base.uses_model
model = base.model

pytestmark = pytest.mark.django_db(transaction=True)


def _subject_is_locked(tenant_id, subject_id) -> bool:
    """From this thread's own connection: can the subject's row be locked the way a write
    locks it, without waiting?"""
    try:
        with tenant_context(tenant_id), transaction.atomic():
            Subject.objects.select_for_update(no_key=True, nowait=True).get(pk=subject_id)
        return False
    except DatabaseError:
        return True
    finally:
        connection.close()


class _LockProbe(_Guard):
    """Before answering, notes whether the subject's row was locked at that moment."""

    tenant_id = None
    subject_id = None
    seen: list[bool] = []

    def do_POST(self):
        type(self).seen.append(_subject_is_locked(self.tenant_id, self.subject_id))
        super().do_POST()


def _probe(subject, answer: dict) -> type[_LockProbe]:
    attrs = {"requests": [], "seen": [], "answer": answer}
    return type(
        "Probe", (_LockProbe,), {**attrs, "tenant_id": subject.tenant_id, "subject_id": subject.pk}
    )


def test_the_model_is_asked_while_the_subject_is_not_locked(owner_subject, uses_model, model):
    uses_model()
    handler = _probe(owner_subject, flags("credential"))
    with model(handler):
        outcomes = submit(owner_subject, cand(SURE), cand(UNSURE_CREDENTIAL))
    assert handler.seen == [False]
    # The answer asked before the lock decides under it: the credential is refused.
    assert [o.operation for o in outcomes] == ["ADD", "REJECT"]
    assert outcomes[1].reason_code == "secret_detected"


def test_a_batch_asks_once_per_unsure_text_and_never_under_the_lock(
    owner_subject, uses_model, model
):
    # Five candidates take the batched path; the same unsure text twice is asked once.
    uses_model()
    handler = _probe(owner_subject, flags("instruction"))
    batch = [
        cand(UNSURE_INSTRUCTION),
        cand("User prefers green tea"),
        cand(UNSURE_CREDENTIAL),
        cand("User lives near the river"),
        cand(UNSURE_CREDENTIAL, namespace="assistant/other"),
    ]
    with model(handler):
        submit(owner_subject, *batch)
    asked = [r["messages"][-1]["content"] for r in handler.requests]
    assert len(asked) == len(set(asked)) >= 1
    assert handler.seen == [False] * len(asked)


class _WithdrawsConsent(_Guard):
    """While it is being asked, the user withdraws consent (committed from another
    connection): the decision under the lock must see that, whatever the model says."""

    tenant_id = None
    subject_id = None

    def do_POST(self):
        try:
            with tenant_context(self.tenant_id):
                Subject.objects.filter(pk=self.subject_id).update(
                    consent_withdrawn_at=timezone.now()
                )
        finally:
            connection.close()
        super().do_POST()


def test_a_change_made_while_the_model_answers_governs_the_decision(
    owner_subject, uses_model, model
):
    uses_model()
    handler = type(
        "Withdraws",
        (_WithdrawsConsent,),
        {
            "requests": [],
            "tenant_id": owner_subject.tenant_id,
            "subject_id": owner_subject.pk,
        },
    )
    with model(handler):
        [outcome] = submit(owner_subject, cand(UNSURE_CREDENTIAL))
    assert len(handler.requests) == 1  # asked before the lock, on the state before
    assert outcome.operation == "REJECT"  # decided under the lock, on the state after
    with tenant_context(owner_subject.tenant_id):
        assert not MemoryRecord.objects.filter(subject=owner_subject).exists()


def test_a_candidate_refused_before_the_lock_is_never_sent(owner_subject, uses_model, model):
    uses_model()
    with tenant_context(owner_subject.tenant_id):
        Subject.objects.filter(pk=owner_subject.pk).update(consent_withdrawn_at=timezone.now())
    handler = guard()
    with model(handler):
        [outcome] = submit(owner_subject, cand(UNSURE_CREDENTIAL))
    assert outcome.operation == "REJECT"
    assert handler.requests == []
