"""Threads that went quiet are closed as if the agent had closed them (``thread_close``,
with nothing marked for keeping): extraction runs over their events, the session summary
is written through the write policy, and their working memory is dropped.

Quiet means no event of the thread has been received for ``IDLE_CLOSE_SECONDS`` (the time
events arrived, not the time they say they happened: a conversation imported from last
year is not over until it stops arriving). Only threads whose last event arrived within
``IDLE_LOOKBACK_SECONDS`` before that are looked at, so turning this on does not summarise
an installation's whole history at once, and at most ``IDLE_CLOSE_PER_RUN`` threads are
closed per tenant and run (the oldest first; the rest wait for the next run).

A tenant turns it off with the policy ``{"thread_idle_close": false}``; ``0`` seconds turns
it off everywhere. A thread closed by the API is never closed again (its ``ThreadClosure``).
"""

from __future__ import annotations

import logging
import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Exists, Max, OuterRef
from django.utils import timezone

from accounts.models import Tenant
from core.actor import Actor
from memory.models import SourceEvent, Subject, ThreadClosure
from memory.services.thread_close import ThreadCloseRefused, thread_close

logger = logging.getLogger(__name__)


def idle_threads(tenant_id: uuid.UUID, now: datetime) -> list[tuple[uuid.UUID, str]]:
    """(subject id, thread id) of the tenant's quiet, unclosed threads, oldest first."""
    conf = settings.ENGRAM_WORKING_MEMORY
    idle = conf["IDLE_CLOSE_SECONDS"]
    cutoff = now - timedelta(seconds=idle)
    since = cutoff - timedelta(seconds=conf["IDLE_LOOKBACK_SECONDS"])
    closed = ThreadClosure.objects.filter(
        tenant_id=tenant_id, subject_id=OuterRef("subject_id"), thread_id=OuterRef("thread_id")
    )
    rows = (
        SourceEvent.objects.filter(tenant_id=tenant_id, received_at__gte=since)
        .exclude(thread_id="")
        .values("subject_id", "thread_id")
        .annotate(last=Max("received_at"))
        .filter(last__lt=cutoff)
        .annotate(closed=Exists(closed))
        .filter(closed=False)
        .order_by("last", "subject_id", "thread_id")[: conf["IDLE_CLOSE_PER_RUN"]]
    )
    return [(row["subject_id"], row["thread_id"]) for row in rows]


def idle_threads_close(
    *, actor: Actor, tenant_id: uuid.UUID, now: datetime | None = None
) -> dict[str, int]:
    """Close the tenant's quiet threads (caller holds the tenant context). A thread whose
    close is refused or fails is counted and logged by id, and the others still close."""
    if settings.ENGRAM_WORKING_MEMORY["IDLE_CLOSE_SECONDS"] <= 0:
        return {"closed": 0, "failed": 0}
    policy = Tenant.objects.only("policy").get(pk=tenant_id).policy or {}
    if policy.get("thread_idle_close") is False:
        return {"closed": 0, "failed": 0}
    closed = failed = 0
    for subject_id, thread_id in idle_threads(tenant_id, now or timezone.now()):
        subject = Subject.objects.get(tenant_id=tenant_id, pk=subject_id)
        try:
            thread_close(actor=actor, agent_id=None, subject=subject, thread_id=thread_id, keep=[])
            closed += 1
        except ThreadCloseRefused as exc:
            failed += 1
            logger.warning(
                "idle thread close refused",
                extra={
                    "tenant_id": str(tenant_id),
                    "subject_id": str(subject_id),
                    "code": exc.code,
                },
            )
    return {"closed": closed, "failed": failed}
