"""The conversation ingest's shortcuts (``ENGRAM_INGEST``, config/settings/ingest.py) leave
exactly what their references leave.

Generated turns — ordinary English and Chinese remarks, turns in other languages, secrets,
future-dated plans, preferences and "remember" requests the rule extractor proposes from,
assistant turns — are ingested through ``POST /conversation`` (with the agent's own
candidates, citing some messages and not others, some refused) and through ``POST
/events`` then ``POST /candidates``, once with the shortcuts on and once off, for two
subjects of two tenants. The jobs queued on commit run (eagerly, as without a broker).
Events, records, their sources, search docs, mentions, audit rows, the extraction jobs'
rows and results and the threads' summaries must be the same, ids and times aside."""

from __future__ import annotations

import uuid
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings as django_settings
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.services.tenants import agent_create, tenant_create
from core.actor import Actor
from core.models import AuditEvent
from memory.models import (
    MemoryMention,
    MemoryRecord,
    MemorySearchDoc,
    SourceEvent,
    TaskRun,
    ThreadSummary,
)
from memory.services.conversation import turn_append
from memory.services.events import EventInput, events_append
from memory.services.subjects import subject_get_or_create
from memory.services.writes import candidates_submit
from memory.write_policy import Candidate

pytestmark = pytest.mark.django_db

# The turns are this test's own: not the benches' or any data set's sentences.
TURNS = [
    "We walked along the canal after dinner and fed the ducks",
    "I prefer aisle seats when the flight is longer than three hours",
    "Remember that my brother's bakery opens at six",
    "Next month I'm relocating to Valparaíso for the new job",
    "the garage door code is 7731-4420, don't lose it",
    "my banking password is Tq!88morningglory",
    "上周我搬到了厦门，离海边很近",
    "记住我对芒果过敏",
    "我更喜欢安静一点的咖啡馆",
    "下个月我们要去昆明开会",
    "Ayer fuimos al mercado y compramos naranjas",
    "Am Wochenende habe ich mit meiner Schwester gebacken",
    "I'm so tired right now",
    "Actually, I live in Tartu now",
    "How was the concert on Friday?",
    "Two weeks ago I moved to Ljubljana",
]

message = st.fixed_dictionaries(
    {
        "text": st.integers(0, len(TURNS) - 1),
        "role": st.sampled_from(["user"] * 4 + ["assistant"]),
        # Whether the agent proposes a memory from it, and in which words.
        "candidate": st.sampled_from(["none", "same", "speaker", "speaker", "secret"]),
    }
)


def _world(name: str):
    tenant = tenant_create(slug=f"ing-{name}-{uuid.uuid4().hex[:6]}", name=name)
    agent = agent_create(actor=Actor.system(tenant.id, "t"), tenant=tenant, name=name)
    subject = subject_get_or_create(
        tenant_id=tenant.id, kind="user", external_id=name, display_name="Rosa Quintero"
    )
    return Actor.agent(agent.id, tenant.id), agent, subject


def _turn(turn: int, specs: list[dict]) -> tuple[list[EventInput], list[Candidate], list]:
    base = datetime(2026, 5, 4, 18, tzinfo=UTC) + timedelta(days=turn)
    items = [
        EventInput(
            client_event_id=f"t{turn}-m{i}",
            kind="message",
            role=s["role"],
            content=TURNS[s["text"]],
            thread_id=f"thread-{turn % 2}",
            speaker="Rosa" if s["role"] == "user" else "Assistant",
            occurred_at=base + timedelta(minutes=i),
        )
        for i, s in enumerate(specs)
    ]
    candidates, cited = [], []
    for item, s in zip(items, specs, strict=True):
        if s["candidate"] == "none":
            continue
        statement = {
            "same": item.content,
            "speaker": f"{item.speaker}: {item.content}",
            "secret": f"{item.content}; the locker code is 55-81-20",
        }[s["candidate"]]
        candidates.append(
            Candidate(
                memory_type="episodic",
                namespace="conversation",
                statement=statement,
                assertion_kind="user_explicit",
                confidence=1.0,
                purpose="personalization",
                consent_basis="explicit_consent",
                valid_from=item.occurred_at,
            )
        )
        cited.append((item.client_event_id,))
    return items, candidates, cited


def _ingest(form: str, name: str, turns: list[list[dict]], capture) -> dict:
    actor, agent, subject = _world(name)
    started = datetime.now(UTC)
    for t, specs in enumerate(turns):
        items, candidates, cited = _turn(t, specs)
        with capture(execute=True):
            if form == "turn":
                turn_append(
                    actor=actor,
                    agent_id=agent.id,
                    subject=subject,
                    items=items,
                    candidates=candidates,
                    cited=cited,
                )
                continue
            events = events_append(actor=actor, agent_id=agent.id, subject=subject, items=items)
        ids = {o.client_event_id: o.event_id for o in events}
        with capture(execute=True):
            candidates_submit(
                actor=actor,
                subject=subject,
                candidates=[
                    Candidate(**{**c.__dict__, "source_event_ids": tuple(ids[x] for x in cites)})
                    for c, cites in zip(candidates, cited, strict=True)
                ],
                agent_id=agent.id,
            )
    return stored(subject, started)


def stored(subject, started: datetime) -> dict:
    """What the ingest left for ``subject``, ids and times replaced by stable names."""
    events = {
        e.id: e
        for e in SourceEvent.objects.filter(subject=subject).order_by("occurred_at", "received_at")
    }
    cid = {e.id: e.client_event_id for e in events.values()}
    records = list(MemoryRecord.objects.filter(subject=subject).order_by("recorded_at", "id"))
    name = {r.id: (r.namespace, r.statement, r.predicate, str(r.value), r.status) for r in records}

    def when(value):
        return "now" if value is not None and value >= started else value

    def names(value):
        if isinstance(value, dict):
            return {k: names(v) for k, v in value.items()}
        if isinstance(value, list):
            return [names(v) for v in value]
        if isinstance(value, str):
            try:
                key = uuid.UUID(value)
            except ValueError:
                return value
            return cid.get(key) or str(name.get(key, "?"))
        return value

    extraction = {
        r.key: r
        for r in TaskRun.objects.filter(
            tenant_id=subject.tenant_id, task_name="memory.extract_events"
        )
    }
    return {
        "events": [
            (e.client_event_id, e.role, e.content, e.thread_id, e.metadata, e.retention_class)
            for e in events.values()
        ],
        "records": Counter(
            (
                name[r.id],
                r.memory_type,
                r.assertion_kind,
                r.confidence,
                r.consent_basis,
                r.status_reason,
                r.sensitivity,
                when(r.valid_from),
                when(r.valid_to),
                frozenset(cid[e] for e in r.source_events.values_list("id", flat=True)),
            )
            for r in records
        ),
        "docs": Counter(
            (name[d.record_id], d.segmented_text, d.context_text, cid.get(d.context_event_id))
            for d in MemorySearchDoc.objects.filter(record__subject=subject)
        ),
        "mentions": Counter(
            (name[m.record_id], m.norm, m.surface, m.kind, m.alias_of)
            for m in MemoryMention.objects.filter(subject=subject)
        ),
        "audit": Counter(
            (a.action, a.operation, a.reason_code, str(names(a.extra)))
            for a in AuditEvent.objects.filter(subject_id=subject.id)
        ),
        "extraction": sorted(
            (
                cid[uuid.UUID(key.split(":", 1)[1])],
                r.outcome,
                r.attempts,
                r.error_class,
                str(r.result),
                r.finished_at is not None,
            )
            for key, r in extraction.items()
        ),
        # The summary jobs' rows (their keys end in a fresh UUID each run).
        "summary_jobs": sorted(
            (
                r.key.rsplit(":", 1)[0].replace(str(subject.id), "subject"),
                r.outcome,
                r.attempts,
                r.error_class,
                str(r.result),
                r.finished_at is not None and r.started_at <= r.finished_at,
            )
            for r in TaskRun.objects.filter(
                tenant_id=subject.tenant_id, task_name="memory.summarize_thread"
            )
        ),
        "summaries": sorted(
            (
                s.thread_id,
                str(names(s.items)),
                sorted(names([str(e) for e in s.source_event_ids])),
                s.event_count,
            )
            for s in ThreadSummary.objects.filter(subject=subject)
        ),
    }


def _with(settings_fixture, **switches) -> None:
    settings_fixture.ENGRAM_INGEST = {**django_settings.ENGRAM_INGEST, **switches}


SWITCHES = [
    "CITED_EXTRACTION_INLINE",
    "EXTRACTION_FEWER_SAVEPOINTS",
    "EXTRACTION_GROUPED_FINISH",
    "SUMMARY_JOB_ONE_INSERT",
    "TURN_EVENTS_NO_SAVEPOINT",
    "EVENTS_JSON_INSERT",
    "EXTRACTION_ROWS_ONE_STATEMENT",
]


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    turns=st.lists(st.lists(message, min_size=1, max_size=6), min_size=1, max_size=3),
    form=st.sampled_from(["turn", "split"]),
)
def test_shortcuts_store_what_the_references_store(
    settings, django_capture_on_commit_callbacks, turns, form
):
    _with(settings, **dict.fromkeys(SWITCHES, False))
    reference = _ingest(form, "off", turns, django_capture_on_commit_callbacks)
    _with(settings, **dict.fromkeys(SWITCHES, True))
    fast = _ingest(form, "on", turns, django_capture_on_commit_callbacks)
    for key in reference:
        assert fast[key] == reference[key], key


def test_a_failing_extraction_is_undone_alone(settings, django_capture_on_commit_callbacks):
    """Without the job's own savepoint, a submission that fails is still undone alone
    (its savepoint is taken around it): the batch's other events are extracted, and the
    failed one is retried by itself, as with a savepoint around every job."""
    from memory.services import extraction

    original = extraction.candidates_submit
    worlds = {}
    for switch in (False, True):
        _with(settings, **dict.fromkeys(SWITCHES, switch))
        calls = {"n": 0}

        def failing_once(calls=calls, **kw):
            calls["n"] += 1
            outcomes = original(**kw)
            if calls["n"] == 1:
                raise RuntimeError("the database went away mid-write")
            return outcomes

        extraction.candidates_submit = failing_once
        try:
            specs = [{"text": i, "role": "user", "candidate": "none"} for i in (2, 7, 0, 1)]
            worlds[switch] = _ingest(
                "split", f"fail-{switch}", [specs], django_capture_on_commit_callbacks
            )
        finally:
            extraction.candidates_submit = original
    assert worlds[True] == worlds[False]
    assert worlds[True]["records"]
