"""End-user pages: "Manage my memories".

Adapters only: find the signed-in user's own Subject, call one selector or service, render
the page or (for htmx) one of its ``{% partialdef %}`` fragments. Every action is a real
link or form first (post/redirect/get without JavaScript); htmx only swaps fragments.
A record that is not the user's own is a 404, never a 403.

``accounts.middleware.TenantContextMiddleware`` runs each request in one transaction scoped to
the signed-in user's tenant (``request.tenant_id``), so row-level security applies here.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from core.actor import Actor
from core.codes import ReasonCode
from memory.forms import (
    CorrectForm,
    EraseAllForm,
    MemoryFilterForm,
    RememberForm,
    WithdrawConsentForm,
)
from memory.models import DeletionStatus, MemoryRecord, MemoryStatus, Subject
from memory.selectors import (
    deletion_request_get_for_user,
    memory_counts_for_user,
    memory_current_version,
    memory_get_for_user,
    memory_history,
    memory_list_for_user,
    memory_namespaces_for_user,
    memory_recall_days_for_user,
    memory_recalls_for_user,
    memory_source_events,
    memory_topic_counts_for_user,
    subject_erasure_preview,
    subject_for_user,
)
from memory.services import user_memory
from memory.services.deletion import subject_erase
from memory.services.user_memory import reason_text

PAGE_SIZE = 20


def _subject(request: HttpRequest) -> Subject:
    subject = subject_for_user(user=request.user, tenant_id=request.tenant_id)
    if subject is None:
        raise Http404("no memories for this user")
    return subject


def _record(subject: Subject, record_id: uuid.UUID) -> MemoryRecord:
    record = memory_get_for_user(subject=subject, record_id=record_id)
    if record is None:
        raise Http404("no such memory")
    return record


def _current(subject: Subject, record_id: uuid.UUID) -> MemoryRecord:
    """The current (active) version of the user's memory ``record_id``: what a correction
    acts on. A memory without one (deleted, or only held for review) cannot be corrected."""
    current = memory_current_version(record=_record(subject, record_id))
    if current is None:
        raise Http404("nothing current to change")
    return current


def _author(record: MemoryRecord, user) -> str:
    if record.created_by_user_id is not None:
        if record.created_by_user_id == user.pk:
            return _("You")
        return record.created_by_user.get_username()
    if record.created_by_agent is not None:
        return _("Agent “%(name)s”") % {"name": record.created_by_agent.name}
    return _("Engram")


# --- list --------------------------------------------------------------------------------


@login_required
@require_GET
@vary_on_headers("HX-Request")
def memory_list(request: HttpRequest) -> HttpResponse:
    form = MemoryFilterForm(request.GET)
    filters = form.cleaned()
    subject = subject_for_user(user=request.user, tenant_id=request.tenant_id)
    context: dict[str, Any] = {"form": form, "filters": filters, "subject": subject}
    if subject is not None:
        records = memory_list_for_user(
            subject=subject,
            query=filters["q"],
            memory_type=filters["type"],
            namespace=filters["namespace"],
            status=filters["status"],
        )
        page = Paginator(records, PAGE_SIZE).get_page(request.GET.get("page"))
        context.update(
            page=page,
            counts=memory_counts_for_user(subject=subject),
            namespaces=memory_namespaces_for_user(subject=subject),
        )
        if not request.htmx:
            context["charts"] = _overview_charts(subject)
    # htmx asks for the results fragment; a history restore (back button after the cache
    # expired) needs the whole page.
    partial = request.htmx and not request.htmx.history_restore_request
    template = "memory/list.html#results" if partial else "memory/list.html"
    return render(request, template, context)


def _overview_charts(subject: Subject) -> list:
    """The list page's pictures: current memories per topic, and which agents used the
    user's memories on each of the last 14 days."""
    from memory import charts
    from memory.labels import topic_label

    topics = memory_topic_counts_for_user(subject=subject)
    recalls = memory_recall_days_for_user(subject=subject)
    return [
        charts.bars(
            "memories-per-topic",
            _("Your memories by topic"),
            [(topic_label(ns), n) for ns, n in topics[:10]],
        ),
        charts.stacked_bars(
            "agents-over-time",
            _("Which agents used your memories (last 14 days)"),
            recalls["days"],
            recalls["agents"],
            note="" if recalls["agents"] else _("No agent has used them in this time."),
        ),
    ]


# --- detail ------------------------------------------------------------------------------


# What a change did, for the "what Engram believed when" list, keyed by the reason code of
# the version the change wrote (the closed copy of an old value is part of the same change).
CHANGE_TEXT: dict[str, Any] = {
    ReasonCode.NEW_MEMORY: gettext_lazy("First remembered"),
    ReasonCode.NARROWER_SCOPE: gettext_lazy("Remembered for a narrower topic"),
    ReasonCode.DUPLICATE_CONFIRMED: gettext_lazy("Confirmed again"),
    ReasonCode.AUTHORITY_UPGRADE: gettext_lazy("Confirmed by you"),
    ReasonCode.HIGHER_AUTHORITY: gettext_lazy("Replaced by a more reliable source"),
    ReasonCode.NEWER_VALUE: gettext_lazy("A new value took over"),
    ReasonCode.CORRECTION: gettext_lazy("Corrected"),
    ReasonCode.RETRACTED: gettext_lazy("Marked as wrong"),
    ReasonCode.VALIDITY_ENDED: gettext_lazy("Stopped being true"),
    ReasonCode.CONFIRMED_BY_USER: gettext_lazy("You confirmed it"),
    ReasonCode.TTL_EXPIRED: gettext_lazy("Expired under the retention rules"),
    ReasonCode.DECAYED: gettext_lazy("Archived because it was no longer used"),
}

# Versions that are (or were, in that change) believed to describe reality.
_BELIEVED = (MemoryStatus.ACTIVE, MemoryStatus.EXPIRED, MemoryStatus.ARCHIVED)


def _period(record: MemoryRecord, now) -> dict[str, Any]:
    """One period of validity, for the template: start, end and whether it lies in the
    future, the past or now."""
    if record.valid_from > now:
        when = "future"
    elif record.valid_to is not None and record.valid_to <= now:
        when = "past"
    else:
        when = "now"
    return {"record": record, "from": record.valid_from, "to": record.valid_to, "when": when}


def memory_timeline(versions: list[MemoryRecord], user) -> dict[str, Any]:
    """The history of one memory told twice: ``periods`` — what is believed to have been
    true when (one line per period of validity, oldest first); ``changes`` — what Engram
    believed when (one entry per change, with who made it and why)."""
    now = timezone.now()
    current = [v for v in versions if v.superseded_at is None and v.status in _BELIEVED]
    periods = [_period(v, now) for v in sorted(current, key=lambda v: (v.valid_from, v.id))]
    changes: dict[Any, dict[str, Any]] = {}
    for version in versions:
        change = changes.setdefault(
            version.recorded_at,
            {"at": version.recorded_at, "author": _author(version, user), "what": "", "items": []},
        )
        change["items"].append(_period(version, now) | {"status": version.status})
        # A version closed in record time carries the reason it was closed, not why it
        # was written; its own change then reads as the first time it was remembered.
        reason = version.status_reason if version.superseded_at is None else ""
        if (
            reason
            and reason not in (ReasonCode.VALIDITY_CLOSED, ReasonCode.SUPERSEDED)
            and not change["what"]
        ):
            change["what"] = str(CHANGE_TEXT.get(reason) or reason_text(reason))
        if version.status == MemoryStatus.RETRACTED:
            change["what"] = str(CHANGE_TEXT[ReasonCode.RETRACTED])
    ordered = list(changes.values())
    for change in ordered:
        change["what"] = change["what"] or str(CHANGE_TEXT[ReasonCode.NEW_MEMORY])
    return {"periods": periods, "changes": list(reversed(ordered))}


@login_required
@require_GET
def memory_detail(request: HttpRequest, record_id: uuid.UUID) -> HttpResponse:
    subject = _subject(request)
    record = _record(subject, record_id)
    versions = list(memory_history(record=record))
    current = memory_current_version(record=record)
    sources = list(memory_source_events(record=record))
    return render(
        request,
        "memory/detail.html",
        {
            "record": record,
            "current": current,
            "timeline": memory_timeline(versions, request.user),
            "future": record.valid_from > timezone.now(),
            "sources": sources,
            "author": _author(record, request.user),
            "recalls": memory_recalls_for_user(record=record),
        },
    )


# --- remember ----------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def memory_remember(request: HttpRequest) -> HttpResponse:
    subject = _subject(request)
    result = None
    if request.method == "POST":
        form = RememberForm(request.POST)
        if form.is_valid():
            result = user_memory.memory_remember(
                user=request.user, subject=subject, **form.to_service()
            )
            if result.ok:
                messages.success(request, result.message)
                return redirect("memory-detail", record_id=result.record_id)
    else:
        form = RememberForm()
    return render(request, "memory/remember.html", {"form": form, "result": result})


# --- correct -----------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def memory_correct(request: HttpRequest, record_id: uuid.UUID) -> HttpResponse:
    subject = _subject(request)
    result = None
    record = _current(subject, record_id)
    if request.method == "POST":
        form = CorrectForm(request.POST)
        if form.is_valid():
            result = user_memory.memory_correct(
                user=request.user, subject=subject, record=record, **form.cleaned_data
            )
            if result.ok:
                if request.htmx:
                    new = memory_get_for_user(subject=subject, record_id=result.record_id)
                    return render(
                        request,
                        "memory/list.html#memory_row",
                        {"record": new, "notice": result.message},
                    )
                messages.success(request, result.message)
                return redirect("memory-detail", record_id=result.record_id)
    else:
        form = CorrectForm(initial={"statement": record.statement})
    context = {
        "record": record,
        "form": form,
        "result": result,
        # htmx only ever asks for the form from a row of the list: it is then edited in
        # place there. Opened as a page (from the detail page, or without JavaScript) it
        # is a plain form that ends on the updated detail page.
        "inline": bool(request.htmx),
        "cancel_url": _back_url(request, reverse("memory-detail", args=[record.id])),
    }
    if request.htmx:
        return render(request, "memory/correct.html#correct_form", context)
    return render(request, "memory/correct.html", context)


def _back_url(request: HttpRequest, default: str) -> str:
    """Where "cancel" returns to: the list as the user left it (htmx tells us), or
    ``default``. Only same-site paths are used."""
    current = request.htmx.current_url_abs_path if request.htmx else None
    if current and current.startswith("/") and not current.startswith("//"):
        return current
    return default


# --- delete ------------------------------------------------------------------------------


@login_required
@require_POST
def memory_confirm(request: HttpRequest, record_id: uuid.UUID) -> HttpResponse:
    """Confirm a sensitive detail an assistant proposed (held as pending confirmation)."""
    subject = _subject(request)
    record = _record(subject, record_id)
    result = user_memory.memory_confirm_pending(user=request.user, subject=subject, record=record)
    (messages.success if result.ok else messages.error)(request, result.message)
    target = result.record_id if result.ok and result.record_id else record.id
    return redirect("memory-detail", target)


@login_required
@require_http_methods(["GET", "POST"])
def memory_delete(request: HttpRequest, record_id: uuid.UUID) -> HttpResponse:
    subject = _subject(request)
    record = _record(subject, record_id)
    if request.method == "POST":
        result = user_memory.memory_forget(user=request.user, subject=subject, record=record)
        if request.htmx:
            counts = memory_counts_for_user(subject=subject)
            return render(
                request,
                "memory/list.html#deleted_row",
                {"record_id": record.id, "notice": result.message, "counts": counts},
            )
        if result.ok:
            messages.success(request, result.message)
        else:
            messages.error(request, result.message)
        return redirect("memory-list")
    context = {
        "record": record,
        "inline": bool(request.htmx),
        "cancel_url": _back_url(request, reverse("memory-detail", args=[record.id])),
    }
    if request.htmx:
        return render(request, "memory/delete.html#delete_confirm", context)
    return render(request, "memory/delete.html", context)


# --- export ------------------------------------------------------------------------------


def _export_filename(ext: str) -> str:
    return f"engram-my-memories-{timezone.now():%Y%m%d}.{ext}"


@login_required
@require_GET
def export_json(request: HttpRequest) -> HttpResponse:
    subject = _subject(request)
    data = user_memory.subject_export(user=request.user, subject=subject)
    response = HttpResponse(
        json.dumps(data, ensure_ascii=False, indent=2), content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="{_export_filename("json")}"'
    return response


@login_required
@require_GET
def export_csv(request: HttpRequest) -> HttpResponse:
    subject = _subject(request)
    text = user_memory.subject_export_csv(user=request.user, subject=subject)
    # A byte-order mark lets spreadsheet programs read the Chinese text as UTF-8.
    response = HttpResponse("\ufeff" + text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{_export_filename("csv")}"'
    return response


# --- settings: pause and consent ---------------------------------------------------------


@login_required
@require_GET
def memory_settings(request: HttpRequest) -> HttpResponse:
    subject = _subject(request)
    counts = memory_counts_for_user(subject=subject)
    return render(
        request,
        "memory/settings.html",
        {"subject": subject, "counts": counts, "withdraw_form": WithdrawConsentForm()},
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
def memory_consent_withdraw(request: HttpRequest) -> HttpResponse:
    subject = _subject(request)
    form = WithdrawConsentForm(request.POST)
    erase = form.is_valid() and form.cleaned_data["erase_everything"]
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


# --- delete everything -------------------------------------------------------------------


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
    """The receipt of a "delete everything": what was removed from which store, and what
    the verification still found (nothing, when it worked). While the job runs, htmx
    polls this fragment; without JavaScript a refresh link does the same."""
    subject = _subject(request)
    deletion = deletion_request_get_for_user(subject=subject, request_id=request_id)
    if deletion is None:
        raise Http404("no such deletion")
    receipt = deletion.receipt or {}
    verification = deletion.verification or {}
    context = {
        "deletion": deletion,
        "done": deletion.status == DeletionStatus.DONE,
        "finished": deletion.status in (DeletionStatus.DONE, DeletionStatus.FAILED),
        "removed_total": sum(receipt.values()),
        "stores_touched": sum(1 for n in receipt.values() if n),
        "stores": [(name, n) for name, n in receipt.items() if n],
        "still_found": [(name, n) for name, n in verification.items() if n],
        "checked": len(verification),
    }
    template = "memory/erase_receipt.html#receipt" if request.htmx else "memory/erase_receipt.html"
    return render(request, template, context)
