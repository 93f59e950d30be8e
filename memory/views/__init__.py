"""End-user pages: "Manage my memories".

Adapters only: find the signed-in user's own Subject, call one selector or service, render
the page or (for htmx) one of its ``{% partialdef %}`` fragments. Every action is a real
link or form first (post/redirect/get without JavaScript); htmx only swaps fragments.
A record that is not the user's own is a 404, never a 403.

A member of a tenant has a subject from their first page on (``user_subject_ensure``): a
user created in the console can add, pause, export and delete at once. Nothing
irreversible happens in one click: deleting waits a few seconds for undo (and says so),
withdrawing consent, revoking an agent and deleting several memories ask again first.

``accounts.middleware.TenantContextMiddleware`` runs each request in one transaction scoped to
the signed-in user's tenant (``request.tenant_id``), so row-level security applies here.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from core.codes import ReasonCode
from memory.forms import (
    BulkForm,
    CorrectForm,
    MemoryFilterForm,
    RememberForm,
)
from memory.models import (
    MemoryRecord,
    MemoryStatus,
    Subject,
)
from memory.selectors import (
    deletion_request_get_for_user,
    deletions_pending_for_user,
    memory_agents_for_user,
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
    memory_usage_for_user,
    memory_waiting_for_user,
    memory_write_reasons,
)
from memory.services import user_memory
from memory.services.user_memory import reason_text
from memory.timeline import memory_timelines
from memory.views.account import memory_agent_access as memory_agent_access
from memory.views.account import memory_consent_give as memory_consent_give
from memory.views.account import memory_consent_withdraw as memory_consent_withdraw
from memory.views.account import memory_erase_all as memory_erase_all
from memory.views.account import memory_erase_receipt as memory_erase_receipt
from memory.views.account import memory_pause as memory_pause
from memory.views.account import memory_settings as memory_settings
from memory.views.common import _subject
from memory.views.transfer import export_csv as export_csv
from memory.views.transfer import export_json as export_json
from memory.views.transfer import memory_import as memory_import

PAGE_SIZE = 20


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


def _safe_path(candidate: str | None, default: str) -> str:
    """A same-site path to return to, or ``default``."""
    if candidate and candidate.startswith("/") and not candidate.startswith("//"):
        return candidate
    return default


def _back_url(request: HttpRequest, default: str) -> str:
    """Where "cancel" returns to: the list as the user left it (htmx tells us), or
    ``default``. Only same-site paths are used."""
    current = request.htmx.current_url_abs_path if request.htmx else None
    return _safe_path(current, default)


@login_required
@require_GET
def landing(request: HttpRequest) -> HttpResponse:
    """Where signing in leads: reviewers and admins to the console (their work), everyone
    else to their memories. A ``next`` link still wins (Django's sign-in handles it)."""
    from accounts.models import Role
    from accounts.tenancy import user_memberships

    roles = {m.role for m in user_memberships(request.user.pk) if m.tenant_id == request.tenant_id}
    if roles & {Role.REVIEWER, Role.ADMIN}:
        return redirect("governance:home")
    return redirect("memory-list")


def _list_context(request: HttpRequest, subject: Subject, params: QueryDict) -> dict[str, Any]:
    """The list as ``params`` (the page's query string) filters it: the page of results
    and the counts. Shared by the page and by the actions that update it in place."""
    form = MemoryFilterForm(params)
    filters = form.cleaned()
    ranked: list[uuid.UUID] = []
    if filters["q"]:
        ranked = user_memory.memory_search_for_user(
            user=request.user, subject=subject, query=filters["q"]
        )
    records = memory_list_for_user(
        subject=subject,
        query=filters["q"],
        memory_type=filters["type"],
        namespace=filters["namespace"],
        status=filters["status"],
        agent_id=filters["agent"],
        origin=filters["origin"],
        since=filters["since"],
        until=filters["until"],
        sort=filters["sort"],
        ranked_ids=ranked,
    )
    page = Paginator(records, PAGE_SIZE).get_page(params.get("page"))
    return {
        "form": form,
        "filters": filters,
        "page": page,
        "counts": memory_counts_for_user(subject=subject),
    }


@login_required
@require_GET
@vary_on_headers("HX-Request")
def memory_list(request: HttpRequest) -> HttpResponse:
    if request.tenant_id is None:
        # Signed in but a member of no organisation: nothing can be remembered yet.
        return render(request, "memory/list.html", {"form": MemoryFilterForm(), "filters": {}})
    subject = _subject(request)
    user_memory.deletions_run_due_for_user(subject=subject)
    context: dict[str, Any] = {"subject": subject, **_list_context(request, subject, request.GET)}
    # htmx asks for the results fragment; a history restore (back button after the cache
    # expired) needs the whole page.
    partial = request.htmx and not request.htmx.history_restore_request
    if not partial:
        context.update(
            namespaces=memory_namespaces_for_user(subject=subject),
            agents=memory_agents_for_user(subject=subject),
            usage=memory_usage_for_user(subject=subject),
            waiting=memory_waiting_for_user(subject=subject),
            deleting=deletions_pending_for_user(subject=subject),
            charts=_overview_charts(subject),
            undo_seconds=settings.ENGRAM["DELETE_UNDO_SECONDS"],
        )
    template = "memory/list.html#results" if partial else "memory/list.html"
    return render(request, template, context)


def _overview_charts(subject: Subject) -> list:
    """The list page's pictures: current memories per topic, and which agents used the
    user's memories on each of the last 14 days. A chart with nothing to show is left
    out (no empty boxes)."""
    from memory import charts
    from memory.labels import topic_label

    topics = memory_topic_counts_for_user(subject=subject)
    recalls = memory_recall_days_for_user(subject=subject)
    drawn = []
    if topics:
        drawn.append(
            charts.bars(
                "memories-per-topic",
                _("Your memories by topic"),
                [(topic_label(ns), n) for ns, n in topics[:10]],
            )
        )
    if recalls["agents"]:
        drawn.append(
            charts.stacked_bars(
                "agents-over-time",
                _("Which agents used your memories (last 14 days)"),
                recalls["days"],
                recalls["agents"],
            )
        )
    return drawn


def _row_response(
    request: HttpRequest, subject: Subject, record: MemoryRecord | None, notice: str, **extra
) -> HttpResponse:
    """An htmx action on one row of the list: the row as it is now (or the "deleted, undo"
    notice in its place), with the counts and the "showing x of y" line updated out of
    band for the list as the user left it (its address, which htmx sends)."""
    current = request.htmx.current_url_abs_path if request.htmx else ""
    params = QueryDict(current.partition("?")[2] if current else "")
    context = {
        "record": record,
        "notice": notice,
        "subject": subject,
        "oob": True,
        "list_url": _safe_path(current, reverse("memory-list")),
        **_list_context(request, subject, params),
        **extra,
    }
    return render(request, "memory/list.html#row_update", context)


# What a change did, for the "what Engram believed when" list, keyed by the reason code the
# write policy gave the version the change wrote (from the audit log: a version keeps its
# own reason only while its record time is open).
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
    ReasonCode.ARCHIVED_BY_USER: gettext_lazy("You archived it"),
    ReasonCode.RESTORED_BY_USER: gettext_lazy("You brought it back"),
    ReasonCode.SENSITIVE_NEEDS_CONFIRMATION: gettext_lazy(
        "Proposed; it waits for your confirmation"
    ),
}


def _period(period, records: dict[uuid.UUID, MemoryRecord]) -> dict[str, Any]:
    """One period of validity (``memory.timeline.Period``) for the template."""
    return {
        "record": records[period.record_id],
        "from": period.valid_from,
        "to": period.valid_to,
        "when": period.when,
        "status": period.status,
    }


def memory_timeline(
    versions: list[MemoryRecord], user, written: dict[uuid.UUID, str] | None = None
) -> dict[str, Any]:
    """The history of one memory told twice (``memory.timeline``, as the API tells it),
    in words: ``periods`` — what is believed to have been true when, oldest first;
    ``changes`` — what Engram believed when, newest first, each with who made it and why
    (the reason the write policy gave the version the change wrote: ``written``)."""
    records = {v.id: v for v in versions}
    timelines = memory_timelines(versions, timezone.now(), written)
    return {
        "periods": [_period(p, records) for p in timelines.periods],
        "changes": [
            {
                "at": change.recorded_at,
                "author": _author(records[change.versions[0].record_id], user),
                "what": str(CHANGE_TEXT.get(change.reason_code) or reason_text(change.reason_code)),
                "items": [_period(p, records) for p in change.versions],
            }
            for change in timelines.changes
        ],
    }


def _deleted_record(subject: Subject, record_id: uuid.UUID) -> MemoryRecord | None:
    return MemoryRecord.objects.filter(
        tenant_id=subject.tenant_id,
        subject=subject,
        id=record_id,
        status=MemoryStatus.DELETED,
    ).first()


def _pending_deletion_of(subject: Subject, record: MemoryRecord) -> dict | None:
    for pending in deletions_pending_for_user(subject=subject):
        if str(record.id) in pending["record_ids"] or pending["request"].target_id in (
            record.id,
            record.lineage_id,
        ):
            return pending
    return None


@login_required
@require_GET
def memory_detail(request: HttpRequest, record_id: uuid.UUID) -> HttpResponse:
    subject = _subject(request)
    record = memory_get_for_user(subject=subject, record_id=record_id)
    if record is None:
        gone = _deleted_record(subject, record_id)
        if gone is None:
            raise Http404("no such memory")
        # The page of a deleted memory (the browser's Back after a delete) says so.
        return render(request, "memory/gone.html", {"record": gone}, status=410)
    versions = list(memory_history(record=record))
    current = memory_current_version(record=record)
    return render(
        request,
        "memory/detail.html",
        {
            "record": record,
            "current": current,
            "timeline": memory_timeline(
                versions, request.user, memory_write_reasons(record=record)
            ),
            "future": record.valid_from > timezone.now(),
            "sources": list(memory_source_events(record=record)),
            "author": _author(record, request.user),
            "recalls": memory_recalls_for_user(record=record),
            "deleting": _pending_deletion_of(subject, record)
            if record.status == MemoryStatus.ARCHIVED
            else None,
            "long": len(record.statement) > LONG_STATEMENT,
        },
    )


# A statement longer than this is shortened in headings and list rows (the whole text is
# on the memory's page, below its facts and actions).
LONG_STATEMENT = 140


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
                user=request.user, subject=subject, record=record, **form.to_service()
            )
            if result.ok:
                if request.htmx:
                    new = memory_get_for_user(subject=subject, record_id=result.record_id)
                    return _row_response(request, subject, new, result.message)
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


def _return_to(request: HttpRequest, default: str) -> str:
    return _safe_path(request.POST.get("next") or request.GET.get("next"), default)


@login_required
@require_POST
def memory_confirm(request: HttpRequest, record_id: uuid.UUID) -> HttpResponse:
    """Confirm a sensitive detail an assistant proposed (held as pending confirmation)."""
    subject = _subject(request)
    record = _record(subject, record_id)
    result = user_memory.memory_confirm_pending(user=request.user, subject=subject, record=record)
    target = result.record_id if result.ok and result.record_id else record.id
    if request.htmx:
        confirmed = memory_get_for_user(subject=subject, record_id=target)
        return _row_response(request, subject, confirmed, result.message)
    (messages.success if result.ok else messages.error)(request, result.message)
    return redirect(_return_to(request, reverse("memory-detail", args=[target])))


@login_required
@require_POST
def memory_archive(request: HttpRequest, record_id: uuid.UUID) -> HttpResponse:
    """Archive (agents stop using it, it is kept) or, with ``restore``, bring it back."""
    subject = _subject(request)
    record = _record(subject, record_id)
    if request.POST.get("restore"):
        result = user_memory.memory_unarchive(user=request.user, subject=subject, record=record)
        ok, message = result.ok, result.message
    else:
        ok = user_memory.memory_archive(user=request.user, subject=subject, record=record) > 0
        message = (
            reason_text(ReasonCode.ARCHIVED_BY_USER)
            if ok
            else reason_text(ReasonCode.NOTHING_TO_CHANGE)
        )
    if request.htmx:
        return _row_response(request, subject, _record(subject, record_id), message)
    (messages.success if ok else messages.error)(request, message)
    return redirect(_return_to(request, reverse("memory-detail", args=[record.id])))


@login_required
@require_http_methods(["GET", "POST"])
def memory_delete(request: HttpRequest, record_id: uuid.UUID) -> HttpResponse:
    subject = _subject(request)
    record = _record(subject, record_id)
    if request.method == "POST":
        deletion = user_memory.memory_delete_with_undo(
            user=request.user, subject=subject, record=record
        )
        if request.htmx:
            return _row_response(
                request,
                subject,
                None,
                "",
                deleted={"request": deletion, "statement": record.statement},
                record_id=record.id,
                undo_seconds=settings.ENGRAM["DELETE_UNDO_SECONDS"],
            )
        return redirect("memory-erase-receipt", request_id=deletion.id)
    context = {
        "record": record,
        "inline": bool(request.htmx),
        "cancel_url": _back_url(request, reverse("memory-detail", args=[record.id])),
        "undo_seconds": settings.ENGRAM["DELETE_UNDO_SECONDS"],
    }
    if request.htmx:
        return render(request, "memory/delete.html#delete_confirm", context)
    return render(request, "memory/delete.html", context)


@login_required
@require_POST
def memory_delete_undo(request: HttpRequest, request_id: uuid.UUID) -> HttpResponse:
    """Undo a delete within its few seconds: the memory is back as it was."""
    subject = _subject(request)
    deletion = deletion_request_get_for_user(subject=subject, request_id=request_id)
    if deletion is None:
        raise Http404("no such deletion")
    undone = user_memory.memory_delete_undo(
        user=request.user, subject=subject, request_id=request_id
    )
    message = (
        _("Undone: the memory is back.")
        if undone
        else _("Too late to undo: the memory is already deleted.")
    )
    if request.htmx:
        restored = (
            MemoryRecord.objects.filter(
                tenant_id=subject.tenant_id, subject=subject, id__in=list(deletion.held)
            )
            .exclude(status=MemoryStatus.DELETED)
            .order_by("-recorded_at")
            .first()
        )
        return _row_response(request, subject, restored, message, record_id=deletion.target_id)
    (messages.success if undone else messages.error)(request, message)
    default = reverse("memory-list")
    if undone and deletion.held:
        default = reverse("memory-detail", args=[next(iter(deletion.held))])
    return redirect(_return_to(request, default))


@login_required
@require_POST
def memory_bulk(request: HttpRequest) -> HttpResponse:
    """Delete or archive the memories ticked on the list. Deleting asks once more (on a
    page of its own, so it works without JavaScript) and can then be undone for a few
    seconds, each memory on its own."""
    subject = _subject(request)
    form = BulkForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(str(m) for ms in form.errors.values() for m in ms))
        return redirect(_return_to(request, reverse("memory-list")))
    records = [
        r
        for r in (
            memory_get_for_user(subject=subject, record_id=i) for i in form.cleaned_data["ids"]
        )
        if r is not None and r.status_reason != ReasonCode.DELETION_PENDING
    ]
    # One entry per memory, whichever of its versions were ticked.
    by_lineage = {r.lineage_id: r for r in records}
    records = list(by_lineage.values())
    action = form.cleaned_data["action"]
    if action == "delete" and not form.cleaned_data["confirmed"]:
        return render(
            request,
            "memory/bulk_confirm.html",
            {
                "records": records,
                "next": _return_to(request, reverse("memory-list")),
                "undo_seconds": settings.ENGRAM["DELETE_UNDO_SECONDS"],
            },
        )
    if action == "delete":
        for record in records:
            user_memory.memory_delete_with_undo(user=request.user, subject=subject, record=record)
        messages.success(
            request,
            ngettext(
                "%(n)d memory is being deleted. You can undo it for a few seconds below.",
                "%(n)d memories are being deleted. You can undo each for a few seconds below.",
                len(records),
            )
            % {"n": len(records)},
        )
    else:
        archived = sum(
            user_memory.memory_archive(user=request.user, subject=subject, record=r) > 0
            for r in records
        )
        messages.success(
            request,
            ngettext(
                "%(n)d memory archived: agents no longer use it.",
                "%(n)d memories archived: agents no longer use them.",
                archived,
            )
            % {"n": archived},
        )
    return redirect(_return_to(request, reverse("memory-list")))
