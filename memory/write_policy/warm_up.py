"""The write policy's decision on two plain statements (English, Chinese), for a web
worker's warm-up after it forks (config/gunicorn.py, ``ENGRAM_WARM_UP_WRITES``): the
detectors build what they build on first use (the prefilter's index of every pattern
group, the compiled patterns), here instead of in the worker's first write. Pure: no
database, nothing stored; the decisions are dropped."""

from __future__ import annotations

from django.utils import timezone

from accounts.policies import TenantPolicy
from memory.write_policy import Candidate, SubjectState, decide

STATEMENTS = ("User prefers short answers", "用户喜欢简短的回答")


def decide_plain_statements() -> None:
    now = timezone.now()
    for text in STATEMENTS:
        candidate = Candidate(
            memory_type="semantic",
            namespace="assistant/profile",
            statement=text,
            assertion_kind="user_explicit",
            confidence=1.0,
            purpose="personalization",
            consent_basis="explicit_consent",
            source_roles=("user",),
        )
        decide(candidate, existing=[], subject=SubjectState(), tenant=TenantPolicy(), now=now)
