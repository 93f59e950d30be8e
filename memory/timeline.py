"""The history of one memory, told twice, as data (``GET /api/v1/memories/{id}/history``).

- ``periods`` (valid time): what is believed to have been true when. One period per
  version that is still believed (not closed in record time; active, expired or archived),
  oldest validity first.
- ``changes`` (record time): what Engram believed when. One change per record time at
  which versions were written (a supersede writes the closed copy of the old value and the
  new value at the same instant), newest first, each with who made it and why (a reason
  code from ``core.codes.ReasonCode``).

The detail page (``memory/views.py`` ``memory_timeline``) tells the same two stories in
words; the rules that pick a change's reason are the same.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime

from core.codes import ReasonCode
from memory.models import MemoryRecord, MemoryStatus

# Versions that are (or were, in that change) believed to describe reality.
BELIEVED = (MemoryStatus.ACTIVE, MemoryStatus.EXPIRED, MemoryStatus.ARCHIVED)
# Reasons that say why an old version was closed, not why a change was made.
_CLOSING_REASONS = (ReasonCode.VALIDITY_CLOSED, ReasonCode.SUPERSEDED)


@dataclass(frozen=True)
class Period:
    record_id: uuid.UUID
    valid_from: datetime
    valid_to: datetime | None
    when: str  # "past", "now" or "future", at the time of asking
    status: str


@dataclass(frozen=True)
class Author:
    kind: str  # "agent", "user" or "system"
    id: str | None


@dataclass
class Change:
    recorded_at: datetime
    author: Author
    reason_code: str = ""
    versions: list[Period] = field(default_factory=list)


@dataclass(frozen=True)
class Timelines:
    periods: list[Period]
    changes: list[Change]


def _when(record: MemoryRecord, now: datetime) -> str:
    if record.valid_from > now:
        return "future"
    if record.valid_to is not None and record.valid_to <= now:
        return "past"
    return "now"


def _period(record: MemoryRecord, now: datetime) -> Period:
    return Period(record.id, record.valid_from, record.valid_to, _when(record, now), record.status)


def author_of(record: MemoryRecord) -> Author:
    if record.created_by_user_id is not None:
        return Author("user", str(record.created_by_user_id))
    if record.created_by_agent_id is not None:
        return Author("agent", str(record.created_by_agent_id))
    return Author("system", None)


def written_reason(version: MemoryRecord, written: dict[uuid.UUID, str]) -> str:
    """Why ``version`` was written: the write policy's reason from the audit log
    (``written``, by record id: ``memory.selectors.memory_write_reasons``), else its own
    status reason while its record time is open. A version closed in record time carries
    the reason it was closed, not why it was written; a later supersede, say, must not
    turn "a new value took over" into "first remembered"."""
    reason = written.get(version.id, "")
    if reason and reason not in _CLOSING_REASONS:
        return reason
    if version.superseded_at is None and version.status_reason not in _CLOSING_REASONS:
        return version.status_reason
    return ""


def memory_timelines(
    versions: list[MemoryRecord], now: datetime, written: dict[uuid.UUID, str] | None = None
) -> Timelines:
    """``versions``: every version of one memory the caller may see, in record time order
    (``memory.selectors.memory_history``); ``written``: why each was written, by record id
    (``memory.selectors.memory_write_reasons``; without it, the open versions' own
    reasons)."""
    written = written or {}
    believed = [v for v in versions if v.superseded_at is None and v.status in BELIEVED]
    periods = [_period(v, now) for v in sorted(believed, key=lambda v: (v.valid_from, v.id))]
    changes: dict[datetime, Change] = {}
    for version in versions:
        change = changes.setdefault(
            version.recorded_at, Change(version.recorded_at, author_of(version))
        )
        change.versions.append(_period(version, now))
        reason = written_reason(version, written)
        if reason and not change.reason_code:
            change.reason_code = reason
        if version.status == MemoryStatus.RETRACTED:
            change.reason_code = ReasonCode.RETRACTED
    ordered = list(changes.values())
    for change in ordered:
        change.reason_code = change.reason_code or ReasonCode.NEW_MEMORY
    return Timelines(periods, list(reversed(ordered)))
