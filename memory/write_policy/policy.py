"""The write policy engine: what a memory candidate becomes.

``decide()`` is pure: it reads a candidate, the subject's relevant current facts and the
tenant's policy, and returns exactly one operation with a reason code (``ReasonCode``) and
a sentence. It never touches the database; ``memory.services.writes`` loads its inputs and
applies its decision. Read ``decide`` top to bottom: each step either returns a decision
or lets the candidate through to the next.

One precedence: a deletion request, then every refusal, then every hold for review, then
every hold for the user's confirmation, then the comparison with what is known. A held
candidate is stored (pending), so nothing that would be refused may be held first (a secret
inside a future plan is refused, never held), and a hold the user can lift must not hide
one that a reviewer must see (a tool's order inside a future plan is held for review: steps
12-16 come before 17 and 18).

The steps, in order:
 1. A deletion request is always honoured, whatever the consent state.
 2. Valid time is resolved from when it was said (the cited event, never the server's
    clock), inference confidence capped; an end before the start is refused.
 3. Consent withdrawn or memory paused: refused, nothing new is written.
 4. A purpose and a consent basis must be stated; the purpose allowed by the tenant and
    not a near-miss of one in use (it would never be found).
 5. A named slot's value must fit the slot.
 6. Secrets are refused (rules; the learned credential head at 10b).
 7. Passing states are refused.
 8. Facts owned by a system of record are refused (queried live instead).
 9. A claim of user authority must be backed by a cited user event; one that also
    cites tool or web content is kept as the agent's inference from it.
10. Procedures are never learned from untrusted or tool content, nor from an
    inference that cites it. 10b: a credential the learned head is sure of is refused.
11. Sensitive personal data is refused when the tenant does not keep it.
12. Hold: instruction-like text (prompt injection), for review.
13. Hold: tool- or web-derived content that orders the agent or hides its words.
14. Hold: a procedural write that adds content, until a change request is approved.
15. Hold: procedure-like content that does not come from the user.
16. Hold: external, unverified content.
17. Hold: a future change without a date, until the user confirms it (after the holds
    for review: a tool's order "once the lease starts" goes to a reviewer).
18. Hold: sensitive personal data (rules, then the learned special-category head), until
    the user confirms it. 18b: the learned heads' other holds (memory.detectors.learned):
    an instruction in tool or web content (for review), an undated future change, a
    passing state.
19. An explicit change (retract, expire, correct, supersede) acts on its target.
20. Anything else is compared with what is already known in the same scope.

Operations: ADD, CONFIRM, SUPERSEDE, RETRACT, EXPIRE, DELETE, REJECT, QUARANTINE.
Authority, strongest first: user_explicit > user_confirmed > tool_confirmed >
agent_inference > external_untrusted. Authority is compared before time: a newer inference
never overrides an older explicit statement. Between two statements of the user (equal
authority), the one said last wins, even when it dates its change earlier; an older one
arriving late is kept as history. Other equal-authority disagreements go to the conflict
queue instead of being silently picked.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import numpy as np

from accounts.models import Sensitivity
from accounts.policies import TenantPolicy
from core.codes import ReasonCode
from memory import content_rules, predicates
from memory.detectors.everyday_ailments import (
    learned_special_vetoed,
    learned_transient_vetoed,
    without_ailments,
)
from memory.detectors.learned import detected as learned_detected
from memory.detectors.learned import scores as learned_scores
from memory.detectors.non_secret_values import without_public_values
from memory.detectors.secrets import looks_like_secret
from memory.detectors.thing_state import state_of_a_thing
from memory.detectors.told_done import told_done
from memory.detectors.unvalued_mentions import without_unvalued_mentions
from memory.models import AssertionKind, MemoryStatus, MemoryType
from memory.neighbourhood import passage_text
from memory.temporal import TimeHint, valid_time_hint
from memory.temporal.standing import standing_present
from memory.write_policy.compare import decide_assert, decide_change, decide_forget
from memory.write_policy.decision import (
    Candidate,
    Decision,
    ExistingFact,
    Intent,
    SubjectState,
    candidate_replace,
    effective_cardinality,
)
from memory.write_policy.decision import quarantine as _quarantine
from memory.write_policy.decision import reject as _reject


def consent_refusal(*, withdrawn: bool, paused: bool) -> tuple[ReasonCode, str] | None:
    """Step 3's refusal, if any: the reason and the sentence the user's agent is told.
    Working memory (``memory.working.service``) refuses with the same."""
    if withdrawn:
        return (
            ReasonCode.CONSENT_WITHDRAWN,
            "The user has withdrawn consent to memory; nothing is written.",
        )
    if paused:
        return (
            ReasonCode.MEMORY_PAUSED,
            "The user has paused memory; nothing new is written until they resume it.",
        )
    return None


def _ailment_alone(candidate: Candidate) -> bool:
    """The learned head's special category came from an everyday ailment alone
    (``everyday_ailments``): the text tells of one, and the head no longer reads the class
    in the text with the ailment's words taken out (a cold beside a medicine is held)."""
    words = learned_words(candidate)
    if not learned_special_vetoed(words):
        return False
    return "special_category" not in learned_detected(learned_scores(without_ailments(words)))


def _no_value_alone(words: str) -> bool:
    """The learned head's credential came from what is no secret alone: a public value (an
    order's or a membership card's number, a fingerprint, a commit: ``public_values``) or a
    credential named with no value (``unvalued_mentions``: "the wifi has no password",
    "PIN: ask Priya", a container's time zone and port). The head no longer reads a
    credential with those taken out, and, where a named credential was taken out, no token
    left could be a secret (a password beside either is refused)."""
    public = without_public_values(words)
    masked = without_unvalued_mentions(public)
    if masked != public and any(looks_like_secret(token) for token in masked.split()):
        return False
    return masked != words and "credential" not in learned_detected(learned_scores(masked))


def learned_words(candidate: Candidate) -> str:
    """What the learned detectors' n-gram heads read of a candidate (step 10b): the
    statement and a slot's text value, never a structured value (a procedure's ids and
    version), which no sentence they learned from looks like."""
    if candidate.value is None or isinstance(candidate.value, str):
        return f"{candidate.statement}\n{candidate.value if candidate.value is not None else ''}"
    return candidate.statement


def decide(
    candidate: Candidate,
    *,
    existing: Sequence[ExistingFact],
    subject: SubjectState,
    tenant: TenantPolicy,
    now: datetime,
    inference_max_confidence: float = 0.8,
    learned_detectors: bool = True,
    embedding: np.ndarray | None = None,
) -> Decision:
    text = f"{candidate.statement}\n{candidate.value if candidate.value is not None else ''}"
    # 1. Deletion requests are always honoured, whatever the consent state.
    if candidate.intent == Intent.FORGET:
        return decide_forget(candidate, existing)

    # 2. Label inference as inference (confidence < 1) and resolve valid time, including
    #    future starts written in words ("next month", "下个月").
    #    Time words are read against when it was said (the cited event), never the
    #    server's clock; a statement without any holds from then.
    said_at = min(candidate.reference_time or now, now)
    time_hint = (
        None
        if candidate.valid_from
        else valid_time_hint(candidate.statement, said_at, slot=bool(candidate.predicate))
    )
    start_stated = candidate.valid_from is not None or (
        time_hint is not None and time_hint.start is not None
    )
    candidate = _normalise(candidate, said_at, inference_max_confidence, time_hint)
    candidate = candidate_replace(candidate, reference_time=said_at)
    if candidate.valid_to is not None and candidate.valid_to <= candidate.valid_from:
        return _reject(ReasonCode.INVALID_VALID_TIME, "valid_to must be after valid_from.")

    # 3. The subject has withdrawn consent or paused memory: nothing new is written.
    refusal = consent_refusal(withdrawn=subject.consent_withdrawn, paused=subject.memory_paused)
    if refusal is not None:
        return _reject(*refusal)

    # --- Every refusal comes before any hold: a held candidate is stored (as a pending
    #     record), so whatever would be refused must be refused first. -----------------

    # 4. Purpose and legal basis must be stated (and the purpose allowed by the tenant).
    if not candidate.purpose.strip():
        return _reject(
            ReasonCode.NO_PURPOSE, "A memory needs a purpose saying what it will be used for."
        )
    #    A purpose is checked against the tenant's list, or — without a list — against the
    #    purposes already in use: recall finds a memory only under its exact purpose, so a
    #    near-miss ("personalisation") would be stored and never found.
    suggestion = tenant.purpose_suggestion(candidate.purpose)
    if not tenant.purpose_allowed(candidate.purpose):
        return _reject(
            ReasonCode.PURPOSE_NOT_ALLOWED,
            f"This tenant does not allow memories for that purpose; did you mean '{suggestion}'?",
            extra={"allowed_purposes": list(tenant.allowed_purposes), "suggestion": suggestion},
        )
    if suggestion is not None:
        return _reject(
            ReasonCode.PURPOSE_MISSPELLED,
            f"No memory uses this purpose, but '{suggestion}' does; memories are found only "
            "under their exact purpose. Send it again with that purpose.",
            extra={"suggestion": suggestion},
        )
    if not candidate.consent_basis:
        return _reject(
            ReasonCode.NO_CONSENT_BASIS,
            "A memory needs a consent basis (e.g. explicit_consent, contract).",
        )

    # 5. A named slot's value must fit the slot (memory/predicates.py): a sentence is
    #    not a city. Never "retry": the value itself must change.
    value_problem = predicates.value_problem(candidate.predicate, candidate.value)
    if value_problem and candidate.intent not in (Intent.RETRACT, Intent.EXPIRE):
        return _reject(
            ReasonCode.INVALID_VALUE,
            f"This value does not fit '{candidate.predicate}' (a short name, not a sentence); "
            "send the value alone.",
            findings=(value_problem,),
        )

    # 6. Secrets are never stored (and therefore never embedded).
    secrets = content_rules.find_secrets(text)
    if secrets:
        return _reject(
            ReasonCode.SECRET_DETECTED,
            "This looks like a password, key or token; secrets are never remembered.",
            findings=secrets,
        )

    # 7. Passing state and one-time codes have no future use.
    transient = content_rules.find_transient(text)
    if transient and candidate.intent == Intent.ASSERT:
        return _reject(
            ReasonCode.TRANSIENT,
            "This describes a passing state or a one-time value; it is not worth remembering.",
            findings=transient,
        )

    # 8. Facts owned by a system of record are always queried live, never copied.
    sor = content_rules.find_system_of_record(text, candidate.predicate)
    if sor:
        return _reject(
            ReasonCode.SYSTEM_OF_RECORD,
            "This belongs to a system of record (orders, balances, …); query it live instead.",
            findings=sor,
        )

    # 9. A claim of user authority must be backed by the cited events (no laundering a tool
    #    result or web page into "the user said so").
    if (
        candidate.assertion_kind in (AssertionKind.USER_EXPLICIT, AssertionKind.USER_CONFIRMED)
        and candidate.source_roles
        and "user" not in candidate.source_roles
    ):
        return _reject(
            ReasonCode.ASSERTION_NOT_SUPPORTED_BY_SOURCE,
            "The candidate claims the user said this, but none of its source events is a user message.",
        )
    #    Citing a tool result or a web page beside the user's message, it is the agent's
    #    reading of that content ("the user agreed to what the page said"): kept as the
    #    agent's inference, i.e. as evidence recall routes to "verify", so text the
    #    detectors miss cannot pass as the user's word. Only the signed-in user's own
    #    confirmation (``user_confirmed_sensitive``, set by the user-facing service) keeps it.
    if (
        candidate.assertion_kind in (AssertionKind.USER_EXPLICIT, AssertionKind.USER_CONFIRMED)
        and not candidate.user_confirmed_sensitive
        and _TOOL_OR_WEB_ROLES.intersection(candidate.source_roles)
    ):
        candidate = candidate_replace(
            candidate,
            assertion_kind=AssertionKind.AGENT_INFERENCE,
            confidence=min(candidate.confidence, inference_max_confidence),
        )

    # 10. Procedural memory is never learned from untrusted content and always reviewed.
    #     Provenance decides, not detection: a procedure a tool or web page wrote, or an
    #     agent's inference citing such an event, is refused even when it reads harmless
    #     and even after a review (a reviewer approves wording, not where it came from).
    if candidate.memory_type == MemoryType.PROCEDURAL:
        if _derives_from_tool_or_web(candidate):
            return _reject(
                ReasonCode.UNTRUSTED_PROCEDURAL,
                "Procedures cannot be learned from web, tool or other external content.",
            )

    # (10b) After the rules' refusals, the learned credential head refuses when it is sure
    #    (its own threshold, chosen so that no ordinary turn reaches it): a credential is
    #    never held, since a held candidate is stored.
    #    The heads are read here, first (a deletion, a consent refusal or a rule's refusal
    #    above never costs them, nor the embedding their cascade may compute), on the
    #    words: the statement and a slot's text value, never a structured value (a
    #    procedure's ids and version), which no sentence they learned from looks like.
    #    Off (ENGRAM_LEARNED_DETECTORS=false): rules only.
    #    Where a head reads an embedding it is the memory's passage embedding, the vector
    #    the index stores: ``embedding`` (the write path computes a request's at once,
    #    memory/services/write_vectors.py), else the bare passage's, computed here.
    found = (
        learned_detected(
            learned_scores(
                learned_words(candidate),
                passage=passage_text(candidate.statement, candidate.value),
                vector=embedding,
            )
        )
        if learned_detectors
        else frozenset()
    )
    if "credential" in found and not _no_value_alone(learned_words(candidate)):
        return _reject(
            ReasonCode.SECRET_DETECTED,
            "This looks like a password, key or token; secrets are never remembered.",
            findings=("learned_credential",),
        )

    # 11. Sensitive personal data the tenant does not remember at all is refused. (A
    #     retraction or an expiry stores nothing new and is never refused for it.)
    sensitive = content_rules.find_sensitive_personal_data(text)
    #     (An everyday ailment, not lasting, is not special-category data: the learned head
    #     reads the topic, the rule in ``everyday_ailments`` says no; a rule's finding stays.)
    if (
        "special_category" in found
        and "special_category" not in sensitive
        and not _ailment_alone(candidate)
    ):
        sensitive = [*sensitive, "special_category_learned"]
    if sensitive:
        candidate = candidate_replace(candidate, sensitivity=Sensitivity.RESTRICTED)
    needs_confirmation = bool(sensitive) and (
        not candidate.user_confirmed_sensitive
        and candidate.intent not in (Intent.RETRACT, Intent.EXPIRE)
    )
    if needs_confirmation and tenant.sensitive_personal_data == "reject":
        return _reject(
            ReasonCode.SENSITIVE_PERSONAL_DATA,
            "This contains sensitive personal data, which this tenant does not remember.",
            findings=sensitive,
        )

    # --- Then the holds: stored, but not used until the user or a reviewer says so. ---

    # 12. Instruction-like text (prompt injection, memory poisoning) goes to review.
    injection = content_rules.find_injection(text)
    if injection and not candidate.review_approved:
        return _quarantine(
            candidate,
            ReasonCode.SUSPECTED_INJECTION,
            "This reads like an instruction to the agent, not a fact; it needs review.",
            findings=injection,
        )

    # 13. Content derived from a tool or web source that reads as an order to the agent,
    #     or that hides its words (look-alike letters, invisible characters inside words,
    #     a link whose text names another domain), is never stored as an active memory:
    #     it is quarantined with the finding as its flag.
    if not candidate.review_approved and _derives_from_tool_or_web(candidate):
        flagged = content_rules.find_instruction_to_agent(text) + content_rules.find_obfuscation(
            text
        )
        if flagged:
            return _quarantine(
                candidate,
                ReasonCode.TOOL_DERIVED_INSTRUCTION,
                "This comes from a tool or web source and reads as an instruction or hides its "
                "words; it needs review.",
                findings=flagged,
            )

    # 14. Every procedural write that adds content — an assertion or an explicit
    #     supersede/correction — needs an approved change request (governance).
    if (
        candidate.memory_type == MemoryType.PROCEDURAL
        and candidate.intent in (Intent.ASSERT, Intent.SUPERSEDE, Intent.CORRECT)
        and not candidate.review_approved
    ):
        return _quarantine(
            candidate,
            ReasonCode.PROCEDURAL_NEEDS_REVIEW,
            "Procedure changes are written only after a reviewer approves them.",
        )

    # 15. Procedures smuggled in as facts or episodes from tool, web or inferred content
    #     go to review too: only reviewed procedural memory may tell the agent how to act.
    if candidate.assertion_kind in (
        AssertionKind.TOOL_CONFIRMED,
        AssertionKind.EXTERNAL_UNTRUSTED,
        AssertionKind.AGENT_INFERENCE,
    ):
        disguised = content_rules.find_procedure_like(candidate.statement)
        if disguised and candidate.intent == Intent.ASSERT:
            return _quarantine(
                candidate,
                ReasonCode.PROCEDURE_LIKE_CONTENT,
                "This prescribes how to act but does not come from the user; procedures need review.",
                findings=disguised,
            )

    # 16. External, unverified content is held for review rather than believed.
    if (
        candidate.assertion_kind == AssertionKind.EXTERNAL_UNTRUSTED
        and candidate.intent == Intent.ASSERT
        and not candidate.review_approved
    ):
        return _quarantine(
            candidate,
            ReasonCode.UNTRUSTED_SOURCE,
            "This comes from external content that nobody has confirmed; it needs review.",
        )

    # 17. A change that is clearly in the future but has no date ("after the wedding",
    #    "等孩子毕业以后") is not applied now: it is held, with no start, until the user
    #    confirms it (then it applies from the confirmation). After the holds for
    #    review (12-16): a tool's order "once the lease starts" goes to a
    #    reviewer, not to the user as a change to confirm. A tool's rule of how a thing
    #    behaves ("when the battery drops below 10%, the device switches to power saving")
    #    is no change to come (``standing_present``; the time rules read a user's).
    from_tool = _derives_from_tool_or_web(candidate)
    if (
        time_hint is not None
        and time_hint.kind == "future_undated"
        and candidate.intent in (Intent.ASSERT, Intent.SUPERSEDE)
        and not candidate.user_confirmed_sensitive
        and not (from_tool and standing_present(candidate.statement, from_tool=True))
    ):
        return _quarantine(
            candidate,
            ReasonCode.FUTURE_NEEDS_CONFIRMATION,
            "This change lies in the future but has no date; it is held until the user confirms it.",
            findings=("future_undated",),
            status=MemoryStatus.PENDING_CONFIRMATION,
        )
    # 18. Sensitive personal data is held for the user's explicit confirmation.
    if needs_confirmation:
        return _quarantine(
            candidate,
            ReasonCode.SENSITIVE_NEEDS_CONFIRMATION,
            "This contains sensitive personal data; it is kept only if the user confirms it.",
            findings=sensitive,
            status=MemoryStatus.PENDING_CONFIRMATION,
        )

    # (18b) The learned heads' holds, after every rule's: an instruction in tool or web
    #     content the instruction rules did not flag (for review, first, as in 12-16), a
    #     future change without a date the time rules did not read, a passing state the
    #     rules did not refuse (held, not refused: a learned detection never refuses a
    #     real memory).
    if (
        "instruction" in found
        and not candidate.review_approved
        and _derives_from_tool_or_web(candidate)
    ):
        return _quarantine(
            candidate,
            ReasonCode.TOOL_DERIVED_INSTRUCTION,
            "This comes from a tool or web source and reads as an instruction; it needs review.",
            findings=("instruction_learned",),
        )
    #     A change that already has a start (dated in step 2) is not held, nor one told as
    #     already done ("switched to the new one", 换到了新公司: ``told_done``), nor a
    #     standing rule or habit in the present (``standing_present``).
    if (
        "future" in found
        and not start_stated
        and not told_done(learned_words(candidate))
        and not standing_present(learned_words(candidate), from_tool=from_tool)
        and candidate.intent in (Intent.ASSERT, Intent.SUPERSEDE)
        and not candidate.user_confirmed_sensitive
    ):
        return _quarantine(
            candidate,
            ReasonCode.FUTURE_NEEDS_CONFIRMATION,
            "This change seems to lie in the future but has no date; it is held until the "
            "user confirms it.",
            findings=("future_learned",),
            status=MemoryStatus.PENDING_CONFIRMATION,
        )
    #     A thing's or a place's state told with no person and no scope of the moment ("the
    #     wifi at the café is really slow") is a lasting observation of it (``thing_state``).
    #     A state given an end (``expires_at``, ``valid_to``) already passes by itself.
    #     An everyday ailment that is already over is a past episode, kept (``everyday_ailments``).
    if (
        "transient" in found
        and not learned_transient_vetoed(learned_words(candidate))
        and not state_of_a_thing(learned_words(candidate))
        and candidate.intent == Intent.ASSERT
        and not candidate.user_confirmed_sensitive
        and candidate.expires_at is None
        and candidate.valid_to is None
    ):
        return _quarantine(
            candidate,
            ReasonCode.TRANSIENT,
            "This seems to describe a passing state; it is kept only if the user confirms it.",
            findings=("transient_learned",),
            status=MemoryStatus.PENDING_CONFIRMATION,
        )

    # 19. Explicit changes to an existing record.
    if candidate.intent in (Intent.RETRACT, Intent.EXPIRE, Intent.CORRECT, Intent.SUPERSEDE):
        return decide_change(candidate, existing, now, start_stated=start_stated)

    # 20. Compare with what is already known in the same scope.
    return decide_assert(candidate, existing)


# --- steps ------------------------------------------------------------------------------


_TOOL_OR_WEB_ROLES = frozenset({"tool", "external", "system"})


def _derives_from_tool_or_web(candidate: Candidate) -> bool:
    """A tool or web page wrote it, or an agent's claim cites such an event."""
    return candidate.assertion_kind in (
        AssertionKind.TOOL_CONFIRMED,
        AssertionKind.EXTERNAL_UNTRUSTED,
    ) or bool(_TOOL_OR_WEB_ROLES.intersection(candidate.source_roles))


def _normalise(
    candidate: Candidate,
    said_at: datetime,
    inference_max_confidence: float,
    time_hint: TimeHint | None = None,
) -> Candidate:
    confidence = candidate.confidence
    if candidate.assertion_kind == AssertionKind.AGENT_INFERENCE:
        confidence = min(confidence, inference_max_confidence)
    named_start = time_hint.start if time_hint and time_hint.kind in ("past", "future") else None
    valid_from = candidate.valid_from or named_start or said_at
    return candidate_replace(
        candidate,
        confidence=confidence,
        valid_from=valid_from,
        cardinality=effective_cardinality(candidate),
    )
