"""Typed request and response models, written by hand from ``/api/v1/schema``.

``SCHEMA_COMPONENTS`` maps each model to its OpenAPI component; the test
``tests/clients/test_models_schema.py`` fails when a field is added, removed or changes
requiredness on either side, so these cannot drift from the server silently.

Conventions: ids and date-times stay strings (UUID / ISO 8601) exactly as on the wire;
request fields left ``None`` are omitted so the server's defaults apply.
"""

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
            value = getattr(self, f.name)
            if value is None and f.name not in getattr(self, "_send_null", ()):
                continue
            if isinstance(value, _Model):
                value = value.to_json()
            elif isinstance(value, list):
                value = [v.to_json() if isinstance(v, _Model) else v for v in value]
            out[f.name] = value
        return out


# --- requests -------------------------------------------------------------------------


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


# --- responses ------------------------------------------------------------------------


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


@dataclass
class MemoryPage(_Model):
    count: int
    next_offset: int | None
    results: list[MemoryRecord]
    _nested: ClassVar[dict[str, type]] = {"results": MemoryRecord}


@dataclass
class RecallSource(_Model):
    event_ids: list[str]
    uri: str


@dataclass
class RecallItem(_Model):
    id: str
    memory_type: str
    namespace: str
    predicate: str
    statement: str
    value: Any
    assertion_kind: str
    confidence: float
    importance: float
    status: str
    valid_from: str
    valid_to: str | None
    recorded_at: str
    source: RecallSource
    scores: dict[str, float]
    flags: list[str]
    _nested: ClassVar[dict[str, type]] = {"source": RecallSource}


@dataclass
class ContextPack(_Model):
    """A recall answer. ``degraded`` and ``degraded_reason`` are the client's own: when
    Engram cannot be reached, recall returns an empty pack with ``degraded=True`` so the
    agent's turn goes on without memory instead of failing."""

    trace_id: str | None
    empty: bool
    empty_reason: str
    items: list[RecallItem]
    context_pack: str
    as_of: str | None
    known_at: str | None
    dropped_by_budget: int
    vector_pending: int
    vector_unavailable: bool
    # The reranker asked to reorder the items ("" when none), and why its answer was not
    # used ("" when it was). Defaults: a server older than the reranker omits them.
    reranker: str = ""
    rerank_error: str = ""
    degraded: bool = False
    degraded_reason: str = ""
    _nested: ClassVar[dict[str, type]] = {"items": RecallItem}
    _client_only: ClassVar[tuple[str, ...]] = ("degraded", "degraded_reason")

    @classmethod
    def degraded_empty(cls, reason: str) -> ContextPack:
        return cls(
            trace_id=None,
            empty=True,
            empty_reason="engram_unavailable",
            items=[],
            context_pack="",
            as_of=None,
            known_at=None,
            dropped_by_budget=0,
            vector_pending=0,
            vector_unavailable=False,
            degraded=True,
            degraded_reason=reason,
        )


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
class ApiErrorBody(_Model):
    code: str
    message: str
    extra: dict[str, Any] = field(default_factory=dict)


# Model -> OpenAPI component it mirrors (checked by tests/clients/test_models_schema.py).
SCHEMA_COMPONENTS: dict[type, str] = {
    Event: "EventInputRequest",
    Candidate: "CandidateInputRequest",
    RecallRequest: "RecallInputRequest",
    RecallFeedback: "RecallFeedbackInputRequest",
    SupersedeRequest: "MemorySupersedeInputRequest",
    RetractRequest: "MemoryRetractInputRequest",
    ChangeRequestInput: "ProcedureChangeRequestInputRequest",
    SubjectTokenRequest: "SubjectTokenInputRequest",
    SubjectEraseRequest: "SubjectEraseInputRequest",
    SubjectErasure: "SubjectEraseOutput",
    EventResult: "EventResult",
    EventBatchResult: "EventBatchOutput",
    CandidateResult: "CandidateResult",
    CandidateBatchResult: "CandidateBatchOutput",
    MemoryRecord: "MemoryRecordOutput",
    MemoryPage: "MemoryListOutput",
    RecallSource: "RecallSourceOutput",
    RecallItem: "RecallItemOutput",
    ContextPack: "RecallOutput",
    RecallFeedbackResult: "RecallFeedbackOutput",
    Procedure: "ProcedureOutput",
    ChangeRequest: "ProcedureChangeRequestOutput",
    ChangeRequestStatus: "ProcedureChangeRequestStatusOutput",
    SubjectToken: "SubjectTokenOutput",
    ApiErrorBody: "Error",
}
