"""The write policy's vocabulary: what it reads (a candidate, the current facts it may
compare against, the subject's state) and what it returns (one decision), with the
authority order it compares sources by."""

from __future__ import annotations

import enum
import hashlib
import json
import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from datetime import datetime
from typing import Any

from accounts.models import Sensitivity
from core.codes import Operation, ReasonCode
from core.process_state import memoized
from memory import content_rules
from memory.detectors.switches import detection_switch
from memory.models import AssertionKind, Cardinality, MemoryStatus


class Intent(enum.StrEnum):
    """What the proposer means. Most candidates simply assert something."""

    ASSERT = "assert"  # a fact, preference, experience or procedure
    SUPERSEDE = "supersede"  # a newer valid value replaces the target from valid_from on
    CORRECT = "correct"  # the target was wrong all along; this is the right value
    RETRACT = "retract"  # the target was wrong; no replacement
    EXPIRE = "expire"  # the target stopped being true (at valid_to, default now)
    FORGET = "forget"  # the user asks to delete it


AUTHORITY: dict[str, int] = {
    AssertionKind.USER_EXPLICIT: 4,
    AssertionKind.USER_CONFIRMED: 3,
    AssertionKind.TOOL_CONFIRMED: 2,
    AssertionKind.AGENT_INFERENCE: 1,
    AssertionKind.EXTERNAL_UNTRUSTED: 0,
}
# Equal-authority sources of these kinds may replace their own older value with a newer
# one ("I moved to Hangzhou"); inferences and untrusted text may not.
SELF_UPDATING_KINDS = {
    AssertionKind.USER_EXPLICIT,
    AssertionKind.USER_CONFIRMED,
    AssertionKind.TOOL_CONFIRMED,
}


@dataclass(frozen=True)
class Candidate:
    memory_type: str
    namespace: str
    statement: str
    assertion_kind: str
    confidence: float
    purpose: str
    consent_basis: str
    predicate: str = ""
    value: Any = None
    cardinality: str | None = None
    sensitivity: str = Sensitivity.INTERNAL
    intent: str = Intent.ASSERT
    target_record_id: uuid.UUID | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    importance: float = 0.5
    expires_at: datetime | None = None
    source_event_ids: tuple[uuid.UUID, ...] = ()
    source_uri: str = ""
    # Roles ("user", "tool", …) of the cited source events, filled in by the service.
    source_roles: tuple[str, ...] = ()
    # When it was said: the latest cited event's occurred_at (a user event's when the
    # candidate cites one), filled in by the service. Relative time words ("last week",
    # "下个月") are read against it, and a statement with none holds from it. None: no
    # event cited, the request's time is used.
    reference_time: datetime | None = None
    # Set only by the user-facing service when the signed-in user ticks "yes, remember
    # this sensitive detail". Never settable through the agent API.
    user_confirmed_sensitive: bool = False
    # Set only by the governance services after a reviewer approved this exact text (a
    # procedure change request, or a quarantined record a reviewer accepted). Never
    # settable through the agent API. It skips the "needs review" quarantines (steps 10,
    # 11, 12 and 14) because the review has happened; it never skips secrets, untrusted
    # procedural sources, consent, purpose or sensitive data (that needs the user).
    review_approved: bool = False
    # Set by the write service, never by the API: an agent claims the user said this
    # (user_explicit / user_confirmed) but cites no event. It is kept, ranked just below
    # the same kind backed by a user event: it never replaces, corrects or retracts a
    # sourced statement, and a sourced one replaces it.
    unsourced_claim: bool = False
    # The user's names (the subject's display name), filled in by the write service: a
    # statement about the user by name is about the user (``content_key``).
    subject_names: tuple[str, ...] = ()

    @classmethod
    def from_record(cls, record: Any, **overrides: Any) -> Candidate:
        """A candidate restating ``record``: what it asserts (type, scope, statement,
        predicate, value, cardinality), with its authority (assertion kind, confidence),
        purpose and consent basis. Nothing else is copied (sensitivity, importance, valid
        time, retention, sources): each caller names what it keeps in ``overrides``, which
        replace or add fields."""
        fields: dict[str, Any] = {
            "memory_type": record.memory_type,
            "namespace": record.namespace,
            "statement": record.statement,
            "predicate": record.predicate,
            "value": record.value,
            "cardinality": record.cardinality,
            "assertion_kind": record.assertion_kind,
            "confidence": record.confidence,
            "purpose": record.purpose,
            "consent_basis": record.consent_basis,
        }
        fields.update(overrides)
        return cls(**fields)


# ``candidate_replace``'s copy is ``dataclasses.replace``'s result only while the class's
# ``__init__`` does nothing but set each field: no ``__post_init__``, no ``InitVar``, every
# field set by ``__init__`` (a test checks the three).
_CANDIDATE_FIELDS = frozenset(f.name for f in fields(Candidate))
_CANDIDATE_PLAIN = not hasattr(Candidate, "__post_init__") and all(
    f.init for f in fields(Candidate)
)


def candidate_replace(candidate: Candidate, /, **changes: Any) -> Candidate:
    """``dataclasses.replace(candidate, **changes)`` without the generated ``__init__``:
    the fields copied, the changed ones set (the policy replaces a candidate four to six
    times a write; ``replace`` reads every field and calls ``__init__`` with them all, about
    ten times the cost). Equal to ``replace``'s result field by field; an unknown field
    name, a subclass, or a class whose ``__init__`` does more than set fields takes
    ``replace`` itself (its ``TypeError`` included)."""
    if (
        not _CANDIDATE_PLAIN
        or type(candidate) is not Candidate
        or changes.keys() - _CANDIDATE_FIELDS
    ):
        return replace(candidate, **changes)
    copy = object.__new__(Candidate)
    state = copy.__dict__  # frozen forbids ``setattr``, not the instance's own dict
    state.update(candidate.__dict__)
    state.update(changes)
    return copy


@dataclass(frozen=True)
class ExistingFact:
    """The engine's view of a current record it may compare against."""

    id: uuid.UUID
    namespace: str
    predicate: str
    content_key: str
    cardinality: str
    assertion_kind: str
    valid_from: datetime
    valid_to: datetime | None
    memory_type: str
    # An agent's "the user said so" without a cited event (see Candidate.unsourced_claim).
    unsourced_claim: bool = False
    # When it was said: its latest cited event's time, or when it was recorded.
    said_at: datetime | None = None


@dataclass(frozen=True)
class SubjectState:
    memory_paused: bool = False
    consent_withdrawn: bool = False


@dataclass(frozen=True)
class Decision:
    operation: Operation
    reason_code: ReasonCode
    message: str
    # The existing record the operation acts on (CONFIRM, SUPERSEDE, RETRACT, EXPIRE,
    # DELETE) or conflicts with (QUARANTINE).
    target_id: uuid.UUID | None = None
    # The candidate as it will be stored (confidence capped, valid time resolved, …).
    candidate: Candidate | None = None
    status: str = MemoryStatus.ACTIVE
    findings: tuple[str, ...] = ()
    # For SUPERSEDE: keep the old value valid until the new one starts (False for a
    # correction, where the old value was never true).
    close_old_at_new_start: bool = True
    extra: dict[str, Any] = field(default_factory=dict)


def rank(assertion_kind: str, unsourced_claim: bool = False) -> int:
    """Authority for comparisons: the kind's strength, an unsourced claim just below the
    same kind with a source (and still above the next weaker kind)."""
    return AUTHORITY[assertion_kind] * 2 - int(unsourced_claim)


def content_key(candidate: Candidate) -> str:
    """What makes two candidates "the same fact" within one scope and predicate: a hash of
    the normalised value (or, without a value, of the normalised statement, said of the
    user in any person: "I prefer green tea" = "User prefers green tea", "我喜欢绿茶" =
    "用户喜欢绿茶")."""
    if candidate.value is not None:
        raw = (
            candidate.value
            if isinstance(candidate.value, str)
            else json.dumps(candidate.value, sort_keys=True, ensure_ascii=False)
        )
        return _key_of("v", raw, ())
    return _key_of("s", candidate.statement, candidate.subject_names)


def content_keys(candidate: Candidate) -> frozenset[str]:
    """The keys a stored record of the same fact may carry: ``content_key``, and for a
    statement the key records written before statements were read person-neutrally carry
    (stored keys are never rewritten: they are governed content)."""
    key = content_key(candidate)
    if candidate.value is not None:
        return frozenset({key})
    return frozenset({key, _key_of("legacy", candidate.statement, ())})


def _key_of(kind: str, text: str, names: tuple[str, ...]) -> str:
    # A write asks for one candidate's keys about eight times (the batch's lookups, the
    # comparison, the record): ``ENGRAM_WRITE_CONTENT_KEYS_ONCE`` keeps each text's.
    if detection_switch("CONTENT_KEYS_ONCE"):
        return _key_kept(kind, text, names)
    return _key_plain(kind, text, names)


def _key_plain(kind: str, text: str, names: tuple[str, ...]) -> str:
    if kind == "v":
        key = "v:" + content_rules.normalize_text(text)
    elif kind == "s":
        key = "s:" + content_rules.normalize_text(about_the_user(text, names))
    else:  # the legacy key: the statement as written
        key = "s:" + content_rules.normalize_text(text)
    return hashlib.sha256(key.encode()).hexdigest()[:32]


@memoized("memory.write_policy.content_keys", maxsize=2048)
def _key_kept(kind: str, text: str, names: tuple[str, ...]) -> str:
    return _key_plain(kind, text, names)


# The user as a statement's subject, in the forms users and agents write: first person
# ("I", "my"), the third person agents use ("User", "The user", "the customer"), Chinese
# (我, 用户, 该用户); the user's own names come with the candidate (``subject_names``).
_EN_SUBJECT = re.compile(
    r"^\s*(?:(?P<poss>my|(?:the\s+)?user['’]s|(?:the\s+)?customer['’]s)\b|"
    r"(?P<subj>i|(?:the\s+)?user|(?:the\s+)?customer)\b(?P<contraction>'m|'re|'s)?)\s*",
    re.IGNORECASE,
)
_EN_COPULA = re.compile(r"^(?:am|is|are|'m|'re|'s)\b\s*", re.IGNORECASE)
_ZH_SUBJECT = re.compile(r"^\s*(?:该用户|用户|我(?!们))(?:的)?")
_IRREGULAR_THIRD = {"has": "have", "does": "do", "goes": "go", "is": "be"}


def about_the_user(statement: str, names: tuple[str, ...] = ()) -> str:
    """``statement`` with the user as its subject written one way ("<user> prefer green
    tea"): the subject word, the verb's person ("prefers" → "prefer") and the copula
    ("I'm", "User is" → "be") no longer make two statements differ."""
    for name in sorted(names, key=len, reverse=True):  # "Dana Whitfield" before "Dana"
        if name and statement.lstrip().startswith(name):
            rest = statement.lstrip()[len(name) :]
            if rest[:1].isalpha() and not re.match(r"[\u4e00-\u9fff]", rest[:1]):
                continue  # "Danas…": another word
            statement = "User" + rest if not re.match(r"[\u4e00-\u9fff]", name) else "用户" + rest
            break
    zh = _ZH_SUBJECT.match(statement)
    if zh:
        return "<user>" + statement[zh.end() :]
    m = _EN_SUBJECT.match(statement)
    if not m:
        return statement
    rest = statement[m.end() :]
    if m["poss"]:
        return "<user's> " + rest
    if m["contraction"]:
        return "<user> be " + rest
    copula = _EN_COPULA.match(rest)
    if copula:
        return "<user> be " + rest[copula.end() :]
    verb, _, tail = rest.partition(" ")
    lowered = verb.lower()
    if m["subj"].lower() != "i":  # third person: "prefers" -> "prefer"
        if lowered in _IRREGULAR_THIRD:
            verb = _IRREGULAR_THIRD[lowered]
        elif re.search(r"[^aeiou]ies$", lowered):
            verb = verb[:-3] + "y"
        elif re.search(r"(?:ch|sh|ss|x|z|o)es$", lowered):
            verb = verb[:-2]
        elif lowered.endswith("s") and not lowered.endswith("ss"):
            verb = verb[:-1]
    return f"<user> {verb} {tail}".rstrip()


def effective_cardinality(candidate: Candidate) -> str:
    if candidate.cardinality:
        return candidate.cardinality
    # A named predicate is single-valued unless said otherwise ("city", "answer_style");
    # free statements without a predicate accumulate.
    return Cardinality.SINGLE if candidate.predicate else Cardinality.MULTI


def reject(
    reason: ReasonCode,
    message: str,
    *,
    findings: Sequence[str] = (),
    target_id: uuid.UUID | None = None,
    extra: dict[str, Any] | None = None,
) -> Decision:
    return Decision(
        Operation.REJECT,
        reason,
        message,
        target_id=target_id,
        findings=tuple(findings),
        extra=extra or {},
    )


def quarantine(
    candidate: Candidate,
    reason: ReasonCode,
    message: str,
    *,
    findings: Sequence[str] = (),
    target_id: uuid.UUID | None = None,
    status: str = MemoryStatus.QUARANTINED,
) -> Decision:
    return Decision(
        Operation.QUARANTINE,
        reason,
        message,
        target_id=target_id,
        candidate=candidate,
        status=status,
        findings=tuple(findings),
    )
