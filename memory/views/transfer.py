"""Taking memories out and bringing them in: the export (JSON, CSV) and the import."""

from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods

from memory.forms import (
    ImportForm,
)
from memory.services import user_memory
from memory.views.account import memory_agent_access as memory_agent_access
from memory.views.account import memory_consent_give as memory_consent_give
from memory.views.account import memory_consent_withdraw as memory_consent_withdraw
from memory.views.account import memory_erase_all as memory_erase_all
from memory.views.account import memory_erase_receipt as memory_erase_receipt
from memory.views.account import memory_pause as memory_pause
from memory.views.account import memory_settings as memory_settings
from memory.views.common import _subject


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
