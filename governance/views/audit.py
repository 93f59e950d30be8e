"""The quarantine queue and the audit log (page and CSV export)."""

from __future__ import annotations

import csv
import json
import uuid

from django.contrib import messages
from django.contrib.auth.models import User
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from accounts.models import Agent, Membership
from core.codes import AuditAction
from governance import policies, selectors
from governance.audit_groups import CHOICES as AUDIT_GROUPS
from governance.forms import AuditFilterForm, ResolveForm
from governance.models import ProceduralDocument
from governance.services import quarantine as quarantine_svc
from governance.services.errors import GovernanceError

from .base import Console, _done, _error, _page, console_view

# --- quarantine -------------------------------------------------------------------------


def _held_row(record) -> dict:
    return {
        "record": record,
        "actions": policies.quarantine_actions(
            status=record.status,
            reason_code=record.status_reason,
            has_conflict=record.conflicts_with_id is not None,
        ),
        "show_text": policies.can_see_held_text(
            status=record.status, sensitivity=record.sensitivity
        ),
    }


# What the reviewer did, in words, for the card that stays in place after the action.
RESOLUTION_OUTCOMES = {
    "accept": gettext_lazy("Accepted: it is remembered now and agents may use it."),
    "accept_edited": gettext_lazy("Accepted with your edit: the edited text is remembered now."),
    "reject": gettext_lazy(
        "Rejected: it is not remembered. It stays in the audit log as rejected."
    ),
    "keep_existing": gettext_lazy(
        "Kept the existing value (A); the new one (B) is not remembered."
    ),
    "keep_new": gettext_lazy(
        "The new value (B) replaced the existing one (A), which stays in history."
    ),
    "keep_both": gettext_lazy("Both kept: the new value under its narrower topic."),
}


@require_GET
@console_view(policies.can_resolve_quarantine)
def quarantine_list(request: HttpRequest, console: Console) -> HttpResponse:
    held = Paginator(selectors.quarantine_list_for(access=console.access), 50).get_page(
        request.GET.get("page")
    )
    rows = [_held_row(r) for r in held]
    return _page(request, console, "governance/quarantine_list.html", {"page": held, "rows": rows})


@require_POST
@console_view(policies.can_resolve_quarantine)
def quarantine_resolve(
    request: HttpRequest, console: Console, record_id: uuid.UUID
) -> HttpResponse:
    form = ResolveForm(request.POST)
    url = reverse("governance:quarantine")
    if not form.is_valid():
        messages.error(request, _("Pick a valid action."))
        return _done(request, url)
    held = selectors.quarantine_get(access=console.access, record_id=record_id)
    try:
        result = quarantine_svc.quarantine_resolve(
            actor=console.actor,
            user=request.user,
            record_id=record_id,
            request_id=console.request_id,
            **form.cleaned_data,
        )
    except GovernanceError as e:
        if e.status in (403, 404):
            raise
        if request.htmx and held is not None:
            return _page(
                request,
                console,
                "governance/quarantine_list.html#held_card",
                {"row": _held_row(held), "error": e},
                e.status,
            )
        _error(request, e)
        return redirect(url)
    outcome = RESOLUTION_OUTCOMES.get(result.resolution, _("Resolved."))
    if request.htmx and held is not None:
        # The card stays where it was, now saying what happened and showing the final
        # status, so the reviewer sees the result of each action.
        from memory.models import MemoryRecord

        held = MemoryRecord.objects.select_related("subject", "created_by_agent").get(pk=held.pk)
        return _page(
            request,
            console,
            "governance/quarantine_list.html#held_card",
            {
                "row": {"record": held, "show_text": _held_row(held)["show_text"]},
                "result": result,
                "outcome": outcome,
            },
        )
    return _done(request, url, str(outcome))


# --- audit ------------------------------------------------------------------------------

# The CSV, for people first: what the page shows (when, who, what, why, concerning, the
# details in words), then the ids in the last columns for anyone joining it with data.
AUDIT_CSV_COLUMNS = (
    gettext_lazy("When"),
    gettext_lazy("Who"),
    gettext_lazy("What"),
    gettext_lazy("Why"),
    gettext_lazy("Concerning"),
    gettext_lazy("Details"),
    gettext_lazy("Actor type"),
    gettext_lazy("Actor id"),
    gettext_lazy("Subject id"),
    gettext_lazy("Memory id"),
    gettext_lazy("Event id"),
    gettext_lazy("Request id"),
)
AUDIT_CSV_MAX_ROWS = 100_000


def _audit_rows(console: Console, request: HttpRequest):
    """The filter form and the filtered events; ``None`` when a filter is invalid (the
    page then says what to fix instead of silently showing everything)."""
    form = AuditFilterForm(request.GET or None)
    if request.GET and not form.is_valid():
        return form, None
    filters = form.cleaned_data if form.is_bound else {}
    qs = selectors.audit_list_for(
        access=console.access,
        actor=filters.get("actor") or "",
        subject_id=filters.get("subject"),
        record_id=filters.get("record"),
        operation=filters.get("operation") or "",
        what=filters.get("what") or "",
        since=filters.get("since"),
        until=filters.get("until"),
    )
    return form, qs


def _uuids(raw: set[str]) -> list[uuid.UUID]:
    out = []
    for value in raw:
        try:
            out.append(uuid.UUID(value))
        except ValueError:
            pass
    return out


def _audit_names(console: Console, events: list) -> dict:
    """Names for the ids a page of audit events mentions: users, agents, procedures."""
    user_ids = {e.actor_id for e in events if e.actor_type == "user"}
    agent_ids: set[str] = set()
    document_ids: set[str] = set()
    for e in events:
        if e.actor_type == "agent":
            agent_ids.add(e.actor_id)
        extra = e.extra if isinstance(e.extra, dict) else {}
        if extra.get("agent_id"):
            agent_ids.add(str(extra["agent_id"]))
        if extra.get("document_id"):
            document_ids.add(str(extra["document_id"]))
        if extra.get("user_id"):
            user_ids.add(str(extra["user_id"]))
    users = User.objects.filter(pk__in=[int(u) for u in user_ids if u.isdigit()])
    agents = Agent.objects.filter(tenant_id=console.tenant.id, pk__in=_uuids(agent_ids))
    documents = ProceduralDocument.objects.filter(
        tenant_id=console.tenant.id, pk__in=_uuids(document_ids)
    )
    return {
        "users": {str(pk): name for pk, name in users.values_list("pk", "username")},
        "agents": {str(pk): name for pk, name in agents.values_list("pk", "name")},
        "documents": {
            str(pk): (slug, title)
            for pk, slug, title in documents.values_list("pk", "slug", "title")
        },
    }


def _audit_row(e, names: dict) -> dict:
    """One audit event in words: who, what, why, a link to what it concerns, and the
    ids and extra fields for the technical-details disclosure."""
    from memory import labels

    extra = e.extra if isinstance(e.extra, dict) else {}
    if e.actor_type == "user":
        who = names["users"].get(e.actor_id) or _("a former user")
    elif e.actor_type == "agent":
        agent = names["agents"].get(e.actor_id) or _("(deleted agent)")
        who = _("agent “%(name)s”") % {"name": agent}
    else:
        who = _("Engram")
    link = None
    if extra.get("change_request_id"):
        url = reverse("governance:change", args=[extra["change_request_id"]])
        link = (url, _("Change request"))
    elif extra.get("deletion_request_id"):
        link = (f"{reverse('ops')}#deletion-{extra['deletion_request_id']}", _("Deletion receipt"))
    elif extra.get("document_id") and str(extra["document_id"]) in names["documents"]:
        slug, title = names["documents"][str(extra["document_id"])]
        link = (reverse("governance:procedure", args=[slug]), title)
    elif e.record_id:
        link = (f"{reverse('governance:audit')}?record={e.record_id}", _("This memory's events"))
    what = labels.action_label(e.action)
    if e.operation and e.action == AuditAction.MEMORY_WRITE:
        what = f"{what}: {labels.operation_label(e.operation)}"
    technical = [
        (key, value)
        for key, value in (
            ("action", e.action),
            ("operation", e.operation),
            ("reason", e.reason_code),
            ("actor", f"{e.actor_type}:{e.actor_id}"),
            ("subject", e.subject_id),
            ("record", e.record_id),
            ("event", e.event_id),
            ("request", e.request_id),
            *sorted((str(k), json.dumps(v, ensure_ascii=False)) for k, v in extra.items()),
        )
        if value not in (None, "")
    ]
    return {
        "event": e,
        "who": who,
        "what": what,
        "why": labels.reason_label(e.reason_code) if e.reason_code else "",
        "link": link,
        "technical": technical,
    }


def _audit_pickers(console: Console) -> dict:
    members = (
        Membership.objects.filter(tenant_id=console.tenant.id)
        .select_related("user")
        .order_by("user__username")
    )
    agents = Agent.objects.filter(tenant_id=console.tenant.id).order_by("name")
    return {
        "actors": [
            *((f"user:{m.user_id}", m.user.username) for m in members),
            *((f"agent:{a.id}", _("agent “%(name)s”") % {"name": a.name}) for a in agents),
        ],
        "groups": [(key, str(label)) for key, label in AUDIT_GROUPS],
    }


@require_GET
@console_view(policies.can_view_audit)
def audit_list(request: HttpRequest, console: Console) -> HttpResponse:
    form, qs = _audit_rows(console, request)
    page = Paginator(qs if qs is not None else [], 50).get_page(request.GET.get("page"))
    events = list(page)
    names = _audit_names(console, events)
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "form": form,
        "page": page,
        "rows": [_audit_row(e, names) for e in events],
        "invalid": qs is None,
        "query": query.urlencode(),
        **_audit_pickers(console),
    }
    template = "governance/audit_list.html#table" if request.htmx else "governance/audit_list.html"
    return _page(request, console, template, context, 400 if qs is None else 200)


class _Echo:
    def write(self, value: str) -> str:
        return value


def _details(extra: dict) -> str:
    """An event's extra fields as "key: value; …" (lists joined by commas), not JSON."""
    parts = []
    for key, value in sorted(extra.items()):
        if value in (None, "", [], {}):
            continue
        if isinstance(value, list):
            value = ", ".join(str(v) for v in value)
        elif isinstance(value, dict):
            value = ", ".join(f"{k}={v}" for k, v in sorted(value.items()))
        parts.append(f"{key.replace('_', ' ')}: {value}")
    return "; ".join(parts)


def _csv_text(value) -> str:
    text = "" if value is None else str(value)
    # A spreadsheet would run a cell starting with = + - @ as a formula (CSV injection).
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


@require_GET
@console_view(policies.can_view_audit)
def audit_csv(request: HttpRequest, console: Console) -> HttpResponse:
    """The filtered log as a spreadsheet: the page's words first (names, actions and
    reasons as text, details as "key: value"), ids last. Audit rows never hold memory
    text, so neither does this."""
    form, qs = _audit_rows(console, request)
    if qs is None:
        return HttpResponse(
            _("Invalid filter: %(errors)s")
            % {"errors": " ".join(str(m) for ms in form.errors.values() for m in ms)},
            status=400,
            content_type="text/plain; charset=utf-8",
        )
    events = list(qs[:AUDIT_CSV_MAX_ROWS])  # read inside the tenant context
    names = _audit_names(console, events)
    writer = csv.writer(_Echo())
    lines = ["\ufeff" + writer.writerow([str(c) for c in AUDIT_CSV_COLUMNS])]
    for e in events:
        row = _audit_row(e, names)
        lines.append(
            writer.writerow(
                [
                    _csv_text(v)
                    for v in (
                        timezone.localtime(e.occurred_at).strftime("%Y-%m-%d %H:%M:%S"),
                        row["who"],
                        row["what"],
                        row["why"],
                        row["link"][1] if row["link"] else "",
                        _details(e.extra if isinstance(e.extra, dict) else {}),
                        labels_actor(e.actor_type),
                        e.actor_id,
                        e.subject_id,
                        e.record_id,
                        e.event_id,
                        e.request_id,
                    )
                ]
            )
        )
    response = StreamingHttpResponse(iter(lines), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="audit-{console.tenant.slug}.csv"'
    return response


def labels_actor(kind: str) -> str:
    from memory.labels import actor_type_label

    return actor_type_label(kind)
