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

import json
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

from core.actor import Actor
from core.codes import ReasonCode
from memory.forms import (
    AgentAccessForm,
    BulkForm,
    CorrectForm,
    EraseAllForm,
    ImportForm,
    MemoryFilterForm,
    RememberForm,
    WithdrawConsentForm,
)
from memory.labels import receipt_sentence
from memory.models import (
    AgentAccess,
    DeletionScope,
    DeletionStatus,
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
    subject_erasure_preview,
)
from memory.services import user_memory
from memory.services.deletion import subject_erase
from memory.services.user_memory import reason_text
from memory.timeline import memory_timelines

PAGE_SIZE = 20


def _subject(request: HttpRequest) -> Subject:
    """The user's own subject in their active tenant, created on first need; 404 for a
    signed-in user who belongs to no tenant."""
    if request.tenant_id is None:
        raise Http404("not a member of any tenant")
    return user_memory.user_subject_ensure(user=request.user, tenant_id=request.tenant_id)


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


# --- list --------------------------------------------------------------------------------


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


# --- detail ------------------------------------------------------------------------------


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


# --- confirm, archive, delete and undo ---------------------------------------------------


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


# --- export and import -------------------------------------------------------------------


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


@login_required
@require_http_methods(["GET", "POST"])
def memory_import(request: HttpRequest) -> HttpResponse:
    """Import from ChatGPT (a pasted list), Mem0 / OpenMemory or Engram (a JSON file):
    every item goes through the write policy; the page then lists what was kept, what
    waits for the user's confirmation and what was refused, each with the reason."""
    subject = _subject(request)
    results = None
    if request.method == "POST":
        form = ImportForm(request.POST, request.FILES)
        if form.is_valid():
            results = user_memory.memories_import(
                user=request.user,
                subject=subject,
                items=form.cleaned_data["items"],
                source=form.cleaned_data["source"],
                purpose=form.cleaned_data["purpose"],
            )
    else:
        form = ImportForm()
    summary = None
    if results is not None:
        summary = {
            "kept": [r for r in results if r.kept],
            "waiting": [r for r in results if r.waiting],
            "refused": [r for r in results if not r.kept and not r.waiting],
        }
    return render(
        request,
        "memory/import.html",
        {"form": form, "summary": summary, "subject": subject},
        status=400 if request.method == "POST" and not form.is_valid() else 200,
    )


# --- settings: pause, consent, agents ----------------------------------------------------


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


# --- delete everything, and the receipts -------------------------------------------------


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
