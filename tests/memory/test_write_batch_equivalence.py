"""The batched write path (``memory.services.write_batch``) decides and stores exactly what
the reference path (candidate by candidate, ``memory.services.writes``) does.

Generated batches — English and Chinese statements, secrets, duplicates, single-valued
slots that conflict, supersedes and corrections, retractions and deletions of records
named by id, invalid text, unknown source events, passing states and future plans, more
sensitive statements among ordinary ones, values the database refuses — are written with the batch path for one
subject and with the reference path for a subject of another tenant, after the same
events were appended for both. Outcomes, stored records, their source links and search
docs, and the audit rows must be the same, ids and the time of the write aside."""

from __future__ import annotations

import uuid
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.models import Tenant
from accounts.services.tenants import agent_create, tenant_create
from core.actor import Actor
from core.codes import AuditAction
from core.models import AuditEvent
from memory.models import MemoryRecord, MemorySearchDoc, MemorySource, SourceEvent
from memory.services.events import EventInput, events_append
from memory.services.subjects import subject_get_or_create
from memory.services.writes import candidates_submit
from memory.write_policy import Candidate, Intent

pytestmark = pytest.mark.django_db

STATEMENTS = [
    "User prefers window seats on long flights",
    "I like oat milk in my coffee",
    "User's sister lives in Ghent",
    "用户喜欢喝乌龙茶",
    "我周末常去爬山",
    "用户的女儿在学大提琴",
    "my wifi password is Qv7!plumtree88",  # a secret
    "我家门禁密码是 582046",  # a secret
    "I'm really tired right now",  # a passing state
    "我今天有点头疼",  # a passing state
    "after the renovation is done I will move to Porto",  # a future plan
    "下个月我要搬到青岛",  # a future plan
    "User was diagnosed with type 1 diabetes",  # sensitive
    "I moved to Tallinn last week",
    "bad\x00text",  # cannot be stored
]
CITIES = ["Porto", "Tallinn", "Kraków", "厦门", "昆明"]
DRINKS = ["oolong", "espresso", "乌龙茶"]

item = st.fixed_dictionaries(
    {
        "kind": st.sampled_from(
            ["statement"] * 6 + ["city", "drink", "change", "retract", "forget", "expire"]
        ),
        "text": st.integers(0, len(STATEMENTS) - 1),
        "value": st.integers(0, 4),
        "namespace": st.sampled_from(["prefs", "prefs/travel"]),
        "source": st.sampled_from(["event", "event", "none", "unknown", "two"]),
        "event": st.integers(0, 7),
        "inferred": st.booleans(),
        "sensitivity": st.sampled_from(["internal"] * 4 + ["public", "confidential"]),
        "seed": st.integers(0, 3),
        # A value the database refuses (longer than its column): that candidate alone fails.
        "long_uri": st.sampled_from([False] * 7 + [True]),
    }
)


def _candidate(spec: dict, events: list[uuid.UUID], seeds: list[uuid.UUID]) -> Candidate:
    kw: dict = dict(
        memory_type="semantic",
        namespace=spec["namespace"],
        statement=STATEMENTS[spec["text"]],
        assertion_kind="agent_inference" if spec["inferred"] else "user_explicit",
        confidence=0.7 if spec["inferred"] else 1.0,
        purpose="personalization",
        consent_basis="explicit_consent",
        sensitivity=spec["sensitivity"],
    )
    if spec.get("long_uri"):
        kw["source_uri"] = "https://example.org/" + "a" * 1200
    kind = spec["kind"]
    if kind in ("city", "change"):
        city = CITIES[spec["value"]]
        kw.update(predicate="home_city", value=city, cardinality="single")
        kw["statement"] = f"User lives in {city}" if spec["value"] < 3 else f"用户住在{city}"
        if kind == "change":
            kw["intent"] = Intent.CORRECT if spec["inferred"] else Intent.SUPERSEDE
    elif kind == "drink":
        drink = DRINKS[spec["value"] % len(DRINKS)]
        kw.update(predicate="favorite_drink", value=drink, statement=f"User's drink is {drink}")
    elif kind in ("retract", "forget", "expire"):
        kw["intent"] = {"retract": Intent.RETRACT, "forget": Intent.FORGET}.get(kind, Intent.EXPIRE)
        kw["target_record_id"] = seeds[spec["seed"]]
    source = spec["source"]
    if source == "event":
        kw["source_event_ids"] = (events[spec["event"]],)
    elif source == "two":
        kw["source_event_ids"] = (events[spec["event"]], events[(spec["event"] + 1) % 8])
    elif source == "unknown":
        kw["source_event_ids"] = (uuid.uuid5(uuid.NAMESPACE_URL, str(spec["event"])),)
    return Candidate(**kw)


def _world(tenant: Tenant, name: str):
    agent = agent_create(actor=Actor.system(tenant.id, "t"), tenant=tenant, name=name)
    subject = subject_get_or_create(
        tenant_id=tenant.id, kind="user", external_id=name, display_name="Dana Whitfield"
    )
    actor = Actor.agent(agent.id, tenant.id)
    base = datetime(2026, 3, 2, 9, tzinfo=UTC)
    events = events_append(
        actor=actor,
        agent_id=agent.id,
        subject=subject,
        items=[
            EventInput(
                client_event_id=f"e{i}",
                kind="message",
                role="user" if i % 3 else "assistant",
                content=STATEMENTS[(i * 5) % (len(STATEMENTS) - 1)],
                thread_id="t1" if i < 6 else "t2",
                speaker="Dana" if i % 3 else "Assistant",
                occurred_at=base + timedelta(minutes=i),
            )
            for i in range(8)
        ],
    )
    seeded = candidates_submit(
        actor=actor,
        subject=subject,
        candidates=[
            Candidate(
                memory_type="semantic",
                namespace="prefs",
                statement=text,
                assertion_kind="user_explicit",
                confidence=1.0,
                purpose="personalization",
                consent_basis="explicit_consent",
                source_event_ids=(events[i].event_id,),
                **extra,
            )
            for i, (text, extra) in enumerate(
                [
                    ("User lives in Porto", {"predicate": "home_city", "value": "Porto"}),
                    (
                        "User's drink is espresso",
                        {"predicate": "favorite_drink", "value": "espresso"},
                    ),
                    ("User keeps a bonsai on the balcony", {}),
                    ("用户养了一只猫", {}),
                ]
            )
        ],
        agent_id=agent.id,
    )
    return actor, agent, subject, [e.event_id for e in events], [o.record_id for o in seeded]


def _stored(subject, started: datetime, outcomes) -> dict:
    """Everything the writes left, ids and write times replaced by stable names."""
    names: dict = {}
    records = list(MemoryRecord.objects.filter(subject=subject).order_by("recorded_at", "id"))
    events = dict(SourceEvent.objects.filter(subject=subject).values_list("id", "client_event_id"))

    def when(value):
        return "now" if value is not None and value >= started else value

    # Name each record by what it holds: the same across both subjects.
    for r in records:
        names[r.id] = (
            r.namespace,
            r.predicate,
            r.statement,
            str(r.value),
            r.status,
            when(r.valid_to),
        )
    rows = Counter(
        (
            names[r.id],
            r.content_key,
            r.cardinality,
            r.assertion_kind,
            r.confidence,
            r.status_reason,
            r.sensitivity,
            r.evidence_count,
            when(r.valid_from),
            when(r.superseded_at),
            names.get(r.supersedes_id),
            names.get(r.conflicts_with_id),
            frozenset(events[e] for e in r.source_events.values_list("id", flat=True)),
        )
        for r in records
    )
    docs = Counter(
        (
            names[d.record_id],
            d.segmented_text,
            d.trigram_text,
            d.context_text,
            events.get(d.context_event_id),
        )
        for d in MemorySearchDoc.objects.filter(record__subject=subject)
    )
    audits = [
        (
            a.operation,
            a.reason_code,
            a.extra["index"],
            tuple(a.extra["findings"]),
            names.get(a.record_id),
        )
        for a in AuditEvent.objects.filter(
            subject_id=subject.id, action=AuditAction.MEMORY_WRITE, occurred_at__gte=started
        ).order_by("id")
    ]
    results = [
        (o.operation, o.reason_code, o.findings, names.get(o.record_id), names.get(o.target_id))
        for o in outcomes
    ]
    links = MemorySource.objects.filter(record__subject=subject).count()
    return {"results": results, "records": rows, "docs": docs, "audits": audits, "links": links}


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(batches=st.lists(st.lists(item, min_size=4, max_size=14), min_size=1, max_size=2))
def test_batch_path_stores_what_the_reference_stores(settings, batches):
    settings.ENGRAM_LIFECYCLE = {**settings.ENGRAM_LIFECYCLE, "AUTO_EXTRACT": False}
    run = uuid.uuid4().hex[:8]
    tenants = [
        tenant_create(slug=f"b{run}", name="Batched"),
        tenant_create(slug=f"r{run}", name="Reference"),
    ]
    worlds = [_world(t, f"dana-{run}-{i}") for i, t in enumerate(tenants)]
    started = timezone.now()
    outcomes: list[list] = [[], []]
    for specs in batches:
        for side, batched in ((0, True), (1, False)):
            actor, agent, subject, events, seeds = worlds[side]
            # The reference side also inserts with bulk_create, the batch side with
            # core/db/json_rows.py: the flush's rows are compared too.
            settings.ENGRAM_WRITE_BATCH = {
                "LOOKUPS": batched,
                "MIN_CANDIDATES": 2,
                "JSON_INSERTS": batched,
            }
            outcomes[side] += candidates_submit(
                actor=actor,
                subject=subject,
                candidates=[_candidate(s, events, seeds) for s in specs],
                agent_id=agent.id,
            )
    batched = _stored(worlds[0][2], started, outcomes[0])
    reference = _stored(worlds[1][2], started, outcomes[1])
    assert batched["results"] == reference["results"]
    assert batched == reference


def test_a_batch_of_new_memories_gets_its_links_and_docs(settings, tenant, monkeypatch):
    """The batch path really batches (the equivalence above would also hold if it never
    ran): one request of new memories writes its links and docs, with context turns."""
    settings.ENGRAM_LIFECYCLE = {**settings.ENGRAM_LIFECYCLE, "AUTO_EXTRACT": False}
    settings.ENGRAM_WRITE_BATCH = {"LOOKUPS": True, "MIN_CANDIDATES": 2}
    actor, agent, subject, events, _ = _world(tenant, "dana")
    from memory.services import write_batch

    flushed = []
    original = write_batch.flush_docs
    monkeypatch.setattr(
        write_batch, "flush_docs", lambda pending: flushed.append(len(pending)) or original(pending)
    )
    outcomes = candidates_submit(
        actor=actor,
        subject=subject,
        candidates=[
            _candidate(
                {
                    "kind": "statement",
                    "text": t,
                    "namespace": "prefs",
                    "source": "event",
                    "event": e,
                    "inferred": False,
                    "sensitivity": "internal",
                    "value": 0,
                    "seed": 0,
                },
                events,
                [],
            )
            for t, e in ((0, 4), (4, 5), (5, 7))
        ],
        agent_id=agent.id,
    )
    assert [o.operation for o in outcomes] == ["ADD", "ADD", "ADD"]
    assert flushed == [3]
    docs = MemorySearchDoc.objects.filter(record_id__in=[o.record_id for o in outcomes])
    assert docs.count() == 3
    assert all(d.context_text for d in docs)  # each cites a turn that has one before it
    assert MemorySource.objects.filter(record_id__in=[o.record_id for o in outcomes]).count() == 3


def test_a_value_the_database_refuses_fails_alone_in_a_batch(settings, tenant):
    """The batch's one insert is refused: each record is then inserted on its own, and
    only the refused candidate is rejected, its neighbours stored with docs and links."""
    settings.ENGRAM_LIFECYCLE = {**settings.ENGRAM_LIFECYCLE, "AUTO_EXTRACT": False}
    settings.ENGRAM_WRITE_BATCH = {"LOOKUPS": True, "MIN_CANDIDATES": 2}
    actor, agent, subject, events, _ = _world(tenant, "dana")
    base = {
        "kind": "statement",
        "namespace": "prefs",
        "source": "event",
        "inferred": False,
        "sensitivity": "internal",
        "value": 0,
        "seed": 0,
    }
    specs = [
        {**base, "text": t, "event": e, "long_uri": i == 2}
        for i, (t, e) in enumerate(((0, 4), (4, 5), (1, 7), (5, 7), (3, 4)))
    ]
    outcomes = candidates_submit(
        actor=actor,
        subject=subject,
        candidates=[_candidate(s, events, []) for s in specs],
        agent_id=agent.id,
    )
    assert [(o.operation, o.reason_code) for o in outcomes] == [
        ("ADD", "new_memory"),
        ("ADD", "new_memory"),
        ("REJECT", "invalid_value"),
        ("ADD", "new_memory"),
        ("ADD", "new_memory"),
    ]
    assert outcomes[2].record_id is None
    stored = [o.record_id for o in outcomes if o.record_id]
    assert MemoryRecord.objects.filter(id__in=stored).count() == 4
    assert MemorySearchDoc.objects.filter(record_id__in=stored).count() == 4
    assert MemorySource.objects.filter(record_id__in=stored).count() == 4
    audits = AuditEvent.objects.filter(
        subject_id=subject.id, action=AuditAction.MEMORY_WRITE, extra__index=2
    ).order_by("-id")
    assert (audits[0].operation, audits[0].reason_code, audits[0].record_id) == (
        "REJECT",
        "invalid_value",
        None,
    )
