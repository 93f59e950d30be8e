"""The write policy engine: what a memory candidate becomes.

``decide()`` is pure: it reads a candidate, the subject's relevant current facts and the
tenant's policy, and returns exactly one operation with a machine-readable reason code and
a sentence. It never touches the database; ``memory.services.writes`` loads its inputs and
applies its decision. Read ``decide`` top to bottom: each step either returns a decision
or lets the candidate through to the next.

Operations: ADD, CONFIRM, SUPERSEDE, RETRACT, EXPIRE, DELETE, REJECT, QUARANTINE.
Authority, strongest first: user_explicit > user_confirmed > tool_confirmed >
agent_inference > external_untrusted. Authority is compared before time: a newer inference
never overrides an older explicit statement, and two equal-authority sources that disagree
about the same period go to the conflict queue instead of being silently picked.
"""

from __future__ import annotations

import enum
import hashlib
import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from accounts.models import Sensitivity
from accounts.policies import TenantPolicy
from memory import content_rules, predicates
from memory.models import AssertionKind, Cardinality, MemoryStatus, MemoryType
from memory.temporal import TimeHint, valid_time_hint


class Operation(enum.StrEnum):
    ADD = "ADD"
    CONFIRM = "CONFIRM"
    SUPERSEDE = "SUPERSEDE"
    RETRACT = "RETRACT"
    EXPIRE = "EXPIRE"
    DELETE = "DELETE"
    REJECT = "REJECT"
    QUARANTINE = "QUARANTINE"


class Intent(enum.StrEnum):
    """What the proposer means. Most candidates simply assert something."""

    ASSERT = "assert"  # a fact, preference, experience or procedure
    SUPERSEDE = "supersede"  # a newer valid value replaces the target from valid_from on
    CORRECT = "correct"  # the target was wrong all along; this is the right value
    RETRACT = "retract"  # the target was wrong; no replacement
    EXPIRE = "expire"  # the target stopped being true (at valid_to, default now)
    FORGET = "forget"  # the user asks to delete it


AUTHORITY: dict[str, int] = {
    AssertionKind.USER_EXPLICIT: 4,
    AssertionKind.USER_CONFIRMED: 3,
    AssertionKind.TOOL_CONFIRMED: 2,
    AssertionKind.AGENT_INFERENCE: 1,
    AssertionKind.EXTERNAL_UNTRUSTED: 0,
}
# Equal-authority sources of these kinds may replace their own older value with a newer
# one ("I moved to Hangzhou"); inferences and untrusted text may not.
SELF_UPDATING_KINDS = {
    AssertionKind.USER_EXPLICIT,
    AssertionKind.USER_CONFIRMED,
    AssertionKind.TOOL_CONFIRMED,
}


@dataclass(frozen=True)
class Candidate:
    memory_type: str
    namespace: str
    statement: str
    assertion_kind: str
    confidence: float
    purpose: str
    consent_basis: str
    predicate: str = ""
    value: Any = None
    cardinality: str | None = None
    sensitivity: str = Sensitivity.INTERNAL
    intent: str = Intent.ASSERT
    target_record_id: uuid.UUID | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    importance: float = 0.5
    expires_at: datetime | None = None
    source_event_ids: tuple[uuid.UUID, ...] = ()
    source_uri: str = ""
    # Roles ("user", "tool", …) of the cited source events, filled in by the service.
    source_roles: tuple[str, ...] = ()
    # Set only by the user-facing service when the signed-in user ticks "yes, remember
    # this sensitive detail". Never settable through the agent API.
    user_confirmed_sensitive: bool = False
    # --- governance (issue 5) ---
    # Set only by the governance services after a reviewer approved this exact text (a
    # procedure change request, or a quarantined record a reviewer accepted). Never
    # settable through the agent API. It skips the "needs review" quarantines (steps 7, 7b
    # and 8) because the review has happened; it never skips secrets, untrusted
    # procedural sources, consent, purpose or sensitive data (that needs the user).
    review_approved: bool = False
    # (issue 14) Set by the write service, never by the API: an agent claims the user said
    # this (user_explicit / user_confirmed) but cites no event. It is kept, ranked just below
    # the same kind backed by a user event: it never replaces, corrects or retracts a
    # sourced statement, and a sourced one replaces it.
    unsourced_claim: bool = False

    @classmethod
    def from_record(cls, record: Any, **overrides: Any) -> Candidate:
        """A candidate restating ``record``: what it asserts (type, scope, statement,
        predicate, value, cardinality), with its authority (assertion kind, confidence),
        purpose and consent basis. Nothing else is copied (sensitivity, importance, valid
        time, retention, sources): each caller names what it keeps in ``overrides``, which
        replace or add fields."""
        fields: dict[str, Any] = {
            "memory_type": record.memory_type,
            "namespace": record.namespace,
            "statement": record.statement,
            "predicate": record.predicate,
            "value": record.value,
            "cardinality": record.cardinality,
            "assertion_kind": record.assertion_kind,
            "confidence": record.confidence,
            "purpose": record.purpose,
            "consent_basis": record.consent_basis,
        }
        fields.update(overrides)
        return cls(**fields)


@dataclass(frozen=True)
class ExistingFact:
    """The engine's view of a current record it may compare against."""

    id: uuid.UUID
    namespace: str
    predicate: str
    content_key: str
    cardinality: str
    assertion_kind: str
    valid_from: datetime
    valid_to: datetime | None
    memory_type: str
    # An agent's "the user said so" without a cited event (see Candidate.unsourced_claim).
    unsourced_claim: bool = False


@dataclass(frozen=True)
class SubjectState:
    memory_paused: bool = False
    consent_withdrawn: bool = False


@dataclass(frozen=True)
class Decision:
    operation: Operation
    reason_code: str
    message: str
    # The existing record the operation acts on (CONFIRM, SUPERSEDE, RETRACT, EXPIRE,
    # DELETE) or conflicts with (QUARANTINE).
    target_id: uuid.UUID | None = None
    # The candidate as it will be stored (confidence capped, valid time resolved, …).
    candidate: Candidate | None = None
    status: str = MemoryStatus.ACTIVE
    findings: tuple[str, ...] = ()
    # For SUPERSEDE: keep the old value valid until the new one starts (False for a
    # correction, where the old value was never true).
    close_old_at_new_start: bool = True
    extra: dict[str, Any] = field(default_factory=dict)


def rank(assertion_kind: str, unsourced_claim: bool = False) -> int:
    """Authority for comparisons: the kind's strength, an unsourced claim just below the
    same kind with a source (and still above the next weaker kind)."""
    return AUTHORITY[assertion_kind] * 2 - int(unsourced_claim)


def content_key(candidate: Candidate) -> str:
    """What makes two candidates "the same fact" within one scope and predicate: a hash of
    the normalised value (or, without a value, of the normalised statement)."""
    if candidate.value is not None:
        raw = (
            candidate.value
            if isinstance(candidate.value, str)
            else json.dumps(candidate.value, sort_keys=True, ensure_ascii=False)
        )
        key = "v:" + content_rules.normalize_text(raw)
    else:
        key = "s:" + content_rules.normalize_text(candidate.statement)
    return hashlib.sha256(key.encode()).hexdigest()[:32]


def effective_cardinality(candidate: Candidate) -> str:
    if candidate.cardinality:
        return candidate.cardinality
    # A named predicate is single-valued unless said otherwise ("city", "answer_style");
    # free statements without a predicate accumulate.
    return Cardinality.SINGLE if candidate.predicate else Cardinality.MULTI


def decide(
    candidate: Candidate,
    *,
    existing: Sequence[ExistingFact],
    subject: SubjectState,
    tenant: TenantPolicy,
    now: datetime,
    inference_max_confidence: float = 0.8,
) -> Decision:
    text = f"{candidate.statement}\n{candidate.value if candidate.value is not None else ''}"

    # 1. Deletion requests are always honoured, whatever the consent state.
    if candidate.intent == Intent.FORGET:
        return _decide_forget(candidate, existing)

    # Label inference as inference (confidence < 1) and resolve valid time, including
    # future starts written in words ("next month", "下个月").
    time_hint = (
        None
        if candidate.valid_from
        else valid_time_hint(candidate.statement, now, slot=bool(candidate.predicate))
    )
    candidate = _normalise(candidate, now, inference_max_confidence, time_hint)
    if candidate.valid_to is not None and candidate.valid_to <= candidate.valid_from:
        return _reject("invalid_valid_time", "valid_to must be after valid_from.")

    # 2. The subject has withdrawn consent or paused memory: nothing new is written.
    if subject.consent_withdrawn:
        return _reject(
            "consent_withdrawn", "The user has withdrawn consent to memory; nothing is written."
        )
    if subject.memory_paused:
        return _reject(
            "memory_paused",
            "The user has paused memory; nothing new is written until they resume it.",
        )

    # 2b. (issue 14) A change that is clearly in the future but has no date ("after the
    #     wedding", "等孩子毕业以后") is not applied now: it is held, with no start, until
    #     the user confirms it (then it applies from the confirmation).
    if (
        time_hint is not None
        and time_hint.kind == "future_undated"
        and candidate.intent in (Intent.ASSERT, Intent.SUPERSEDE)
        and not candidate.user_confirmed_sensitive
    ):
        return _quarantine(
            candidate,
            "future_needs_confirmation",
            "This change lies in the future but has no date; it is held until the user confirms it.",
            findings=("future_undated",),
            status=MemoryStatus.PENDING_CONFIRMATION,
        )

    # 3. Purpose and legal basis must be stated (and the purpose allowed by the tenant).
    if not candidate.purpose.strip():
        return _reject("no_purpose", "A memory needs a purpose saying what it will be used for.")
    if not tenant.purpose_allowed(candidate.purpose):
        return _reject(
            "purpose_not_allowed",
            "This tenant does not allow memories for that purpose.",
            extra={"allowed_purposes": list(tenant.allowed_purposes)},
        )
    if not candidate.consent_basis:
        return _reject(
            "no_consent_basis", "A memory needs a consent basis (e.g. explicit_consent, contract)."
        )

    # 3b. (issue 14) A named slot's value must fit the slot (memory/predicates.py): a
    #     sentence is not a city. Never "retry": the value itself must change.
    value_problem = predicates.value_problem(candidate.predicate, candidate.value)
    if value_problem and candidate.intent not in (Intent.RETRACT, Intent.EXPIRE):
        return _reject(
            "invalid_value",
            f"This value does not fit '{candidate.predicate}' (a short name, not a sentence); "
            "send the value alone.",
            findings=(value_problem,),
        )

    # 4. Secrets are never stored (and therefore never embedded).
    secrets = content_rules.find_secrets(text)
    if secrets:
        return _reject(
            "secret_detected",
            "This looks like a password, key or token; secrets are never remembered.",
            findings=secrets,
        )

    # 5. A claim of user authority must be backed by the cited events (no laundering a tool
    #    result or web page into "the user said so").
    if (
        candidate.assertion_kind in (AssertionKind.USER_EXPLICIT, AssertionKind.USER_CONFIRMED)
        and candidate.source_roles
        and "user" not in candidate.source_roles
    ):
        return _reject(
            "assertion_not_supported_by_source",
            "The candidate claims the user said this, but none of its source events is a user message.",
        )

    # 6. Procedural memory is never learned from untrusted content and always reviewed.
    if candidate.memory_type == MemoryType.PROCEDURAL:
        if candidate.assertion_kind in (
            AssertionKind.EXTERNAL_UNTRUSTED,
            AssertionKind.TOOL_CONFIRMED,
        ):
            return _reject(
                "untrusted_procedural",
                "Procedures cannot be learned from web, tool or other external content.",
            )

    # 7. Instruction-like text (prompt injection, memory poisoning) goes to review.
    injection = content_rules.find_injection(text)
    if injection and not candidate.review_approved:
        return _quarantine(
            candidate,
            "suspected_injection",
            "This reads like an instruction to the agent, not a fact; it needs review.",
            findings=injection,
        )

    # 7a. (issue 14) Content derived from a tool or web source that reads as an order to the
    #     agent, or that hides its words (look-alike letters, invisible characters inside
    #     words, a link whose text names another domain), is never stored as an active
    #     memory: it is quarantined with the finding as its flag.
    if not candidate.review_approved and _derives_from_tool_or_web(candidate):
        flagged = content_rules.find_instruction_to_agent(text) + content_rules.find_obfuscation(
            text
        )
        if flagged:
            return _quarantine(
                candidate,
                "tool_derived_instruction",
                "This comes from a tool or web source and reads as an instruction or hides its "
                "words; it needs review.",
                findings=flagged,
            )

    # 7b. (governance, issue 5) Every procedural write that adds content — an assertion or
    #     an explicit supersede/correction — needs an approved change request.
    if (
        candidate.memory_type == MemoryType.PROCEDURAL
        and candidate.intent in (Intent.ASSERT, Intent.SUPERSEDE, Intent.CORRECT)
        and not candidate.review_approved
    ):
        return _quarantine(
            candidate,
            "procedural_needs_review",
            "Procedure changes are written only after a reviewer approves them.",
        )

    # Procedures smuggled in as facts or episodes from tool, web or inferred content go to
    # review too: only reviewed procedural memory may tell the agent how to act.
    if candidate.assertion_kind in (
        AssertionKind.TOOL_CONFIRMED,
        AssertionKind.EXTERNAL_UNTRUSTED,
        AssertionKind.AGENT_INFERENCE,
    ):
        disguised = content_rules.find_procedure_like(candidate.statement)
        if disguised and candidate.intent == Intent.ASSERT:
            return _quarantine(
                candidate,
                "procedure_like_content",
                "This prescribes how to act but does not come from the user; procedures need review.",
                findings=disguised,
            )

    # 8. External, unverified content is held for review rather than believed.
    if (
        candidate.assertion_kind == AssertionKind.EXTERNAL_UNTRUSTED
        and candidate.intent == Intent.ASSERT
        and not candidate.review_approved
    ):
        return _quarantine(
            candidate,
            "untrusted_source",
            "This comes from external content that nobody has confirmed; it needs review.",
        )

    # 9. Passing state and one-time codes have no future use.
    transient = content_rules.find_transient(text)
    if transient and candidate.intent == Intent.ASSERT:
        return _reject(
            "transient",
            "This describes a passing state or a one-time value; it is not worth remembering.",
            findings=transient,
        )

    # 10. Facts owned by a system of record are always queried live, never copied.
    sor = content_rules.find_system_of_record(text, candidate.predicate)
    if sor:
        return _reject(
            "system_of_record",
            "This belongs to a system of record (orders, balances, …); query it live instead.",
            findings=sor,
        )

    # 11. Sensitive personal data: reject or hold for the user's explicit confirmation.
    # Not for a retraction or an expiry: they store nothing new, and ending a sensitive
    # memory must never wait for a confirmation.
    sensitive = content_rules.find_sensitive_personal_data(text)
    if sensitive:
        candidate = replace(candidate, sensitivity=Sensitivity.RESTRICTED)
        if not candidate.user_confirmed_sensitive and candidate.intent not in (
            Intent.RETRACT,
            Intent.EXPIRE,
        ):
            if tenant.sensitive_personal_data == "reject":
                return _reject(
                    "sensitive_personal_data",
                    "This contains sensitive personal data, which this tenant does not remember.",
                    findings=sensitive,
                )
            return _quarantine(
                candidate,
                "sensitive_needs_confirmation",
                "This contains sensitive personal data; it is kept only if the user confirms it.",
                findings=sensitive,
                status=MemoryStatus.PENDING_CONFIRMATION,
            )

    # 12. Explicit changes to an existing record.
    if candidate.intent in (Intent.RETRACT, Intent.EXPIRE, Intent.CORRECT, Intent.SUPERSEDE):
        return _decide_change(candidate, existing, now)

    # 13. Compare with what is already known in the same scope.
    return _decide_assert(candidate, existing)


# --- steps ------------------------------------------------------------------------------


_TOOL_OR_WEB_ROLES = frozenset({"tool", "external", "system"})


def _derives_from_tool_or_web(candidate: Candidate) -> bool:
    """A tool or web page wrote it, or an agent's claim cites such an event."""
    return candidate.assertion_kind in (
        AssertionKind.TOOL_CONFIRMED,
        AssertionKind.EXTERNAL_UNTRUSTED,
    ) or bool(_TOOL_OR_WEB_ROLES.intersection(candidate.source_roles))


def _normalise(
    candidate: Candidate,
    now: datetime,
    inference_max_confidence: float,
    time_hint: TimeHint | None = None,
) -> Candidate:
    confidence = candidate.confidence
    if candidate.assertion_kind == AssertionKind.AGENT_INFERENCE:
        confidence = min(confidence, inference_max_confidence)
    future_start = time_hint.start if time_hint and time_hint.kind == "future" else None
    valid_from = candidate.valid_from or future_start or now
    return replace(
        candidate,
        confidence=confidence,
        valid_from=valid_from,
        cardinality=effective_cardinality(candidate),
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
    return not fact.predicate and fact.content_key == content_key(candidate)


def _decide_assert(candidate: Candidate, existing: Sequence[ExistingFact]) -> Decision:
    assert candidate.valid_from is not None
    key = content_key(candidate)
    slot = [
        f
        for f in existing
        if _same_slot(f, candidate) and _overlaps(f, candidate.valid_from, candidate.valid_to)
    ]
    same = [f for f in slot if f.content_key == key]
    if same:
        target = same[0]
        if rank(candidate.assertion_kind, candidate.unsourced_claim) > rank(
            target.assertion_kind, target.unsourced_claim
        ):
            return Decision(
                Operation.SUPERSEDE,
                "authority_upgrade",
                "The same fact from a stronger source replaces the weaker record.",
                target_id=target.id,
                candidate=candidate,
                close_old_at_new_start=False,
            )
        return Decision(
            Operation.CONFIRM,
            "duplicate_confirmed",
            "Already known; the existing memory gains one more piece of evidence.",
            target_id=target.id,
            candidate=candidate,
        )

    if candidate.cardinality == Cardinality.SINGLE:
        conflicts = [f for f in slot if f.content_key != key]
        if len(conflicts) > 1:
            return _quarantine(
                candidate,
                "ambiguous_conflict",
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
            "narrower_scope",
            "Stored for the narrower scope; the broader memory stays as it is.",
            candidate=candidate,
        )
    return Decision(Operation.ADD, "new_memory", "Stored as a new memory.", candidate=candidate)


def _resolve_conflict(candidate: Candidate, old: ExistingFact) -> Decision:
    assert candidate.valid_from is not None
    new_rank = rank(candidate.assertion_kind, candidate.unsourced_claim)
    old_rank = rank(old.assertion_kind, old.unsourced_claim)
    if new_rank > old_rank:
        return Decision(
            Operation.SUPERSEDE,
            "higher_authority",
            "A stronger source replaces the current value; the old one is kept in history.",
            target_id=old.id,
            candidate=candidate,
        )
    if new_rank < old_rank:
        return _reject(
            "outranked_by_existing",
            "A stronger source already says otherwise (e.g. an inference never overrides what the user said).",
            target_id=old.id,
        )
    if candidate.assertion_kind in SELF_UPDATING_KINDS and candidate.valid_from > old.valid_from:
        return Decision(
            Operation.SUPERSEDE,
            "newer_value",
            "A newer value from an equally strong source; the old one stays valid until the new one starts.",
            target_id=old.id,
            candidate=candidate,
        )
    return _quarantine(
        candidate,
        "conflict_equal_authority",
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
            else f.content_key == content_key(candidate)
        )
    ]
    # The current value (latest start) is what a change refers to.
    return max(matches, key=lambda f: f.valid_from, default=None)


def _decide_change(
    candidate: Candidate, existing: Sequence[ExistingFact], now: datetime
) -> Decision:
    target = _find_target(candidate, existing)
    if target is None:
        return _reject(
            "nothing_to_change", "There is no current memory that this change refers to."
        )
    refused = _procedure_guard(candidate, target)
    if refused:
        return refused
    if rank(candidate.assertion_kind, candidate.unsourced_claim) < rank(
        target.assertion_kind, target.unsourced_claim
    ):
        return _reject(
            "outranked_by_existing",
            "A weaker source cannot change what a stronger source said.",
            target_id=target.id,
        )
    if candidate.intent == Intent.RETRACT:
        return Decision(
            Operation.RETRACT,
            "retracted",
            "The memory is marked wrong and no longer used.",
            target_id=target.id,
            candidate=candidate,
        )
    if candidate.intent == Intent.EXPIRE:
        at = candidate.valid_to or now
        if at <= target.valid_from:
            return _reject(
                "invalid_valid_time",
                "The memory cannot end before it started.",
                target_id=target.id,
            )
        return Decision(
            Operation.EXPIRE,
            "validity_ended",
            "The memory stops being valid; it stays in history.",
            target_id=target.id,
            candidate=candidate,
            extra={"valid_to": at.isoformat()},
        )
    if (
        target.cardinality == Cardinality.MULTI
        and not target.predicate
        and target.content_key == content_key(candidate)
    ):
        return Decision(
            Operation.CONFIRM,
            "duplicate_confirmed",
            "The new value is the same as the current one.",
            target_id=target.id,
            candidate=candidate,
        )
    if candidate.intent == Intent.CORRECT:
        return Decision(
            Operation.SUPERSEDE,
            "correction",
            "The old value was wrong; the corrected one replaces it and the old one stays in history.",
            target_id=target.id,
            candidate=replace(
                candidate, valid_from=min(candidate.valid_from or now, target.valid_from)
            ),
            close_old_at_new_start=False,
        )
    assert candidate.valid_from is not None
    if candidate.valid_from <= target.valid_from:
        return _reject(
            "invalid_valid_time",
            "A superseding value must start after the value it replaces; use a correction for a wrong value.",
            target_id=target.id,
        )
    return Decision(
        Operation.SUPERSEDE,
        "superseded",
        "The new value replaces the old one from its start; the old one stays in history.",
        target_id=target.id,
        candidate=candidate,
    )


def _decide_forget(candidate: Candidate, existing: Sequence[ExistingFact]) -> Decision:
    target = _find_target(candidate, existing)
    if target is None:
        return _reject("nothing_to_change", "There is no memory matching this deletion request.")
    refused = _procedure_guard(candidate, target)
    if refused:
        return refused
    return Decision(
        Operation.DELETE,
        "deletion_requested",
        "The memory and its history are deleted.",
        target_id=target.id,
        candidate=candidate,
    )


def _procedure_guard(candidate: Candidate, target: ExistingFact) -> Decision | None:
    """(issue 14) A reviewed procedure is changed, retracted, expired or deleted only by
    the governance services after a reviewer approved a change request — never by a
    candidate naming it, whatever memory type the candidate claims."""
    if MemoryType.PROCEDURAL in (target.memory_type, candidate.memory_type) and (
        not candidate.review_approved
    ):
        return _reject(
            "procedure_change_requires_review",
            "Procedures change only through a change request and review "
            "(POST /api/v1/procedures/<slug>/change-requests).",
            target_id=target.id,
        )
    return None


def _reject(
    reason: str,
    message: str,
    *,
    findings: Sequence[str] = (),
    target_id: uuid.UUID | None = None,
    extra: dict[str, Any] | None = None,
) -> Decision:
    return Decision(
        Operation.REJECT,
        reason,
        message,
        target_id=target_id,
        findings=tuple(findings),
        extra=extra or {},
    )


def _quarantine(
    candidate: Candidate,
    reason: str,
    message: str,
    *,
    findings: Sequence[str] = (),
    target_id: uuid.UUID | None = None,
    status: str = MemoryStatus.QUARANTINED,
) -> Decision:
    return Decision(
        Operation.QUARANTINE,
        reason,
        message,
        target_id=target_id,
        candidate=candidate,
        status=status,
        findings=tuple(findings),
    )
