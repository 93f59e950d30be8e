"""``ENGRAM_WRITE_FEWER_ROUND_TRIPS``: the subject's lock and write counter in one statement
(``memory.services.subject_lock``) and no context-turn lookup for new records citing no
event store exactly what the reference statements store, on the batched path and the
reference path alike; and they do save round trips."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.services.tenants import tenant_create
from memory.models import MemorySearchDoc, Subject
from memory.services.subject_lock import subject_locked_for_write
from memory.services.writes import candidates_submit
from memory.write_policy import Candidate
from tests.memory.test_write_batch_equivalence import _candidate, _stored, _world, item

pytestmark = pytest.mark.django_db


def _conf(settings, *, fewer: bool, batched: bool) -> None:
    settings.ENGRAM_WRITE_BATCH = {
        **settings.ENGRAM_WRITE_BATCH,
        "LOOKUPS": batched,
        "MIN_CANDIDATES": 2,
        "FEWER_ROUND_TRIPS": fewer,
    }


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    batches=st.lists(st.lists(item, min_size=1, max_size=12), min_size=1, max_size=2),
    batched=st.booleans(),
)
def test_fewer_round_trips_store_what_the_reference_statements_store(settings, batches, batched):
    """Generated batches (secrets, invalid text, unknown and cited events, conflicting
    slots, changes and deletions by id, a value the database refuses failing alone) for
    a subject with the setting on and one of another tenant with it off."""
    settings.ENGRAM_LIFECYCLE = {**settings.ENGRAM_LIFECYCLE, "AUTO_EXTRACT": False}
    run = uuid.uuid4().hex[:8]
    tenants = [tenant_create(slug=f"f{run}", name="Fewer"), tenant_create(slug=f"p{run}", name="P")]
    worlds = [_world(t, f"dana-{run}-{i}") for i, t in enumerate(tenants)]
    started = timezone.now()
    outcomes: list[list] = [[], []]
    for specs in batches:
        for side, fewer in ((0, True), (1, False)):
            actor, agent, subject, events, seeds = worlds[side]
            _conf(settings, fewer=fewer, batched=batched)
            outcomes[side] += candidates_submit(
                actor=actor,
                subject=subject,
                candidates=[_candidate(s, events, seeds) for s in specs],
                agent_id=agent.id,
            )
    fewer_rows = _stored(worlds[0][2], started, outcomes[0])
    reference = _stored(worlds[1][2], started, outcomes[1])
    assert fewer_rows == reference
    sequences = [Subject.objects.get(pk=w[2].pk).write_sequence for w in worlds]
    assert sequences[0] == sequences[1] > 0


@pytest.mark.parametrize("fewer", [True, False])
def test_the_lock_returns_the_row_as_read_and_bumps_the_counter(settings, tenant, fewer):
    _conf(settings, fewer=fewer, batched=True)
    _, _, subject, _, _ = _world(tenant, "dana")
    before = Subject.objects.get(pk=subject.pk)
    with transaction.atomic():
        locked = subject_locked_for_write(tenant.id, subject.pk, 7)
        for field in Subject._meta.concrete_fields:
            assert getattr(locked, field.attname) == getattr(before, field.attname), field.name
    assert Subject.objects.get(pk=subject.pk).write_sequence == before.write_sequence + 7


@pytest.mark.parametrize("fewer", [True, False])
def test_another_tenants_subject_is_not_found_and_not_bumped(settings, tenant, other_tenant, fewer):
    _conf(settings, fewer=fewer, batched=True)
    _, _, subject, _, _ = _world(tenant, "dana")
    before = Subject.objects.get(pk=subject.pk).write_sequence
    with pytest.raises(Subject.DoesNotExist), transaction.atomic():
        subject_locked_for_write(other_tenant.id, subject.pk, 3)
    with pytest.raises(Subject.DoesNotExist), transaction.atomic():
        subject_locked_for_write(tenant.id, uuid.uuid4(), 3)  # a deleted (or never) subject
    assert Subject.objects.get(pk=subject.pk).write_sequence == before


@pytest.mark.parametrize("batched", [True, False])
def test_fewer_round_trips_really_saves_statements(settings, tenant, batched):
    """Uncited new records: two statements fewer (the lock's UPDATE, the context lookup);
    cited ones still get their context turn."""
    settings.ENGRAM_LIFECYCLE = {**settings.ENGRAM_LIFECYCLE, "AUTO_EXTRACT": False}
    actor, agent, subject, events, _ = _world(tenant, "dana")
    counts = {}
    for fewer in (False, True):
        _conf(settings, fewer=fewer, batched=batched)
        specs = [
            {"kind": "statement", "text": t, "namespace": f"n{fewer}", "source": "none"}
            | {"event": 0, "inferred": False, "sensitivity": "internal", "value": 0, "seed": 0}
            for t in (0, 3)
        ]
        with CaptureQueriesContext(connection) as queries:
            outcomes = candidates_submit(
                actor=actor,
                subject=subject,
                candidates=[_candidate(s, events, []) for s in specs],
                agent_id=agent.id,
            )
        assert [o.operation for o in outcomes] == ["ADD", "ADD"]
        counts[fewer] = len(queries)
    assert counts[True] == counts[False] - (2 if batched else 3)
    # A cited record keeps its context turn with the setting on.
    _conf(settings, fewer=True, batched=batched)
    [outcome] = candidates_submit(
        actor=actor,
        subject=subject,
        candidates=[
            Candidate(
                memory_type="semantic",
                namespace="ctx",
                statement="User keeps bees on the roof",
                assertion_kind="user_explicit",
                confidence=1.0,
                purpose="personalization",
                consent_basis="explicit_consent",
                source_event_ids=(events[4],),
            )
        ],
        agent_id=agent.id,
    )
    doc = MemorySearchDoc.objects.get(record_id=outcome.record_id)
    assert doc.context_event_id == events[3] and doc.context_text
