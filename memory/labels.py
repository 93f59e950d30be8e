"""Human, translated names for the codes the pages would otherwise show: purposes, topics
(namespace paths), the write policy's reason codes, audit actions and operations (their
texts are the labels of ``core.codes``), and the stores a deletion receipt lists. Unknown codes get a readable fallback ("travel_plans" ->
"Travel plans"), never the raw code; ids are never labelled here (they belong behind a
"technical details" disclosure)."""

from __future__ import annotations

from django.utils.text import capfirst
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from core.codes import AuditAction, Operation, ReasonCode

PURPOSES = {
    "personalization": _("Personalising answers"),
    "task_continuity": _("Continuing tasks where you left off"),
    "support": _("Customer support"),
    "agent_procedure": _("Agent procedures (runbooks and skills)"),
}

# Topic path segments people see often; anything else is shown as words.
TOPIC_WORDS = {
    "personal": _("Personal"),
    "preferences": _("Preferences"),
    "work": _("Work"),
    "travel": _("Travel"),
    "food": _("Food"),
    "events": _("Events"),
    "health": _("Health"),
    "family": _("Family"),
    "home": _("Home"),
    "hotels": _("Hotels"),
    "finance": _("Finance"),
    "projects": _("Projects"),
    "procedures": _("Procedures"),
    "runbooks": _("Runbooks"),
    "profile": _("Profile"),
    "consolidated": _("Summaries"),
    "cases": _("Cases"),
    "support": _("Support"),
    "coding": _("Coding"),
    "music": _("Music"),
    "communication": _("Communication"),
    # Written by Engram itself (extraction, import) and by the demo's agent.
    "assistant": _("Assistant"),
    "style": _("Style"),
    "calendar": _("Calendar"),
    "flights": _("Flights"),
    "imported": _("Imported"),
    "hobbies": _("Hobbies"),
    "reports": _("Reports"),
}

STORES = {
    "record_versions": _("memories and their earlier versions"),
    "re_derived_records": _("memories that keep other sources (only the link was removed)"),
    "summaries": _("conversation summaries"),
    "cases": _("cases learned from experiences"),
    "decay_scores": _("forgetting scores"),
    "dead_letters": _("failed background jobs"),
    "idempotency_answers": _("answers kept for repeated requests"),
    "memory_source_links": _("links between memories and their sources"),
    "source_events": _("conversation snippets and tool results"),
    "embeddings": _("search vectors"),
    "lexical_trigram_index": _("word search index"),
    "conversation_context": _("other memories' search context from the same conversation"),
    "recall_traces": _("records of which agent used what"),
    # Verified in the process that ran the deletion only; other processes never rank a
    # deleted vector (each recall checks the scope's rows) and drop it at their next
    # recall for the user, or within VectorCache.bound() (memory.recall.accel.vector_cache).
    "recall_vector_cache": _(
        "search vectors in this worker's memory (other workers never use a deleted one "
        "and forget it within two minutes)"
    ),
    "exact_text": _("a search for the deleted text itself"),
    # memory/working/ and closing a thread (docs/working-memory.md).
    "session_summaries": _("session summaries that quoted the deleted conversation"),
    "working_memory": _("working memory of current tasks"),
    "thread_closures": _("answers kept for closed conversations"),
}

ACTOR_TYPES = {
    "user": _("person"),
    "agent": _("agent"),
    "system": _("Engram"),
}


def words(code: str) -> str:
    """'travel_plans' / 'travel-plans' -> 'Travel plans'."""
    return capfirst(code.replace("_", " ").replace("-", " ").strip()) or "—"


def purpose_label(code: str | None) -> str:
    if not code:
        return "—"
    return str(PURPOSES.get(code) or words(code))


def topic_label(path: str | None) -> str:
    """'travel/hotels' -> 'Travel › Hotels', in the page's language. A part no catalogue
    names (an agent's own topic, "work/employer") is shown as it was written, in quotes:
    it is a name, not words of the interface, so it is never half translated into a
    word-by-word guess ("工作 › Employer")."""
    if not path:
        return "—"
    parts = [part for part in path.split("/") if part] or [path]
    return " › ".join(
        str(TOPIC_WORDS[part]) if part in TOPIC_WORDS else gettext("“%(name)s”") % {"name": part}
        for part in parts
    )


def reason_label(code: str | None) -> str:
    if not code:
        return ""
    return str(ReasonCode(code).label) if code in ReasonCode.values else words(code)


# The reason texts (``ReasonCode`` labels) speak to the user whose memory it is ("you said",
# "your organisation"). Reviewers and admins read the same codes about someone else; these
# say it in the third person. tests/governance/test_quarantine_words.py fails for any code
# whose label addresses "you" without a version here.
REVIEWER_REASONS = {
    ReasonCode.AUTHORITY_UPGRADE: _("The user confirmed something an agent had only inferred."),
    ReasonCode.HIGHER_AUTHORITY: _("The user's statement replaced a weaker source."),
    ReasonCode.CORRECTION: _("The user corrected this; the old version is kept in history."),
    ReasonCode.DELETION_REQUESTED: _("Deleted at the user's request."),
    ReasonCode.MEMORY_PAUSED: _("The user paused memory, so nothing new is written."),
    ReasonCode.CONSENT_WITHDRAWN: _("The user withdrew consent to memory."),
    ReasonCode.PURPOSE_NOT_ALLOWED: _("The organisation's policy does not allow this purpose."),
    ReasonCode.SENSITIVE_PERSONAL_DATA: _(
        "Sensitive personal data, which the organisation's policy does not keep."
    ),
    ReasonCode.SENSITIVE_NEEDS_CONFIRMATION: _(
        "Sensitive personal data: kept only if the user confirms it on their own page."
    ),
    ReasonCode.NOT_PENDING: _("This memory is not waiting for the user's confirmation."),
    ReasonCode.CONFIRMED_BY_USER: _("The user confirmed this."),
    ReasonCode.ARCHIVED_BY_USER: _("The user archived this; agents do not use it."),
    ReasonCode.RESTORED_BY_USER: _("The user brought this back from the archive."),
    ReasonCode.DELETION_PENDING: _("The user deleted this; it is erased in a few seconds."),
    ReasonCode.PROCEDURE_LIKE_CONTENT: _(
        "This says how the assistant should act but did not come from the user."
    ),
}

# Where a memory comes from, said about the user (``AssertionKind`` labels say "you").
REVIEWER_SOURCES = {
    "user_explicit": _("the user said this"),
    "user_confirmed": _("the user confirmed this"),
    "tool_confirmed": _("confirmed by a tool or system of record"),
    "agent_inference": _("an agent inferred this"),
    "external_untrusted": _("from external content"),
}


def reviewer_reason_label(code: str | None) -> str:
    """A reason as a reviewer reads it: about the user, not addressed to them."""
    if code in REVIEWER_REASONS:
        return str(REVIEWER_REASONS[code])
    return reason_label(code)


def reviewer_source_label(kind: str | None) -> str:
    return str(REVIEWER_SOURCES.get(kind or "") or words(kind or ""))


def operation_label(code: str | None) -> str:
    if not code:
        return ""
    upper = code.upper()
    return str(Operation(upper).label) if upper in Operation.values else words(code.lower())


def action_label(code: str | None) -> str:
    if not code:
        return ""
    return (
        str(AuditAction(code).label)
        if code in AuditAction.values
        else words(code.replace(".", " "))
    )


def store_label(code: str) -> str:
    return str(STORES.get(code) or words(code))


def actor_type_label(code: str | None) -> str:
    return str(ACTOR_TYPES.get(code or "") or gettext("unknown"))


def receipt_sentence(receipt: dict[str, int]) -> str:
    """A deletion receipt as one translated sentence, "80 items removed from 5 places."
    (each language's own word order and punctuation: "已从 5 个位置删除 80 项。")."""
    removed = sum(receipt.values())
    places = sum(1 for n in receipt.values() if n)
    items = ngettext("%(n)d item", "%(n)d items", removed) % {"n": removed}
    where = ngettext("%(n)d place", "%(n)d places", places) % {"n": places}
    return gettext("%(items)s removed from %(places)s.") % {"items": items, "places": where}
