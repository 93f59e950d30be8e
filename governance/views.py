"""The governance console (``/console/``): adapters only — resolve the tenant and the
user's rights, parse a form, call one service or selector, render.

Tenant: a console page acts in one tenant the user is a member of. With one membership
that is the tenant; with several, the one chosen on the console home (stored in the
session under ``engram.tenant_id``, shared with the request middleware), else the oldest membership. A signed-in user
without any membership gets a 404 on every console URL, as does a URL naming another
tenant's object; a member asking for a page or action their role does not allow gets a
403 (see governance.policies for the matrix).

HTMX: forms post normally (post/redirect/get) and work without JavaScript; with htmx the
same view returns the page's fragment (``page.html#fragment``).
"""

from __future__ import annotations

import csv
import functools
import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts.models import Agent, ApiKey, Membership, Role, Tenant
from config.tenancy import ACTIVE_TENANT_SESSION_KEY, MembershipInfo, tenant_context
from governance import diffs, policies, selectors
from governance.forms import (
    RESOLUTIONS,
    AgentForm,
    AuditFilterForm,
    DecisionForm,
    DocumentForm,
    GrantForm,
    KeyIssueForm,
    KeyRotateForm,
    MemberForm,
    PolicyForm,
    ProposeForm,
    ResolveForm,
    RollbackForm,
    UserCreateForm,
)
from governance.models import ChangeRequestStatus, ProceduralDocument, ProposalSource
from governance.policies import ConsoleAccess
from governance.services import Actor
from governance.services import admin_console as admin_svc
from governance.services import procedures as proc_svc
from governance.services import quarantine as quarantine_svc
from governance.services.errors import GovernanceError

SESSION_TENANT = ACTIVE_TENANT_SESSION_KEY


@dataclass(frozen=True)
class Console:
    tenant: Tenant
    access: ConsoleAccess
    actor: Actor
    request_id: str
    memberships: list[MembershipInfo]


def _membership_for(request: HttpRequest) -> tuple[MembershipInfo, list[MembershipInfo]]:
    # Membership is looked up by user before any tenant is known (it is what chooses it).
    memberships = list(selectors.memberships_for_user(user=request.user))
    if not memberships:
        raise Http404
    chosen = request.session.get(SESSION_TENANT)
    membership = next((m for m in memberships if str(m.tenant_id) == chosen), memberships[0])
    return membership, memberships


def console_view(check: Callable[[ConsoleAccess], bool] | None = None):
    """Sign-in required; resolves the tenant; runs the view inside its tenant context;
    403 when ``check`` refuses; GovernanceError 403/404 become real 403/404 responses."""

    def decorator(view):
        @login_required
        @functools.wraps(view)
        def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            membership, memberships = _membership_for(request)
            with tenant_context(membership.tenant_id):
                access = selectors.console_access_get(
                    user=request.user, tenant_id=membership.tenant_id
                )
                if access is None:
                    raise Http404
                console = Console(
                    tenant=Tenant.objects.get(pk=membership.tenant_id),
                    access=access,
                    actor=Actor.user(request.user.pk, membership.tenant_id),
                    request_id=request.headers.get("X-Request-Id", "")[:64] or uuid.uuid4().hex,
                    memberships=memberships,
                )
                if check is not None and not check(access):
                    raise PermissionDenied
                try:
                    return view(request, console, *args, **kwargs)
                except GovernanceError as e:
                    if e.status == 404:
                        raise Http404 from None
                    if e.status == 403:
                        raise PermissionDenied(e.message) from None
                    return _page(request, console, "governance/error.html", {"error": e}, e.status)

        return wrapper

    return decorator


def _page(request: HttpRequest, console: Console, template: str, context: dict, status: int = 200):
    context = {"console": console, "access": console.access, "tenant": console.tenant, **context}
    return render(request, template, context, status=status)


def _done(request: HttpRequest, url: str, message: str = "") -> HttpResponse:
    """Post/redirect/get, or an htmx client redirect."""
    if message:
        messages.success(request, message)
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


def _error(request: HttpRequest, e: GovernanceError) -> None:
    messages.error(request, str(e.message))


# --- home and tenant choice -------------------------------------------------------------


@require_GET
@console_view()
def home(request: HttpRequest, console: Console) -> HttpResponse:
    access = console.access
    counts = {
        "open_changes": selectors.change_request_list_for(access=access).count(),
        "held": selectors.quarantine_list_for(access=access).count()
        if policies.can_resolve_quarantine(access)
        else None,
        "procedures": selectors.procedure_list_for(access=access).count(),
    }
    role_label = Role(access.role).label if access.role in Role.values else _("member")
    context = {"counts": counts, "role_label": role_label}
    if policies.can_view_audit(access):
        context["charts"] = console_charts(access)
    return _page(request, console, "governance/home.html", context)


def console_charts(access: ConsoleAccess) -> list:
    """The console home's pictures: write decisions, held queues, recall volume,
    abstention and latency p50/p95, each over the last 14 days (server-side SVG, numbers
    in a table)."""
    from memory import charts, labels

    writes = selectors.write_decisions_by_day(access=access)
    queues = selectors.held_queues_by_day(access=access)
    recalls = selectors.recalls_by_day(access=access)
    return [
        charts.stacked_bars(
            "write-decisions",
            _("Write decisions per day"),
            writes["days"],
            {labels.operation_label(op): n for op, n in sorted(writes["operations"].items())},
        ),
        charts.bars(
            "write-reasons",
            _("Why: the most common reasons (14 days)"),
            [(labels.reason_label(code), n) for code, n in writes["reasons"]],
        ),
        charts.lines(
            "held-queues",
            _("Held for review, at the end of each day"),
            queues["days"],
            {_("Quarantine"): queues["quarantine"], _("Conflicts"): queues["conflicts"]},
        ),
        charts.stacked_bars(
            "recall-volume",
            _("Recall requests per day"),
            recalls["days"],
            {_("Requests"): recalls["volume"]},
        ),
        charts.lines(
            "recall-abstention",
            _("Share of recalls that found nothing"),
            recalls["days"],
            {_("Abstention"): recalls["abstention"]},
            unit="%",
        ),
        charts.lines(
            "recall-latency",
            _("Recall latency per day, in milliseconds"),
            recalls["days"],
            {
                _("Median (p50)"): recalls["latency_p50"],
                _("95th percentile (p95)"): recalls["latency_p95"],
            },
            note=_("Older requests, recorded before latency was measured, are left out."),
        ),
    ]


@require_POST
@login_required
def tenant_switch(request: HttpRequest) -> HttpResponse:
    wanted = request.POST.get("tenant", "")
    if not any(
        str(m.tenant_id) == wanted for m in selectors.memberships_for_user(user=request.user)
    ):
        raise Http404
    request.session[SESSION_TENANT] = wanted
    return _done(request, reverse("governance:home"))


# --- procedures -------------------------------------------------------------------------


def _document(console: Console, slug: str) -> ProceduralDocument:
    document = selectors.procedure_get(tenant_id=console.tenant.id, slug=slug)
    if document is None:
        raise Http404
    return document


@require_http_methods(["GET", "POST"])
@console_view()
def procedure_list(request: HttpRequest, console: Console) -> HttpResponse:
    form = DocumentForm(request.POST or None)
    if request.method == "POST":
        if not policies.can_administer_tenant(console.access):
            raise PermissionDenied
        if form.is_valid():
            try:
                document = proc_svc.procedure_document_create(
                    actor=console.actor, user=request.user, **form.cleaned_data
                )
                return _done(
                    request,
                    reverse("governance:procedure", args=[document.slug]),
                    _("Procedure created. Propose its first version below."),
                )
            except GovernanceError as e:
                form.add_error(None, e.message)
    documents = selectors.procedure_list_for(access=console.access)
    status = 400 if request.method == "POST" else 200
    return _page(
        request,
        console,
        "governance/procedure_list.html",
        {"documents": documents, "form": form},
        status,
    )


@require_http_methods(["GET", "POST"])
@console_view()
def procedure_detail(request: HttpRequest, console: Console, slug: str) -> HttpResponse:
    document = _document(console, slug)
    form = ProposeForm(request.POST or None, initial={"base_version": document.current_version})
    if request.method == "POST":
        if form.is_valid():
            try:
                cr = proc_svc.change_request_propose(
                    actor=console.actor,
                    document=document,
                    proposed_text=form.cleaned_data["proposed_text"],
                    base_version=form.cleaned_data["base_version"],
                    rationale=form.cleaned_data["rationale"],
                    source=ProposalSource.USER,
                    proposer_user=request.user,
                    request_id=console.request_id,
                )
                return _done(
                    request,
                    reverse("governance:change", args=[cr.id]),
                    _("Change proposed. A reviewer will look at it."),
                )
            except GovernanceError as e:
                form.add_error(None, e.message)
    versions = list(selectors.procedure_versions_for(document=document))
    current = versions[0] if versions else None
    if request.method == "GET" and current is not None:
        form.initial["proposed_text"] = current.text
    changes = document.change_requests.select_related("proposer_user", "proposer_agent").order_by(
        "-created_at"
    )[:50]
    return _page(
        request,
        console,
        "governance/procedure_detail.html",
        {
            "document": document,
            "current": current,
            "versions": versions,
            "changes": changes,
            "form": form,
            "may_review": policies.can_review_document(console.access, document.id),
        },
        400 if request.method == "POST" else 200,
    )


@require_POST
@console_view()
def procedure_rollback(request: HttpRequest, console: Console, slug: str) -> HttpResponse:
    document = _document(console, slug)
    form = RollbackForm(request.POST)
    if not form.is_valid():
        raise GovernanceError("invalid_input", "Pick a version.")
    try:
        cr = proc_svc.change_request_rollback_propose(
            actor=console.actor,
            document=document,
            to_version=form.cleaned_data["to_version"],
            user=request.user,
            rationale=form.cleaned_data["rationale"],
        )
    except GovernanceError as e:
        if e.status in (403, 404):
            raise
        _error(request, e)
        return _done(request, reverse("governance:procedure", args=[slug]))
    return _done(request, reverse("governance:change", args=[cr.id]), _("Rollback proposed."))


@require_GET
@console_view()
def procedure_version(
    request: HttpRequest, console: Console, slug: str, number: int
) -> HttpResponse:
    document = _document(console, slug)
    version = selectors.procedure_version_get(document=document, number=number)
    if version is None:
        raise Http404
    return _page(
        request,
        console,
        "governance/procedure_version.html",
        {"document": document, "version": version},
    )


# --- review -----------------------------------------------------------------------------


@require_GET
@console_view()
def change_list(request: HttpRequest, console: Console) -> HttpResponse:
    status = request.GET.get("status", ChangeRequestStatus.OPEN)
    if status not in ChangeRequestStatus.values:
        status = ChangeRequestStatus.OPEN
    changes = selectors.change_request_list_for(access=console.access, status=status)
    return _page(
        request,
        console,
        "governance/change_list.html",
        {"changes": changes, "status": status, "statuses": ChangeRequestStatus.choices},
    )


def _change_context(console: Console, change_id: uuid.UUID) -> dict:
    cr = selectors.change_request_get(access=console.access, change_request_id=change_id)
    if cr is None:
        raise Http404
    base = selectors.procedure_version_get(document=cr.document, number=cr.base_version)
    base_text = base.text if base else ""
    old_label = f"v{cr.base_version}" if cr.base_version else _("(empty)")
    return {
        "cr": cr,
        "document": cr.document,
        "side_by_side": diffs.side_by_side(base_text, cr.proposed_text),
        "unified": diffs.unified(
            base_text, cr.proposed_text, old_label=old_label, new_label=_("proposed")
        ),
        "outdated": cr.status == ChangeRequestStatus.OPEN
        and cr.base_version != cr.document.current_version,
        "may_review": policies.can_review_document(console.access, cr.document_id),
        "own": cr.proposer_user_id == console.access.user_id,
        "blocking": [w for w in cr.warnings if w in policies.BLOCKING_WARNINGS],
        "form": DecisionForm(),
    }


@require_GET
@console_view()
def change_detail(request: HttpRequest, console: Console, change_id: uuid.UUID) -> HttpResponse:
    context = _change_context(console, change_id)
    context["view"] = "unified" if request.GET.get("view") == "unified" else "side"
    return _page(request, console, "governance/change_detail.html", context)


@require_POST
@console_view()
def change_decide(
    request: HttpRequest, console: Console, change_id: uuid.UUID, decision: str
) -> HttpResponse:
    form = DecisionForm(request.POST)
    form.is_valid()
    comment = form.cleaned_data.get("comment", "")
    url = reverse("governance:change", args=[change_id])
    try:
        if decision == "approve":
            outcome = proc_svc.change_request_approve(
                actor=console.actor,
                user=request.user,
                change_request_id=change_id,
                comment=comment,
                acknowledge_warnings=form.cleaned_data.get("acknowledge_warnings", False),
                request_id=console.request_id,
            )
            if outcome.status == ChangeRequestStatus.STALE:
                messages.warning(
                    request,
                    _(
                        "Another change was approved first; this request is stale. Rebase it to review it against version %(v)s."
                    )
                    % {"v": outcome.current_version},
                )
                return _done(request, url)
            assert outcome.version is not None
            return _done(
                request, url, _("Approved as version %(v)s.") % {"v": outcome.version.number}
            )
        if decision == "reject":
            proc_svc.change_request_reject(
                actor=console.actor,
                user=request.user,
                change_request_id=change_id,
                comment=comment,
                request_id=console.request_id,
            )
            return _done(request, url, _("Rejected."))
        if decision == "rebase":
            new = proc_svc.change_request_rebase(
                actor=console.actor, user=request.user, change_request_id=change_id
            )
            return _done(
                request,
                reverse("governance:change", args=[new.id]),
                _("Rebased onto the current version."),
            )
    except GovernanceError as e:
        if e.status in (403, 404):
            raise
        if not request.htmx:
            _error(request, e)
            return redirect(url)
        context = _change_context(console, change_id)
        context["error"] = e
        context["form"] = form
        return _page(request, console, "governance/change_detail.html#decision", context, e.status)
    raise Http404


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
    if e.operation and e.action == "memory.write":
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
    from memory import labels

    members = (
        Membership.objects.filter(tenant_id=console.tenant.id)
        .select_related("user")
        .order_by("user__username")
    )
    agents = Agent.objects.filter(tenant_id=console.tenant.id).order_by("name")
    actions = sorted(
        ((code, str(label)) for code, label in labels.ACTIONS.items()), key=lambda r: r[1]
    )
    return {
        "actors": [
            *((f"user:{m.user_id}", m.user.username) for m in members),
            *((f"agent:{a.id}", _("agent “%(name)s”") % {"name": a.name}) for a in agents),
        ],
        "actions": actions,
        "operations": [(code, str(label)) for code, label in labels.OPERATIONS.items()],
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


# --- tenant administration --------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@console_view(policies.can_administer_tenant)
def admin_agents(request: HttpRequest, console: Console) -> HttpResponse:
    """Agents and keys. A new key's plaintext is rendered once in the POST response itself
    (never redirected through a URL or stored in the session)."""
    new_key = None
    confirm = None
    status = 200
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "create_agent":
                form = AgentForm(request.POST)
                if not form.is_valid():
                    raise GovernanceError("invalid_input", _("Check the agent name and clearance."))
                admin_svc.console_agent_create(
                    actor=console.actor, user=request.user, **form.cleaned_data
                )
                return _done(request, request.path, _("Agent created. Issue it a key below."))
            if action == "issue":
                form = KeyIssueForm(request.POST)
                if not form.is_valid():
                    raise GovernanceError("invalid_input", _("Pick at least one scope."))
                key, plaintext = admin_svc.console_api_key_issue(
                    actor=console.actor,
                    user=request.user,
                    agent_id=form.cleaned_data["agent"],
                    scopes=form.cleaned_data["scopes"],
                    label=form.cleaned_data["label"],
                )
                new_key = {"key": key, "plaintext": plaintext}
            elif action == "rotate":
                form = KeyRotateForm(request.POST)
                if not form.is_valid():
                    raise GovernanceError("invalid_input", _("Overlap must be 0–720 hours."))
                key, plaintext = admin_svc.console_api_key_rotate(
                    actor=console.actor,
                    user=request.user,
                    key_id=_uuid(request.POST.get("key")),
                    overlap_hours=form.cleaned_data["overlap_hours"],
                )
                new_key = {"key": key, "plaintext": plaintext, "rotated": True}
            elif action == "revoke":
                key_id = _uuid(request.POST.get("key"))
                if request.POST.get("confirmed") != "yes":
                    # Every revoke is confirmed on a page of its own (works without JS).
                    confirm = {"kind": "revoke", "key": _console_key(console, key_id)}
                else:
                    admin_svc.console_api_key_revoke(
                        actor=console.actor, user=request.user, key_id=key_id
                    )
                    return _done(request, request.path, _("Key revoked."))
            elif action == "deactivate_agent":
                agent_id = _uuid(request.POST.get("agent"))
                if request.POST.get("confirmed") != "yes":
                    confirm = {"kind": "deactivate", "agent": _console_agent(console, agent_id)}
                else:
                    admin_svc.console_agent_deactivate(
                        actor=console.actor, user=request.user, agent_id=agent_id
                    )
                    return _done(
                        request, request.path, _("Agent deactivated. None of its keys work now.")
                    )
            else:
                raise GovernanceError("invalid_input", _("Unknown action."))
        except GovernanceError as e:
            if e.status in (403, 404):
                raise
            _error(request, e)
            status = e.status
    agents = Agent.objects.filter(tenant_id=console.tenant.id).order_by("-is_active", "name")
    keys = ApiKey.objects.filter(tenant_id=console.tenant.id).order_by("agent__name", "-created_at")
    by_agent: dict = {}
    for key in keys:
        by_agent.setdefault(key.agent_id, []).append(key)
    context = {
        "agents": [{"agent": a, "keys": key_rows(by_agent.get(a.id, []))} for a in agents],
        "confirm": confirm,
        "agent_form": AgentForm(),
        "rotate_form": KeyRotateForm(),
        "scopes": KeyIssueForm.base_fields["scopes"].choices,
        "new_key": new_key,
    }
    template = (
        "governance/admin_agents.html#newkey"
        if (request.htmx and new_key)
        else "governance/admin_agents.html"
    )
    response = _page(request, console, template, context, status)
    response["Cache-Control"] = "no-store"
    return response


def key_rows(keys: list[ApiKey]) -> list[dict]:
    """One agent's keys for the table, usable ones first, each with its place in a
    rotation: ``new`` (the replacement) or ``old`` (still working until it expires), so
    two keys with one label are never mistaken for each other."""
    now = timezone.now()
    usable = [k for k in keys if k.is_usable(now)]
    rows = []
    for key in sorted(keys, key=lambda k: (not k.is_usable(now), -k.created_at.timestamp())):
        role = ""
        if key.is_usable(now):
            same = [k for k in usable if k.label == key.label and k.id != key.id]
            if key.expires_at and any(k.created_at > key.created_at for k in same):
                role = "old"
            elif any(k.expires_at and k.created_at < key.created_at for k in same):
                role = "new"
        state = "revoked" if key.revoked_at else ("usable" if key.is_usable(now) else "expired")
        rows.append({"key": key, "role": role, "state": state})
    return rows


def _console_key(console: Console, key_id: uuid.UUID) -> ApiKey:
    key = ApiKey.objects.select_related("agent").filter(tenant_id=console.tenant.id, id=key_id)
    found = key.first()
    if found is None:
        raise Http404
    return found


def _console_agent(console: Console, agent_id: uuid.UUID) -> Agent:
    agent = Agent.objects.filter(tenant_id=console.tenant.id, id=agent_id).first()
    if agent is None:
        raise Http404
    return agent


def _uuid(raw: str | None) -> uuid.UUID:
    try:
        return uuid.UUID(str(raw))
    except ValueError:
        raise GovernanceError("not_found", "No such key.", status=404) from None


@require_http_methods(["GET", "POST"])
@console_view(policies.can_administer_tenant)
def admin_members(request: HttpRequest, console: Console) -> HttpResponse:
    status = 200
    if request.method == "POST":
        try:
            if request.POST.get("action") == "create_user":
                create_form = UserCreateForm(request.POST)
                if not create_form.is_valid():
                    raise GovernanceError(
                        "invalid_input", _("Give a username, a first password and a role.")
                    )
                admin_svc.console_user_create(
                    actor=console.actor, user=request.user, **create_form.cleaned_data
                )
                return _done(
                    request,
                    request.path,
                    _("User %(name)s created and added to this organisation.")
                    % {"name": create_form.cleaned_data["username"]},
                )
            if request.POST.get("action") == "grant":
                form = GrantForm(request.POST)
                if not form.is_valid():
                    raise GovernanceError("invalid_input", _("Name a member."))
                admin_svc.console_review_grant(
                    actor=console.actor,
                    user=request.user,
                    document_id=form.cleaned_data["document"],
                    username=form.cleaned_data["username"],
                    grant=form.cleaned_data["grant"],
                )
                return _done(request, request.path, _("Review rights updated."))
            form = MemberForm(request.POST)
            if not form.is_valid():
                raise GovernanceError("invalid_input", _("Name a user and a role."))
            role = form.cleaned_data["role"]
            admin_svc.console_member_set_role(
                actor=console.actor,
                user=request.user,
                username=form.cleaned_data["username"],
                role=None if role == "remove" else role,
            )
            return _done(request, request.path, _("Membership updated."))
        except GovernanceError as e:
            if e.status == 403:
                raise
            _error(request, e)
            status = e.status
    members = (
        Membership.objects.filter(tenant_id=console.tenant.id)
        .select_related("user")
        .order_by("user__username")
    )
    documents = list(selectors.procedure_list_for(access=console.access))
    grants = selectors.review_grants_for(documents=documents)
    return _page(
        request,
        console,
        "governance/admin_members.html",
        {
            "members": members,
            "roles": Role.choices,
            "member_form": MemberForm(),
            "create_form": UserCreateForm(),
            "documents": [{"document": d, "reviewers": grants.get(d.id, [])} for d in documents],
        },
        status,
    )


@require_http_methods(["GET", "POST"])
@console_view(policies.can_administer_tenant)
def admin_policy(request: HttpRequest, console: Console) -> HttpResponse:
    tenant = Tenant.objects.get(pk=console.tenant.id)
    form = PolicyForm(request.POST or None, initial=PolicyForm.initial_from(tenant.policy or {}))
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                admin_svc.tenant_policy_update(
                    actor=console.actor, user=request.user, data=form.to_policy()
                )
                return _done(request, request.path, _("Policy saved."))
            except GovernanceError as e:
                form.add_error(None, e.message)
        status = 400
    return _page(request, console, "governance/admin_policy.html", {"form": form}, status)
