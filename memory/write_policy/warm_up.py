"""The write policy's decision on a statement told by the user about themself, with nothing
stored before it (pure: no database, nothing stored), and a web worker's warm-up built on it.

``decide_user_statement`` (and ``decide_tool_inference``, for a tool's text) is what the probe scripts (bench/detectors/decisions.py) and the
detector tests ask of the policy. ``decide_plain_statements`` decides two plain statements
(English, Chinese) after a web worker forks (config/gunicorn.py, ``ENGRAM_WARM_UP_WRITES``):
the detectors build what they build on first use (the prefilter's index of every pattern
group, the compiled patterns) here instead of in the worker's first write; the decisions
are dropped."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from accounts.policies import TenantPolicy
from memory.write_policy import Candidate, Decision, SubjectState, decide

STATEMENTS = ("User prefers short answers", "用户喜欢简短的回答")


def _decide_alone(
    text: str, *, kind: str, confidence: float, roles: tuple[str, ...], now: datetime, learned: bool
) -> Decision:
    candidate = Candidate(
        memory_type="semantic",
        namespace="assistant/profile",
        statement=text,
        assertion_kind=kind,
        confidence=confidence,
        purpose="personalization",
        consent_basis="explicit_consent",
        source_roles=roles,
    )
    return decide(
        candidate,
        existing=[],
        subject=SubjectState(),
        tenant=TenantPolicy(),
        now=now,
        learned_detectors=learned,
    )


def decide_user_statement(
    text: str, *, now: datetime, learned_detectors: bool = True, roles: tuple[str, ...] = ("user",)
) -> Decision:
    """The decision on ``text`` stated by the user themself (or arriving through ``roles``)
    as a semantic profile memory, with nothing stored before it."""
    return _decide_alone(
        text, kind="user_explicit", confidence=1.0, roles=roles, now=now, learned=learned_detectors
    )


def decide_tool_inference(text: str, *, now: datetime, learned_detectors: bool = True) -> Decision:
    """The decision on ``text`` proposed as an agent's inference citing a tool result (how
    ``bench/quality/detectors_heldout.py`` submits a tool's text), nothing stored before it."""
    return _decide_alone(
        text,
        kind="agent_inference",
        confidence=0.8,
        roles=("tool",),
        now=now,
        learned=learned_detectors,
    )


def decide_plain_statements() -> None:
    now = timezone.now()
    for text in STATEMENTS:
        decide_user_statement(text, now=now)
