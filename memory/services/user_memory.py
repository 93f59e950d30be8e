"""What a signed-in end user does with their own memories: remember, correct, delete,
export, pause and withdraw consent.

Every memory change goes through the write path (``candidates_submit``) as an explicit
user statement, so the write policy judges the user's own additions exactly as it judges
an agent's (a secret typed into "remember this" is still refused). Deletion is an
``Intent.FORGET`` candidate naming any version the user can see, which the write path turns
into ``memory_lineage_erase`` of the whole memory.
Subject settings (pause, consent) are mutable columns written here with an audit event;
the write policy reads them under the subject's row lock.

Callers pass the user's own ``Subject`` (``memory.selectors.subject_for_user``) and
records they have already looked up through it; nothing here trusts an id from a form.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass, replace
from datetime import datetime

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from core.actor import Actor
from core.audit import audit_record
from core.codes import AuditAction, Operation, ReasonCode
from memory.models import (
    AgentAccess,
    AssertionKind,
    ConsentBasis,
    DeletionRequest,
    DeletionStatus,
    MemoryRecord,
    MemoryStatus,
    Subject,
    SubjectAgentAccess,
    SubjectKind,
)
from memory.services.subject_data import CSV_COLUMNS as CSV_COLUMNS
from memory.services.subject_data import DEFAULT_PURPOSE as DEFAULT_PURPOSE
from memory.services.subject_data import EXPORT_FORMAT_VERSION as EXPORT_FORMAT_VERSION
from memory.services.subject_data import IMPORT_NAMESPACE as IMPORT_NAMESPACE
from memory.services.subject_data import IMPORT_SOURCE_URI as IMPORT_SOURCE_URI
from memory.services.subject_data import ImportedItem as ImportedItem
from memory.services.subject_data import memories_import as memories_import
from memory.services.subject_data import reason_text as reason_text
from memory.services.subject_data import subject_consent_give as subject_consent_give
from memory.services.subject_data import subject_consent_withdraw as subject_consent_withdraw
from memory.services.subject_data import subject_export as subject_export
from memory.services.subject_data import subject_export_csv as subject_export_csv
from memory.services.subject_data import subject_memories_erase_all as subject_memories_erase_all
from memory.services.subject_data import subject_memory_pause_set as subject_memory_pause_set
from memory.services.subject_data import user_actor as user_actor
from memory.services.writes import WriteOutcome, candidates_submit
from memory.write_policy import Candidate, Intent

logger = logging.getLogger(__name__)


DEFAULT_NAMESPACE = "personal"


@dataclass(frozen=True)
class UserWriteResult:
    """What the page tells the user after a change."""

    operation: str
    reason_code: str
    record_id: uuid.UUID | None = None
    findings: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.operation not in (Operation.REJECT, Operation.QUARANTINE)

    @property
    def needs_confirmation(self) -> bool:
        return self.reason_code == ReasonCode.SENSITIVE_NEEDS_CONFIRMATION

    @property
    def message(self) -> str:
        return reason_text(self.reason_code)

    @classmethod
    def from_outcome(cls, outcome: WriteOutcome) -> UserWriteResult:
        return cls(outcome.operation, outcome.reason_code, outcome.record_id, outcome.findings)


def _submit(*, user, subject: Subject, candidate: Candidate) -> UserWriteResult:
    [outcome] = candidates_submit(
        actor=user_actor(user=user, subject=subject),
        subject=subject,
        candidates=[candidate],
        user_id=user.pk,
        request_id=uuid.uuid4().hex,
    )
    return UserWriteResult.from_outcome(outcome)


def memory_remember(
    *,
    user,
    subject: Subject,
    statement: str,
    memory_type: str,
    namespace: str = DEFAULT_NAMESPACE,
    purpose: str = DEFAULT_PURPOSE,
    confirm_sensitive: bool = False,
    valid_from: datetime | None = None,
    valid_to: datetime | None = None,
) -> UserWriteResult:
    """ "Remember this": an explicit user statement, judged by the write policy, true
    ``valid_from`` (default: now) ``valid_to`` (default: open-ended) when the user says so.

    Sensitive personal data is held as *pending confirmation* by the policy unless the
    user ticked the explicit confirmation. The held copy is deleted at once (nothing
    unconfirmed lingers) and the page asks the user to tick the confirmation and submit
    again; only then is the memory written.
    """
    candidate = Candidate(
        memory_type=memory_type,
        namespace=namespace or DEFAULT_NAMESPACE,
        statement=statement.strip(),
        assertion_kind=AssertionKind.USER_EXPLICIT,
        confidence=1.0,
        purpose=purpose or DEFAULT_PURPOSE,
        consent_basis=ConsentBasis.EXPLICIT_CONSENT,
        user_confirmed_sensitive=confirm_sensitive,
        valid_from=valid_from,
        valid_to=valid_to,
    )
    result = _submit(user=user, subject=subject, candidate=candidate)
    if result.needs_confirmation and result.record_id is not None:
        _drop_pending(user=user, subject=subject, record_id=result.record_id)
    return result


def memory_correct(
    *,
    user,
    subject: Subject,
    record: MemoryRecord,
    statement: str,
    confirm_sensitive: bool = False,
    valid_from: datetime | None = None,
    valid_to: datetime | None = None,
) -> UserWriteResult:
    """The user says ``record`` is wrong and gives the right statement (and, if they say
    so, since and until when it is true; by default from the old start on).

    An ``Intent.CORRECT`` candidate: the old version is closed (kept in history) and the
    new one, an explicit user statement, supersedes it from the old start on. The old
    structured ``value`` is dropped: the user's words are the new truth and we do not
    guess a structured value from them.
    """
    candidate = Candidate(
        memory_type=record.memory_type,
        namespace=record.namespace,
        statement=statement.strip(),
        predicate=record.predicate,
        cardinality=record.cardinality,
        assertion_kind=AssertionKind.USER_EXPLICIT,
        confidence=1.0,
        purpose=record.purpose,
        consent_basis=ConsentBasis.EXPLICIT_CONSENT,
        importance=record.importance,
        intent=Intent.CORRECT,
        target_record_id=record.id,
        user_confirmed_sensitive=confirm_sensitive,
        valid_from=valid_from,
        valid_to=valid_to,
    )
    result = _submit(user=user, subject=subject, candidate=candidate)
    if result.needs_confirmation and result.record_id is not None:
        _drop_pending(user=user, subject=subject, record_id=result.record_id)
    return result


def memory_confirm_pending(*, user, subject: Subject, record: MemoryRecord) -> UserWriteResult:
    """The user confirms a sensitive detail an agent proposed (held as *pending
    confirmation*): it is written through the policy as confirmed by the user, and the
    held copy's record time is closed (it stays in history as ``superseded``)."""
    if record.status != MemoryStatus.PENDING_CONFIRMATION:
        return UserWriteResult(Operation.REJECT, ReasonCode.NOT_PENDING)
    # The user confirming is the user speaking: never weaker than what was held (a held
    # user_explicit stays explicit, so it is not outranked by the value it replaces). A
    # future change held for want of a date applies from the confirmation.
    kind = (
        record.assertion_kind
        if record.assertion_kind == AssertionKind.USER_EXPLICIT
        else AssertionKind.USER_CONFIRMED
    )
    future = record.status_reason == ReasonCode.FUTURE_NEEDS_CONFIRMATION
    candidate = replace(
        _candidate_from(record),
        assertion_kind=kind,
        consent_basis=ConsentBasis.EXPLICIT_CONSENT,
        sensitivity=record.sensitivity,
        importance=record.importance,
        valid_from=timezone.now() if future else record.valid_from,
        valid_to=record.valid_to,
        source_event_ids=tuple(record.source_events.values_list("id", flat=True)),
        source_uri=record.source_uri,
        user_confirmed_sensitive=True,
    )
    with transaction.atomic():
        result = _submit(user=user, subject=subject, candidate=candidate)
        if not result.ok:
            return result
        held = MemoryRecord.objects.select_for_update().get(pk=record.pk)
        held.close_record_time(MemoryStatus.SUPERSEDED, ReasonCode.CONFIRMED_BY_USER)
        audit_record(
            actor=user_actor(user=user, subject=subject),
            action=AuditAction.MEMORY_CONFIRM,
            subject_id=subject.pk,
            record_id=record.pk,
            extra={"confirmed_as": str(result.record_id) if result.record_id else None},
        )
    return result


def memory_forget(*, user, subject: Subject, record: MemoryRecord) -> UserWriteResult:
    """Delete one memory and all its versions, whichever version the user names (the
    current one, an old one, or one held for review or confirmation): an ``Intent.FORGET``
    candidate, which the write path turns into ``memory_lineage_erase``."""
    return _submit(user=user, subject=subject, candidate=_forget_candidate(record))


def memory_delete_with_undo(*, user, subject: Subject, record: MemoryRecord) -> DeletionRequest:
    """The pages' delete: the memory (every version of it, whichever version the user
    names) leaves agents' reach at once and is erased — with the conversation snippets
    only it came from — through the deletion workflow after ``DELETE_UNDO_SECONDS``;
    until then ``memory_delete_undo`` puts it back."""
    from memory.services.deletion import memory_deletion_schedule

    with transaction.atomic():
        # The subject's row lock, as the write path takes it: no write slips in between.
        Subject.objects.select_for_update().get(pk=subject.pk)
        # Deleting a memory that is already being deleted (a second tab, the Back button)
        # is the same delete: its receipt, not a second, empty request.
        pending = DeletionRequest.objects.filter(
            tenant_id=subject.tenant_id,
            subject_id=subject.id,
            target_id=record.lineage_id,
            status=DeletionStatus.PENDING,
            run_after__isnull=False,
        ).first()
        if pending is not None:
            return pending
        return memory_deletion_schedule(
            actor=user_actor(user=user, subject=subject),
            subject=subject,
            lineage_id=record.lineage_id,
            delay_seconds=settings.ENGRAM["DELETE_UNDO_SECONDS"],
        )


def memory_delete_undo(*, user, subject: Subject, request_id: uuid.UUID) -> bool:
    """Undo one of the user's deletes that has not run yet. False when it is too late."""
    from memory.services.deletion import deletion_request_undo

    with transaction.atomic():
        Subject.objects.select_for_update().get(pk=subject.pk)
        return deletion_request_undo(
            actor=user_actor(user=user, subject=subject), subject=subject, request_id=request_id
        )


def deletions_run_due_for_user(*, subject: Subject) -> int:
    """Run the user's deletes whose undo time has passed and that no job ran yet (without
    a broker, jobs run at once and find them not yet due: the user's next page runs them)."""
    from memory.services.deletion import deletion_requests_run_due

    return deletion_requests_run_due(tenant_id=subject.tenant_id, subject_id=subject.id)


def _current_versions(subject: Subject, record: MemoryRecord):
    """The memory's versions that are in force or planned (active, validity not ended)."""
    return MemoryRecord.objects.current().filter(
        tenant_id=subject.tenant_id, subject=subject, lineage_id=record.lineage_id
    )


def memory_archive(*, user, subject: Subject, record: MemoryRecord) -> int:
    """Archive a memory: it is kept, but agents no longer use it, until the user brings
    it back. Returns the versions archived (0: nothing current to archive)."""
    with transaction.atomic():
        Subject.objects.select_for_update().get(pk=subject.pk)
        ids = list(_current_versions(subject, record).values_list("id", flat=True))
        MemoryRecord.objects.filter(id__in=ids).update(
            status=MemoryStatus.ARCHIVED, status_reason=ReasonCode.ARCHIVED_BY_USER
        )
        if ids:
            audit_record(
                actor=user_actor(user=user, subject=subject),
                action=AuditAction.MEMORY_ARCHIVE,
                reason_code=ReasonCode.ARCHIVED_BY_USER,
                subject_id=subject.pk,
                record_id=record.pk,
                extra={"record_ids": [str(i) for i in ids]},
            )
    return len(ids)


def memory_unarchive(*, user, subject: Subject, record: MemoryRecord) -> UserWriteResult:
    """Bring an archived memory back (archived by the user, or by forgetting): agents
    may use it again. Refused when a newer value of the same fact took its place."""
    archived = MemoryRecord.objects.filter(
        tenant_id=subject.tenant_id,
        subject=subject,
        lineage_id=record.lineage_id,
        status=MemoryStatus.ARCHIVED,
        superseded_at__isnull=True,
    ).exclude(status_reason=ReasonCode.DELETION_PENDING)
    try:
        with transaction.atomic():
            Subject.objects.select_for_update().get(pk=subject.pk)
            ids = list(archived.values_list("id", flat=True))
            MemoryRecord.objects.filter(id__in=ids).update(
                status=MemoryStatus.ACTIVE, status_reason=ReasonCode.RESTORED_BY_USER
            )
    except IntegrityError:  # a single-valued fact has another value in force now
        return UserWriteResult(Operation.REJECT, ReasonCode.OUTRANKED_BY_EXISTING, record.id)
    if not ids:
        return UserWriteResult(Operation.REJECT, ReasonCode.NOTHING_TO_CHANGE, record.id)
    audit_record(
        actor=user_actor(user=user, subject=subject),
        action=AuditAction.MEMORY_UNARCHIVE,
        reason_code=ReasonCode.RESTORED_BY_USER,
        subject_id=subject.pk,
        record_id=record.pk,
        extra={"record_ids": [str(i) for i in ids]},
    )
    return UserWriteResult(Operation.CONFIRM, ReasonCode.RESTORED_BY_USER, record.id)


def subject_agent_access_set(*, user, subject: Subject, agent_id: uuid.UUID, state: str | None):
    """Pause or revoke one agent's access to the user's memories, or (``state=None``)
    give it back. The agent must be of the user's tenant. Enforced on every API request
    of that agent naming this subject (memory.api.authentication). Audited."""
    from accounts.models import Agent

    if state is not None and state not in AgentAccess.values:
        raise ValueError(f"state must be one of {AgentAccess.values} or None")
    agent = Agent.objects.filter(tenant_id=subject.tenant_id, id=agent_id).first()
    if agent is None:
        return None
    with transaction.atomic():
        current = (
            SubjectAgentAccess.objects.select_for_update()
            .filter(tenant_id=subject.tenant_id, subject=subject, agent=agent)
            .first()
        )
        if (current.state if current else None) == state:
            return agent
        if state is None:
            current.delete()
        elif current is None:
            SubjectAgentAccess.objects.create(
                tenant_id=subject.tenant_id, subject=subject, agent=agent, state=state
            )
        else:
            current.state = state
            current.changed_at = timezone.now()
            current.save(update_fields=["state", "changed_at"])
        audit_record(
            actor=user_actor(user=user, subject=subject),
            action=AuditAction.SUBJECT_AGENT_ACCESS,
            subject_id=subject.pk,
            extra={"agent_id": str(agent.id), "access": state or "allowed"},
        )
    return agent


def memory_search_for_user(*, user, subject: Subject, query: str, k: int = 20) -> list[uuid.UUID]:
    """What the retrieval pipeline finds for ``query`` among the user's current memories
    (ids, best first): the same bilingual routes an agent's recall uses — "猫" finds "cat",
    "where do I live" finds "Lives in Hangzhou" — with the user's own reach: every purpose
    and sensitivity of their own memories, and no agent. Only memories the pipeline holds
    to answer the query (its anchors) are kept: the related ones recall lets come along
    for an agent ("Lives in Shanghai" for "杭州") are noise in a search box. Nothing is
    recorded (no recall trace: the user reading their own page is not an agent using a
    memory). Empty when the user withdrew consent (recall answers nobody then; the page's
    substring match still does). It lives with the services because the recall pipeline
    itself reads through ``memory.selectors``."""
    from dataclasses import fields
    from types import SimpleNamespace

    from accounts.models import Sensitivity, Tenant
    from memory.recall import RecallRequest, RecallScope, RecallWeights, recall
    from memory.recall.crossrank import reranker_id
    from memory.recall.rank import is_anchor
    from memory.recall.signals import Signals
    from memory.selectors import active_model_id

    query = query.strip()
    if not query:
        return []
    purposes = list(
        MemoryRecord.objects.current()
        .filter(tenant_id=subject.tenant_id, subject=subject)
        .order_by("purpose")
        .values_list("purpose", flat=True)
        .distinct()
    )
    if not purposes:
        return []
    scope = RecallScope(
        tenant_id=subject.tenant_id,
        subject_id=subject.id,
        agent_id=None,
        clearance=Sensitivity.RESTRICTED,
    )
    policy = Tenant.objects.filter(pk=subject.tenant_id).values_list("policy", flat=True).first()
    weights = RecallWeights.for_tenant(policy, active_model_id(), reranker_id())
    names = {f.name for f in fields(Signals)} - {"via_other_version"}
    scored: dict[uuid.UUID, int] = {}
    for purpose in purposes:
        result = recall(
            actor=Actor.user(user.pk, subject.tenant_id),
            scope=scope,
            request=RecallRequest(
                query=query, purpose=purpose, include_future=True, k=k, token_budget=10**6
            ),
            weights=weights,
            record_trace=False,
        )
        for position, item in enumerate(result.items):
            signals = Signals(**{n: v for n, v in item.scores.items() if n in names})
            if not is_anchor(SimpleNamespace(signals=signals), weights):
                continue
            # Purposes are searched apart; their answers interleave by rank.
            scored[item.id] = min(scored.get(item.id, position), position)
    return sorted(scored, key=lambda record_id: (scored[record_id], str(record_id)))


def user_subject_ensure(*, user, tenant_id: uuid.UUID) -> Subject:
    """The signed-in member's own subject in ``tenant_id``, created on first need, so that
    a member created in the console (or a reviewer) can add, pause, export and delete from
    the start. Agents name it by ``external_id``: the username when no subject of the
    tenant uses that name yet (an existing one is never taken over here: only an admin can
    link it, in the console), else ``account-<user id>``."""
    from memory.selectors import subject_for_user

    existing = subject_for_user(user=user, tenant_id=tenant_id)
    if existing is not None:
        return existing
    external_id = user.get_username()
    taken = Subject.objects.filter(
        tenant_id=tenant_id, kind=SubjectKind.USER, external_id=external_id
    ).exists()
    if taken:
        external_id = f"account-{user.pk}"
    try:
        with transaction.atomic():
            return Subject.objects.create(
                tenant_id=tenant_id,
                kind=SubjectKind.USER,
                external_id=external_id,
                user=user,
                display_name=user.get_full_name() or user.get_username(),
            )
    except IntegrityError:  # a concurrent request created it first
        found = subject_for_user(user=user, tenant_id=tenant_id)
        if found is None:
            raise
        return found


def _candidate_from(record: MemoryRecord) -> Candidate:
    """A candidate restating ``record`` as the user's own statement (sensitivity and
    importance at their defaults)."""
    return Candidate.from_record(record, assertion_kind=AssertionKind.USER_EXPLICIT, confidence=1.0)


def _forget_candidate(record: MemoryRecord) -> Candidate:
    return replace(_candidate_from(record), intent=Intent.FORGET, target_record_id=record.id)


def _drop_pending(*, user, subject: Subject, record_id: uuid.UUID) -> None:
    """Delete (through the write path) the copy the policy held for confirmation."""
    record = MemoryRecord.objects.filter(
        tenant_id=subject.tenant_id,
        subject=subject,
        id=record_id,
        status=MemoryStatus.PENDING_CONFIRMATION,
    ).first()
    if record is not None:
        _submit(user=user, subject=subject, candidate=_forget_candidate(record))
