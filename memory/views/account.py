"""The pages about the user's account and consent rather than one memory: settings, pause,
agents' access, withdrawing consent, erasing everything and its receipt."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.actor import Actor
from memory.forms import (
    AgentAccessForm,
    EraseAllForm,
    WithdrawConsentForm,
)
from memory.labels import receipt_sentence
from memory.models import (
    AgentAccess,
    DeletionScope,
    DeletionStatus,
)
from memory.selectors import (
    deletion_request_get_for_user,
    deletions_pending_for_user,
    memory_agents_for_user,
    memory_counts_for_user,
    subject_erasure_preview,
)
from memory.services import user_memory
from memory.services.deletion import subject_erase
from memory.views.common import _subject


@login_required
@require_GET
def memory_settings(request: HttpRequest) -> HttpResponse:
    subject = _subject(request)
    return render(
        request,
        "memory/settings.html",
        {
            "subject": subject,
            "counts": memory_counts_for_user(subject=subject),
            "agents": memory_agents_for_user(subject=subject),
        },
    )


@login_required
@require_POST
def memory_pause(request: HttpRequest) -> HttpResponse:
    subject = _subject(request)
    paused = request.POST.get("paused") == "1"
    user_memory.subject_memory_pause_set(user=request.user, subject=subject, paused=paused)
    messages.success(
        request,
        _("Memory is paused. Nothing new is remembered until you resume it.")
        if paused
        else _("Memory is on again."),
    )
    return redirect("memory-settings")


@login_required
@require_POST
def memory_agent_access(request: HttpRequest) -> HttpResponse:
    """Pause, resume, revoke or allow again one agent's access to the user's memories.
    Revoking asks once more first."""
    subject = _subject(request)
    form = AgentAccessForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Pick an agent and what to do."))
        return redirect("memory-settings")
    access = form.cleaned_data["access"]
    agents = {a["agent"].id: a for a in memory_agents_for_user(subject=subject)}
    from accounts.models import Agent

    agent = Agent.objects.filter(tenant_id=subject.tenant_id, id=form.cleaned_data["agent"]).first()
    if agent is None:
        raise Http404("no such agent")
    if access == AgentAccess.REVOKED and not form.cleaned_data["confirmed"]:
        return render(
            request,
            "memory/agent_revoke_confirm.html",
            {"agent": agent, "usage": agents.get(agent.id)},
        )
    user_memory.subject_agent_access_set(
        user=request.user,
        subject=subject,
        agent_id=agent.id,
        state=None if access == "allowed" else access,
    )
    texts = {
        AgentAccess.PAUSED: _("“%(name)s” is paused: it cannot read or add to your memories."),
        AgentAccess.REVOKED: _("Access revoked: “%(name)s” can no longer use your memories."),
        "allowed": _("“%(name)s” may use your memories again."),
    }
    messages.success(request, texts[access] % {"name": agent.name})
    return redirect(reverse("memory-settings") + "#agents")


@login_required
@require_POST
def memory_consent_withdraw(request: HttpRequest) -> HttpResponse:
    """Withdraw consent, after a second step that shows what it does."""
    subject = _subject(request)
    form = WithdrawConsentForm(request.POST)
    form.is_valid()
    if not form.cleaned_data.get("confirmed"):
        return render(
            request,
            "memory/withdraw_confirm.html",
            {"subject": subject, "counts": memory_counts_for_user(subject=subject)},
        )
    erase = form.cleaned_data.get("erase_everything", False)
    erased = user_memory.subject_consent_withdraw(
        user=request.user, subject=subject, erase_everything=erase
    )
    message = _(
        "You have withdrawn consent. Agents can no longer recall anything about you and "
        "nothing new is remembered."
    )
    if erase:
        message += " " + ngettext(
            "%(n)d memory was deleted.", "%(n)d memories were deleted.", erased
        ) % {"n": erased}
    messages.success(request, message)
    return redirect("memory-settings")


@login_required
@require_POST
def memory_consent_give(request: HttpRequest) -> HttpResponse:
    subject = _subject(request)
    user_memory.subject_consent_give(user=request.user, subject=subject)
    messages.success(request, _("Thank you. Memories may be written again from now on."))
    return redirect("memory-settings")


@login_required
@require_http_methods(["GET", "POST"])
def memory_erase_all(request: HttpRequest) -> HttpResponse:
    """Show what goes (counts per kind), require the ticked confirmation, then start the
    subject-wide deletion workflow and show its receipt."""
    subject = _subject(request)
    form = EraseAllForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        # The one erasure workflow (also behind consent withdrawal with erasure, the API and
        # engram_delete_subject); it runs as a job, and the receipt page follows it.
        deletion = subject_erase(
            actor=Actor.user(request.user.pk, subject.tenant_id), subject=subject, run_now=False
        )
        return redirect("memory-erase-receipt", request_id=deletion.id)
    return render(
        request,
        "memory/erase_all.html",
        {"form": form, "preview": subject_erasure_preview(subject=subject), "subject": subject},
        status=400 if request.method == "POST" else 200,
    )


@login_required
@require_GET
def memory_erase_receipt(request: HttpRequest, request_id: uuid.UUID) -> HttpResponse:
    """The receipt of a deletion — one memory, or everything — : what goes, the few
    seconds to undo a single delete, then what was removed from which store and what the
    verification still found (nothing, when it worked). While it waits or runs, htmx
    polls this fragment; without JavaScript a refresh link does the same."""
    subject = _subject(request)
    user_memory.deletions_run_due_for_user(subject=subject)
    deletion = deletion_request_get_for_user(subject=subject, request_id=request_id)
    if deletion is None:
        raise Http404("no such deletion")
    receipt = deletion.receipt or {}
    verification = deletion.verification or {}
    pending = None
    if deletion.status == DeletionStatus.PENDING and deletion.run_after is not None:
        pending = next(
            (
                p
                for p in deletions_pending_for_user(subject=subject)
                if p["request"].id == deletion.id
            ),
            None,
        )
    context = {
        "deletion": deletion,
        "one_memory": deletion.scope == DeletionScope.MEMORY,
        "pending": pending,
        "seconds_left": max(0, int((deletion.run_after - timezone.now()).total_seconds()))
        if deletion.run_after
        else 0,
        "cancelled": deletion.status == DeletionStatus.CANCELLED,
        "done": deletion.status == DeletionStatus.DONE,
        "finished": deletion.status
        in (DeletionStatus.DONE, DeletionStatus.FAILED, DeletionStatus.CANCELLED),
        "summary": receipt_sentence(receipt),
        "stores": [(name, n) for name, n in receipt.items() if n],
        "still_found": [(name, n) for name, n in verification.items() if n],
        "checked": len(verification),
        "versions": receipt.get("record_versions", 0),
        "events": receipt.get("source_events", 0),
    }
    template = "memory/erase_receipt.html#receipt" if request.htmx else "memory/erase_receipt.html"
    return render(request, template, context)
