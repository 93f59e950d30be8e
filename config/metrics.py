"""``GET /metrics``: Prometheus text format, for a scraper only.

Guarded by ``ENGRAM_METRICS_TOKEN`` or ``ENGRAM_METRICS_ALLOW_FROM`` (core.observability
.django); with neither set the endpoint answers 404 like any unknown path.

Besides the process's counters and histograms (summed over processes with
``PROMETHEUS_MULTIPROC_DIR``), a scrape reads from the database, at scrape time:
quarantine and conflict queue sizes, index lag, dead letters by task, failed deletion
verifications, and the database's own state (self-test, start time, connections).

Row-level security hides every tenant's rows until a tenant is set, so the per-tenant
figures are summed over tenants (``engram_tenant_ids()``, a SECURITY DEFINER lookup of ids),
one short transaction each, at most ``ENGRAM_METRICS_MAX_TENANTS`` of them per scrape. No
label carries a tenant id: totals only."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterator

from django.conf import settings
from django.db import DatabaseError, connection
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from core.observability import metrics
from core.observability.django import metrics_access_allowed

logger = logging.getLogger(__name__)

REQUIRED_EXTENSIONS = ("vector", "pg_trgm", "btree_gist")


class DatabaseCollector(Collector):
    """Figures read from PostgreSQL when Prometheus scrapes."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        yield from self._server()
        yield from self._tenants()
        yield from self._quality()

    def _quality(self) -> Iterator[GaugeMetricFamily]:
        """The quality inspector's findings and canaries (memory/services/inspector)."""
        from memory.services.inspector.metrics import quality_metric_families

        limit = settings.ENGRAM_OBSERVABILITY["METRICS_MAX_TENANTS"]
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT id FROM engram_tenant_ids()")
                tenant_ids = [row[0] for row in cursor.fetchall()][:limit]
            yield from quality_metric_families(tenant_ids)
        except DatabaseError as exc:
            logger.warning("metrics: quality figures unavailable (%s)", type(exc).__name__)

    def _server(self) -> Iterator[GaugeMetricFamily]:
        self_test = GaugeMetricFamily(
            "engram_database_self_test",
            "1 when the database answers and has vector, pg_trgm and btree_gist installed.",
        )
        started = GaugeMetricFamily(
            "engram_database_start_time_seconds",
            "When the PostgreSQL server started (a change means it restarted).",
        )
        conns = GaugeMetricFamily(
            "engram_database_connections",
            "Connections to Engram's database by state (pool usage).",
            labels=["state"],
        )
        max_conns = GaugeMetricFamily(
            "engram_database_max_connections", "The server's max_connections."
        )
        try:
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT count(*) FROM pg_extension WHERE extname = ANY(%s)",
                    [list(REQUIRED_EXTENSIONS)],
                )
                installed = cursor.fetchone()[0]
                cursor.execute(
                    "SELECT extract(epoch FROM pg_postmaster_start_time()), "
                    "current_setting('max_connections')::int"
                )
                start, maximum = cursor.fetchone()
                cursor.execute(
                    "SELECT coalesce(state, 'unknown'), count(*) FROM pg_stat_activity "
                    "WHERE datname = current_database() GROUP BY 1"
                )
                states = cursor.fetchall()
        except DatabaseError as exc:
            logger.warning("metrics: database unavailable (%s)", type(exc).__name__)
            self_test.add_metric([], 0)
            yield self_test
            return
        self_test.add_metric([], 1 if installed == len(REQUIRED_EXTENSIONS) else 0)
        started.add_metric([], float(start))
        max_conns.add_metric([], maximum)
        for state, n in states:
            conns.add_metric([metrics.code(state.replace(" ", "_"))], n)
        yield from (self_test, started, conns, max_conns)

    def _tenants(self) -> Iterator[GaugeMetricFamily]:
        from core.tenancy import tenant_context
        from governance.selectors import QUARANTINE_STATUSES
        from memory.models import DeadLetter, DeletionRequest, DeletionStatus, MemoryRecord
        from memory.services.index_maintenance import index_lag_of

        queues = GaugeMetricFamily(
            "engram_review_queue_size",
            "Memories waiting for a reviewer: quarantine (incl. pending confirmation) and "
            "conflict (equal-authority contradictions).",
            labels=["queue"],
        )
        lag = GaugeMetricFamily(
            "engram_index_lag_records",
            "Records still waiting for a vector from the active embedding model.",
        )
        lag_age = GaugeMetricFamily(
            "engram_index_lag_oldest_seconds",
            "How long the oldest record still waiting for a vector has waited (0: none).",
        )
        dead = GaugeMetricFamily(
            "engram_dead_letters", "Dead-lettered jobs waiting for an operator.", labels=["task"]
        )
        failed = GaugeMetricFamily(
            "engram_deletion_verification_failed",
            "Deletion requests whose verification still found data.",
        )
        skipped = GaugeMetricFamily(
            "engram_metrics_tenants_skipped",
            "Tenants beyond ENGRAM_METRICS_MAX_TENANTS not counted in this scrape.",
        )
        totals: Counter[str] = Counter()
        oldest_age = 0.0
        dead_by_task: Counter[str] = Counter()
        limit = settings.ENGRAM_OBSERVABILITY["METRICS_MAX_TENANTS"]
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT id FROM engram_tenant_ids()")
                tenant_ids = [row[0] for row in cursor.fetchall()]
            for tenant_id in tenant_ids[:limit]:
                with tenant_context(tenant_id):
                    q = MemoryRecord.objects.filter(
                        tenant_id=tenant_id, status__in=QUARANTINE_STATUSES
                    ).aggregate(
                        quarantine=Count("id", filter=Q(conflicts_with__isnull=True)),
                        conflict=Count("id", filter=Q(conflicts_with__isnull=False)),
                    )
                    totals["quarantine"] += q["quarantine"]
                    totals["conflict"] += q["conflict"]
                    pending = index_lag_of(tenant_id)
                    totals["lag"] += pending.records
                    oldest_age = max(oldest_age, pending.age_seconds)
                    totals["failed"] += DeletionRequest.objects.filter(
                        tenant_id=tenant_id, status=DeletionStatus.FAILED
                    ).count()
                    for row in (
                        DeadLetter.objects.filter(tenant_id=tenant_id)
                        .values("task_name")
                        .annotate(n=Count("id"))
                    ):
                        dead_by_task[metrics.code(row["task_name"])] += row["n"]
        except DatabaseError as exc:
            logger.warning("metrics: tenant figures unavailable (%s)", type(exc).__name__)
            return
        queues.add_metric(["quarantine"], totals["quarantine"])
        queues.add_metric(["conflict"], totals["conflict"])
        lag.add_metric([], totals["lag"])
        lag_age.add_metric([], round(oldest_age, 1))
        failed.add_metric([], totals["failed"])
        for task, n in sorted(dead_by_task.items()):
            dead.add_metric([task], n)
        skipped.add_metric([], max(0, len(tenant_ids) - limit))
        yield from (queues, lag, lag_age, dead, failed, skipped)


def metrics_view(request: HttpRequest) -> HttpResponse:
    if not metrics_access_allowed(request):
        raise Http404
    registry = metrics.registry_for_scrape()
    body = generate_latest(registry) + generate_latest(_database_registry())
    return HttpResponse(body, content_type=CONTENT_TYPE_LATEST)


def _database_registry():
    from prometheus_client import CollectorRegistry

    registry = CollectorRegistry(auto_describe=False)
    registry.register(DatabaseCollector())
    return registry
