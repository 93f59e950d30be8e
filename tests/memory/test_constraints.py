"""The database itself refuses what the record model forbids — even when application code
is bypassed. Each test goes around the services on purpose and expects a refusal."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.db import IntegrityError, ProgrammingError, transaction
from django.utils import timezone

from core.actor import Actor
from core.audit import audit_record
from core.models import AuditEvent
from memory.models import MemoryRecord, SourceEvent

pytestmark = pytest.mark.django_db

# pgtrigger's refusal message; the trigger names are asserted by test_triggers_installed.
REFUSED = "pgtrigger: Cannot (update|delete)"


def make_record(subject, **kw) -> MemoryRecord:
    rid = uuid.uuid4()
    fields = dict(
        id=rid,
        tenant_id=subject.tenant_id,
        subject=subject,
        namespace="assistant/profile",
        memory_type="semantic",
        predicate="home_city",
        statement="User lives in Berlin",
        value="Berlin",
        content_key="k",
        cardinality="single",
        assertion_kind="user_explicit",
        confidence=1.0,
        valid_from=timezone.now() - timedelta(days=10),
        lineage_id=rid,
        status="active",
        purpose="personalization",
        consent_basis="explicit_consent",
    )
    fields.update(kw)
    return MemoryRecord.objects.create(**fields)


@pytest.mark.parametrize("confidence", [-0.01, 1.01, 7])
def test_confidence_out_of_range_refused(owner_subject, confidence):
    with pytest.raises(IntegrityError, match="memory_confidence_0_1"):
        make_record(owner_subject, confidence=confidence)


def test_valid_from_must_precede_valid_to(owner_subject):
    now = timezone.now()
    with pytest.raises(IntegrityError, match="memory_valid_from_before_valid_to"):
        make_record(owner_subject, valid_from=now, valid_to=now)


def test_overlapping_single_valued_facts_refused(owner_subject):
    make_record(owner_subject)
    with pytest.raises(IntegrityError, match="memory_single_value_no_overlap"):
        make_record(
            owner_subject, statement="User lives in Paris", value="Paris", valid_from=timezone.now()
        )


def test_non_overlapping_and_multi_valued_and_inactive_facts_allowed(owner_subject):
    now = timezone.now()
    make_record(
        owner_subject, valid_from=now - timedelta(days=10), valid_to=now - timedelta(days=5)
    )
    make_record(owner_subject, valid_from=now - timedelta(days=5))  # adjacent, [) ranges
    make_record(owner_subject, predicate="likes", cardinality="multi", value="jazz")
    make_record(owner_subject, predicate="likes", cardinality="multi", value="rock")
    make_record(owner_subject, status="quarantined", value="Rome")
    make_record(owner_subject, namespace="assistant/profile/travel", value="Lisbon")
    assert MemoryRecord.objects.filter(subject=owner_subject).count() == 6


def test_same_fact_for_another_subject_is_independent(owner_subject, same_tenant_user):
    make_record(owner_subject)
    make_record(same_tenant_user[1])


def test_record_content_cannot_be_updated_in_place(owner_subject):
    record = make_record(owner_subject)
    with pytest.raises(ProgrammingError, match=REFUSED):
        with transaction.atomic():
            MemoryRecord.objects.filter(pk=record.pk).update(statement="User lives in Paris")
    with pytest.raises(ProgrammingError, match=REFUSED):
        with transaction.atomic():
            MemoryRecord.objects.filter(pk=record.pk).update(valid_from=timezone.now())


def test_lifecycle_columns_may_change_once(owner_subject):
    record = make_record(owner_subject)
    now = timezone.now()
    MemoryRecord.objects.filter(pk=record.pk).update(
        status="superseded", superseded_at=now, access_count=3
    )
    with pytest.raises(ProgrammingError, match=REFUSED):
        with transaction.atomic():
            MemoryRecord.objects.filter(pk=record.pk).update(superseded_at=now + timedelta(days=1))


def test_records_cannot_be_deleted(owner_subject):
    record = make_record(owner_subject)
    with pytest.raises(ProgrammingError, match=REFUSED):
        with transaction.atomic():
            MemoryRecord.objects.filter(pk=record.pk).delete()


def test_source_events_are_append_only(owner_subject):
    event = SourceEvent.objects.create(
        tenant_id=owner_subject.tenant_id,
        subject=owner_subject,
        client_event_id="c1",
        kind="message",
        role="user",
        content="hello",
        occurred_at=timezone.now(),
        payload_sha256="x",
    )
    with pytest.raises(ProgrammingError, match=REFUSED):
        with transaction.atomic():
            SourceEvent.objects.filter(pk=event.pk).update(content="changed")
    with pytest.raises(ProgrammingError, match=REFUSED):
        with transaction.atomic():
            SourceEvent.objects.filter(pk=event.pk).delete()


def test_audit_log_is_append_only(tenant):
    event = audit_record(actor=Actor.system(tenant.id), action="test.event", reason_code="x")
    with pytest.raises(ProgrammingError, match=REFUSED):
        with transaction.atomic():
            AuditEvent.objects.filter(pk=event.pk).update(reason_code="tampered")
    with pytest.raises(ProgrammingError, match=REFUSED):
        with transaction.atomic():
            AuditEvent.objects.filter(pk=event.pk).delete()


def test_api_key_scopes_must_be_known(write_agent):
    key = write_agent.agent.api_keys.first()
    with pytest.raises(IntegrityError, match="apikey_scopes_known"):
        with transaction.atomic():
            type(key).objects.filter(pk=key.pk).update(scopes=["read", "superuser"])


def test_triggers_installed():
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal")
        names = {row[0] for row in cursor.fetchall()}
    for expected in (
        "memory_content_immutable",
        "memory_record_time_closed_once",
        "memory_no_delete",
        "source_event_append_only",
        "audit_append_only",
    ):
        assert any(expected in n for n in names), expected
