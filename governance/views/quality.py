"""The quality inspector's console page (tenant administrators): the latest report with
its charts, each open finding with its actions, and the retrieval canaries. Adapters only:
the inspector's services decide and audit (memory/services/inspector)."""

from __future__ import annotations

import re
import uuid

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from governance import policies
from memory.models import FindingKind
from memory.services.inspector import (
    QualityError,
    canary_add,
    canary_remove,
    finding_apply,
    tenant_inspect,
)
from memory.services.inspector import report as quality_report

from .base import Console, _done, _page, console_view

ACTION_LABELS = {
    "merge": gettext_lazy("Merge"),
    "expire": gettext_lazy("Expire"),
    "archive": gettext_lazy("Archive"),
    "reindex": gettext_lazy("Re-index"),
    "vacuum": gettext_lazy("Vacuum the vector table"),
    "dismiss": gettext_lazy("Dismiss"),
}
ACTION_OUTCOMES = {
    "merge": gettext_lazy("Merged: one memory now holds both; the other stays in history."),
    "expire": gettext_lazy(
        "Expired through the write policy: %(changed)s changed, %(refused)s refused."
    ),
    "archive": gettext_lazy("Archived %(changed)s memories; their owners can bring them back."),
    "reindex": gettext_lazy("Re-indexed; the canaries were measured before and after."),
    "vacuum": gettext_lazy("A vacuum of the vector table was started in the background."),
    "dismiss": gettext_lazy("Dismissed."),
}
_ID = re.compile(r"[0-9a-fA-F-]{32,36}")


class CanaryForm(forms.Form):
    query = forms.CharField(max_length=500, strip=True)
    expected = forms.CharField(max_length=2000)
    k = forms.IntegerField(min_value=1, max_value=50, initial=5)

    def clean_expected(self) -> list[uuid.UUID]:
        ids = []
        for token in _ID.findall(self.cleaned_data["expected"]):
            try:
                ids.append(uuid.UUID(token))
            except ValueError:
                raise forms.ValidationError(
                    _("Memory ids look like 8-4-4-4-12 hex digits.")
                ) from None
        if not ids:
            raise forms.ValidationError(_("Name at least one expected memory by its id."))
        return ids


def _charts(tenant_id) -> list:
    from memory import charts

    runs, by_kind = quality_report.findings_over_runs(tenant_id)
    labels = [timezone.localtime(r.started_at).strftime("%m/%d %H:%M") for r in runs]
    result = [
        charts.stacked_bars(
            "findings-by-kind",
            _("Findings by kind, per inspection"),
            labels,
            {str(FindingKind(kind).label): values for kind, values in by_kind.items()},
        )
    ]
    measured, series = quality_report.canary_results_over_time(tenant_id)
    if measured and series:
        result.append(
            charts.lines(
                "canary-recall",
                _("Canary Recall@k over time"),
                [
                    timezone.localtime(r.started_at).strftime("%m/%d %H:%M")
                    + (f" {r.counts.get('phase')}" if r.counts.get("phase") else "")
                    for r in measured
                ],
                series,
            )
        )
    return result


def _context(console: Console, form: CanaryForm | None = None) -> dict:
    tenant_id = console.tenant.id
    return {
        "run": quality_report.latest_run(tenant_id),
        "rows": quality_report.open_findings(tenant_id),
        "charts": _charts(tenant_id),
        "canaries": quality_report.canaries_with_latest(tenant_id),
        "canary_form": form or CanaryForm(),
        "action_labels": ACTION_LABELS,
    }


@require_http_methods(["GET", "POST"])
@console_view(policies.can_administer_tenant)
def quality(request: HttpRequest, console: Console) -> HttpResponse:
    """The report; POST runs an inspection now."""
    if request.method == "POST":
        run = tenant_inspect(actor=console.actor, tenant_id=console.tenant.id, trigger="console")
        found = sum(run.counts["findings"].values())
        return _done(
            request,
            request.path,
            _("Inspection finished: %(n)s findings.") % {"n": found},
        )
    return _page(request, console, "governance/quality.html", _context(console))


@require_POST
@console_view(policies.can_administer_tenant)
def quality_finding_apply(request: HttpRequest, console: Console, finding_id: int) -> HttpResponse:
    action = request.POST.get("action", "")
    url = reverse("governance:quality")
    try:
        result = finding_apply(
            actor=console.actor, tenant_id=console.tenant.id, finding_id=finding_id, action=action
        )
    except QualityError as e:
        if e.status == 404:
            raise Http404 from None
        row = quality_report.finding_row(console.tenant.id, finding_id)
        if request.htmx and row is not None:
            return _page(
                request,
                console,
                "governance/quality.html#finding_card",
                {"row": row, "error": e, "action_labels": ACTION_LABELS},
                e.status,
            )
        messages.error(request, e.message)
        return _done(request, url)
    outcome = str(ACTION_OUTCOMES[action]) % {
        "changed": result.changed,
        "refused": result.refused,
    }
    if request.htmx:
        # The card stays in place, saying what happened.
        return _page(
            request,
            console,
            "governance/quality.html#finding_card",
            {
                "row": quality_report.finding_row(console.tenant.id, finding_id),
                "outcome": outcome,
                "action_labels": ACTION_LABELS,
            },
        )
    return _done(request, url, outcome)


@require_POST
@console_view(policies.can_administer_tenant)
def quality_canary_add(request: HttpRequest, console: Console) -> HttpResponse:
    form = CanaryForm(request.POST)
    error = None
    if form.is_valid():
        try:
            canary_add(
                actor=console.actor,
                tenant_id=console.tenant.id,
                query=form.cleaned_data["query"],
                expected_record_ids=form.cleaned_data["expected"],
                k=form.cleaned_data["k"],
                user_id=request.user.pk,
            )
            return _done(request, reverse("governance:quality"), _("Canary saved."))
        except QualityError as e:
            error = e
    # A malformed form or an id that names no memory of this tenant: the form again.
    status = 400
    context = {**_context(console, form), "canary_error": error}
    template = "governance/quality.html#canaries" if request.htmx else "governance/quality.html"
    return _page(request, console, template, context, status)


@require_POST
@console_view(policies.can_administer_tenant)
def quality_canary_remove(
    request: HttpRequest, console: Console, canary_id: uuid.UUID
) -> HttpResponse:
    try:
        canary_remove(actor=console.actor, tenant_id=console.tenant.id, canary_id=canary_id)
    except QualityError as e:
        if e.status == 404:
            raise Http404 from None
        raise
    return _done(request, reverse("governance:quality"), _("Canary removed."))
