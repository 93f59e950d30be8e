"""Reads from a PostgreSQL streaming replica (``DATABASE_REPLICA_URL``), writes to the primary.

What goes where:
- every write, and every read outside a :func:`replica_reads` block, uses the primary
  (``default``). A read inside a write transaction is therefore always on the primary;
- recall runs inside ``replica_reads(tenant_id, subject_id)``; its reads go to the
  replica when the replica may serve that subject, else to the primary.

The staleness rule ("read your own writes", fenced by WAL position, not by a clock):
1. every write transaction that changes a subject's memories (``candidates_submit``: all
   agent and page writes, corrections and forgets) and every deletion job calls
   :func:`subject_fence`, and so does every ORM save of a ``Subject`` (consent withdrawn,
   memory paused) or a ``MemoryRecord`` (the router sees the instance); when that transaction commits, the primary's current WAL
   position (``pg_current_wal_lsn()``, at or past the commit record) is stored for the
   subject in the shared cache (Redis) for ``ENGRAM_REPLICA_FENCE_SECONDS``;
2. a read block for a subject goes to the replica only if the replica has *replayed*
   past that position (``pg_last_wal_replay_lsn()``). Otherwise it goes to the primary.
   So a memory deleted by a request that has returned is never recalled from the
   replica: the fence was stored before the response was sent, and the replica serves
   the subject again only once it has replayed the deletion;
3. every subject: the replica is skipped while its replay is more than
   ``ENGRAM_REPLICA_MAX_LAG_SECONDS`` behind (bounded staleness for other writers'
   changes, e.g. background extraction);
4. failing closed: no shared cache (process-local memory cache), a cache error, or a
   replica that cannot be reached → the primary.

Fence expiry: a fence older than ``ENGRAM_REPLICA_FENCE_SECONDS`` (default 1 h) is
dropped; a replica that lags by more than rule 3's bound is skipped anyway, so an expired
fence can never expose a stale subject unless MAX_LAG_SECONDS >= FENCE_SECONDS.

Row-level security: the replica connection is separate from the request's, so the read
block opens its own read-only transaction on it and sets the tenant (and, for an owner
connection, the application role) there, as ``core.tenancy`` does on the primary.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, connections, transaction

from core.observability import metrics

logger = logging.getLogger(__name__)

PRIMARY = "default"
REPLICA = "replica"
_read_alias: ContextVar[str | None] = ContextVar("engram_read_alias", default=None)
# Models whose ORM saves change what recall may return for their subject.
FENCED_MODELS = frozenset({"memory.Subject", "memory.MemoryRecord"})


class PrimaryReplicaRouter:
    """``DATABASE_ROUTERS`` entry when a replica is configured."""

    def db_for_read(self, model, **hints):
        return _read_alias.get() or PRIMARY

    def db_for_write(self, model, **hints):
        # Saving a subject (consent withdrawn, memory paused) or a memory record through
        # the ORM fences that subject too, whichever service did it.
        instance = hints.get("instance")
        if instance is not None and model._meta.label in FENCED_MODELS:
            subject_id = instance.pk if model._meta.label == "memory.Subject" else None
            subject_id = subject_id or getattr(instance, "subject_id", None)
            tenant_id = getattr(instance, "tenant_id", None)
            if subject_id and tenant_id:
                subject_fence(tenant_id, subject_id)
        return PRIMARY

    def allow_relation(self, obj1, obj2, **hints):
        return True  # one database, two copies

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        return db == PRIMARY


def replica_configured() -> bool:
    return REPLICA in settings.DATABASES


def _fence_key(tenant_id: uuid.UUID | str, subject_id: uuid.UUID | str) -> str:
    return f"engram:replica-fence:{tenant_id}:{subject_id}"


def _lsn(text: str | None) -> int | None:
    """'16/B374D848' -> a comparable integer."""
    if not text:
        return None
    high, _, low = text.partition("/")
    return (int(high, 16) << 32) | int(low, 16)


def _shared_cache() -> bool:
    backend = settings.CACHES["default"]["BACKEND"]
    return not backend.endswith(("LocMemCache", "DummyCache"))


def subject_fence(tenant_id: uuid.UUID | str, subject_id: uuid.UUID | str) -> None:
    """Call inside a write transaction that changes ``subject_id``'s memories: once it
    commits, reads for the subject stay on the primary until the replica has replayed it."""
    if not replica_configured():
        return

    def store() -> None:
        try:
            with connections[PRIMARY].cursor() as cursor:
                cursor.execute("SELECT pg_current_wal_lsn()::text")
                position = cursor.fetchone()[0]
            cache.set(
                _fence_key(tenant_id, subject_id),
                position,
                timeout=settings.ENGRAM_REPLICA["FENCE_SECONDS"],
            )
        except Exception as exc:  # the read side fails closed only on a cache *error*
            logger.error(
                "replica fence for subject %s not stored (%s)", subject_id, type(exc).__name__
            )

    transaction.on_commit(store, using=PRIMARY)


def _choose(tenant_id: uuid.UUID | str, subject_id: uuid.UUID | str) -> tuple[str, str]:
    """(alias, reason) for a read block of ``subject_id``."""
    if not _shared_cache():
        return PRIMARY, "no_shared_cache"
    try:
        fence = _lsn(cache.get(_fence_key(tenant_id, subject_id)))
    except Exception as exc:
        logger.warning(
            "replica fence unreadable (%s): reading from the primary", type(exc).__name__
        )
        return PRIMARY, "fence_unreadable"
    try:
        with connections[REPLICA].cursor() as cursor:
            cursor.execute(
                "SELECT pg_is_in_recovery(), pg_last_wal_replay_lsn()::text, "
                "CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0 "
                "ELSE coalesce(extract(epoch FROM now() - pg_last_xact_replay_timestamp()), 0) "
                "END"
            )
            in_recovery, replayed_text, lag_seconds = cursor.fetchone()
    except DatabaseError as exc:
        logger.warning("replica unavailable (%s): reading from the primary", type(exc).__name__)
        return PRIMARY, "replica_unavailable"
    if not in_recovery:
        return PRIMARY, "replica_not_standby"  # promoted or misconfigured: never split reads
    if float(lag_seconds) > settings.ENGRAM_REPLICA["MAX_LAG_SECONDS"]:
        return PRIMARY, "replica_lagging"
    replayed = _lsn(replayed_text)
    if fence is not None and (replayed is None or replayed < fence):
        return PRIMARY, "subject_fenced"
    return REPLICA, "replica_ok"


@contextmanager
def replica_reads(tenant_id: uuid.UUID | str, subject_id: uuid.UUID | str) -> Iterator[str]:
    """Route the block's reads to the replica if it may serve ``subject_id`` (see the
    module docstring); yields the alias chosen. Writes inside still go to the primary."""
    if not replica_configured() or _read_alias.get() is not None:
        yield PRIMARY
        return
    alias, reason = _choose(tenant_id, subject_id)
    metrics.REPLICA_READS.labels("replica" if alias == REPLICA else "primary", reason).inc()
    if alias == PRIMARY:
        yield PRIMARY
        return
    with transaction.atomic(using=REPLICA):
        with connections[REPLICA].cursor() as cursor:
            if settings.ENGRAM["DB_ASSUME_APP_ROLE"]:
                cursor.execute(
                    "SELECT set_config('role', %s, true)", [settings.ENGRAM["DB_APP_ROLE"]]
                )
            cursor.execute("SELECT set_config('engram.tenant_id', %s, true)", [str(tenant_id)])
        token = _read_alias.set(REPLICA)
        try:
            yield REPLICA
        finally:
            _read_alias.reset(token)
