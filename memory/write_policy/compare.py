"""The steps that compare a candidate with what is already known: an assertion against
the current facts in its slot (steps 18 and 19 of ``decide``), and explicit changes and
deletions against the record they name."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from core.codes import Operation, ReasonCode
from memory import predicates
from memory.models import Cardinality, MemoryType
from memory.write_policy.decision import (
    SELF_UPDATING_KINDS,
    Candidate,
    Decision,
    ExistingFact,
    Intent,
    content_keys,
    quarantine,
    rank,
    reject,
)


def _overlaps(fact: ExistingFact, start: datetime, end: datetime | None) -> bool:
    starts_before_end = end is None or fact.valid_from < end
    ends_after_start = fact.valid_to is None or fact.valid_to > start
    return starts_before_end and ends_after_start


def _same_slot(fact: ExistingFact, candidate: Candidate) -> bool:
    """Same scope and same predicate (or, without a predicate, the same statement)."""
    if fact.namespace != candidate.namespace or fact.memory_type != candidate.memory_type:
        return False
    if candidate.predicate:
        return predicates.same_slot(fact.predicate, candidate.predicate)
    return not fact.predicate and fact.content_key in content_keys(candidate)


def decide_assert(candidate: Candidate, existing: Sequence[ExistingFact]) -> Decision:
    assert candidate.valid_from is not None
    keys = content_keys(candidate)
    slot = [
        f
        for f in existing
        if _same_slot(f, candidate) and _overlaps(f, candidate.valid_from, candidate.valid_to)
    ]
    same = [f for f in slot if f.content_key in keys]
    if same:
        target = same[0]
        if rank(candidate.assertion_kind, candidate.unsourced_claim) > rank(
            target.assertion_kind, target.unsourced_claim
        ):
            return Decision(
                Operation.SUPERSEDE,
                ReasonCode.AUTHORITY_UPGRADE,
                "The same fact from a stronger source replaces the weaker record.",
                target_id=target.id,
                candidate=candidate,
                close_old_at_new_start=False,
            )
        return Decision(
            Operation.CONFIRM,
            ReasonCode.DUPLICATE_CONFIRMED,
            "Already known; the existing memory gains one more piece of evidence.",
            target_id=target.id,
            candidate=candidate,
        )

    if candidate.cardinality == Cardinality.SINGLE:
        conflicts = [f for f in slot if f.content_key not in keys]
        if len(conflicts) > 1:
            return quarantine(
                candidate,
                ReasonCode.AMBIGUOUS_CONFLICT,
                "Several current values disagree with this one; it needs review.",
                target_id=conflicts[0].id,
            )
        if conflicts:
            return _resolve_conflict(candidate, conflicts[0])

    broader = [
        f
        for f in existing
        if candidate.predicate
        and predicates.same_slot(f.predicate, candidate.predicate)
        and candidate.namespace.startswith(f.namespace + "/")
    ]
    if broader:
        return Decision(
            Operation.ADD,
            ReasonCode.NARROWER_SCOPE,
            "Stored for the narrower scope; the broader memory stays as it is.",
            candidate=candidate,
        )
    return Decision(
        Operation.ADD, ReasonCode.NEW_MEMORY, "Stored as a new memory.", candidate=candidate
    )


def _resolve_conflict(candidate: Candidate, old: ExistingFact) -> Decision:
    assert candidate.valid_from is not None
    new_rank = rank(candidate.assertion_kind, candidate.unsourced_claim)
    old_rank = rank(old.assertion_kind, old.unsourced_claim)
    if new_rank > old_rank:
        return Decision(
            Operation.SUPERSEDE,
            ReasonCode.HIGHER_AUTHORITY,
            "A stronger source replaces the current value; the old one is kept in history.",
            target_id=old.id,
            candidate=candidate,
        )
    if new_rank < old_rank:
        return reject(
            ReasonCode.OUTRANKED_BY_EXISTING,
            "A stronger source already says otherwise (e.g. an inference never overrides what the user said).",
            target_id=old.id,
        )
    # Two values from equally strong sources: who said it last decides, not the start each
    # names. "I live in Hangzhou" said today, then "I moved to Shanghai last week" said
    # tomorrow: the move is the newer word, so it replaces Hangzhou although it dates the
    # change earlier. The same move arriving late, after a newer statement, is history:
    # kept, closed where the newer value starts, or ignored when the newer one covers it.
    said, old_said = candidate.reference_time, old.said_at
    if candidate.assertion_kind in SELF_UPDATING_KINDS and said and old_said:
        if said < old_said:
            if candidate.valid_to is None and candidate.valid_from < old.valid_from:
                return Decision(
                    Operation.ADD,
                    ReasonCode.EARLIER_VALUE,
                    "Said before the current value: kept in history until the current one starts.",
                    candidate=replace(candidate, valid_to=old.valid_from),
                )
            return reject(
                ReasonCode.STALE_CHANGE,
                "A newer message already changed this memory; this older change is ignored.",
                target_id=old.id,
            )
        # Said later (or at the same moment and arriving later).
        if candidate.valid_from > old.valid_from:
            return Decision(
                Operation.SUPERSEDE,
                ReasonCode.NEWER_VALUE,
                "A newer value from an equally strong source; the old one stays valid until the new one starts.",
                target_id=old.id,
                candidate=candidate,
            )
        return Decision(
            Operation.SUPERSEDE,
            ReasonCode.NEWER_VALUE,
            "Said after the current value, and dating the change before it: the new value "
            "replaces it, the old one stays in history.",
            target_id=old.id,
            candidate=candidate,
            close_old_at_new_start=False,
        )
    if candidate.assertion_kind in SELF_UPDATING_KINDS and candidate.valid_from > old.valid_from:
        return Decision(
            Operation.SUPERSEDE,
            ReasonCode.NEWER_VALUE,
            "A newer value from an equally strong source; the old one stays valid until the new one starts.",
            target_id=old.id,
            candidate=candidate,
        )
    return quarantine(
        candidate,
        ReasonCode.CONFLICT_EQUAL_AUTHORITY,
        "Two equally strong sources disagree; it goes to the conflict queue.",
        target_id=old.id,
    )


def _find_target(candidate: Candidate, existing: Sequence[ExistingFact]) -> ExistingFact | None:
    if candidate.target_record_id is not None:
        return next((f for f in existing if f.id == candidate.target_record_id), None)
    matches = [
        f
        for f in existing
        if f.namespace == candidate.namespace
        and (
            predicates.same_slot(f.predicate, candidate.predicate)
            if candidate.predicate
            else f.content_key in content_keys(candidate)
        )
    ]
    # The current value (latest start) is what a change refers to.
    return max(matches, key=lambda f: f.valid_from, default=None)


def decide_change(
    candidate: Candidate,
    existing: Sequence[ExistingFact],
    now: datetime,
    *,
    start_stated: bool = True,
) -> Decision:
    """``start_stated``: the candidate names its start (``valid_from`` or words such as
    "next month"); otherwise it starts when it was said, and a replacement said at the same
    moment as the value it replaces (turns of one batch share their time) starts just
    after it."""
    target = _find_target(candidate, existing)
    if target is None:
        return reject(
            ReasonCode.NOTHING_TO_CHANGE, "There is no current memory that this change refers to."
        )
    refused = _procedure_guard(candidate, target)
    if refused:
        return refused
    if rank(candidate.assertion_kind, candidate.unsourced_claim) < rank(
        target.assertion_kind, target.unsourced_claim
    ):
        return reject(
            ReasonCode.OUTRANKED_BY_EXISTING,
            "A weaker source cannot change what a stronger source said.",
            target_id=target.id,
        )
    if candidate.intent == Intent.RETRACT:
        return Decision(
            Operation.RETRACT,
            ReasonCode.RETRACTED,
            "The memory is marked wrong and no longer used.",
            target_id=target.id,
            candidate=candidate,
        )
    if candidate.intent == Intent.EXPIRE:
        at = candidate.valid_to or now
        if at <= target.valid_from:
            return reject(
                ReasonCode.INVALID_VALID_TIME,
                "The memory cannot end before it started.",
                target_id=target.id,
            )
        return Decision(
            Operation.EXPIRE,
            ReasonCode.VALIDITY_ENDED,
            "The memory stops being valid; it stays in history.",
            target_id=target.id,
            candidate=candidate,
            extra={"valid_to": at.isoformat()},
        )
    if (
        target.cardinality == Cardinality.MULTI
        and not target.predicate
        and target.content_key in content_keys(candidate)
    ):
        return Decision(
            Operation.CONFIRM,
            ReasonCode.DUPLICATE_CONFIRMED,
            "The new value is the same as the current one.",
            target_id=target.id,
            candidate=candidate,
        )
    if candidate.intent == Intent.CORRECT:
        return Decision(
            Operation.SUPERSEDE,
            ReasonCode.CORRECTION,
            "The old value was wrong; the corrected one replaces it and the old one stays in history.",
            target_id=target.id,
            candidate=replace(
                candidate, valid_from=min(candidate.valid_from or now, target.valid_from)
            ),
            close_old_at_new_start=False,
        )
    assert candidate.valid_from is not None
    if candidate.valid_from <= target.valid_from and not start_stated:
        candidate = replace(candidate, valid_from=target.valid_from + timedelta(microseconds=1))
    if candidate.valid_from <= target.valid_from:
        return reject(
            ReasonCode.INVALID_VALID_TIME,
            "A superseding value must start after the value it replaces; use a correction for a wrong value.",
            target_id=target.id,
        )
    return Decision(
        Operation.SUPERSEDE,
        ReasonCode.SUPERSEDED,
        "The new value replaces the old one from its start; the old one stays in history.",
        target_id=target.id,
        candidate=candidate,
    )


def decide_forget(candidate: Candidate, existing: Sequence[ExistingFact]) -> Decision:
    target = _find_target(candidate, existing)
    if target is None:
        return reject(
            ReasonCode.NOTHING_TO_CHANGE, "There is no memory matching this deletion request."
        )
    refused = _procedure_guard(candidate, target)
    if refused:
        return refused
    return Decision(
        Operation.DELETE,
        ReasonCode.DELETION_REQUESTED,
        "The memory and its history are deleted.",
        target_id=target.id,
        candidate=candidate,
    )


def _procedure_guard(candidate: Candidate, target: ExistingFact) -> Decision | None:
    """A reviewed procedure is changed, retracted, expired or deleted only by
    the governance services after a reviewer approved a change request — never by a
    candidate naming it, whatever memory type the candidate claims."""
    if MemoryType.PROCEDURAL in (target.memory_type, candidate.memory_type) and (
        not candidate.review_approved
    ):
        return reject(
            ReasonCode.PROCEDURE_CHANGE_REQUIRES_REVIEW,
            "Procedures change only through a change request and review "
            "(POST /api/v1/procedures/<slug>/change-requests).",
            target_id=target.id,
        )
    return None
