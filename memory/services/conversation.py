"""One conversation turn in one call: append the messages, let Engram's extraction propose
memories from them, and return what the write policy decided
(``POST /api/v1/conversation``, the client's ``add(messages)``).

It is the background path (``events_append``, then ``memory.extract_events``) run at once,
in one transaction: the same events, the same extractor (``event_extract``: rules, plus
the LLM extractor when one is configured), the same write policy. The extraction job that
appending queues finds each event already extracted (its ``TaskRun`` is written here as
succeeded, in the same transaction) and does nothing, so no event is extracted twice. The
thread summaries the job would rebuild are queued on commit instead.

The precise path stays ``POST /api/v1/candidates``: an agent that knows what to remember
says so itself. This one is for agents that only have the conversation — or, with
``candidates`` in the request, for agents that propose their own memories from the turn:
``turn_append`` is then the two-request form (``POST /events``, then ``POST /candidates``
citing them) in one transaction, with the same two services and nothing else.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import partial

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from core import jobs
from core.actor import Actor
from core.db.json_rows import rows_insert
from memory.models import MemorySource, SourceEvent, Subject, TaskOutcome, TaskRun
from memory.selectors import events_resolve_client_ids
from memory.services.events import EventInput, EventOutcome, events_append
from memory.services.extraction import (
    ExtractionResult,
    LLMAnswer,
    event_extract,
    llm_ask,
    llm_wanted,
)
from memory.services.writes import WriteOutcome, candidates_submit
from memory.write_policy import Candidate

# The background extraction job's name and key (memory.tasks.extract_events).
EXTRACT_TASK = "memory.extract_events"


def _extract_key(event_id: uuid.UUID) -> str:
    return f"extract:{event_id}"


@dataclass(frozen=True)
class TurnDecision:
    """One memory the extractor proposed from one message, and the policy's decision."""

    event_index: int
    client_event_id: str
    candidate: Candidate
    outcome: WriteOutcome


@dataclass
class TurnResult:
    events: list[EventOutcome]
    decisions: list[TurnDecision] = field(default_factory=list)
    llm_rejected: int = 0
    llm_unavailable: int = 0
    # The decisions on the request's own candidates (``turn_append``), in their order.
    candidates: list[WriteOutcome] = field(default_factory=list)


class UnknownSourceEvents(Exception):
    """Candidates cite client_event_ids neither in the request nor stored for the subject
    (by this agent). Raised inside the transaction: nothing of the request is stored."""

    def __init__(self, client_event_ids: list[str]) -> None:
        super().__init__("unknown source client_event_ids")
        self.client_event_ids = client_event_ids


def _claim_extraction(event: SourceEvent) -> bool:
    """Mark the event's extraction job as done (in the caller's transaction); False when
    it already ran (a retried request whose events were stored before)."""
    run, created = TaskRun.objects.get_or_create(
        tenant_id=event.tenant_id,
        task_name=EXTRACT_TASK,
        key=_extract_key(event.id),
        defaults={"outcome": TaskOutcome.SUCCEEDED, "attempts": 1, "result": {"inline": 1}},
    )
    return created


def _events_savepoint() -> bool:
    """Whether ``events_append`` takes a savepoint of its own inside a turn's transaction:
    not with ``ENGRAM_INGEST["TURN_EVENTS_NO_SAVEPOINT"]`` (whatever it raises leaves the
    turn's block too, which undoes it whole; nothing here catches it)."""
    return not settings.ENGRAM_INGEST["TURN_EVENTS_NO_SAVEPOINT"]


def conversation_turn_ingest(
    *,
    actor: Actor,
    agent_id: uuid.UUID,
    subject: Subject,
    items: Sequence[EventInput],
    request_id: str = "",
) -> TurnResult:
    """Append ``items`` and extract from those newly stored, in order (caller holds the
    tenant context). Messages appended before (a retry) are not extracted again."""
    # A configured LLM extractor is asked before the transaction opens: an HTTP call
    # never holds a database transaction.
    answers: dict[int, LLMAnswer] = {}
    for index, item in enumerate(items):
        probe = SourceEvent(role=item.role, content=item.content)
        if llm_wanted(probe):
            answers[index] = llm_ask(uuid.UUID(int=0), item.content)

    with transaction.atomic():
        outcomes = events_append(
            actor=actor,
            agent_id=agent_id,
            subject=subject,
            items=items,
            request_id=request_id,
            savepoint=_events_savepoint(),
        )
        created = {o.event_id: i for i, o in enumerate(outcomes) if o.created and o.event_id}
        events = SourceEvent.objects.filter(tenant_id=subject.tenant_id, id__in=list(created))
        result = TurnResult(list(outcomes))
        threads: set[str] = set()
        for event in sorted(events, key=lambda e: created[e.id]):
            if not _claim_extraction(event):
                continue
            index = created[event.id]
            extraction = ExtractionResult()
            event_extract(actor=actor, event=event, result=extraction, llm=answers.get(index))
            result.llm_rejected += extraction.llm_rejected
            result.llm_unavailable += extraction.llm_unavailable
            result.decisions.extend(
                TurnDecision(index, items[index].client_event_id, candidate, outcome)
                for _, candidate, outcome in extraction.decisions
            )
            if event.thread_id:
                threads.add(event.thread_id)
        for thread_id in sorted(threads):
            jobs.enqueue_on_commit(
                "memory.summarize_thread", str(subject.tenant_id), str(subject.id), thread_id
            )
    return result


def turn_append(
    *,
    actor: Actor,
    agent_id: uuid.UUID,
    subject: Subject,
    items: Sequence[EventInput],
    candidates: Sequence[Candidate],
    cited: Sequence[Sequence[str]],
    request_id: str = "",
) -> TurnResult:
    """Append ``items`` and decide ``candidates`` in one transaction: ``events_append``
    then ``candidates_submit``, as the two requests would (caller holds the tenant
    context). ``cited[i]``: the client_event_ids candidate ``i`` cites, resolved against
    this request's messages and the events this agent stored for the subject before; one
    unknown id raises ``UnknownSourceEvents`` and rolls everything back. Engram's own
    extraction is not run here: appending queues it as ``POST /events`` does."""
    inline = settings.ENGRAM_INGEST["CITED_EXTRACTION_INLINE"]
    with transaction.atomic():
        events = events_append(
            actor=actor,
            agent_id=agent_id,
            subject=subject,
            items=items,
            request_id=request_id,
            queue_extraction=not inline,
            savepoint=_events_savepoint(),
        )
        known = {o.client_event_id: o.event_id for o in events if o.event_id}
        wanted = sorted({c for ids in cited for c in ids} - set(known))
        known.update(
            events_resolve_client_ids(
                tenant_id=subject.tenant_id,
                agent_id=agent_id,
                subject_id=subject.id,
                client_ids=wanted,
            )
        )
        missing = [c for c in wanted if c not in known]
        if missing:
            raise UnknownSourceEvents(missing)
        ready = [
            replace(
                c,
                source_event_ids=tuple(
                    dict.fromkeys([*c.source_event_ids, *(known[x] for x in ids)])
                ),
            )
            for c, ids in zip(candidates, cited, strict=True)
        ]
        outcomes = (
            candidates_submit(
                actor=actor,
                subject=subject,
                candidates=ready,
                agent_id=agent_id,
                request_id=request_id,
            )
            if ready
            else []
        )
        if inline:
            _extraction_after_candidates(subject=subject, events=events, items=items)
    return TurnResult(list(events), candidates=outcomes)


def _extraction_after_candidates(
    *, subject: Subject, events: Sequence[EventOutcome], items: Sequence[EventInput]
) -> None:
    """What the extraction job queued by ``events_append`` would do with the new events,
    once the request's candidates are written: an event a memory cites is skipped (the
    job's ``event_extract`` finds it used), so its job is marked done here with the job's
    own result; the job is queued for the new events only when one of them is left
    uncited (it finds the others done), otherwise only their threads' summaries, which
    the job would rebuild at its end."""
    if not settings.ENGRAM_LIFECYCLE["AUTO_EXTRACT"]:
        return
    new = [(o.event_id, item) for o, item in zip(events, items, strict=True) if o.created]
    if not new:
        return
    skipped, now = ExtractionResult(events=1, skipped=1).as_json(), timezone.now()
    ids = [e for e, _ in new]
    if settings.ENGRAM_INGEST["EXTRACTION_ROWS_ONE_STATEMENT"]:
        cited_count = _cited_marked_done(subject.tenant_id, ids, skipped, now)
    else:
        cited = set(
            MemorySource.objects.filter(tenant_id=subject.tenant_id, event_id__in=ids).values_list(
                "event_id", flat=True
            )
        )
        # ENGRAM_INGEST["EVENTS_JSON_INSERT"]: as one JSON document (the same rows).
        insert = (
            partial(rows_insert, TaskRun)
            if settings.ENGRAM_INGEST["EVENTS_JSON_INSERT"]
            else TaskRun.objects.bulk_create
        )
        insert(
            [
                TaskRun(
                    tenant_id=subject.tenant_id,
                    task_name=EXTRACT_TASK,
                    key=_extract_key(event_id),
                    outcome=TaskOutcome.SUCCEEDED,
                    attempts=1,
                    result=skipped,
                    finished_at=now,
                )
                for event_id in ids
                if event_id in cited
            ],
            ignore_conflicts=True,
        )
        cited_count = len(cited)
    tenant_id = str(subject.tenant_id)
    if cited_count < len(new):
        jobs.enqueue_on_commit(EXTRACT_TASK, tenant_id, [str(e) for e, _ in new])
        return
    for thread_id in dict.fromkeys(item.thread_id for _, item in new if item.thread_id):
        jobs.enqueue_on_commit("memory.summarize_thread", tenant_id, str(subject.id), thread_id)


# The new events a memory cites, marked extracted ("skipped", as the job would) in the
# statement that finds them; the count of them is its answer. The reference reads the
# cited ids, then inserts their rows (``ON CONFLICT DO NOTHING`` both).
_CITED_MARKED_DONE = """
WITH cited AS (
    SELECT e.id FROM unnest(%(ids)s::uuid[]) AS e(id)
    WHERE EXISTS (
        SELECT 1 FROM memory_memorysource s
        WHERE s.tenant_id = %(tenant)s::uuid AND s.event_id = e.id
    )
), marked AS (
    INSERT INTO memory_taskrun
        (tenant_id, task_name, key, outcome, attempts, error_class, result, started_at,
         finished_at)
    SELECT %(tenant)s::uuid, %(task)s::text, 'extract:' || cited.id::text, %(outcome)s::text,
           1, '', %(result)s::jsonb, %(now)s::timestamptz, %(now)s::timestamptz
    FROM cited
    ON CONFLICT DO NOTHING
)
SELECT count(*) FROM cited
"""


def _cited_marked_done(tenant_id: uuid.UUID, event_ids: list[uuid.UUID], result: dict, now) -> int:
    """``ENGRAM_INGEST["EXTRACTION_ROWS_ONE_STATEMENT"]``: one round trip instead of two."""
    with connection.cursor() as cursor:
        cursor.execute(
            _CITED_MARKED_DONE,
            {
                "ids": [str(e) for e in dict.fromkeys(event_ids)],
                "tenant": str(tenant_id),
                "task": EXTRACT_TASK,
                "outcome": TaskOutcome.SUCCEEDED.value,
                "result": json.dumps(result),
                "now": now,
            },
        )
        return cursor.fetchone()[0]
