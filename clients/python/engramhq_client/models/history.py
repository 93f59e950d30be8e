"""The API's shapes for a memory's history, and slot reads and writes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from engramhq_client.models.records import MemoryRecord, _Model


@dataclass
class MemoryAuthor(_Model):
    kind: str  # agent | user | system
    id: str | None


@dataclass
class MemoryVersion(_Model):
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
    status_reason: str
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
    expires_at: str | None
    source_uri: str
    source_event_ids: list[str]
    author: MemoryAuthor
    _nested: ClassVar[dict[str, type]] = {"author": MemoryAuthor}


@dataclass
class MemoryPeriod(_Model):
    record_id: str
    valid_from: str
    valid_to: str | None
    when: str  # past | now | future
    status: str


@dataclass
class MemoryChange(_Model):
    recorded_at: str
    reason_code: str
    author: MemoryAuthor
    versions: list[MemoryPeriod]
    _nested: ClassVar[dict[str, type]] = {"author": MemoryAuthor, "versions": MemoryPeriod}


@dataclass
class MemoryHistory(_Model):
    """Every version of one memory, with both timelines: ``periods`` (valid time: what is
    believed true when) and ``changes`` (record time: what Engram believed when)."""

    record_id: str
    lineage_id: str
    current_id: str | None
    versions: list[MemoryVersion]
    periods: list[MemoryPeriod]
    changes: list[MemoryChange]
    _nested: ClassVar[dict[str, type]] = {
        "versions": MemoryVersion,
        "periods": MemoryPeriod,
        "changes": MemoryChange,
    }


@dataclass
class SlotWrite(_Model):
    """A put (or, with ``delete=True``, a delete) of the memory in one slot: a namespace
    and a predicate. Engram decides against the slot as it is when the write arrives."""

    namespace: str
    predicate: str
    assertion_kind: str
    delete: bool | None = None
    statement: str | None = None
    value: Any = None
    memory_type: str | None = None
    confidence: float | None = None
    purpose: str | None = None
    consent_basis: str | None = None
    sensitivity: str | None = None
    importance: float | None = None
    expires_at: str | None = None
    valid_from: str | None = None
    _send_null: ClassVar[tuple[str, ...]] = ()

    def to_json(self) -> dict[str, Any]:
        out = super().to_json()
        if not self.delete:
            out.setdefault("value", None)  # a put of None is a value, not "absent"
        return out


@dataclass
class SlotRef(_Model):
    namespace: str
    predicate: str


@dataclass
class SlotWriteBatchRequest(_Model):
    writes: list[SlotWrite]


@dataclass
class SlotLookupRequest(_Model):
    slots: list[SlotRef]
    refresh_ttl_seconds: int | None = None


@dataclass
class SlotLookupResult(_Model):
    slot: SlotRef
    record: MemoryRecord | None
    _nested: ClassVar[dict[str, type]] = {"slot": SlotRef, "record": MemoryRecord}


@dataclass
class SlotLookupOutput(_Model):
    results: list[SlotLookupResult]
    _nested: ClassVar[dict[str, type]] = {"results": SlotLookupResult}


@dataclass
class ApiErrorBody(_Model):
    code: str
    message: str
    extra: dict[str, Any] = field(default_factory=dict)
