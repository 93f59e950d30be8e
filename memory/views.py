"""End-user pages."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from memory.models import MemoryStatus


@login_required
def home(request: HttpRequest) -> HttpResponse:
    subjects = request.user.subjects.annotate(
        active_count=Count("memories", filter=Q(memories__status=MemoryStatus.ACTIVE))
    )
    return render(request, "memory/home.html", {"subjects": subjects})
