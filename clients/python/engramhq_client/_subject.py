"""What the sync and async subject clients share: the calls about one subject, built
once (``_SubjectBase``)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from engramhq_client._core import _Call
from engramhq_client._queued import FlushReport, QueuedWrite, _replay_counts_as_done
from engramhq_client.errors import (
    EngramAPIError,
)

logger = logging.getLogger(__name__)


def _first_result(result: Any) -> Any:
    """``remember``'s answer: the one candidate's decision, or the QueuedWrite."""
    return result if isinstance(result, QueuedWrite) else result.results[0]


class _SubjectBase:
    """A handle acting for one subject: the token, the outbox key, and the outbox
    bookkeeping both transports share (sending is theirs)."""

    client: Any

    def __init__(
        self,
        client: Any,
        token_provider: Callable[[], Any],
        subject_key: str,
        on_token_rejected: Callable[[], None] | None = None,
    ) -> None:
        self.client = client
        self._token = token_provider
        self.subject_key = subject_key
        self._on_token_rejected = on_token_rejected

    def _token_refreshed(self, err: EngramAPIError) -> bool:
        """An expired token: drop it, so the caller asks once more with a fresh one."""
        if err.code == "expired_subject_token" and self._on_token_rejected is not None:
            self._on_token_rejected()
            return True
        return False

    def _has_queue(self) -> bool:
        outbox = self.client.outbox
        return bool(outbox.has_pending(self.subject_key) and outbox.count(self.subject_key))

    def _still_queued(self) -> bool:
        return bool(self.client.outbox.count(self.subject_key))

    def _queue(self, call: _Call, reason: str) -> QueuedWrite:
        key = self.client.outbox.put(
            subject_key=self.subject_key,
            op=call.op,
            method=call.method,
            path=call.path,
            body=call.body,
            key=call.idempotency_key,
        )
        if reason == "outbox_not_empty":
            logger.info("engram %s queued behind earlier writes (key %s)", call.op, key)
        else:
            logger.warning("engram %s queued in outbox (key %s, %s)", call.op, key, reason)
        return QueuedWrite(key, call.op, reason)

    def _replay_sent(self, entry: Any) -> None:
        self.client.outbox.done(entry.id)
        logger.info("engram outbox entry %s sent (%s)", entry.key, entry.op)

    def _replay_refused(self, entry: Any, err: EngramAPIError) -> bool:
        """A queued write Engram refused on replay: True when that still counts as sent
        (see ``_replay_counts_as_done``), else it is kept as failed with its code."""
        outbox = self.client.outbox
        if _replay_counts_as_done(entry.op, err):
            outbox.done(entry.id)
            return True
        outbox.fail(entry.id, err.code)
        logger.warning("engram outbox entry %s refused on replay: %s", entry.key, err.code)
        return False

    def _flush_report(self, sent: int, failed: int) -> FlushReport:
        return FlushReport(sent, failed, self.client.outbox.count(self.subject_key))

    def _flush_after_read(self) -> bool:
        outbox = self.client.outbox
        return outbox is not None and outbox.has_pending(self.subject_key)
