"""The write path's plain-row shortcuts (``config/settings/write_batch.py``) store exactly
what their references store.

``PLAIN_MENTION_ROWS`` and ``PLAIN_AUDIT_ROWS`` (the entity mentions of new records and
the audit rows sent as plain rows, not model instances) and ``TEXT_CHECKED_ONCE`` (a candidate's text check and its
prepared form computed once a request): generated batches — English and Chinese
statements naming people, places, organisations, dates, quoted titles, aliases in brackets,
told times ("yesterday", "上周"), secrets and invalid text among them — are written with the
shortcuts on for one subject and off for a subject of another tenant. Outcomes, stored
records, source links, lexical docs, entity mentions and audit rows must be the same, ids
and the time of the write aside; also through the reference path (no batch) and for
mentions written again by ``mentions_rebuild``. ``NEW_MENTION_ROWS`` (the mentions of new
records with their tenant and subject sent once and no conflict clause) and
``TOLD_TIME_GATES`` (memory/temporal/said.py) with them; the new rows' insert keeps the
first of each (record, name) as the conflict clause does, and leaves rows of several
subjects to the reference. ``PLAIN_DOC_ROWS`` (the lexical docs as plain rows): the docs
with the record's copies the trigger fills, written and written again over themselves."""

from __future__ import annotations

import uuid
from collections import Counter
from datetime import UTC, datetime

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.services.tenants import agent_create, tenant_create
from core.actor import Actor
from core.codes import AuditAction
from core.models import AuditEvent
from memory.models import MemoryMention, MemoryRecord, MemorySearchDoc, MemorySource
from memory.services.events import EventInput, events_append
from memory.services.mentions import mentions_rebuild
from memory.services.subjects import subject_get_or_create
from memory.services.writes import candidates_submit
from memory.write_policy import Candidate

pytestmark = pytest.mark.django_db

KEYS = (
    "PLAIN_MENTION_ROWS",
    "NEW_MENTION_ROWS",
    "PLAIN_DOC_ROWS",
    "TOLD_TIME_GATES",
    "TEXT_CHECKED_ONCE",
    "PLAIN_AUDIT_ROWS",
    "SENSITIVITY_RANKS_ONCE",
)

PEOPLE = ["Wang Fang (王芳)", "Mel", "Jean-Luc Picard", "欧阳娜娜", "Dr. Amara Osei", "李雷"]
PLACES = ["Valparaíso", "Łódź", "北京（Beijing）", "the Bank of Canada", "青岛", "Ghent"]
TIMES = ["yesterday", "last week", "on 7 May 2023", "2023年5月", "上周", "two months ago", ""]
FRAMES = [
    "{p} and I went to {q} {t}",
    "User met {p} at {q} {t}",
    "我{t}和{p}去了{q}",
    "{p} said the “Long Walk” class in {q} starts {t}",
    "User's friend {p}, aka Pip, moved to {q} {t}",
    "I prefer tea in the morning {t}",
    "my wifi password is Qv7!plumtree88 says {p}",
    "bad\x00text about {q}",
]

item = st.fixed_dictionaries(
    {
        "frame": st.integers(0, len(FRAMES) - 1),
        "p": st.integers(0, len(PEOPLE) - 1),
        "q": st.integers(0, len(PLACES) - 1),
        "t": st.integers(0, len(TIMES) - 1),
        "source": st.booleans(),
        "dated": st.booleans(),
    }
)


def _candidate(spec: dict, events: list[uuid.UUID]) -> Candidate:
    text = FRAMES[spec["frame"]].format(
        p=PEOPLE[spec["p"]], q=PLACES[spec["q"]], t=TIMES[spec["t"]]
    )
    kw: dict = {}
    if spec["source"]:
        kw["source_event_ids"] = (events[spec["p"] % len(events)],)
    if spec["dated"]:
        kw["valid_from"] = datetime(2023, 5, 8, 14, tzinfo=UTC)
    return Candidate(
        memory_type="semantic",
        namespace="people",
        statement=text.strip(),
        assertion_kind="user_explicit",
        confidence=1.0,
        purpose="personalization",
        consent_basis="explicit_consent",
        **kw,
    )


def _world(run: str, side: str):
    tenant = tenant_create(slug=f"{side}{run}", name=side)
    agent = agent_create(actor=Actor.system(tenant.id, "t"), tenant=tenant, name=f"a{side}{run}")
    subject = subject_get_or_create(
        tenant_id=tenant.id, kind="user", external_id=f"s{run}", display_name="Dana"
    )
    actor = Actor.agent(agent.id, tenant.id)
    events = events_append(
        actor=actor,
        agent_id=agent.id,
        subject=subject,
        items=[
            EventInput(
                client_event_id=f"e{i}",
                kind="message",
                role="user",
                content=f"Turn {i}: we talked about {PLACES[i]}",
                thread_id="t1",
                speaker="Dana",
                occurred_at=datetime(2023, 5, 8, 9, i, tzinfo=UTC),
            )
            for i in range(3)
        ],
    )
    return tenant, actor, agent, subject, [e.event_id for e in events]


def _stored(tenant, actor, subject, started, outcomes) -> dict:
    records = list(MemoryRecord.objects.filter(subject=subject).order_by("recorded_at", "id"))
    names = {r.id: (r.statement, n) for n, r in enumerate(records)}
    return {
        "results": [
            (o.operation, o.reason_code, o.findings, names.get(o.record_id)) for o in outcomes
        ],
        "records": [
            (
                r.statement,
                r.status,
                r.sensitivity,
                r.content_key,
                "now" if r.valid_from >= started else str(r.valid_from),
            )
            for r in records
        ],
        "links": Counter(
            names[r]
            for r in MemorySource.objects.filter(record__subject=subject).values_list(
                "record_id", flat=True
            )
        ),
        "docs": Counter(
            (names[d.record_id], d.segmented_text, d.trigram_text, d.context_text)
            + _doc_copies(d, started)
            for d in MemorySearchDoc.objects.filter(record__subject=subject)
        ),
        "mentions": [
            (names[m.record_id], m.norm, m.surface, m.kind, m.alias_of, m.subject_id == subject.pk)
            for m in MemoryMention.objects.filter(tenant_id=tenant.id).order_by("id")
        ],
        "audits": [
            (
                a.operation,
                a.reason_code,
                {
                    **a.extra,
                    "target_id": a.extra["target_id"]
                    and names.get(uuid.UUID(a.extra["target_id"])),
                },
                names.get(a.record_id),
                (a.tenant_id == tenant.id, a.actor_type, a.actor_id == str(actor.id)),
                (a.request_id, a.event_id, a.occurred_at >= started),
            )
            for a in AuditEvent.objects.filter(
                subject_id=subject.id, action=AuditAction.MEMORY_WRITE, occurred_at__gte=started
            ).order_by("id")
        ],
    }


def _doc_copies(doc: MemorySearchDoc, started: datetime) -> tuple:
    """What the trigger copies onto a doc from its record, and whether it has a context
    event and was indexed by this run (times of the write aside)."""
    return (
        doc.purpose,
        doc.sensitivity,
        doc.memory_type,
        doc.namespace,
        doc.predicate,
        doc.status,
        doc.valid_to,
        # A record superseded by this run carries the time of its request, which differs
        # between the two sides: "now", as the records' valid_from above.
        "now" if doc.superseded_at and doc.superseded_at >= started else doc.superseded_at,
        doc.expires_at,
        doc.valid_from is not None and doc.recorded_at is not None,
        doc.context_event_id is not None,
        doc.indexed_at >= started,
    )


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    batches=st.lists(st.lists(item, min_size=1, max_size=10), min_size=1, max_size=2),
    min_candidates=st.sampled_from([2, 1000]),
)
def test_stored_rows_equal_with_the_shortcuts_off_and_on(settings, batches, min_candidates):
    settings.ENGRAM_LIFECYCLE = {**settings.ENGRAM_LIFECYCLE, "AUTO_EXTRACT": False}
    run = uuid.uuid4().hex[:8]
    worlds = [_world(run, "on"), _world(run, "off")]
    started = timezone.now()
    outcomes: list[list] = [[], []]
    for specs in batches:
        for side, on in ((0, True), (1, False)):
            tenant, actor, agent, subject, events = worlds[side]
            settings.ENGRAM_WRITE_BATCH = {
                **settings.ENGRAM_WRITE_BATCH,
                "MIN_CANDIDATES": min_candidates,
                **{k: on for k in KEYS},
            }
            outcomes[side] += candidates_submit(
                actor=actor,
                subject=subject,
                candidates=[_candidate(s, events) for s in specs],
                agent_id=agent.id,
                request_id=f"req-{len(outcomes[side])}",
            )
    stored = []
    for side in (0, 1):
        tenant, actor, agent, subject, events = worlds[side]
        got = _stored(tenant, actor, subject, started, outcomes[side])
        order = {e: n for n, e in enumerate(events)}
        for audit in got["audits"]:
            audit[2]["source_event_ids"] = [
                order[uuid.UUID(e)] for e in audit[2]["source_event_ids"]
            ]
        stored.append(got)
    assert stored[0]["results"] == stored[1]["results"]
    assert stored[0] == stored[1]
    assert any(stored[0]["mentions"]) or not any(r for r in stored[0]["records"])


def test_rebuilt_mentions_equal_with_plain_rows_off_and_on(settings, tenant):
    settings.ENGRAM_LIFECYCLE = {**settings.ENGRAM_LIFECYCLE, "AUTO_EXTRACT": False}
    run = uuid.uuid4().hex[:8]
    _, actor, agent, subject, events = _world(run, "rb")
    specs = [
        {"frame": f, "p": f % 6, "q": (f + 1) % 6, "t": f % 7, "source": f % 2 == 0, "dated": True}
        for f in range(6)
    ]
    candidates_submit(
        actor=actor,
        subject=subject,
        candidates=[_candidate(s, events) for s in specs],
        agent_id=agent.id,
    )
    found = []
    for on in (False, True):
        settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, "PLAIN_MENTION_ROWS": on}
        written = mentions_rebuild(subject.tenant_id)
        rows = sorted(
            MemoryMention.objects.filter(tenant_id=subject.tenant_id).values_list(
                "record_id", "subject_id", "norm", "surface", "kind", "alias_of"
            )
        )
        found.append((written, rows))
    assert found[0] == found[1]
    assert found[0][0] > 10


def test_plain_doc_rows_write_and_rewrite_the_reference_docs(settings, tenant):
    from memory.services.indexing import search_docs_write

    settings.ENGRAM_LIFECYCLE = {**settings.ENGRAM_LIFECYCLE, "AUTO_EXTRACT": False}
    run = uuid.uuid4().hex[:8]
    _, actor, agent, subject, events = _world(run, "dr")
    specs = [
        {"frame": f, "p": f % 6, "q": (f + 2) % 6, "t": f % 7, "source": f % 2 == 1, "dated": True}
        for f in range(6)
    ]
    candidates_submit(
        actor=actor,
        subject=subject,
        candidates=[_candidate(s, events) for s in specs],
        agent_id=agent.id,
    )
    records = list(MemoryRecord.objects.filter(subject=subject).order_by("id"))
    citing = set(MemorySource.objects.values_list("record_id", flat=True))
    assert records and citing & {r.id for r in records}
    fields = [f.attname for f in MemorySearchDoc._meta.concrete_fields if f.attname != "indexed_at"]
    found = []
    for on in (False, True):
        settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, "PLAIN_DOC_ROWS": on}
        MemorySearchDoc.objects.filter(subject=subject).delete()
        written = [search_docs_write(records, citing), search_docs_write(records)]  # a rewrite
        found.append(
            (
                written,
                sorted(
                    MemorySearchDoc.objects.filter(subject=subject).values_list(*fields),
                    key=str,
                ),
            )
        )
    assert found[0] == found[1]
    assert found[0][0] == [len(records)] * 2


def test_new_mention_rows_keep_what_the_conflict_clause_keeps(settings, tenant):
    from memory.services import mentions

    settings.ENGRAM_LIFECYCLE = {**settings.ENGRAM_LIFECYCLE, "AUTO_EXTRACT": False}
    run = uuid.uuid4().hex[:8]
    _, actor, agent, subject, events = _world(run, "nm")
    specs = [{"frame": 0, "p": 1, "q": 5, "t": 6, "source": False, "dated": False}] * 2
    candidates_submit(
        actor=actor,
        subject=subject,
        candidates=[_candidate({**s, "p": n}, events) for n, s in enumerate(specs)],
        agent_id=agent.id,
    )
    records = list(MemoryRecord.objects.filter(subject=subject).order_by("id"))
    assert len(records) == 2
    ids = (str(subject.tenant_id), str(subject.pk))
    rows = [
        (*ids, str(records[0].pk), "mel", "Mel", "person", ""),
        (*ids, str(records[0].pk), "ghent", "Ghent", "place", ""),
        (*ids, str(records[0].pk), "mel", "MEL", "thing", "x"),  # the conflict skips it
        (*ids, str(records[1].pk), "mel", "Mel", "person", ""),
    ]
    stored = []
    for insert in (mentions._plain_insert, mentions._new_insert):
        MemoryMention.objects.filter(subject=subject).delete()
        insert(rows)
        stored.append(
            list(
                MemoryMention.objects.filter(subject=subject)
                .order_by("id")
                .values_list("tenant_id", "subject_id", "record_id", "norm", "surface", "kind")
            )
        )
    assert stored[0] == stored[1]
    assert len(stored[0]) == 3
    other = subject_get_or_create(tenant_id=subject.tenant_id, kind="user", external_id="o" + run)
    assert mentions._new_insert([*rows, (ids[0], str(other.pk), *rows[0][2:])]) is None


@settings(max_examples=200, deadline=None)
@given(
    value=st.one_of(
        st.sampled_from(["public", "internal", "confidential", "restricted"]), st.text(max_size=12)
    )
)
def test_sensitivity_ranks_equal_with_the_table_off_and_on(value):
    from django.conf import settings as django_settings
    from django.test import override_settings

    from memory.services.write_batch import _rank

    ranks = []
    for on in (False, True):
        conf = {**django_settings.ENGRAM_WRITE_BATCH, "SENSITIVITY_RANKS_ONCE": on}
        with override_settings(ENGRAM_WRITE_BATCH=conf):
            ranks.append(_rank(value))
    assert ranks[0] == ranks[1]
