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
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.models import Agent, Membership
from core.codes import AuditAction, Operation
from governance import policies, selectors
from governance.forms import (
    RESOLUTIONS,
    AuditFilterForm,
    ResolveForm,
)
from governance.models import ProceduralDocument
from governance.services import quarantine as quarantine_svc
from governance.services.errors import GovernanceError

from .base import Console, _done, _error, _page, console_view

# --- quarantine -------------------------------------------------------------------------


@require_GET
@console_view(policies.can_resolve_quarantine)
def quarantine_list(request: HttpRequest, console: Console) -> HttpResponse:
    held = Paginator(selectors.quarantine_list_for(access=console.access), 50).get_page(
        request.GET.get("page")
    )
    rows = [
        {
            "record": r,
            "actions": policies.quarantine_actions(
                status=r.status,
                reason_code=r.status_reason,
                has_conflict=r.conflicts_with_id is not None,
            ),
            "show_text": policies.can_see_held_text(status=r.status, sensitivity=r.sensitivity),
        }
        for r in held
    ]
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
        _error(request, e)
        if request.htmx:
            return _page(
                request,
                console,
                "governance/quarantine_list.html#resolved",
                {"error": e, "record_id": record_id},
                e.status,
            )
        return redirect(url)
    if request.htmx:
        return _page(
            request,
            console,
            "governance/quarantine_list.html#resolved",
            {"result": result, "record_id": record_id},
        )
    label = dict(RESOLUTIONS).get(result.resolution, _("done"))
    return _done(request, url, _("Resolved: %(r)s.") % {"r": label})


# --- audit ------------------------------------------------------------------------------

AUDIT_COLUMNS = (
    "occurred_at",
    "actor_type",
    "actor_id",
    "action",
    "operation",
    "reason_code",
    "subject_id",
    "record_id",
    "event_id",
    "request_id",
    "extra",
)


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
    actions = sorted(
        ((code, str(label)) for code, label in AuditAction.choices), key=lambda r: r[1]
    )
    return {
        "actors": [
            *((f"user:{m.user_id}", m.user.username) for m in members),
            *((f"agent:{a.id}", _("agent “%(name)s”") % {"name": a.name}) for a in agents),
        ],
        "actions": actions,
        "operations": [(code, str(label)) for code, label in Operation.choices],
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


@require_GET
@console_view(policies.can_view_audit)
def audit_csv(request: HttpRequest, console: Console) -> HttpResponse:
    """The filtered log as CSV: ids, codes and counts only (audit rows never hold text)."""
    form, qs = _audit_rows(console, request)
    if qs is None:
        return HttpResponse(
            _("Invalid filter: %(errors)s")
            % {"errors": " ".join(str(m) for ms in form.errors.values() for m in ms)},
            status=400,
            content_type="text/plain; charset=utf-8",
        )
    rows = list(qs.values_list(*AUDIT_COLUMNS)[:100_000])  # read inside the tenant context
    writer = csv.writer(_Echo())
    lines = [writer.writerow(AUDIT_COLUMNS)]
    for row in rows:
        values = list(row)
        values[0] = values[0].isoformat()
        values[-1] = json.dumps(values[-1], sort_keys=True, ensure_ascii=False)
        lines.append(writer.writerow(["" if v is None else v for v in values]))
    response = StreamingHttpResponse(iter(lines), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="audit-{console.tenant.slug}.csv"'
    return response
