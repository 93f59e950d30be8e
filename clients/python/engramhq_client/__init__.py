"""Python client for Engram, governed long-term memory for AI agents.

Quick start: see ``clients/python/README.md``.
"""

from engramhq_client.client import (
    AsyncEngramClient,
    AsyncSubjectClient,
    EngramClient,
    FlushReport,
    QueuedWrite,
    SubjectClient,
)
from engramhq_client.errors import (
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
from engramhq_client.models import (
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
from engramhq_client.outbox import Outbox
from engramhq_client.resilience import CircuitBreaker, RetryPolicy, Timeouts

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
