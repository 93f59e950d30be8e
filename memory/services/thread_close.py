"""Closing a thread: the end of a session, when short-term state becomes long-term memory
or goes. Read top to bottom:

1. A thread closes once: a closed thread's stored answer is returned again (replayed) and
   nothing is written. The ``ThreadClosure`` row is claimed first, under its unique
   constraint, so two concurrent closes cannot both write.
2. What the agent marks for keeping — working memory keys, or statements — becomes
   candidates, decided by the write policy (``candidates_submit``, the service behind
   ``POST /candidates``): secrets refused, consent honoured, and so on.
3. Extraction runs over the thread's events (``events_extract``: events already turned
   into memories are skipped).
4. The session summary (``memory.services.session_summary``) is written, through the
   policy like any candidate, citing the thread's events.
5. The thread's working memory is dropped — after the transaction commits, so a failed
   close leaves it for a retry.

The answer holds ids, operations and reason codes, never memory text.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction

from core.actor import Actor
from memory.models import (
    AssertionKind,
    ConsentBasis,
    MemoryType,
    SourceEvent,
    Subject,
    ThreadClosure,
)
from memory.services.extraction import events_extract
from memory.services.session_summary import session_summary_build
from memory.services.writes import WriteOutcome, candidates_submit
from memory.working.service import (
    WorkingRefused,
    check_key,
    working_get,
    working_thread_drop,
)
from memory.write_policy import Candidate


class ThreadCloseRefused(Exception):
    def __init__(self, code: str, message: str, extra: dict | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.message = message
        self.extra = extra or {}


def _outcome(index: int, o: WriteOutcome) -> dict[str, Any]:
    return {
        "index": index,
        "operation": o.operation,
        "reason_code": o.reason_code,
        "message": o.message,
        "record_id": str(o.record_id) if o.record_id else None,
        "target_id": str(o.target_id) if o.target_id else None,
        "findings": list(o.findings),
    }


def _kept_candidate(statement: str, **fields: Any) -> Candidate:
    conf = settings.ENGRAM_LIFECYCLE
    base = {
        "memory_type": MemoryType.SEMANTIC,
        "namespace": conf["EXTRACTION_NAMESPACE"],
        "statement": statement,
        "assertion_kind": AssertionKind.AGENT_INFERENCE,
        "confidence": 0.8,
        "purpose": conf["EXTRACTION_PURPOSE"],
        "consent_basis": ConsentBasis.LEGITIMATE_INTEREST,
    }
    base.update(fields)
    return Candidate(**base)


def _value_statement(key: str, value: Any) -> str:
    if isinstance(value, str):
        return value
    return f"{key}: {json.dumps(value, ensure_ascii=False, separators=(', ', ': '))}"


def _keep_candidates(
    subject: Subject, thread_id: str, keep: list[Any]
) -> tuple[list[str], list[Candidate]]:
    """Labels ("key" or "statement") and candidates, in the order given; every key must
    hold a live value (nothing is written otherwise)."""
    max_text = settings.ENGRAM["MAX_TEXT_CHARS"]
    labels: list[str] = []
    candidates: list[Candidate] = []
    missing: list[str] = []
    for item in keep:
        if isinstance(item, str):
            try:
                check_key(item)
            except WorkingRefused as exc:
                raise ThreadCloseRefused(exc.code, exc.message, {"key": item}) from None
            entry = working_get(subject=subject, thread_id=thread_id, key=item)
            if entry is None:
                missing.append(item)
                continue
            labels.append(item)
            statement = _value_statement(item, entry.value)[:max_text]
            candidates.append(_kept_candidate(statement))
        else:
            labels.append("statement")
            candidates.append(
                _kept_candidate(
                    item["statement"],
                    memory_type=item.get("type", MemoryType.SEMANTIC),
                    assertion_kind=item.get("assertion_kind", AssertionKind.AGENT_INFERENCE),
                    confidence=1.0
                    if item.get("assertion_kind")
                    in (AssertionKind.USER_EXPLICIT, AssertionKind.USER_CONFIRMED)
                    else 0.8,
                    source_event_ids=tuple(item.get("source_event_ids", ())),
                )
            )
    if missing:
        raise ThreadCloseRefused(
            "unknown_working_key",
            "Some keys to keep hold no working memory in this thread (never put, deleted "
            "or expired); nothing was closed.",
            {"keys": missing},
        )
    return labels, candidates


def thread_close(
    *,
    actor: Actor,
    agent_id: uuid.UUID | None,
    subject: Subject,
    thread_id: str,
    keep: list[Any],
    summary: bool = True,
    request_id: str = "",
) -> dict[str, Any]:
    """Close the subject's thread (caller holds the tenant context). Returns the answer,
    ``replayed`` when the thread was already closed."""
    done = ThreadClosure.objects.filter(
        tenant_id=subject.tenant_id, subject=subject, thread_id=thread_id
    ).first()
    if done is not None:
        return {**done.result, "replayed": True}
    labels, kept = _keep_candidates(subject, thread_id, keep)
    events = list(
        SourceEvent.objects.filter(
            tenant_id=subject.tenant_id, subject=subject, thread_id=thread_id
        ).order_by("occurred_at", "received_at")
    )
    built = session_summary_build(thread_id=thread_id, events=events) if summary else None
    try:
        with transaction.atomic():
            closure = ThreadClosure.objects.create(
                tenant_id=subject.tenant_id, subject=subject, thread_id=thread_id, agent_id=agent_id
            )
            result = _close(actor, agent_id, subject, events, labels, kept, built, request_id)
            result.update(thread_id=thread_id, closed_at=closure.closed_at.isoformat())
            closure.result = result
            closure.save(update_fields=["result"])
    except IntegrityError:
        # Another close of this thread won the race: its answer is the answer.
        done = ThreadClosure.objects.get(
            tenant_id=subject.tenant_id, subject=subject, thread_id=thread_id
        )
        return {**done.result, "replayed": True}
    dropped = working_thread_drop(subject=subject, thread_id=thread_id)
    result["working_dropped"] = dropped
    ThreadClosure.objects.filter(pk=closure.pk).update(result=result)
    return {**result, "replayed": False}


def _close(
    actor: Actor,
    agent_id: uuid.UUID | None,
    subject: Subject,
    events: list[SourceEvent],
    labels: list[str],
    kept: list[Candidate],
    built,
    request_id: str,
) -> dict[str, Any]:
    kept_outcomes = (
        candidates_submit(
            actor=actor, subject=subject, candidates=kept, agent_id=agent_id, request_id=request_id
        )
        if kept
        else []
    )
    extraction = events_extract(
        actor=actor, tenant_id=subject.tenant_id, event_ids=[e.id for e in events]
    )
    summary_outcome = None
    if built is not None:
        [summary_outcome] = candidates_submit(
            actor=actor,
            subject=subject,
            candidates=[built.candidate],
            agent_id=agent_id,
            request_id=request_id,
        )
    kept_json = [
        {**_outcome(i, o), "kept": label}
        for i, (label, o) in enumerate(zip(labels, kept_outcomes, strict=True))
    ]
    extracted_json = [_outcome(i, o) for i, (_, _, o) in enumerate(extraction.decisions)]
    summary_json = _outcome(0, summary_outcome) if summary_outcome else None
    record_ids = [
        r["record_id"]
        for r in [*kept_json, *extracted_json, *([summary_json] if summary_json else [])]
        if r["record_id"]
    ]
    return {
        "kept": kept_json,
        "extracted": extracted_json,
        "summary": summary_json,
        "summary_writer": built.writer if built is not None else "none",
        "event_count": len(events),
        "working_dropped": 0,
        "record_ids": record_ids,
    }
