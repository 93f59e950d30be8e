"""Index health: records waiting too long for a vector, vectors of models recall no longer
serves, and dead rows in the vector table (pgvector's HNSW index keeps pointing at them
until VACUUM; the seeds ask for VACUUM on vector columns). Reads only; the actions are in
``actions.py``."""

from __future__ import annotations

import uuid
from datetime import datetime

from django.db import DatabaseError, connection, transaction
from django.db.models import Count, Min, Q

from memory.models import FindingKind, FindingSeverity, MemoryEmbedding
from memory.selectors import active_model_id, indexing_model_ids
from memory.services.indexing import _pending

from .findings import Found, conf

VECTOR_TABLE = "memory_memoryembedding"


def index_lag(tenant_id: uuid.UUID, now: datetime) -> list[Found]:
    """Records still without a vector from the model recall serves whose wait exceeds
    ``INDEX_LAG_SECONDS`` (a lost job or a stuck worker: the index sweep should have
    caught up long before). Recall still finds them by words, not by meaning."""
    found = _pending(Q(tenant_id=tenant_id), active_model_id()).aggregate(
        n=Count("id"), oldest=Min("recorded_at")
    )
    if not found["n"]:
        return []
    age = (now - found["oldest"]).total_seconds()
    if age < conf("INDEX_LAG_SECONDS"):
        return []
    return [
        Found(
            FindingKind.INDEX_LAG,
            FindingSeverity.WARNING,
            (),
            None,
            {"records": found["n"], "oldest_seconds": round(age)},
        )
    ]


def old_model_vectors(tenant_id: uuid.UUID) -> list[Found]:
    """Vectors of this tenant under a model that recall does not serve and no build is
    writing (a retired index version, or a model changed without one): space and
    VACUUM work for nothing."""
    serving = indexing_model_ids()
    rows = list(
        MemoryEmbedding.objects.filter(tenant_id=tenant_id)
        .exclude(model_id__in=serving)
        .values("model_id")
        .annotate(n=Count("id"))
        .order_by("model_id")
    )
    if not rows:
        return []
    return [
        Found(
            FindingKind.OLD_MODEL_VECTORS,
            FindingSeverity.INFO,
            (),
            None,
            {
                "vectors": sum(r["n"] for r in rows),
                "models": {r["model_id"]: r["n"] for r in rows},
                "serving": serving[0],
            },
        )
    ]


def vector_table_stats() -> dict[str, int] | None:
    """Live and dead rows of the vector table and its indexes' size, from PostgreSQL's
    statistics (no tenant data: the statistics views count rows, they do not read
    them). None when the statistics cannot be read."""
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                """SELECT n_live_tup, n_dead_tup, pg_indexes_size(relid),
                          coalesce(extract(epoch FROM greatest(last_vacuum, last_autovacuum)), 0)
                     FROM pg_stat_user_tables WHERE relname = %s""",
                [VECTOR_TABLE],
            )
            row = cursor.fetchone()
    except DatabaseError:
        return None
    if row is None:
        return None
    live, dead, index_bytes, vacuumed = row
    return {
        "live": int(live),
        "dead": int(dead),
        "index_bytes": int(index_bytes or 0),
        "last_vacuum": int(vacuumed),
    }


def index_bloat(stats: dict[str, int] | None = None) -> list[Found]:
    """Dead rows make up at least ``BLOAT_DEAD_RATIO`` of the vector table (and at least
    ``BLOAT_MIN_DEAD``): autovacuum is behind, and every HNSW search walks past them.
    The table is shared by every tenant; each tenant's report shows it, its numbers are
    the installation's."""
    stats = vector_table_stats() if stats is None else stats
    if stats is None:
        return []
    total = stats["live"] + stats["dead"]
    if not total or stats["dead"] < conf("BLOAT_MIN_DEAD"):
        return []
    ratio = stats["dead"] / total
    if ratio < conf("BLOAT_DEAD_RATIO"):
        return []
    return [
        Found(
            FindingKind.INDEX_BLOAT,
            FindingSeverity.WARNING,
            (),
            None,
            {**stats, "dead_ratio": round(ratio, 4)},
        )
    ]


def vector_table_vacuum() -> bool:
    """Run ``VACUUM (ANALYZE)`` on the vector table; False when inside a transaction
    (VACUUM cannot run there: the caller is a background job, never a request)."""
    if not connection.get_autocommit() or connection.in_atomic_block:
        return False
    with connection.cursor() as cursor:
        cursor.execute(f"VACUUM (ANALYZE) {VECTOR_TABLE}")
    return True
