"""What a write queued in the outbox returns (``QueuedWrite``), and what a flush of the
outbox reports (``FlushReport``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engramhq_client.errors import (
    EngramAPIError,
    NotFound,
)


@dataclass(frozen=True)
class QueuedWrite:
    """A write Engram could not take now; it is in the outbox under ``key`` and will be sent
    when the service is back (``flush_outbox()``, or automatically before the next write
    and after a successful recall). It reads like a decision that has not been made yet:
    ``operation`` is ``"QUEUED"``, ``reason_code`` says why (``connect_error``,
    ``timeout``, ``circuit_open``, …), ``accepted`` is False and ``results``/``decisions``
    are empty, so code written for the answer keeps working while Engram is down."""

    key: str
    op: str
    reason: str
    queued: bool = True
    operation: str = "QUEUED"
    record_id: None = None
    target_id: None = None

    @property
    def reason_code(self) -> str:
        return self.reason

    @property
    def message(self) -> str:
        return (
            f"Engram is unreachable right now ({self.reason}); the write is queued in the "
            f"outbox (key {self.key}) and will be sent when it is back."
        )

    @property
    def accepted(self) -> bool:
        return False

    @property
    def findings(self) -> list[str]:
        return []

    @property
    def results(self) -> list[Any]:
        return []

    @property
    def decisions(self) -> list[Any]:
        return []

    @property
    def events(self) -> list[Any]:
        return []

    @property
    def candidates(self) -> list[Any]:
        return []


@dataclass(frozen=True)
class FlushReport:
    sent: int
    failed: int
    remaining: int


def _replay_counts_as_done(entry_op: str, err: EngramAPIError) -> bool:
    # A delete replayed after it had been applied finds nothing: the goal is reached.
    return entry_op == "memory_delete" and isinstance(err, NotFound)
