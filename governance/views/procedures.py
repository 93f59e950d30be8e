"""Procedural documents, their versions and rollback, and the review of change
requests."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from governance import diffs, policies, selectors
from governance.forms import (
    DecisionForm,
    DocumentForm,
    ProposeForm,
    RollbackForm,
)
from governance.models import ChangeRequestStatus, ProceduralDocument, ProposalSource
from governance.services import procedures as proc_svc
from governance.services.errors import GovernanceError

from .base import Console, _done, _error, _page, console_view

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
            # Rejecting needs a reason the proposer can read, and a second step: the
            # first post shows the reason back and asks "reject for this reason?". Who may
            # decide is checked first (403 before any question about the input).
            allowed = _change_context(console, change_id)
            if not allowed["may_review"] or allowed["own"]:
                raise PermissionDenied
            if not comment.strip():
                raise GovernanceError(
                    "reason_required",
                    _("Say why you reject this change: the proposer reads it. Then reject."),
                )
            if not form.cleaned_data.get("confirmed"):
                context = _change_context(console, change_id)
                context.update(confirm_reject=True, reject_comment=comment, view="side")
                template = "governance/change_detail.html"
                if request.htmx:
                    template += "#decision"
                return _page(request, console, template, context)
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
        context = _change_context(console, change_id)
        context.update(error=e, form=form, view="side", reject_comment=comment)
        if not request.htmx:
            # The page again, with the error next to the form and the typed text kept.
            return _page(request, console, "governance/change_detail.html", context, e.status)
        return _page(request, console, "governance/change_detail.html#decision", context, e.status)
    raise Http404
