"""Applying the write policy: load what the engine needs, ask it, persist its decision.

Every candidate for one subject is applied under a row lock on that subject, and every
decision — including each rejection — is audited with its reason code. A batch commits
once; each candidate runs in its own savepoint so one failure never loses the others.
"""

from __future__ import annotations

import logging
import sys
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

import numpy as np
from django.conf import settings
from django.db import DatabaseError, DataError, connection, transaction
from django.db.models import Max
from django.utils import timezone

from accounts.policies import DEFAULT_PURPOSES, TenantPolicy
from core.actor import Actor, ActorType
from core.codes import AuditAction, Operation, ReasonCode
from core.db_router import subject_fence
from core.models import AuditEvent
from core.observability.metrics import observe_write_decisions
from core.observability.traces import traced
from memory.models import MemoryRecord, MemoryStatus, SourceEvent, Subject
from memory.predicates import canonical_predicate, predicate_spellings
from memory.selectors.write_lookups import tenant_policy_json
from memory.services import write_vectors
from memory.services.policy_model import Verdict, answers_before_the_lock, second_opinion
from memory.services.record_changes import _apply
from memory.services.subject_lock import subject_locked_for_write
from memory.services.write_audits import write_audits
from memory.services.write_batch import WriteBatch
from memory.write_policy import (
    Candidate,
    Decision,
    ExistingFact,
    Intent,
    SubjectState,
    content_keys,
    decide,
)
from memory.write_policy.decision import candidate_replace

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class WriteOutcome:
    operation: str
    reason_code: str
    message: str
    record_id: uuid.UUID | None = None
    target_id: uuid.UUID | None = None
    findings: tuple[str, ...] = ()


def _namespace_chain(namespace: str) -> list[str]:
    parts = [p for p in namespace.split("/") if p]
    return ["/".join(parts[: i + 1]) for i in range(len(parts))]


# Hand-written because it runs once per candidate on the hot write path: the ORM's query
# construction costs more than the query itself. Served by the partial
# indexes memory_active_predicate and memory_active_content.
_EXISTING_FACTS_SQL = """
    SELECT id, namespace, predicate, content_key, cardinality, assertion_kind,
           valid_from, valid_to, memory_type,
           -- an agent's "the user said so" that cites no event (write policy step 8)
           (assertion_kind IN ('user_explicit', 'user_confirmed')
            AND created_by_agent_id IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM memory_memorysource s
                             WHERE s.record_id = memory_memoryrecord.id)) AS unsourced_claim,
           -- when it was said: its latest cited event, or when it was recorded
           COALESCE((SELECT max(e.occurred_at)
                       FROM memory_memorysource s
                       JOIN memory_sourceevent e ON e.id = s.event_id
                      WHERE s.record_id = memory_memoryrecord.id), recorded_at) AS said_at
      FROM memory_memoryrecord
     WHERE tenant_id = %(tenant)s AND subject_id = %(subject)s
       AND ((status = 'active' AND ((namespace = ANY(%(chain)s) AND {slot}) OR id = %(target)s))
            -- a deletion request may name any version the subject can still see
            OR (%(forget)s AND id = %(target)s AND status <> 'deleted'))
"""


def _existing_facts(subject: Subject, candidate: Candidate) -> list[ExistingFact]:
    """Active records the engine must compare the candidate against: the same predicate
    (or statement) in its namespace and the broader namespaces above it, plus the
    explicitly targeted record."""
    # A slot is found under every spelling of its predicate (memory/predicates.py).
    slot = "predicate = ANY(%(slot)s)" if candidate.predicate else "content_key = ANY(%(slot)s)"
    params = {
        "tenant": subject.tenant_id,
        "subject": subject.pk,
        "chain": _namespace_chain(candidate.namespace),
        "slot": predicate_spellings(candidate.predicate)
        if candidate.predicate
        else sorted(content_keys(candidate)),
        "target": candidate.target_record_id,
        "forget": candidate.intent == Intent.FORGET,
    }
    with connection.cursor() as cursor:
        cursor.execute(_EXISTING_FACTS_SQL.format(slot=slot), params)
        return [ExistingFact(*row) for row in cursor.fetchall()]


def _sources(
    subject: Subject, candidate: Candidate
) -> tuple[tuple[str, ...], datetime | None] | None:
    """The cited events' roles and when it was said (the latest cited user event's
    ``occurred_at``, or the latest cited event's when none is the user's); None if any
    cited event is not this subject's."""
    if not candidate.source_event_ids:
        return (), None
    rows = list(
        SourceEvent.objects.filter(
            tenant_id=subject.tenant_id, subject=subject, id__in=candidate.source_event_ids
        ).values_list("role", "occurred_at")
    )
    if len(rows) != len(set(candidate.source_event_ids)):
        return None
    said = [at for role, at in rows if role == "user"] or [at for _, at in rows]
    return tuple(sorted({role for role, _ in rows})), max(said)


def _names(subject: Subject) -> tuple[str, ...]:
    """The user's display name and its first word ("Dana Whitfield", "Dana"); Chinese
    names whole."""
    name = (subject.display_name or "").strip()
    if not name:
        return ()
    first = name.split()[0]
    return (name, first) if first != name and len(first) >= 2 else (name,)


_USER_KINDS = ("user_explicit", "user_confirmed")


def candidates_submit(
    *,
    actor: Actor,
    subject: Subject,
    candidates: Sequence[Candidate],
    agent_id: uuid.UUID | None = None,
    user_id: int | None = None,
    request_id: str = "",
) -> list[WriteOutcome]:
    """Decide and apply each candidate for ``subject``; returns one outcome per candidate."""
    outcomes: list[WriteOutcome] = []
    # A tenant's policy model is asked before the subject's lock is taken, so a slow model
    # never holds up the subject's other writes (memory/services/policy_model.py).
    tenant_policy = TenantPolicy.from_json(tenant_policy_json(actor.tenant_id))
    answered = _policy_model_answers(actor, subject, candidates, tenant_policy)
    with transaction.atomic():
        # The row lock serialises all writes for one subject: decisions see the effect of
        # the previous write, and an out-of-order correction cannot resurrect a value.
        # FOR NO KEY UPDATE: it serialises writers but never waits for the KEY SHARE
        # locks that inserting rows referencing the subject take (the indexer's vectors).
        # One statement with ENGRAM_WRITE_FEWER_ROUND_TRIPS (memory/services/subject_lock.py).
        locked = subject_locked_for_write(actor.tenant_id, subject.pk, len(candidates))
        unusual = {c.purpose for c in candidates} - {*DEFAULT_PURPOSES, ""}
        if unusual and not tenant_policy.allowed_purposes:
            # The purposes this subject's memories use, read only when the batch names one
            # beyond the defaults (a scan of the subject's records): a near-miss of one is
            # refused.
            tenant_policy = replace(
                tenant_policy,
                known_purposes=tuple(
                    MemoryRecord.objects.filter(tenant_id=locked.tenant_id, subject=locked)
                    .order_by()
                    .values_list("purpose", flat=True)
                    .distinct()
                ),
            )
        state = SubjectState(
            memory_paused=locked.memory_paused,
            consent_withdrawn=locked.consent_withdrawn_at is not None,
        )
        # Many candidates: their lookups and inserts batched (memory/services/write_batch.py),
        # with the same decisions as this reference path, candidate by candidate.
        text_problem = _text_problems(candidates)
        batch = _batch_for(actor, locked, candidates, text_problem)
        # The passage vectors the learned heads read, for every candidate at once; stored
        # with the memories they become (memory/services/write_vectors.py).
        vectors = write_vectors.prepare(
            subject=locked,
            candidates=candidates,
            state=state,
            enabled=settings.ENGRAM["LEARNED_DETECTORS"],
            text_problem=text_problem,
        )
        for index, candidate in enumerate(candidates):
            outcome = (batch.submit if batch is not None else _submit_with_retries)(
                index,
                actor=actor,
                subject=locked,
                candidate=candidate,
                state=state,
                tenant_policy=tenant_policy,
                agent_id=agent_id,
                user_id=user_id,
                request_id=request_id,
                answered=answered,
                embedding=vectors.vector(index),
            )
            outcomes.append(outcome)
        if batch is not None:
            batch.flush()
            outcomes = batch.outcomes(outcomes)
        vectors.store({i: o.record_id for i, o in enumerate(outcomes)})
        # One INSERT for the batch's audit rows, in the same transaction as the writes.
        write_audits(actor, locked.pk, request_id, candidates, outcomes, _write_audit)
        subject_fence(locked.tenant_id, locked.pk)  # replica reads wait for this commit
    observe_write_decisions((o.operation, o.reason_code) for o in outcomes)
    return outcomes


def _policy_model_answers(
    actor: Actor, subject: Subject, candidates: Sequence[Candidate], tenant_policy: TenantPolicy
) -> dict[str, Verdict]:
    """The policy model's verdicts on the candidates it will be asked about, decided on the
    state read without the lock (``answers_before_the_lock``); empty, without a query, for
    a tenant or a deployment that does not use it."""
    if subject.tenant_id != actor.tenant_id:
        return {}  # the lock's lookup refuses this subject
    now = timezone.now()

    def prepared(candidate: Candidate) -> Candidate | None:
        if _candidate_text_problem(candidate):
            return None
        ready = _prepared(candidate, actor=actor, subject=subject)
        sources = _sources(subject, ready)
        if sources is None:
            return None
        return candidate_replace(ready, source_roles=sources[0], reference_time=sources[1])

    def decided(ready: Candidate) -> Decision:
        current = Subject.objects.get(pk=subject.pk, tenant_id=actor.tenant_id)
        return _decided(
            ready,
            subject=current,
            state=SubjectState(
                memory_paused=current.memory_paused,
                consent_withdrawn=current.consent_withdrawn_at is not None,
            ),
            tenant_policy=tenant_policy,
            now=now,
            sources=(ready.source_roles, ready.reference_time),
            existing=lambda c: _existing_facts(current, c),
            stale=_unless_stale,
            consult=False,
        )

    return answers_before_the_lock(tenant_policy, candidates, prepared=prepared, decided=decided)


def _batch_for(
    actor: Actor,
    subject: Subject,
    candidates: Sequence[Candidate],
    text_problem: Callable[[Candidate], str | None] | None = None,
):
    conf = settings.ENGRAM_WRITE_BATCH
    if not conf["LOOKUPS"] or len(candidates) < conf["MIN_CANDIDATES"]:
        return None
    # The batched path is handed this module, the reference it decides and applies with.
    return WriteBatch.prefetch(
        actor, subject, candidates, sys.modules[__name__], text_problem=text_problem
    )


def _text_problems(candidates: Sequence[Candidate]) -> Callable[[Candidate], str | None]:
    """``_candidate_text_problem`` for this request's candidates. With
    ``ENGRAM_WRITE_BATCH["TEXT_CHECKED_ONCE"]`` each candidate's text is checked once (the
    batch's prefetch, the learned heads' vectors and the submission each ask): answers kept
    by the candidate object, which the request holds until it ends; any other candidate is
    checked as asked. Off: the check itself, every time (the reference)."""
    if not settings.ENGRAM_WRITE_BATCH.get("TEXT_CHECKED_ONCE", True):
        return _candidate_text_problem
    found = {id(c): (c, _candidate_text_problem(c)) for c in candidates}

    def text_problem(candidate: Candidate) -> str | None:
        known = found.get(id(candidate))
        if known is not None and known[0] is candidate:
            return known[1]
        return _candidate_text_problem(candidate)

    return text_problem


# A deadlock or serialisation failure is Engram's own concurrency (e.g. an indexer holding
# a lock), never the user's fault: the candidate's savepoint is rolled back (releasing what
# it locked) and the candidate is decided again, up to this many attempts.
LOCK_RETRY_ATTEMPTS = 4


_RETRYABLE_SQLSTATES = {"40P01", "40001", "55P03"}


def _sqlstate(exc: DatabaseError) -> str | None:
    cause = exc.__cause__
    return getattr(cause, "sqlstate", None) or getattr(cause, "pgcode", None)


def _submit_with_retries(
    index: int, *, subject: Subject, candidate: Candidate, **kw
) -> WriteOutcome:
    problem = _candidate_text_problem(candidate)
    if problem:
        return _text_problem_outcome(problem)
    return _in_savepoint(
        index, subject, lambda: _submit_one(subject=subject, candidate=candidate, **kw)
    )


def _text_problem_outcome(problem: str) -> WriteOutcome:
    return WriteOutcome(
        Operation.REJECT,
        ReasonCode.INVALID_TEXT,
        "The text or value contains a NUL character or invalid Unicode, which cannot be "
        "stored; fix the text (retrying will not help).",
        findings=(problem,),
    )


def _in_savepoint(index: int, subject: Subject, work: Callable[[], WriteOutcome]) -> WriteOutcome:
    """``work()`` in a savepoint of its own, tried again on a lock conflict: a candidate
    that fails rolls back alone and becomes a rejection."""
    for attempt in range(1, LOCK_RETRY_ATTEMPTS + 1):
        try:
            with transaction.atomic():
                return work()
        except DataError:
            logger.exception("candidate %s for subject %s: data refused", index, subject.pk)
            return WriteOutcome(
                Operation.REJECT,
                ReasonCode.INVALID_VALUE,
                "The database cannot store this value as given; fix it (retrying will not help).",
            )
        except DatabaseError as exc:
            # The savepoint rolled back this candidate only. Log ids, never text.
            state = _sqlstate(exc)
            if state in _RETRYABLE_SQLSTATES and attempt < LOCK_RETRY_ATTEMPTS:
                logger.warning(
                    "candidate %s for subject %s: %s, retry %s", index, subject.pk, state, attempt
                )
                continue
            logger.exception("candidate %s for subject %s failed", index, subject.pk)
            return WriteOutcome(
                Operation.REJECT,
                ReasonCode.STORAGE_CONFLICT,
                "The database refused this write (a concurrent change?); retry it.",
            )
    raise AssertionError("unreachable")


def _candidate_text_problem(candidate: Candidate) -> str | None:
    from core.edge import value_problem

    found = value_problem(
        [candidate.statement, candidate.predicate, candidate.namespace, candidate.value],
        max_depth=settings.ENGRAM.get("MAX_JSON_DEPTH", 32) + 1,
    )
    return found[0] if found else None


def _write_audit(
    actor: Actor,
    subject_id: uuid.UUID,
    request_id: str,
    index: int,
    candidate: Candidate,
    outcome: WriteOutcome,
) -> AuditEvent:
    """The audit row for one decision: ids, codes and findings, never the text."""
    return AuditEvent(
        tenant_id=actor.tenant_id,
        actor_type=actor.type,
        actor_id=actor.id,
        action=AuditAction.MEMORY_WRITE,
        operation=outcome.operation,
        reason_code=outcome.reason_code,
        subject_id=subject_id,
        record_id=outcome.record_id,
        request_id=request_id,
        extra={
            "index": index,
            "target_id": str(outcome.target_id) if outcome.target_id else None,
            "findings": list(outcome.findings),
            "source_event_ids": [str(e) for e in candidate.source_event_ids],
        },
    )


@traced("write.policy")  # one span per candidate: decide and apply (optional traces)
def _submit_one(
    *,
    actor: Actor,
    subject: Subject,
    candidate: Candidate,
    state: SubjectState,
    tenant_policy: TenantPolicy,
    agent_id: uuid.UUID | None,
    user_id: int | None,
    request_id: str,
    decided: list[Decision] | None = None,
    answered: dict[str, Verdict] | None = None,
    embedding: np.ndarray | None = None,
) -> WriteOutcome:
    """``decided``: the decision is appended to it (the batched path keeps track);
    ``answered``: the policy model's verdicts fetched before the lock;
    ``embedding``: the candidate's passage vector, if the learned heads read one."""
    now = timezone.now()
    candidate = _prepared(candidate, actor=actor, subject=subject)
    decision = _decided(
        candidate,
        subject=subject,
        state=state,
        tenant_policy=tenant_policy,
        now=now,
        sources=_sources(subject, candidate),
        existing=lambda c: _existing_facts(subject, c),
        stale=_unless_stale,
        answered=answered,
        embedding=embedding,
    )
    record_id = _apply(
        decision,
        subject=subject,
        actor=actor,
        agent_id=agent_id,
        user_id=user_id,
        now=now,
        request_id=request_id,
    )
    if decided is not None:
        decided.append(decision)
    return _outcome(decision, record_id)


def _prepared(candidate: Candidate, *, actor: Actor, subject: Subject) -> Candidate:
    # One name per slot, whichever synonym the proposer used ("location" → "home_city").
    # An agent's "the user said so" without a cited event ranks below a sourced one.
    return candidate_replace(
        candidate,
        predicate=canonical_predicate(candidate.predicate),
        # The user's own name is the user too ("Dana prefers …" = "User prefers …").
        subject_names=_names(subject),
        unsourced_claim=actor.type == ActorType.AGENT
        and candidate.assertion_kind in _USER_KINDS
        and not candidate.source_event_ids,
    )


def _decided(
    candidate: Candidate,
    *,
    subject: Subject,
    state: SubjectState,
    tenant_policy: TenantPolicy,
    now: datetime,
    sources: tuple[tuple[str, ...], datetime | None] | None,
    existing: Callable[[Candidate], list[ExistingFact]],
    stale: Callable[[Decision, Candidate], Decision],
    answered: dict[str, Verdict] | None = None,
    consult: bool = True,
    embedding: np.ndarray | None = None,
) -> Decision:
    """The policy engine's decision on a prepared candidate, given its cited events
    (``_sources``), a way to read the facts it is compared with, and the ordering check.
    ``answered``: the policy model's verdicts fetched before the lock; ``consult=False``:
    the local decision alone (the one that chooses what to ask the model)."""
    if sources is None:
        decision = Decision(
            Operation.REJECT,
            ReasonCode.UNKNOWN_SOURCE_EVENT,
            "A cited source event does not exist for this subject; append it first.",
        )
    else:
        roles, said_at = sources
        candidate = candidate_replace(candidate, source_roles=roles, reference_time=said_at)
        decision = decide(
            candidate,
            existing=existing(candidate),
            subject=state,
            tenant=tenant_policy,
            now=now,
            inference_max_confidence=settings.ENGRAM["INFERENCE_MAX_CONFIDENCE"],
            learned_detectors=settings.ENGRAM["LEARNED_DETECTORS"],
            embedding=embedding,
        )
        # A tenant's optional policy model, asked only when the local detectors are unsure;
        # it can only make the decision stricter (memory/services/policy_model.py).
        if consult:
            decision = second_opinion(candidate, decision, tenant_policy, answered)
    if decision.reason_code == ReasonCode.NOTHING_TO_CHANGE:
        decision = _lost_race(decision, candidate, subject)
    if decision.target_id and decision.reason_code in _ORDERED_REASONS:
        decision = stale(decision, candidate)
    return decision


def _outcome(decision: Decision, record_id: uuid.UUID | None) -> WriteOutcome:
    return WriteOutcome(
        operation=decision.operation,
        reason_code=decision.reason_code,
        message=decision.message,
        record_id=record_id,
        target_id=decision.target_id,
        findings=decision.findings,
    )


# Changes that replace or remove a current value: they apply only in the order their
# sources happened. Authority-based replacements are not ordered (authority beats time).
_ORDERED_REASONS = frozenset(
    {
        ReasonCode.CORRECTION,
        ReasonCode.SUPERSEDED,
        ReasonCode.NEWER_VALUE,
        ReasonCode.RETRACTED,
        ReasonCode.VALIDITY_ENDED,
        ReasonCode.CONFLICT_EQUAL_AUTHORITY,
        ReasonCode.DELETION_REQUESTED,
    }
)


_CHANGES = frozenset({Intent.SUPERSEDE, Intent.CORRECT, Intent.RETRACT, Intent.EXPIRE})


def _lost_race(decision: Decision, candidate: Candidate, subject: Subject) -> Decision:
    """A change naming a record that is no longer current was overtaken: another write
    (typically a concurrent one, serialised behind the subject's lock) changed that memory
    first. That is a conflict the caller can act on — read the current value and decide
    again — not "nothing to change". The current version is named when there is one."""
    if candidate.target_record_id is None or candidate.intent not in _CHANGES:
        return decision  # a deletion of what is gone has nothing to do, race or not
    named = (
        MemoryRecord.objects.filter(
            tenant_id=subject.tenant_id, subject=subject, id=candidate.target_record_id
        )
        .exclude(status=MemoryStatus.DELETED)
        .values_list("lineage_id", flat=True)
        .first()
    )
    if named is None:
        return decision  # never existed for this subject: nothing to change indeed
    current = (
        MemoryRecord.objects.filter(
            tenant_id=subject.tenant_id,
            subject=subject,
            lineage_id=named,
            status=MemoryStatus.ACTIVE,
        )
        .order_by("-valid_from")
        .values_list("id", flat=True)
        .first()
    )
    return Decision(
        Operation.REJECT,
        ReasonCode.TARGET_CHANGED,
        "Another write changed this memory first; read its current value and send the "
        "change again if it still applies.",
        target_id=current,
    )


def _unless_stale(decision: Decision, candidate: Candidate) -> Decision:
    """Per-subject write ordering for late deliveries (background jobs are redelivered and
    may run out of order): a change whose newest source event happened before the newest
    source of the value it would replace is ignored, so an old correction can never
    resurrect an old value. Candidates without source events (direct API calls) apply
    in arrival order, serialised by the subject row lock."""
    if not candidate.source_event_ids:
        return decision
    mine = SourceEvent.objects.filter(id__in=candidate.source_event_ids).aggregate(
        at=Max("occurred_at")
    )["at"]
    current = SourceEvent.objects.filter(memorysource__record_id=decision.target_id).aggregate(
        at=Max("occurred_at")
    )["at"]
    if mine is None or current is None or mine >= current:
        return decision
    return Decision(
        Operation.REJECT,
        ReasonCode.STALE_CHANGE,
        "A newer message already changed this memory; this older change is ignored.",
        target_id=decision.target_id,
    )
