"""``core.db.json_rows.rows_insert`` stores the rows ``bulk_create`` stores (its reference,
``ENGRAM_WRITE_BATCH["JSON_INSERTS"]`` off): generated records, lexical docs (upserted),
entity mentions (conflicts ignored) and audit rows (ids returned) are inserted both ways and
read back column by column, their ids aside. Values JSON cannot carry exactly go to the
reference; a row the database refuses leaves none of its statement's rows behind."""

from __future__ import annotations

import math
import uuid
from datetime import UTC, datetime, timedelta, timezone

import pytest
from django.conf import settings as django_settings
from django.db import DatabaseError, connection, transaction
from django.test import override_settings
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.actor import Actor
from core.audit import audit_record_many
from core.db import json_rows
from core.db.json_rows import rows_insert
from core.models import AuditEvent
from memory.models import MemoryMention, MemoryRecord, MemorySearchDoc
from memory.services.subjects import subject_get_or_create

pytestmark = pytest.mark.django_db

text = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
    max_size=40,
)
json_value = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**53), 2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text, inner, max_size=3),
    max_leaves=6,
)
moment = st.builds(
    lambda s, us, minutes: (
        datetime(2024, 1, 1, tzinfo=UTC).astimezone(timezone(timedelta(minutes=minutes)))
        + timedelta(seconds=s, microseconds=us)
    ),
    st.integers(0, 10**8),
    st.integers(0, 999_999),
    st.integers(-12 * 60, 14 * 60),
)
row = st.fixed_dictionaries(
    {
        "statement": text.filter(bool),
        "predicate": text.map(lambda s: s[:30]),
        "value": json_value,
        "confidence": st.floats(0, 1),
        "valid_from": moment,
        "valid_to": st.none() | st.timedeltas(timedelta(seconds=1), timedelta(days=999)),
        "norm": text.filter(bool).map(lambda s: s[:30]),
        "extra": st.dictionaries(text, json_value, max_size=3),
    }
)


def _record(subject, spec: dict, tag: str) -> MemoryRecord:
    return MemoryRecord(
        tenant_id=subject.tenant_id,
        subject=subject,
        namespace=f"user/{tag}",
        memory_type="semantic",
        predicate=spec["predicate"],
        statement=spec["statement"],
        value=spec["value"],
        content_key="k" * 32,
        cardinality="multi",
        assertion_kind="user_explicit",
        confidence=spec["confidence"],
        valid_from=spec["valid_from"],
        valid_to=None if spec["valid_to"] is None else spec["valid_from"] + spec["valid_to"],
        lineage_id=uuid.uuid4(),
        status="active",
        purpose="personalisation",
        sensitivity="personal",
        consent_basis="user_provided",
    )


def _write(subject, specs: list[dict], tag: str) -> None:
    records = [_record(subject, spec, tag) for spec in specs]
    rows_insert(MemoryRecord, records)
    docs = [
        MemorySearchDoc(
            record_id=r.id,
            tenant_id=r.tenant_id,
            subject_id=r.subject_id,
            segmented_text=r.statement,
            trigram_text=r.predicate,
        )
        for r in records
    ]
    rows_insert(MemorySearchDoc, docs)
    for doc, spec in zip(docs, specs, strict=True):  # an upsert rewrites them
        doc.context_text = spec["norm"]
    rows_insert(
        MemorySearchDoc,
        docs,
        update_conflicts=True,
        unique_fields=["record"],
        update_fields=["context_text"],
    )
    mentions = [
        MemoryMention(
            tenant_id=r.tenant_id,
            subject_id=r.subject_id,
            record_id=r.id,
            norm=spec["norm"],
            surface=spec["statement"][:100],
            kind="thing",
        )
        for r, spec in zip(records, specs, strict=True)
        for _ in range(2)  # the second of each conflicts
    ]
    rows_insert(MemoryMention, mentions, ignore_conflicts=True)
    audits = [
        AuditEvent(
            tenant_id=subject.tenant_id,
            actor_type="agent",
            actor_id=tag,
            action="memory.write",
            record_id=r.id,
            extra=spec["extra"],
            occurred_at=spec["valid_from"],
        )
        for r, spec in zip(records, specs, strict=True)
    ]
    audit_record_many(audits)
    assert all(a.pk is not None for a in audits)
    assert [a.pk for a in audits] == sorted(a.pk for a in audits)
    by_id = {a.pk: a for a in AuditEvent.objects.filter(pk__in=[a.pk for a in audits])}
    assert [by_id[a.pk].record_id for a in audits] == [r.id for r in records]


def _stored(subject, tag: str) -> list:
    records = MemoryRecord.objects.filter(subject=subject, namespace=f"user/{tag}")
    skip = {"id", "lineage_id", "namespace", "recorded_at", "record", "record_id"}
    out = []
    for r in records.order_by("statement", "confidence", "valid_from"):
        rec = {k: v for k, v in r.__dict__.items() if k not in skip and not k.startswith("_")}
        doc = MemorySearchDoc.objects.filter(record_id=r.id).values().get()
        mentions = list(
            MemoryMention.objects.filter(record_id=r.id).values("norm", "surface", "kind")
        )
        audit = AuditEvent.objects.filter(record_id=r.id).values().get()
        out.append(
            (
                rec,
                {k: v for k, v in doc.items() if k not in skip and k != "indexed_at"},
                mentions,
                {k: v for k, v in audit.items() if k not in {"id", "actor_id", "record_id"}},
            )
        )
    return out


@pytest.fixture
def subject(tenant):
    return subject_get_or_create(tenant_id=tenant.id, kind="user", external_id="json-rows")


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(specs=st.lists(row, min_size=1, max_size=5))
def test_same_rows_as_bulk_create(subject, specs):
    tag = uuid.uuid4().hex[:8]
    with transaction.atomic():  # an example that fails leaves the next one a clean slate
        with override_settings(
            ENGRAM_WRITE_BATCH={**django_settings.ENGRAM_WRITE_BATCH, "JSON_INSERTS": False}
        ):
            _write(subject, specs, f"ref-{tag}")
        with override_settings(
            ENGRAM_WRITE_BATCH={**django_settings.ENGRAM_WRITE_BATCH, "JSON_INSERTS": True}
        ):
            _write(subject, specs, f"json-{tag}")
        assert _stored(subject, f"json-{tag}") == _stored(subject, f"ref-{tag}")


def test_the_json_statement_runs(subject, django_assert_num_queries, monkeypatch):
    """Not a silent fall-back: the plan exists for every model of the flush."""
    for model in (MemoryRecord, MemorySearchDoc, MemoryMention, AuditEvent):
        assert json_rows._plan(model) is not None, model
    calls = []
    monkeypatch.setattr(
        MemoryRecord.objects, "bulk_create", lambda *a, **k: calls.append(a), raising=False
    )
    spec = {
        "statement": "s",
        "predicate": "",
        "value": "a string",
        "confidence": 0.5,
        "valid_from": datetime(2024, 1, 1, tzinfo=UTC),
        "valid_to": None,
    }
    with django_assert_num_queries(1):
        rows_insert(MemoryRecord, [_record(subject, spec, "one")])
    assert not calls
    assert MemoryRecord.objects.get(namespace="user/one").value == "a string"


# A record's own fields, plain values every form carries.
PLAIN_RECORD = {
    "statement": "s",
    "predicate": "",
    "value": None,
    "confidence": 0.5,
    "valid_from": datetime(2024, 1, 1, tzinfo=UTC),
    "valid_to": None,
}


def test_values_json_cannot_carry_go_to_the_reference(subject):
    for value in (math.nan, math.inf, datetime(2024, 1, 1), object()):
        with pytest.raises(json_rows._Unfit):
            json_rows._plan(AuditEvent).payload(
                [AuditEvent(tenant_id=subject.tenant_id, extra=[value])]
            )
    change = {"valid_from": datetime(2024, 1, 1)}  # naive: bulk_create makes it aware
    for tag, on in (("ref", False), ("json", True)):
        with override_settings(
            ENGRAM_WRITE_BATCH={**django_settings.ENGRAM_WRITE_BATCH, "JSON_INSERTS": on}
        ):
            rows_insert(MemoryRecord, [_record(subject, {**PLAIN_RECORD, **change}, tag)])
    ref, out = (
        MemoryRecord.objects.filter(namespace=f"user/{tag}").values().get()
        for tag in ("ref", "json")
    )
    keep = ("valid_from", "confidence", "value", "statement")
    assert {k: ref[k] for k in keep} == {k: out[k] for k in keep}


def test_a_refused_row_leaves_none_of_its_statement(subject):
    ok = _record(subject, PLAIN_RECORD, "refused")
    too_long = _record(subject, {**PLAIN_RECORD, "predicate": "p" * 201}, "refused")
    with pytest.raises(DatabaseError), transaction.atomic():
        rows_insert(MemoryRecord, [ok, too_long])
    assert not MemoryRecord.objects.filter(namespace="user/refused").exists()


def test_audit_rows_keep_their_order_and_ids(subject):
    actor = Actor.system(subject.tenant_id, "json-rows")
    rows = [
        AuditEvent(
            tenant_id=actor.tenant_id,
            actor_type=actor.type,
            actor_id=actor.id,
            action="memory.write",
            extra={"n": i},
        )
        for i in range(3)
    ]
    audit_record_many(rows)
    stored = AuditEvent.objects.filter(actor_id=actor.id).order_by("id")
    assert [(r.id, r.extra) for r in stored] == [(r.id, {"n": i}) for i, r in enumerate(rows)]


def test_under_the_application_roles_row_level_security(subject, other_tenant):
    """The web workers' role is subject to row-level security, which refuses COPY FROM:
    this statement is an INSERT, checked by the policies like any other."""
    from core.tenancy import tenant_context

    def audit(tenant_id):
        return AuditEvent(tenant_id=tenant_id, actor_type="system", actor_id="rls", action="x")

    spec = {
        "statement": "s",
        "predicate": "",
        "value": {"a": [1, "b"]},
        "confidence": 0.5,
        "valid_from": datetime(2024, 1, 1, tzinfo=UTC),
        "valid_to": None,
    }
    with tenant_context(subject.tenant_id):
        with connection.cursor() as cursor:
            cursor.execute("SELECT current_user")
            assert cursor.fetchone()[0] == django_settings.ENGRAM["DB_APP_ROLE"]
        rows_insert(MemoryRecord, [_record(subject, spec, "rls")])
        rows_insert(AuditEvent, [audit(subject.tenant_id)])
        with pytest.raises(DatabaseError, match="row-level security"), transaction.atomic():
            rows_insert(AuditEvent, [audit(other_tenant.id)])
    assert MemoryRecord.objects.get(namespace="user/rls").value == {"a": [1, "b"]}


@pytest.mark.parametrize("statement", ["bad\x00text", "lone \ud800 surrogate"])
def test_text_the_database_cannot_take_fails_as_in_the_reference(subject, statement):
    spec = {
        "statement": statement,
        "predicate": "",
        "value": None,
        "confidence": 0.5,
        "valid_from": datetime(2024, 1, 1, tzinfo=UTC),
        "valid_to": None,
    }
    raised = []
    for on in (False, True):
        with override_settings(
            ENGRAM_WRITE_BATCH={**django_settings.ENGRAM_WRITE_BATCH, "JSON_INSERTS": on}
        ):
            with pytest.raises(Exception) as caught, transaction.atomic():
                rows_insert(MemoryRecord, [_record(subject, spec, "bad")])
        raised.append(type(caught.value))
    assert raised[0] is raised[1]
    assert not MemoryRecord.objects.filter(namespace="user/bad").exists()
