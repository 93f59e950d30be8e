"""Human, translated names for the codes the pages would otherwise show: purposes, topics
(namespace paths), the write policy's reason codes, audit actions and operations, and the
stores a deletion receipt lists. Unknown codes get a readable fallback ("travel_plans" ->
"Travel plans"), never the raw code; ids are never labelled here (they belong behind a
"technical details" disclosure)."""

from __future__ import annotations

from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

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

OPERATIONS = {
    "ADD": _("Added"),
    "CONFIRM": _("Confirmed"),
    "SUPERSEDE": _("Replaced"),
    "RETRACT": _("Marked wrong"),
    "EXPIRE": _("Expired"),
    "DELETE": _("Deleted"),
    "REJECT": _("Refused"),
    "QUARANTINE": _("Held for review"),
}

ACTIONS = {
    "memory.write": _("Memory write"),
    "memory.read": _("Memory recall"),
    "memory.erase": _("Memory erased"),
    "memory.expire": _("Memory expired"),
    "memory.archive": _("Memory archived"),
    "memory.consolidate": _("Memories consolidated"),
    "memory.confirm": _("Sensitive memory confirmed by the user"),
    "memory.recall_feedback": _("Agent reported which memories it used"),
    "event.append": _("Conversation event received"),
    "event.erase": _("Conversation event erased"),
    "event.retention": _("Old conversation events removed"),
    "deletion.request": _("Deletion requested"),
    "deletion.complete": _("Deletion finished"),
    "procedure.create": _("Procedure created"),
    "procedure.propose": _("Procedure change proposed"),
    "procedure.approve": _("Procedure change approved"),
    "procedure.reject": _("Procedure change rejected"),
    "procedure.rebase": _("Procedure change rebased"),
    "procedure.stale": _("Procedure change went stale"),
    "quarantine.resolve": _("Held memory resolved"),
    "subject.memory_paused": _("User paused memory"),
    "subject.memory_resumed": _("User resumed memory"),
    "subject.consent_withdrawn": _("User withdrew consent"),
    "subject.consent_given": _("User gave consent again"),
    "subject.export": _("User exported their memories"),
    "subject_token.issue": _("User token issued"),
    "apikey.issue": _("API key issued"),
    "apikey.rotate": _("API key rotated"),
    "apikey.revoke": _("API key revoked"),
    "agent.create": _("Agent created"),
    "agent.deactivate": _("Agent deactivated"),
    "membership.set": _("Member role set"),
    "membership.remove": _("Member removed"),
    "user.create": _("User account created"),
    "review.grant": _("Review right granted"),
    "review.revoke": _("Review right revoked"),
    "tenant.create": _("Organisation created"),
    "tenant.policy_update": _("Policy changed"),
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
    "recall_traces": _("records of which agent used what"),
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
    from memory.services.user_memory import REASON_TEXT

    text = REASON_TEXT.get(code)
    return str(text) if text is not None else words(code)


def operation_label(code: str | None) -> str:
    if not code:
        return ""
    return str(OPERATIONS.get(code.upper()) or words(code.lower()))


def action_label(code: str | None) -> str:
    if not code:
        return ""
    return str(ACTIONS.get(code) or words(code.replace(".", " ")))


def store_label(code: str) -> str:
    return str(STORES.get(code) or words(code))


def actor_type_label(code: str | None) -> str:
    return str(ACTOR_TYPES.get(code or "") or gettext("unknown"))
