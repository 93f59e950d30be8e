"""The console home (charts for the role) and the tenant switch."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.models import Role
from governance import policies, selectors
from governance.policies import ConsoleAccess

from .base import SESSION_TENANT, Console, _done, _page, console_view

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
