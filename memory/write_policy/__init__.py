"""The write policy: what a memory candidate becomes.

``decide`` (in ``policy``, which lists its steps) is the pure decision; ``decision`` holds
what it reads and returns, ``compare`` the steps that weigh a candidate against the current
facts. ``memory.services.writes`` loads the inputs and applies the decision.
"""

from memory.write_policy.decision import (
    AUTHORITY,
    SELF_UPDATING_KINDS,
    Candidate,
    Decision,
    ExistingFact,
    Intent,
    SubjectState,
    content_key,
    content_keys,
    effective_cardinality,
    rank,
)
from memory.write_policy.policy import decide

__all__ = [
    "AUTHORITY",
    "SELF_UPDATING_KINDS",
    "Candidate",
    "Decision",
    "ExistingFact",
    "Intent",
    "SubjectState",
    "content_key",
    "content_keys",
    "decide",
    "effective_cardinality",
    "rank",
]
