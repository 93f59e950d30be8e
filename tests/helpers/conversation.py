"""Conversations between people as LoCoMo has them: each turn an event with a speaker and
one episodic memory "Speaker: text" sourced from it, through the real write path."""

from __future__ import annotations

from datetime import UTC, datetime

from core.actor import Actor
from memory.services.events import EventInput, events_append
from memory.services.indexing import index_pending_records
from memory.services.writes import candidates_submit
from memory.write_policy import Candidate
from tests.helpers.retrieval import PURPOSE

SESSION = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


def converse(
    agent,
    subject,
    turns: list[tuple[str, str]],
    *,
    thread: str = "s1",
    sensitivity: dict[int, str] | None = None,
) -> list:
    """Append each (speaker, text) turn as an event and write it as one episodic memory
    "Speaker: text" sourced from that event; returns the record ids in order.
    ``sensitivity``: turn index -> the sensitivity its memory is written with."""
    actor = Actor.system(subject.tenant_id, "test")
    outcomes = events_append(
        actor=actor,
        agent_id=agent.id,
        subject=subject,
        items=[
            EventInput(
                client_event_id=f"{thread}:{i}",
                kind="message",
                role="user",
                content=text,
                speaker=speaker,
                thread_id=thread,
                occurred_at=SESSION,
            )
            for i, (speaker, text) in enumerate(turns)
        ],
    )
    written = candidates_submit(
        actor=actor,
        subject=subject,
        candidates=[
            Candidate(
                memory_type="episodic",
                namespace="conversation",
                statement=f"{speaker}: {text}",
                assertion_kind="user_explicit",
                confidence=1.0,
                purpose=PURPOSE,
                consent_basis="explicit_consent",
                valid_from=SESSION,
                source_event_ids=[o.event_id],
                sensitivity=(sensitivity or {}).get(i, "internal"),
            )
            for i, ((speaker, text), o) in enumerate(zip(turns, outcomes, strict=True))
        ],
    )
    record_ids = [w.record_id for w in written]
    index_pending_records([r for r in record_ids if r])
    return record_ids
