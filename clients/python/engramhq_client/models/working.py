"""Working memory (``/threads/{thread_id}/working``) and closing a thread
(``/threads/{thread_id}/close``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engramhq_client.models.records import CandidateResult, _Model


@dataclass
class WorkingEntry(_Model):
    """One working memory value; ``size_bytes`` counts its UTF-8 JSON."""

    key: str
    value: Any
    size_bytes: int
    expires_at: str


@dataclass
class WorkingList(_Model):
    thread_id: str
    total_bytes: int
    max_thread_bytes: int
    results: list[WorkingEntry]

    _nested: ClassVar[dict[str, type]] = {"results": WorkingEntry}


@dataclass
class KeptResult(CandidateResult):
    """The write policy's decision for one item marked for keeping (``kept``: its key,
    or "statement")."""

    kept: str = ""


@dataclass
class ThreadClosed(_Model):
    """What closing a thread did; ``replayed`` when it was already closed (the first
    close's answer, nothing written again)."""

    thread_id: str
    closed_at: str
    replayed: bool
    kept: list[KeptResult]
    extracted: list[CandidateResult]
    summary: CandidateResult | None
    summary_writer: str
    event_count: int
    working_dropped: int

    _nested: ClassVar[dict[str, type]] = {
        "kept": KeptResult,
        "extracted": CandidateResult,
        "summary": CandidateResult,
    }
