"""Python client for Engram, governed long-term memory for AI agents.

Quick start: see ``clients/python/README.md``.
"""

from engram_client.client import (
    AsyncEngramClient,
    AsyncSubjectClient,
    EngramClient,
    FlushReport,
    QueuedWrite,
    SubjectClient,
)
from engram_client.errors import (
    AuthenticationFailed,
    Conflict,
    EngramAPIError,
    EngramError,
    EngramUnavailable,
    InvalidInput,
    NotFound,
    PayloadTooLarge,
    PermissionDenied,
    RateLimited,
    ServerError,
    WriteRejected,
)
from engram_client.models import (
    Candidate,
    CandidateResult,
    ContextPack,
    Event,
    MemoryPage,
    MemoryRecord,
    RecallItem,
    RetractRequest,
    SupersedeRequest,
)
from engram_client.outbox import Outbox
from engram_client.resilience import CircuitBreaker, RetryPolicy, Timeouts

__all__ = [
    "AsyncEngramClient",
    "AsyncSubjectClient",
    "AuthenticationFailed",
    "Candidate",
    "CandidateResult",
    "CircuitBreaker",
    "Conflict",
    "ContextPack",
    "EngramAPIError",
    "EngramClient",
    "EngramError",
    "EngramUnavailable",
    "Event",
    "FlushReport",
    "InvalidInput",
    "MemoryPage",
    "MemoryRecord",
    "NotFound",
    "Outbox",
    "PayloadTooLarge",
    "PermissionDenied",
    "QueuedWrite",
    "RateLimited",
    "RecallItem",
    "RetractRequest",
    "RetryPolicy",
    "ServerError",
    "SubjectClient",
    "SupersedeRequest",
    "Timeouts",
    "WriteRejected",
]
