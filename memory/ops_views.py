"""The operations page (/ops/): queue depth, task outcomes, retries, dead letters, index
lag, embedding index versions (re-index progress and golden-set drift; installation-wide,
ids and counts only) and deletion receipts for the signed-in operator's tenant. Staff and tenant admins
only; everyone else gets a 404 (the page's existence is not advertised)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Sum
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from accounts.models import Role
from config.tenancy import user_memberships
from memory.models import DeadLetter, DeletionRequest, TaskOutcome, TaskRun
from memory.selectors import embedding_index_list

logger = logging.getLogger(__name__)

# Set by the retrieval indexer at import time: ``(tenant_id) -> int`` records not yet
# indexed. Until then the page says the figure is not available.
index_lag_provider: Callable[[object], int] | None = None


def _allowed(request: HttpRequest) -> bool:
    user = request.user
    if user.is_staff:
        return True
    return any(
        m.tenant_id == request.tenant_id and m.role == Role.ADMIN for m in user_memberships(user.pk)
    )


def queue_depth() -> int | None:
    """Messages waiting in the default queue; None when running eagerly or unreachable."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return None
    from kombu.exceptions import ChannelError

    from config.celery import app

    try:
        with app.connection_for_read() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
            queue = settings.CELERY_TASK_DEFAULT_QUEUE
            try:
                return conn.default_channel.queue_declare(queue, passive=True).message_count
            except ChannelError:
                return 0  # Redis drops an empty queue's key: nothing waiting
    except Exception as exc:  # broker down: the page still renders
        logger.warning("queue depth unavailable: %s", type(exc).__name__)
        return None


def _context(tenant_id) -> dict:
    since = timezone.now() - timedelta(hours=24)
    runs = TaskRun.objects.filter(tenant_id=tenant_id, started_at__gte=since)
    outcomes = {row["outcome"]: row["n"] for row in runs.values("outcome").annotate(n=Count("id"))}
    by_task = list(
        runs.values("task_name")
        .annotate(n=Count("id"), attempts=Sum("attempts"))
        .order_by("task_name")
    )
    for row in by_task:
        row["retries"] = max(0, (row["attempts"] or 0) - row["n"])
    return {
        "eager": settings.CELERY_TASK_ALWAYS_EAGER,
        "queue": settings.CELERY_TASK_DEFAULT_QUEUE,
        "queue_depth": queue_depth(),
        "outcomes": [(o.label, outcomes.get(o.value, 0)) for o in TaskOutcome],
        "by_task": by_task,
        "retries": sum(r["retries"] for r in by_task),
        "dead_letters": DeadLetter.objects.filter(tenant_id=tenant_id).order_by("-created_at")[:20],
        "index_lag": index_lag_provider(tenant_id) if index_lag_provider else None,
        "index_versions": embedding_index_list(),
        "deletions": DeletionRequest.objects.filter(tenant_id=tenant_id).order_by("-requested_at")[
            :20
        ],
    }


@login_required
def ops_home(request: HttpRequest) -> HttpResponse:
    if not _allowed(request):
        raise Http404
    context = _context(request.tenant_id) if request.tenant_id else {"no_tenant": True}
    template = "ops/index.html#stats" if request.htmx else "ops/index.html"
    return render(request, template, context)
