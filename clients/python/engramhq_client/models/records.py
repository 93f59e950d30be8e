"""The API's shapes for events, candidates, recall, records, procedures and subjects, as
frozen dataclasses (``_Model``) that read their JSON and write theirs."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

T = TypeVar("T", bound="_Model")


_REQUIRED = object()


class _Model:
    """from_json/to_json for flat dataclasses; ``_nested`` names fields holding models."""

    _nested: ClassVar[dict[str, type]] = {}

    @classmethod
    def from_json(cls: type[T], data: dict[str, Any]) -> T:
        kwargs: dict[str, Any] = {}
        names = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
        if "extra" in names and "extra" not in data:
            # Fields this client does not know yet (a newer server) pass through.
            kwargs["extra"] = {k: v for k, v in data.items() if k not in names}
        for f in dataclasses.fields(cls):  # type: ignore[arg-type]
            if f.name not in data:
                continue  # an older server: keep the default
            value = data[f.name]
            nested = cls._nested.get(f.name)
            if nested is not None and value is not None:
                if isinstance(value, list):
                    value = [nested.from_json(v) for v in value]  # type: ignore[attr-defined]
                else:
                    value = nested.from_json(value)  # type: ignore[attr-defined]
            kwargs[f.name] = value
        return cls(**kwargs)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            if f.name in getattr(self, "_client_only", ()):
                continue
            value = getattr(self, f.name)
            if value is None and f.name not in getattr(self, "_send_null", ()):
                continue
            if isinstance(value, _Model):
                value = value.to_json()
            elif isinstance(value, list):
                value = [v.to_json() if isinstance(v, _Model) else v for v in value]
            out[f.name] = value
        return out


@dataclass
class Event(_Model):
    """A raw event (a message, tool result, ...). ``client_event_id`` is your idempotency
    key: appending it again is a no-op (``created=False``)."""

    client_event_id: str
    kind: str  # message | tool_result | document | sor_receipt
    role: str  # user | assistant | tool | system
    content: str
    thread_id: str | None = None
    speaker: str | None = None
    uri: str | None = None
    occurred_at: str | None = None
    retention_class: str | None = None
    metadata: dict[str, Any] | None = None


@dataclass
class Candidate(_Model):
    """A proposed memory; the write policy decides ADD/CONFIRM/SUPERSEDE/.../REJECT."""

    memory_type: str  # semantic | episodic | procedural
    namespace: str  # "a/b/c"
    statement: str
    assertion_kind: str  # user_explicit | user_confirmed | tool_confirmed | agent_inference | external_untrusted
    confidence: float
    purpose: str
    consent_basis: str
    predicate: str | None = None
    value: Any = None
    cardinality: str | None = None
    sensitivity: str | None = None
    intent: str | None = None
    target_record_id: str | None = None
    valid_from: str | None = None
    valid_to: str | None = None
    importance: float | None = None
    expires_at: str | None = None
    source_event_ids: list[str] | None = None
    source_client_event_ids: list[str] | None = None
    source_uri: str | None = None


@dataclass
class RecallRequest(_Model):
    query: str
    purpose: str
    memory_types: list[str] | None = None
    namespaces: list[str] | None = None
    predicates: list[str] | None = None
    as_of: str | None = None
    known_at: str | None = None
    valid_during_start: str | None = None
    valid_during_end: str | None = None
    include_future: bool | None = None
    k: int | None = None
    token_budget: int | None = None
    # all (every item, each with its use), auto (without notes from external content or
    # with instruction-like text) or inject_only (only what is safe to inject).
    route: str | None = None


@dataclass
class RecallFeedback(_Model):
    used_record_ids: list[str] | None = None
    helpful: bool | None = None


@dataclass
class SupersedeRequest(_Model):
    statement: str
    assertion_kind: str
    confidence: float
    value: Any = None
    valid_from: str | None = None
    correction: bool | None = None
    source_event_ids: list[str] | None = None
    source_client_event_ids: list[str] | None = None
    source_uri: str | None = None


@dataclass
class RetractRequest(_Model):
    assertion_kind: str
    source_event_ids: list[str] | None = None
    source_client_event_ids: list[str] | None = None
    source_uri: str | None = None


@dataclass
class DeleteRequest(_Model):
    assertion_kind: str | None = None


@dataclass
class ChangeRequestInput(_Model):
    proposed_text: str
    base_version: int
    rationale: str | None = None
    source: str | None = None  # agent | tool | external
    source_uri: str | None = None


@dataclass
class SubjectEraseRequest(_Model):
    confirm: bool


@dataclass
class SubjectTokenRequest(_Model):
    external_id: str
    subject_kind: str | None = None


@dataclass
class EventResult(_Model):
    client_event_id: str
    event_id: str | None
    created: bool
    redactions: int
    error: dict[str, Any] | None


@dataclass
class EventBatchResult(_Model):
    results: list[EventResult]
    _nested: ClassVar[dict[str, type]] = {"results": EventResult}


@dataclass
class CandidateResult(_Model):
    index: int
    operation: str  # ADD | CONFIRM | SUPERSEDE | RETRACT | EXPIRE | DELETE | REJECT | QUARANTINE
    reason_code: str
    message: str
    record_id: str | None
    target_id: str | None
    findings: list[str]

    @property
    def accepted(self) -> bool:
        """True when the write policy stored or confirmed something."""
        return self.operation not in ("REJECT", "QUARANTINE")


@dataclass
class CandidateBatchResult(_Model):
    results: list[CandidateResult]
    _nested: ClassVar[dict[str, type]] = {"results": CandidateResult}


@dataclass
class MemoryRecord(_Model):
    id: str
    memory_type: str
    namespace: str
    predicate: str
    statement: str
    value: Any
    cardinality: str
    assertion_kind: str
    confidence: float
    status: str
    valid_from: str
    valid_to: str | None
    recorded_at: str
    superseded_at: str | None
    supersedes_id: str | None
    lineage_id: str
    purpose: str
    sensitivity: str
    consent_basis: str
    evidence_count: int
    source_uri: str
    source_event_ids: list[str]
    expires_at: str | None = None


@dataclass
class MemoryPage(_Model):
    count: int
    next_offset: int | None
    results: list[MemoryRecord]
    _nested: ClassVar[dict[str, type]] = {"results": MemoryRecord}


@dataclass
class RecallSource(_Model):
    event_ids: list[str] = field(default_factory=list)
    uri: str = ""


@dataclass
class RecallItem(_Model):
    """One recalled memory. ``use`` says how to use it: ``inject`` (the user's own fresh
    fact or preference, or a reviewed procedure: safe in a prompt as it is) or ``verify``
    (check before relying on it), and ``use_reason`` why. Every field has a default and
    fields this client does not know are kept in ``extra``, so a reshaped answer still
    parses."""

    id: str = ""
    memory_type: str = ""
    namespace: str = ""
    predicate: str = ""
    statement: str = ""
    value: Any = None
    assertion_kind: str = ""
    confidence: float = 0.0
    importance: float = 0.0
    status: str = ""
    valid_from: str = ""
    valid_to: str | None = None
    recorded_at: str = ""
    source: RecallSource = field(default_factory=RecallSource)
    scores: dict[str, float] = field(default_factory=dict)
    flags: list[str] = field(default_factory=list)
    use: str = ""
    use_reason: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    _nested: ClassVar[dict[str, type]] = {"source": RecallSource}
    _client_only: ClassVar[tuple[str, ...]] = ("extra",)


@dataclass
class ContextPack(_Model):
    """A recall answer. ``degraded`` and ``degraded_reason`` are the client's own: when
    Engram cannot be reached, recall returns an empty pack with ``degraded=True`` so the
    agent's turn goes on without memory instead of failing. Fields this client does not
    know are kept in ``extra``."""

    trace_id: str | None = None
    empty: bool = True
    empty_reason: str = ""
    items: list[RecallItem] = field(default_factory=list)
    context_pack: str = ""
    as_of: str | None = None
    known_at: str | None = None
    dropped_by_budget: int = 0
    vector_pending: int = 0
    vector_unavailable: bool = False
    # The reranker asked to reorder the items ("" when none), and why its answer was not
    # used ("" when it was). Defaults: a server older than the reranker omits them.
    reranker: str = ""
    rerank_error: str = ""
    degraded: bool = False
    degraded_reason: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    _nested: ClassVar[dict[str, type]] = {"items": RecallItem}
    _client_only: ClassVar[tuple[str, ...]] = ("degraded", "degraded_reason", "extra")

    @classmethod
    def degraded_empty(cls, reason: str) -> ContextPack:
        return cls(empty_reason="engram_unavailable", degraded=True, degraded_reason=reason)

    @property
    def injected(self) -> list[RecallItem]:
        """The items safe to inject as they are (``use == "inject"``)."""
        return [i for i in self.items if i.use == "inject"]

    @property
    def to_verify(self) -> list[RecallItem]:
        """The items to check before relying on them, each with its ``use_reason``."""
        return [i for i in self.items if i.use == "verify"]


@dataclass
class RecallFeedbackResult(_Model):
    trace_id: str
    used_record_ids: list[str]
    helpful: bool | None


@dataclass
class Procedure(_Model):
    slug: str
    title: str
    kind: str
    namespace: str
    version: int
    text: str | None
    record_id: str | None


@dataclass
class ChangeRequest(_Model):
    id: str
    procedure: str
    base_version: int
    status: str
    warnings: list[str]
    created_at: str


@dataclass
class ChangeRequestStatus(_Model):
    id: str
    procedure: str
    base_version: int
    status: str
    warnings: list[str]
    created_at: str
    decided_at: str | None
    approved_version: int | None


@dataclass
class SubjectToken(_Model):
    token: str
    subject_id: str
    expires_in: int


@dataclass
class SubjectErasure(_Model):
    """The deletion workflow's receipt (store -> rows erased) and verification (route ->
    rows still found; all 0 when ``status`` is done)."""

    deletion_request_id: str
    status: str
    receipt: dict[str, int]
    verification: dict[str, int]


@dataclass
class Message(_Model):
    """One message of a conversation turn (``add``). ``client_event_id`` is made for you
    when omitted (and kept in the outbox, so a resend stores nothing twice)."""

    role: str  # user | assistant | tool | system | external
    content: str
    client_event_id: str | None = None
    speaker: str | None = None
    occurred_at: str | None = None
    # Required by the API; the client fills it in before the first attempt.
    _client_filled: ClassVar[tuple[str, ...]] = ("client_event_id",)


@dataclass
class ConversationTurnRequest(_Model):
    messages: list[Message]
    thread_id: str | None = None
    # Your own proposals from the turn, citing its messages by client_event_id: Engram
    # decides them (``ConversationResult.candidates``) instead of extracting its own.
    candidates: list[Candidate] | None = None


@dataclass
class ConversationDecision(_Model):
    """A memory Engram's extraction proposed from one message, and the policy's decision."""

    message_index: int
    client_event_id: str
    operation: str
    reason_code: str
    message: str
    record_id: str | None
    target_id: str | None
    findings: list[str]
    statement: str
    predicate: str
    value: Any
    assertion_kind: str

    @property
    def accepted(self) -> bool:
        return self.operation not in ("REJECT", "QUARANTINE")


@dataclass
class ConversationResult(_Model):
    """What ``add(messages)`` did: each message stored (``events``), and each memory
    extracted from them with the write policy's decision (``decisions``) — or, when you
    sent ``candidates``, the decision on each of yours (``candidates``, as
    ``submit_candidates`` answers) and no extraction."""

    events: list[EventResult]
    decisions: list[ConversationDecision]
    llm_rejected: int
    llm_unavailable: int
    candidates: list[CandidateResult] = field(default_factory=list)
    _nested: ClassVar[dict[str, type]] = {
        "events": EventResult,
        "decisions": ConversationDecision,
        "candidates": CandidateResult,
    }
    queued: ClassVar[bool] = False

    @property
    def results(self) -> list[ConversationDecision]:
        return self.decisions
