"""``record_instance`` (memory/services/record_instances.py,
``ENGRAM_WRITE_BATCH["POSITIONAL_RECORDS"]``) builds the instance ``MemoryRecord(**values)``
builds: every attribute, the related instances' cache, the instance's database and
"adding" state; a record written with it is the row the keyword path writes; unknown
keywords fail as they do; and the switch off is the keyword path."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from memory.models import MemoryRecord
from memory.services import record_instances
from memory.services.record_instances import record_instance

_WHEN = st.none() | st.datetimes(
    min_value=datetime(2000, 1, 1), max_value=datetime(2040, 1, 1), timezones=st.just(UTC)
)
# Keywords ``record_changes._create`` passes, and some it leaves to their defaults.
_OPTIONAL = {
    "predicate": st.text(max_size=10),
    "value": st.none() | st.text(max_size=10) | st.integers() | st.just({"a": [1, 2]}),
    "cardinality": st.sampled_from(["single", "multi"]),
    "valid_to": _WHEN,
    "expires_at": _WHEN,
    "importance": st.floats(0, 1),
    "sensitivity": st.sampled_from(["internal", "restricted"]),
    "status_reason": st.text(max_size=10),
    "created_by_agent_id": st.none() | st.uuids(),
    "conflicts_with_id": st.none() | st.uuids(),
    "evidence_count": st.integers(1, 5),
    "extractor_version": st.text(max_size=5),
}


def _snapshot(record: MemoryRecord) -> dict:
    attrs = {k: v for k, v in vars(record).items() if k != "_state"}
    cache = {k: (type(v), getattr(v, "pk", v)) for k, v in record._state.fields_cache.items()}
    return {
        "attrs": attrs,
        "db": record._state.db,
        "adding": record._state.adding,
        "cache": cache,
    }


@pytest.fixture
def subject(owner_subject):
    return owner_subject


@pytest.mark.django_db
@hsettings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_the_instance_is_the_keyword_paths(subject, data) -> None:
    record_id = uuid.uuid4()
    now = datetime(2026, 12, 7, tzinfo=UTC)
    values = {
        "id": record_id,
        "tenant_id": subject.tenant_id,
        "subject": subject,
        "namespace": "prefs",
        "memory_type": "semantic",
        "statement": data.draw(st.text(max_size=30)),
        "content_key": "k",
        "assertion_kind": "user_explicit",
        "confidence": 0.9,
        "source_uri": "",
        "valid_from": now,
        "recorded_at": now,
        "lineage_id": record_id,
        "status": "active",
        "purpose": "p",
        "consent_basis": "c",
        "created_by_user_id": None,
    }
    names = data.draw(st.lists(st.sampled_from(sorted(_OPTIONAL)), unique=True))
    values |= {name: data.draw(_OPTIONAL[name]) for name in names}
    if data.draw(st.booleans()):
        values["supersedes"] = data.draw(
            st.none() | st.just(MemoryRecord(id=uuid.uuid4(), lineage_id=uuid.uuid4()))
        )
    assert values.keys() <= record_instances._layout()[1]  # the fast path, not its fallback
    fast = record_instance(**values)
    reference = MemoryRecord(**values)
    assert _snapshot(fast) == _snapshot(reference)
    assert fast.subject is subject  # cached, as the keyword path caches it
    if "supersedes" in values:
        assert fast.supersedes is values["supersedes"]


@pytest.mark.django_db
def test_a_written_record_is_the_same_row(subject) -> None:
    now = datetime(2026, 12, 7, tzinfo=UTC)

    def values() -> dict:
        rid = uuid.uuid4()
        return {
            "id": rid,
            "tenant_id": subject.tenant_id,
            "subject": subject,
            "namespace": "prefs",
            "memory_type": "semantic",
            "statement": "The user prefers green tea",
            "content_key": "k",
            "assertion_kind": "user_explicit",
            "confidence": 0.9,
            "source_uri": "",
            "valid_from": now,
            "recorded_at": now,
            "lineage_id": rid,
            "status": "active",
            "purpose": "p",
            "consent_basis": "c",
            "supersedes": None,
        }

    fast, reference = record_instance(**values()), MemoryRecord(**values())
    with CaptureQueriesContext(connection) as queries:
        assert fast.subject.pk == subject.pk  # no query: the subject is cached
    assert not queries.captured_queries
    fast.save(force_insert=True)
    reference.save(force_insert=True)
    skip = {"id", "lineage_id"}
    rows = [
        {
            f.attname: getattr(MemoryRecord.objects.get(pk=r.pk), f.attname)
            for f in MemoryRecord._meta.concrete_fields
            if f.attname not in skip
        }
        for r in (fast, reference)
    ]
    assert rows[0] == rows[1]


def test_unknown_keywords_fail_as_the_keyword_path_fails() -> None:
    with pytest.raises(TypeError):
        MemoryRecord(no_such_field=1)
    with pytest.raises(TypeError):
        record_instance(no_such_field=1)


def test_the_switch_off_is_the_keyword_path(settings, monkeypatch) -> None:
    settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, "POSITIONAL_RECORDS": False}
    calls = []
    monkeypatch.setattr(record_instances, "_layout", lambda: calls.append(1))
    record = record_instance(namespace="n", memory_type="semantic")
    assert not calls and record.namespace == "n" and record.cardinality == "multi"


def test_the_layout_reads_every_concrete_field_and_no_generated_one() -> None:
    layout = record_instances._layout()
    assert layout is not None
    fields, known = layout
    assert [a for a, *_ in fields] == [f.attname for f in MemoryRecord._meta.concrete_fields]
    assert {"subject", "subject_id", "supersedes", "supersedes_id", "statement"} <= known
