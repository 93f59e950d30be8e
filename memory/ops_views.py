"""The operations page (/ops/): queue depth, task outcomes, retries, dead letters, index
lag, embedding index versions (re-index progress and golden-set drift; installation-wide,
ids and counts only) and deletion receipts for the signed-in operator's tenant. Staff and tenant admins
only; everyone else gets a 404 (the page's existence is not advertised)."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q, Sum
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from accounts.models import Role
from accounts.tenancy import user_memberships
from core.database import database_state
from core.jobs import celery_app
from memory.models import DeadLetter, DeletionRequest, DeletionStatus, TaskOutcome, TaskRun
from memory.selectors import embedding_index_list, index_lag_detail
from memory.services.index_maintenance import index_lag_of

logger = logging.getLogger(__name__)


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

    app = celery_app()

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
    deletions = list(
        DeletionRequest.objects.filter(tenant_id=tenant_id).order_by("-requested_at")[:20]
    )
    pending = index_lag_of(tenant_id)
    lag = pending.records
    depth = queue_depth()
    lag_detail = index_lag_detail(tenant_id=tenant_id, oldest=pending.oldest) if lag else None
    return {
        "charts": _charts(tenant_id, lag, depth),
        "deletion_rows": [_deletion_summary(d) for d in deletions],
        "eager": settings.CELERY_TASK_ALWAYS_EAGER,
        "queue": settings.CELERY_TASK_DEFAULT_QUEUE,
        "queue_depth": depth,
        "outcomes": [(o.label, outcomes.get(o.value, 0)) for o in TaskOutcome],
        "by_task": by_task,
        "retries": sum(r["retries"] for r in by_task),
        "dead_letters": DeadLetter.objects.filter(tenant_id=tenant_id).order_by("-created_at")[:20],
        "index_lag": lag,
        # How long the oldest record still without a vector has waited (whole minutes).
        "index_lag_minutes": int(pending.age_seconds // 60),
        # Catching up or stuck? When the last vector was written (the count and the age
        # alone look the same either way).
        "lag_detail": lag_detail,
        # Does the database answer, and did it restart since this process first saw it?
        "database": database_state(),
        "index_versions": embedding_index_list(),
        "deletions": deletions,
    }


def _deletion_summary(request: DeletionRequest) -> dict:
    """A receipt in one line ("14 items removed from 6 stores, verified"); the per-store
    counts (non-zero ones only) go in a collapsible list."""
    receipt = request.receipt or {}
    verification = request.verification or {}
    from memory.labels import receipt_sentence

    return {
        "request": request,
        "summary": receipt_sentence(receipt),
        "removed": sum(receipt.values()),
        "stores": sum(1 for n in receipt.values() if n),
        "touched": [(name, n) for name, n in receipt.items() if n],
        "still_found": [(name, n) for name, n in verification.items() if n],
        "verified": request.status == DeletionStatus.DONE,
    }


def _charts(tenant_id, index_lag: int | None, depth: int | None) -> list:
    """Task outcomes per hour (24 h), jobs running per hour, and the index lag."""
    from django.db.models.functions import TruncHour
    from django.utils.translation import gettext as _

    from memory import charts

    now = timezone.now().replace(minute=0, second=0, microsecond=0)
    hours = [now - timedelta(hours=23 - i) for i in range(24)]
    index = {h: i for i, h in enumerate(hours)}
    rows = (
        TaskRun.objects.filter(tenant_id=tenant_id, started_at__gte=hours[0])
        .annotate(hour=TruncHour("started_at"))
        .order_by()
        .values_list("hour", "outcome")
        .annotate(n=Count("id"))
    )
    outcomes: dict[str, list[int]] = {str(o.label): [0] * 24 for o in TaskOutcome}
    labels = {o.value: str(o.label) for o in TaskOutcome}
    for hour, outcome, n in rows:
        if hour in index and outcome in labels:
            outcomes[labels[outcome]][index[hour]] += n
    # Jobs in flight at the end of each hour: started by then and not finished by then.
    runs = list(
        TaskRun.objects.filter(tenant_id=tenant_id, started_at__lt=now + timedelta(hours=1))
        .filter(Q(finished_at__isnull=True) | Q(finished_at__gte=hours[0]))
        .values_list("started_at", "finished_at")
    )
    in_flight = []
    for hour in hours:
        end = hour + timedelta(hours=1)
        in_flight.append(sum(1 for s, f in runs if s < end and (f is None or f >= end)))
    hour_labels = [timezone.localtime(h).strftime("%H:00") for h in hours]
    result = [
        charts.stacked_bars(
            "task-outcomes",
            _("Task outcomes per hour (last 24 hours)"),
            hour_labels,
            outcomes,
        ),
        charts.lines(
            "queue-depth",
            _("Jobs started and not yet finished, per hour"),
            hour_labels,
            {_("In progress or waiting for a retry"): in_flight},
            note=_("Waiting in the broker now: %(n)s") % {"n": "—" if depth is None else depth},
        ),
    ]
    if index_lag is not None:
        result.append(
            charts.bars(
                "index-lag",
                _("Index lag"),
                [(_("Records not yet indexed"), index_lag)],
            )
        )
    return result


@login_required
def ops_home(request: HttpRequest) -> HttpResponse:
    if not _allowed(request):
        raise Http404
    context = _context(request.tenant_id) if request.tenant_id else {"no_tenant": True}
    template = "ops/index.html#stats" if request.htmx else "ops/index.html"
    return render(request, template, context)
