"""Background extraction: turning appended events into memory candidates.

Two extractors propose; the write policy engine decides (every candidate goes through
``memory.services.writes.candidates_submit``):

- ``rule_extract`` — deterministic, bilingual (English, 简体中文) patterns for explicit
  "remember…/记住…/以后都…", preferences, corrections ("actually…/不对…/其实…" → CORRECT),
  forget requests ("forget…/忘掉…/别记…" → FORGET) and changes of state (team, location,
  version).
- ``llm_extract`` — optional; any OpenAI-compatible chat completions endpoint asked for a
  JSON schema. Its output is validated strictly: one malformed item rejects the whole
  response (counted, never half-applied), and the rule-based candidates still apply.

Authority always comes from the event's role, never from the extractor: a user message
yields ``user_explicit``, a tool result ``tool_confirmed``, external content
``external_untrusted`` (which the policy holds for review and never turns into a procedure).
Events an agent already turned into memories on the synchronous hot path are skipped.
"""

from __future__ import annotations

import json
import logging
import re
import uuid
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import transaction

from core.actor import Actor
from core.chat_completions import ChatMalformed, ChatUnavailable, chat_completion
from memory import predicates
from memory.clauses import LEAD_TRIM, split_clauses
from memory.models import (
    AssertionKind,
    Cardinality,
    ConsentBasis,
    EventRole,
    MemorySource,
    MemoryType,
    SourceEvent,
    Subject,
)
from memory.predicates import clean_place
from memory.services.writes import WriteOutcome, candidates_submit
from memory.temporal import names_time, valid_time_hint
from memory.write_policy import Candidate, Intent

logger = logging.getLogger(__name__)

EXTRACTOR_VERSION = "rules-1"

# --- rule-based extractor ---------------------------------------------------------------


_FORGET = re.compile(
    r"^(?:please\s+)?(?:forget(?:\s+about)?|don'?t\s+remember|do\s+not\s+remember|"
    r"stop\s+remembering)\s+(?:that\s+)?(?P<rest>.+)$"
    r"|^(?:请)?(?:忘掉|忘记|别记(?:住)?|不要记(?:住)?)(?P<rest_zh>.+)$",
    re.IGNORECASE,
)
_CORRECT = re.compile(
    r"^(?:actually|no,?\s+actually|correction)[\s,:：]+(?P<rest>.+)$"
    r"|^(?:不对|其实|更正一下|纠正一下)[，,：:\s]*(?P<rest_zh>.+)$",
    re.IGNORECASE,
)
_REMEMBER = re.compile(
    r"^(?:please\s+)?(?:remember|note|keep\s+in\s+mind)\s+(?:that\s+)?(?P<rest>.+)$"
    r"|^(?:from\s+now\s+on|always)[\s,]+(?P<always>.+)$"
    r"|^(?:请)?(?:记住|记一下|帮我记住)[，,：:\s]*(?P<rest_zh>.+)$"
    r"|^(?P<zh_always>以后都.+)$",
    re.IGNORECASE,
)
_PREFERENCE = re.compile(
    r"^(?P<en>I\s+(?:prefer|like|love|would\s+rather|'d\s+rather|hate|dislike)\s+.+)$"
    r"|^(?P<zh>我(?:更)?(?:喜欢|偏好|习惯|希望|讨厌|不喜欢).+)$",
    re.IGNORECASE,
)
# A time phrase in Chinese, before or after 我 ("上周我搬到了…", "我上周搬到了…"): a day,
# week, month or year named relative to now, a month, a span with 前/后, a season of the
# year, a holiday (memory.temporal resolves it).
_ZH_WHEN = (
    r"(?:现在|目前|今天|大?前天|明天|大?后天|昨天|刚才|上上|下下|上|下|这|本)(?:个)?"
    r"(?:周|星期|礼拜|月)?[一二三四五六日天]?|"
    r"(?:去|今|明|前)年(?:年)?(?:底|初|末)?|年底|年初|[上下]半年|半个?(?:月|年)(?:以?前|以?后)|\d{1,2}月(?:份|\d{1,2}[日号])?起?|"
    r"[一二三四五六七八九十两\d]+(?:来|多)?(?:天|周|个?星期|个多?月|年)(?:以?前|之前|以?后|之后)|"
    r"过完(?:春节|年|中秋|国庆)|(?:春节|国庆|中秋|端午|元旦)(?:以?后|之后)"
)

# An optional lead-in in English: a clause ending in a comma ("In three weeks, …"), or a
# time phrase before the subject ("Two weeks ago I moved to …", "Last month, I …");
# memory.temporal resolves it.
_EN_WHEN = (
    r"(?:\w+|a\s+couple\s+of|a\s+few)\s+(?:day|week|fortnight|month|year)s?\s+ago|"
    r"last\s+(?:week|month|year|spring|summer|autumn|fall|winter|monday|tuesday|wednesday|"
    r"thursday|friday|saturday|sunday)|(?:the\s+day\s+before\s+)?yesterday|"
    r"the\s+week\s+before\s+last|earlier\s+this\s+(?:week|month|year)|"
    r"(?:at\s+the\s+end\s+of|late|early)\s+last\s+(?:year|month)"
)
_EN_LEAD = (
    r"(?:(?:after|in|from|starting|next|by|at|on|once|when|this)\b[^,]{0,40},\s*|"
    rf"(?:{_EN_WHEN})[,\s]+)?"
)

# Changes of state: (predicate, pattern with a ``value`` group).
_STATE: list[tuple[str, re.Pattern[str]]] = [
    (
        "home_city",
        re.compile(
            # An optional lead-in naming when ("In three weeks, …", "年底…", "等…以后…").
            rf"^{_EN_LEAD}"
            r"I\s+(?:live|am\s+based|'m\s+based|am\s+living|'m\s+living|have\s+lived|'ve\s+lived|"
            r"have\s+been\s+living|'ve\s+been\s+living)\s+in\s+(?P<value>.+)$"
            rf"|^{_EN_LEAD}"
            r"I\s+(?:have\s+)?moved\s+to\s+(?P<value2>.+)$"
            rf"|^{_EN_LEAD}"
            r"I(?:'m|\s+am|'ll|\s+will|\s+am\s+going\s+to|'m\s+going\s+to|\s+plan\s+to)?\s+"
            r"(?:be\s+)?(?:moving|relocating|move|relocate)\s+to\s+(?P<value3>.+)$"
            rf"|^(?:(?:{_ZH_WHEN}|等.{{1,12}}?(?:以后|之后|后))[，,]?\s*)?"
            rf"我(?:{_ZH_WHEN})?(?:要|将|会|准备|打算|已经|刚|就|一直)*(?:住在|常驻|搬到了?|搬去了?|搬回了?)"
            r"(?P<value_zh>.+)$",
            re.IGNORECASE,
        ),
    ),
    (
        "team",
        re.compile(
            r"^I(?:\s+am|'m)\s+(?:now\s+)?(?:on|in)\s+the\s+(?P<value>.+?)\s+team$"
            r"|^I\s+(?:have\s+)?(?:joined|moved\s+to|transferred\s+to)\s+the\s+(?P<value2>.+?)\s+team$"
            r"|^我(?:现在)?(?:在|调到了?|加入了?|转到了?)(?P<value_zh>.+?)(?:团队|组|部门)$",
            re.IGNORECASE,
        ),
    ),
    (
        "version",
        re.compile(
            r"^(?:we|I)(?:\s+are|'re|\s+am|'m)?\s+(?:now\s+)?(?:on|using|use|upgraded\s+to|"
            r"migrated\s+to)\s+(?P<value>[A-Za-z][\w.+-]*\s+v?\d[\w.]*)$"
            r"|^(?:我们|我)(?:现在)?(?:用的是|在用|升级到了?|迁移到了?)(?P<value_zh>\S+?\s*v?\d[\w.]*)$",
            re.IGNORECASE,
        ),
    ),
]


@dataclass(frozen=True)
class Proposal:
    """What an extractor proposes, before authority and provenance are attached."""

    statement: str
    intent: str = Intent.ASSERT
    predicate: str = ""
    value: str | None = None
    importance: float = 0.5
    explicit: bool = False


def _group(match: re.Match[str]) -> str:
    for value in match.groupdict().values():
        if value:
            return value.strip().strip(LEAD_TRIM).rstrip("。.!！?？")
    return ""


# A phrase before the subject, or between 我 and the verb, that names a time
# (memory.temporal.names_time): "前几天我搬到了…", "我前几天搬到了…", "Next week I'm moving
# to …", "Since 2019 I have lived in …". The statement keeps it; the slot is read without it.
_LEAD = re.compile(r"^(?P<lead>[^,，。]{1,40}?)[\s,，]*(?P<rest>(?:I\b|我).+)$")
_MIDDLE = re.compile(
    r"^(?P<subject>我)(?P<lead>[^，,。]{1,10}?)(?P<rest>(?:要|将|会|准备|打算|已经|刚|就)?"
    r"(?:住在|常驻|搬到|搬去|搬回|搬来).+)$"
)


def _without_time(clause: str) -> str | None:
    match = _LEAD.match(clause) or _MIDDLE.match(clause)
    if match and names_time(match["lead"]):
        return (match.groupdict().get("subject") or "") + match["rest"]
    return None


def _state(clause: str) -> tuple[str, str] | None:
    """(predicate, value) for a change of state. Predicates are the API's own
    (memory/predicates.py); a place is cut to the name ("Hangzhou in June, I live there
    now" → "Hangzhou"), and a value that is still not a name yields no slot at all."""
    found = _state_of(clause)
    if found is None:
        bare = _without_time(clause)
        found = _state_of(bare) if bare else None
    return found


def _state_of(clause: str) -> tuple[str, str] | None:
    for predicate, pattern in _STATE:
        match = pattern.match(clause)
        if match:
            value = _group(match)
            if predicate == "home_city":
                value = clean_place(value)
            if value and predicates.value_problem(predicate, value) is None:
                return predicate, value
    return None


def _assertion(clause: str, *, intent: str, explicit: bool = False) -> Proposal | None:
    state = _state(clause)
    if state:
        predicate, value = state
        return Proposal(clause, intent, predicate, value, importance=0.6, explicit=explicit)
    if intent != Intent.ASSERT or explicit or _PREFERENCE.match(clause):
        return Proposal(clause, intent, importance=0.7 if explicit else 0.5, explicit=explicit)
    return None


# What event redaction leaves where a secret was (memory/services/events.py): a clause
# whose point was the secret has nothing left worth remembering.
REDACTION_MARK = "[REDACTED]"


def rule_extract(text: str) -> list[Proposal]:
    """Proposals found in one message, in order. Clauses matching nothing yield nothing:
    small talk, passing states, questions and redacted secrets are not memories."""
    proposals: list[Proposal] = []
    for clause in split_clauses(text):
        if REDACTION_MARK in clause:
            continue
        match = _FORGET.match(clause)
        if match:
            rest = _group(match)
            state = _state(rest)
            if state:
                proposals.append(Proposal(rest, Intent.FORGET, state[0], state[1]))
            elif rest:
                proposals.append(Proposal(rest, Intent.FORGET))
            continue
        match = _CORRECT.match(clause)
        if match:
            rest = _group(match)
            proposal = _assertion(rest, intent=Intent.CORRECT) if rest else None
            # A correction names the slot it corrects; a free sentence has no target.
            if proposal and proposal.predicate:
                proposals.append(proposal)
            continue
        match = _REMEMBER.match(clause)
        if match:
            rest = _group(match)
            if rest:
                proposal = _assertion(rest, intent=Intent.ASSERT, explicit=True)
                if proposal:
                    proposals.append(proposal)
            continue
        proposal = _assertion(clause, intent=Intent.ASSERT)
        if proposal:
            proposals.append(proposal)
    return proposals


# --- LLM extractor (OpenAI-compatible chat completions) --------------------------------

LLM_KINDS = ("fact", "preference", "state", "correction", "forget")
LLM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["candidates"],
    "properties": {
        "candidates": {
            "type": "array",
            "maxItems": 20,
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["kind", "statement", "predicate", "value"],
                "properties": {
                    "kind": {"type": "string", "enum": list(LLM_KINDS)},
                    "statement": {"type": "string", "minLength": 1, "maxLength": 500},
                    "predicate": {"type": "string", "maxLength": 100},
                    "value": {"type": ["string", "null"], "maxLength": 500},
                },
            },
        }
    },
}
_LLM_PROMPT = (
    "Extract long-term memories about the user from the message. Only durable facts, "
    "preferences, changes of state (predicate home_city, team, employer or version; the "
    "value is the bare name, e.g. 'Hangzhou'), corrections of "
    "an earlier value, and requests to forget. Never passing states, one-time codes or "
    "secrets. Answer with JSON matching the schema; an empty list is a fine answer."
)


class LLMOutputRejected(Exception):
    """The model's answer did not match the schema; nothing from it is applied."""


class LLMUnavailable(Exception):
    """Timeout, connection error or non-2xx answer."""


def _validate_llm_output(content: str) -> list[Proposal]:
    try:
        data = json.loads(content)
    except (TypeError, ValueError) as exc:
        raise LLMOutputRejected("not_json") from exc
    if not isinstance(data, dict) or set(data) != {"candidates"}:
        raise LLMOutputRejected("bad_top_level")
    items = data["candidates"]
    if not isinstance(items, list) or len(items) > 20:
        raise LLMOutputRejected("bad_candidates")
    proposals: list[Proposal] = []
    for item in items:
        if not isinstance(item, dict) or set(item) != {"kind", "statement", "predicate", "value"}:
            raise LLMOutputRejected("bad_item_keys")
        kind, statement = item["kind"], item["statement"]
        predicate, value = item["predicate"], item["value"]
        if kind not in LLM_KINDS:
            raise LLMOutputRejected("bad_kind")
        if not isinstance(statement, str) or not 1 <= len(statement.strip()) <= 500:
            raise LLMOutputRejected("bad_statement")
        if not isinstance(predicate, str) or len(predicate) > 100:
            raise LLMOutputRejected("bad_predicate")
        if value is not None and (not isinstance(value, str) or len(value) > 500):
            raise LLMOutputRejected("bad_value")
        if kind in ("state", "correction") and not (predicate and value):
            raise LLMOutputRejected("state_without_slot")
        intent = {"correction": Intent.CORRECT, "forget": Intent.FORGET}.get(kind, Intent.ASSERT)
        predicate = predicates.canonical_predicate(predicate) if predicate else ""
        value = value.strip() if value else None
        if predicate and predicates.value_problem(predicate, value):
            # A slot whose value is a sentence: keep the statement, drop the slot.
            predicate, value = "", None
            if intent == Intent.CORRECT:
                continue
        proposals.append(Proposal(statement.strip(), intent, predicate, value))
    return proposals


def llm_extract(text: str) -> list[Proposal]:
    """Ask the configured model. Raises LLMUnavailable or LLMOutputRejected; returns
    proposals only when the whole answer is valid."""
    conf = settings.ENGRAM_LIFECYCLE
    body = {
        "model": conf["LLM_MODEL"],
        "temperature": 0,
        "messages": [
            {"role": "system", "content": _LLM_PROMPT},
            {"role": "user", "content": text},
        ],
        "response_format": {
            "type": "json_schema",
            "json_schema": {"name": "memory_candidates", "strict": True, "schema": LLM_SCHEMA},
        },
    }
    try:
        content = chat_completion(
            base_url=conf["LLM_BASE_URL"],
            api_key=conf["LLM_API_KEY"],
            body=body,
            timeout=conf["LLM_TIMEOUT_SECONDS"],
        )
    except ChatUnavailable as exc:
        raise LLMUnavailable(str(exc)) from exc
    except ChatMalformed as exc:
        raise LLMOutputRejected("bad_envelope") from exc
    return _validate_llm_output(content)


# --- the service ------------------------------------------------------------------------

_ROLE_AUTHORITY = {
    EventRole.USER: AssertionKind.USER_EXPLICIT,
    EventRole.TOOL: AssertionKind.TOOL_CONFIRMED,
    EventRole.EXTERNAL: AssertionKind.EXTERNAL_UNTRUSTED,
}


@dataclass
class ExtractionResult:
    events: int = 0
    skipped: int = 0
    candidates: int = 0
    llm_rejected: int = 0
    llm_unavailable: int = 0
    operations: dict[str, int] = field(default_factory=dict)
    record_ids: list[str] = field(default_factory=list)
    # Each candidate proposed, with the event it came from and the policy's decision
    # (memory.services.conversation returns them to the agent).
    decisions: list[tuple[uuid.UUID, Candidate, WriteOutcome]] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {
            "events": self.events,
            "skipped": self.skipped,
            "candidates": self.candidates,
            "llm_rejected": self.llm_rejected,
            "llm_unavailable": self.llm_unavailable,
            "operations": self.operations,
        }


def _candidate(event: SourceEvent, proposal: Proposal, authority: str) -> Candidate:
    conf = settings.ENGRAM_LIFECYCLE
    consent = (
        ConsentBasis.EXPLICIT_CONSENT if proposal.explicit else ConsentBasis.LEGITIMATE_INTEREST
    )
    return Candidate(
        memory_type=MemoryType.SEMANTIC,
        namespace=conf["EXTRACTION_NAMESPACE"],
        statement=proposal.statement[:2000],
        assertion_kind=authority,
        confidence=1.0 if proposal.explicit else 0.9,
        purpose=conf["EXTRACTION_PURPOSE"],
        consent_basis=consent,
        predicate=proposal.predicate,
        value=proposal.value,
        cardinality=Cardinality.SINGLE if proposal.predicate else None,
        intent=proposal.intent,
        valid_from=_valid_from(event, proposal),
        importance=proposal.importance,
        source_event_ids=(event.id,),
    )


def _valid_from(event: SourceEvent, proposal: Proposal):
    """A change of state holds from when it was said, not from when we processed it —
    unless it names its start ("in three weeks", "年底", "last week", "三周前"), which is
    resolved against when it was said; a future without a date is left to the policy (held
    for the user's confirmation)."""
    hint = valid_time_hint(proposal.statement, event.occurred_at, slot=bool(proposal.predicate))
    if hint is not None:
        return hint.start if hint.kind in ("past", "future") else None
    return event.occurred_at if proposal.intent == Intent.ASSERT else None


def _dedupe(proposals: list[Proposal]) -> list[Proposal]:
    seen: set[tuple[str, str, str]] = set()
    unique = []
    for p in proposals:
        key = (p.intent, p.predicate, (p.value or p.statement).casefold())
        if key not in seen:
            seen.add(key)
            unique.append(p)
    return unique


@dataclass(frozen=True)
class LLMAnswer:
    """What the model said about one event, asked before the job's transaction opens (an
    HTTP call never holds a database transaction): proposals, or why there are none."""

    proposals: tuple[Proposal, ...] = ()
    rejected: bool = False
    unavailable: bool = False


def llm_wanted(event: SourceEvent) -> bool:
    return bool(settings.ENGRAM_LIFECYCLE["LLM_BASE_URL"]) and event.role == EventRole.USER


def llm_ask(event_id: uuid.UUID, content: str) -> LLMAnswer:
    try:
        return LLMAnswer(tuple(llm_extract(content)))
    except LLMOutputRejected as exc:
        logger.warning("llm extractor output rejected (%s) for event %s", exc, event_id)
        return LLMAnswer(rejected=True)
    except LLMUnavailable as exc:
        logger.warning("llm extractor unavailable (%s) for event %s", exc, event_id)
        return LLMAnswer(unavailable=True)


def event_extract(
    *,
    actor: Actor,
    event: SourceEvent,
    result: ExtractionResult,
    llm: LLMAnswer | None = None,
    used: bool | None = None,
    savepoint: bool = False,
) -> None:
    """Propose and submit the candidates of one event (caller holds the tenant context).
    ``llm`` is the model's answer when the caller asked it beforehand; when the LLM is
    configured and the caller did not, it is asked here. ``used``: whether a memory
    already cites the event, when the caller read it (None: read here). ``savepoint``:
    the submission (this function's only writes) in a savepoint of its own, for a caller
    that runs it without one (``memory.tasks.extract_events``)."""
    result.events += 1
    authority = _ROLE_AUTHORITY.get(event.role)
    already_used = (
        used
        if used is not None
        else MemorySource.objects.filter(tenant_id=event.tenant_id, event=event).exists()
    )
    if authority is None or already_used:
        result.skipped += 1
        return
    # External content and tool output are never mined for instructions or "remember"
    # commands; only a user's own words are.
    proposals = rule_extract(event.content) if event.role == EventRole.USER else []
    if llm is None and llm_wanted(event):
        llm = llm_ask(event.id, event.content)
    if llm is not None and llm_wanted(event):
        proposals += list(llm.proposals)
        result.llm_rejected += int(llm.rejected)
        result.llm_unavailable += int(llm.unavailable)
    proposals = _dedupe(proposals)
    if not proposals:
        return
    candidates = [_candidate(event, p, authority) for p in proposals]
    subject = Subject.objects.get(pk=event.subject_id, tenant_id=event.tenant_id)
    with transaction.atomic() if savepoint else nullcontext():
        outcomes: list[WriteOutcome] = candidates_submit(
            actor=actor,
            subject=subject,
            candidates=candidates,
            agent_id=event.agent_id,
            request_id=f"extract:{event.id}",
        )
    result.candidates += len(candidates)
    result.decisions.extend((event.id, c, o) for c, o in zip(candidates, outcomes, strict=True))
    for outcome in outcomes:
        key = f"{outcome.operation}:{outcome.reason_code}"
        result.operations[key] = result.operations.get(key, 0) + 1
        if outcome.record_id:
            result.record_ids.append(str(outcome.record_id))


def events_extract(
    *, actor: Actor, tenant_id: uuid.UUID, event_ids: list[uuid.UUID]
) -> ExtractionResult:
    """Extract from events in the order they happened (caller holds the tenant context)."""
    result = ExtractionResult()
    events = SourceEvent.objects.filter(tenant_id=tenant_id, id__in=event_ids).order_by(
        "occurred_at", "received_at"
    )
    for event in events:
        event_extract(actor=actor, event=event, result=result)
    return result
