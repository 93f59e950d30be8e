"""The governed memory record and the raw events it is derived from.

Invariants the database enforces itself (tests in tests/memory/test_constraints.py):
- confidence in [0, 1]; valid_from < valid_to; importance in [0, 1];
- no two *active* records of a single-valued predicate for the same tenant, subject,
  namespace and predicate with overlapping valid time (exclusion constraint, btree_gist);
- a record's content is never updated in place: only lifecycle columns (status, record-time
  end, statistics, index bookkeeping) may change; a correction is a new version;
- source events are append-only.
Erasure (memory.services.erasure) is the only code allowed past those triggers.

The models live in modules by concern (subjects and events, records, lifecycle, derived
indexes); every name is importable from ``memory.models``.
"""

from .indexes import (
    EMBEDDING_DIMENSIONS,
    EmbeddingIndex,
    EmbeddingIndexStatus,
    IdempotencyKey,
    MemoryEmbedding,
    MemorySearchDoc,
    RecallTrace,
)
from .lifecycle import (
    DeadLetter,
    DeletionRequest,
    DeletionScope,
    DeletionStatus,
    MemoryCase,
    MemoryDecay,
    TaskOutcome,
    TaskRun,
    ThreadSummary,
)
from .mentions import EntityKind, MemoryMention
from .quality import (
    CanaryResult,
    FindingKind,
    FindingSeverity,
    FindingStatus,
    InspectionRun,
    QualityFinding,
    RetrievalCanary,
)
from .records import (
    MEMORY_CONTENT_FIELDS,
    NEVER_BELIEVED,
    AssertionKind,
    Cardinality,
    ConsentBasis,
    MemoryRecord,
    MemoryRecordQuerySet,
    MemorySource,
    MemoryStatus,
    MemoryType,
    TsTzRange,
    believed_q,
    valid_q,
)
from .subjects import (
    TENANT_PROCEDURES_EXTERNAL_ID,
    AgentAccess,
    EventKind,
    EventRole,
    RetentionClass,
    SourceEvent,
    Subject,
    SubjectAgentAccess,
    SubjectKind,
)
from .working import ThreadClosure, WorkingMemoryEntry

__all__ = [
    "CanaryResult",
    "FindingKind",
    "FindingSeverity",
    "FindingStatus",
    "InspectionRun",
    "QualityFinding",
    "RetrievalCanary",
    "EMBEDDING_DIMENSIONS",
    "MEMORY_CONTENT_FIELDS",
    "NEVER_BELIEVED",
    "TENANT_PROCEDURES_EXTERNAL_ID",
    "AgentAccess",
    "AssertionKind",
    "Cardinality",
    "ConsentBasis",
    "DeadLetter",
    "DeletionRequest",
    "DeletionScope",
    "DeletionStatus",
    "EmbeddingIndex",
    "EmbeddingIndexStatus",
    "EntityKind",
    "EventKind",
    "EventRole",
    "IdempotencyKey",
    "MemoryCase",
    "MemoryDecay",
    "MemoryEmbedding",
    "MemoryMention",
    "MemoryRecord",
    "MemoryRecordQuerySet",
    "MemorySearchDoc",
    "MemorySource",
    "MemoryStatus",
    "MemoryType",
    "RecallTrace",
    "RetentionClass",
    "SourceEvent",
    "Subject",
    "SubjectAgentAccess",
    "SubjectKind",
    "TaskOutcome",
    "TaskRun",
    "ThreadClosure",
    "ThreadSummary",
    "TsTzRange",
    "WorkingMemoryEntry",
    "believed_q",
    "valid_q",
]
