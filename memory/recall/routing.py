"""Recall routing: is a recalled memory safe to inject into the agent's context as it
is, or a note the agent should check before relying on it? One pure function, ``route``,
like the write policy's ``decide``; recall applies it to every item
(``pipeline.recall``), and ``POST /api/v1/recall``'s ``route`` chooses what comes back.

``inject`` needs all of these: the user's own words or confirmation (``user_explicit``,
``user_confirmed``) about a fact or preference (``semantic``) — or a procedure the
tenant's reviewers approved —, fresh, not sensitive, no open conflict in its slot, about
the user, and not an opinion the user reported about something else. Everything else is
``verify``, for the first reason in ``VERIFY_ORDER`` (the most serious first):

1.  ``untrusted_source``      from external content (a web page, a document, a tool's text)
2.  ``instruction_like``      its text reads as instructions to the assistant
3.  ``sensitive``             above ``internal`` (confidential, restricted)
4.  ``about_someone_else``    a fact about another person
5.  ``open_conflict``         its slot has a pending value, or it takes effect later
6.  ``opinion``               the user's judgement or report ("said the prices are high")
7.  ``inferred``              the assistant's inference
8.  ``tool_derived``          confirmed by a tool or system of record, not by the user
9.  ``unreviewed_procedure``  procedural advice no reviewer approved
10. ``not_a_fact``            an experience (episodic), not a standing fact
11. ``old``                   recorded longer ago than ``fresh_days`` (or flagged outdated)
12. ``low_confidence``        below ``min_confidence``

A tenant tunes ``fresh_days`` and ``min_confidence`` (tenant policy ``recall_routing``)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from accounts.models import Sensitivity
from memory.models import AssertionKind, MemoryType

INJECT, VERIFY = "inject", "verify"
USES = (INJECT, VERIFY)
INJECT_REASONS = ("user_stated", "reviewed_procedure")
VERIFY_ORDER = (
    "untrusted_source",
    "instruction_like",
    "sensitive",
    "about_someone_else",
    "open_conflict",
    "opinion",
    "inferred",
    "tool_derived",
    "unreviewed_procedure",
    "not_a_fact",
    "old",
    "low_confidence",
)
REASONS = INJECT_REASONS + VERIFY_ORDER

# What ``POST /api/v1/recall`` returns: every item (each with its use, the context pack in
# two sections), only the items to inject (what a runtime injects every turn), or — the
# default for an agent loop — both sections without the notes that must never reach a
# prompt unasked (external content, instruction-like text: an agent gets those only
# when it asks for ``all``).
ROUTE_MODES = ("all", "auto", "inject_only")
_ASKED_FOR_ONLY = frozenset({"untrusted_source", "instruction_like"})


@dataclass(frozen=True)
class RoutingThresholds:
    fresh_days: float = 365.0
    min_confidence: float = 0.8

    @classmethod
    def from_policy(cls, tenant_policy: dict[str, Any]) -> RoutingThresholds:
        given = tenant_policy.get("recall_routing") or {}
        if not isinstance(given, dict):
            raise ValueError("recall_routing must be an object")
        unknown = set(given) - {"fresh_days", "min_confidence"}
        if unknown:
            raise ValueError(f"unknown recall_routing keys: {sorted(unknown)}")
        thresholds = cls(
            fresh_days=float(given.get("fresh_days", cls.fresh_days)),
            min_confidence=float(given.get("min_confidence", cls.min_confidence)),
        )
        if thresholds.fresh_days <= 0 or not 0 <= thresholds.min_confidence <= 1:
            raise ValueError("fresh_days must be positive and min_confidence within [0, 1]")
        return thresholds


@dataclass(frozen=True)
class Facts:
    """What routing needs beyond the item itself: its record's sensitivity, whether it is
    a procedure the tenant's reviewers approved, and whether its slot has a value pending
    confirmation."""

    sensitivity: str
    reviewed_procedure: bool
    open_conflict: bool


@dataclass(frozen=True)
class Routed:
    use: str
    reason: str


# A statement whose main verb, right after the user as its subject, is one of saying or
# judging reports the user's view of something, not a fact about the user. A closed class
# of verbs, not a list of topics.
_EN_USER = r"^\W*(?:the\s+user|user|i)\s+(?:\w+ly\s+|once\s+|also\s+|often\s+|still\s+)?"
_EN_JUDGING = (
    r"(?:said|says|say|thinks|thought|think|feels|felt|believes|believed|believe|"
    r"complained|complains|mentioned|mentions|claims|claimed|reckons|considers|"
    r"finds|found\s+(?:it|that|the))\b"
)
_ZH_JUDGING = (
    r"^\W*(?:用户|我)(?:曾经|曾|也|一直|总是|总|还)?"
    r"(?:觉得|认为|说过|抱怨|感觉|以为|提到过?|吐槽|表示过?|评价)"
)
_OPINION = re.compile(rf"{_EN_USER}{_EN_JUDGING}|{_ZH_JUDGING}", re.IGNORECASE)

_USERS_OWN = frozenset({AssertionKind.USER_EXPLICIT, AssertionKind.USER_CONFIRMED})


def _verify_reasons(item: Any, facts: Facts, as_of: datetime, t: RoutingThresholds):
    """Every reason to verify ``item``, in ``VERIFY_ORDER``; the first is reported."""
    flags = set(item.flags)
    kind = item.assertion_kind
    procedure = item.memory_type == MemoryType.PROCEDURAL
    if kind == AssertionKind.EXTERNAL_UNTRUSTED or "external_source" in flags:
        yield "untrusted_source"
    if "instruction_like_text" in flags:
        yield "instruction_like"
    if Sensitivity.rank(facts.sensitivity) > Sensitivity.rank(Sensitivity.INTERNAL):
        yield "sensitive"
    if "about_someone_else" in flags:
        yield "about_someone_else"
    if facts.open_conflict or "future_dated" in flags:
        yield "open_conflict"
    if _OPINION.search(item.statement):
        yield "opinion"
    if procedure and facts.reviewed_procedure:
        return  # reviewed: the user's own words are not what makes it trustworthy
    if kind == AssertionKind.AGENT_INFERENCE or "inferred" in flags:
        yield "inferred"
    if kind == AssertionKind.TOOL_CONFIRMED:
        yield "tool_derived"
    if kind not in _USERS_OWN and kind not in (
        AssertionKind.AGENT_INFERENCE,
        AssertionKind.TOOL_CONFIRMED,
        AssertionKind.EXTERNAL_UNTRUSTED,
    ):
        yield "inferred"  # any other provenance: not the user's word
    if procedure:
        yield "unreviewed_procedure"
    elif item.memory_type != MemoryType.SEMANTIC:
        yield "not_a_fact"
    if "may_be_outdated" in flags or item.recorded_at < as_of - timedelta(days=t.fresh_days):
        yield "old"
    if item.confidence < t.min_confidence:
        yield "low_confidence"


def route(item: Any, facts: Facts, *, as_of: datetime, thresholds: RoutingThresholds) -> Routed:
    """``item`` (a ``pack.RecallItem``) is injected or verified, and why."""
    reasons = list(_verify_reasons(item, facts, as_of, thresholds))
    if reasons:
        return Routed(VERIFY, min(reasons, key=VERIFY_ORDER.index))
    if item.memory_type == MemoryType.PROCEDURAL:
        return Routed(INJECT, "reviewed_procedure")
    return Routed(INJECT, "user_stated")


def returned(routed: Routed, mode: str) -> bool:
    """Whether an item routed so comes back for ``mode`` (``ROUTE_MODES``)."""
    if mode == "inject_only":
        return routed.use == INJECT
    if mode == "auto":
        return routed.reason not in _ASKED_FOR_ONLY
    return True
