"""Human, translated names for the codes the pages would otherwise show: purposes, topics
(namespace paths), the write policy's reason codes, audit actions and operations (their
texts are the labels of ``core.codes``), and the stores a deletion receipt lists. Unknown codes get a readable fallback ("travel_plans" ->
"Travel plans"), never the raw code; ids are never labelled here (they belong behind a
"technical details" disclosure)."""

from __future__ import annotations

from django.utils.text import capfirst
from django.utils.translation import gettext
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
    "recall_vector_cache": _("search vectors kept in memory for quick recall"),
    "exact_text": _("a search for the deleted text itself"),
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
    """'travel/hotels' -> 'Travel › Hotels'."""
    if not path:
        return "—"
    return " › ".join(str(TOPIC_WORDS.get(part) or words(part)) for part in path.split("/"))


def reason_label(code: str | None) -> str:
    if not code:
        return ""
    return str(ReasonCode(code).label) if code in ReasonCode.values else words(code)


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
