"""Memories for tests: one written the way an agent writes one (the user's message appended
as an event, then a candidate citing it, through the real write path), a home-city
candidate, and the write policy's decision on a user's own statement."""

from __future__ import annotations

import uuid

from core.actor import Actor
from memory.models import MemoryRecord
from memory.services.events import EventInput, events_append
from memory.services.writes import candidates_submit
from memory.write_policy import Candidate
from memory.write_policy.warm_up import decide_user_statement  # noqa: F401 (the tests' name for it)


def agent_memory(agent, subject, statement: str, **overrides) -> MemoryRecord:
    """A memory an agent wrote from a user message, through the real write path."""
    actor = Actor.agent(agent.id, subject.tenant_id)
    [event] = events_append(
        actor=actor,
        agent_id=agent.id,
        subject=subject,
        items=[
            EventInput(
                client_event_id=uuid.uuid4().hex, kind="message", role="user", content=statement
            )
        ],
    )
    fields = {
        "memory_type": "semantic",
        "namespace": "assistant/profile",
        "statement": statement,
        "assertion_kind": "user_explicit",
        "confidence": 1.0,
        "purpose": "personalization",
        "consent_basis": "explicit_consent",
        "source_event_ids": (event.event_id,),
    }
    fields.update(overrides)
    [outcome] = candidates_submit(
        actor=actor, subject=subject, candidates=[Candidate(**fields)], agent_id=agent.id
    )
    assert outcome.record_id is not None, outcome
    return MemoryRecord.objects.get(pk=outcome.record_id)


def home_city(value: str, start) -> Candidate:
    """The user's own "Lives in <value>" for the ``home_city`` slot, valid from ``start``."""
    return Candidate(
        memory_type="semantic",
        namespace="personal/profile",
        statement=f"Lives in {value}",
        predicate="home_city",
        value=value,
        assertion_kind="user_explicit",
        confidence=1.0,
        purpose="personalization",
        consent_basis="explicit_consent",
        valid_from=start,
    )


# Frames a credential telling is put inside by the precedence properties of the detector
# rounds: a change said for later, a quote, a Chinese/English mix, an ordinary sentence.
COMPOSED_FRAMES = (
    "From next week, {s}",
    "下周开始，{s}",
    "我跟 Tom 说了: {s}",
    "My flatmate wrote: \u201c{s}\u201d",
    "We had dumplings on Sunday. {s}",
    "{s} 顺便说一下，我在学日语。",
)
# The same telling glued to another script with no space on either side (round 22).
GLUED_FRAMES = (
    "下周开始{s}",
    "我说：{s}。",
    "来週から、{s}",
    "「{s}」",
    "{s}，别告诉别人",
    "그리고 {s}",
)


def assert_refused_as_secret(text: str, value: str, *, now) -> None:
    """The documented precedence of the credential rounds: a real secret is refused whatever
    is around it, and its value is gone from the redacted text."""
    from core.codes import Operation, ReasonCode
    from memory.detectors.secrets import redact_secrets

    decision = decide_user_statement(text, now=now, learned_detectors=False)
    assert (decision.operation, decision.reason_code) == (
        Operation.REJECT,
        ReasonCode.SECRET_DETECTED,
    ), text
    assert value not in redact_secrets(text)[0], text
