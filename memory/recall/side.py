"""A route on a second connection, beside the request's, in the request's snapshot.

In a very large scope the lexical route's statement outlasts the question's embedding
(50,000 turns: ~35 ms against ~23), and the HNSW search of the vector route (~10 ms),
which needs the embedding, waited behind it on the request's connection with a core
idle. ``start`` runs it instead on a second connection of this process, from one pool
thread, while the request's connection runs the lexical route: PostgreSQL works on both
cores once the embedding is done.

It reads exactly what the request reads:

- the same snapshot: the request's transaction exports it (``pg_export_snapshot``) and
  the second connection's transaction, REPEATABLE READ and READ ONLY, imports it
  (``SET TRANSACTION SNAPSHOT``) before its first query;
- the same role and tenant (row-level security), copied from the request's transaction;
- only when that is enough: the reads go to the primary (not a replica), and the
  request's transaction has written nothing — a transaction that imports a snapshot does
  not see the exporter's own changes (``pg_current_xact_id_if_assigned()``).

Otherwise ``start`` returns None and the caller runs the route on its own connection, as
it also does when the second connection fails or an earlier request's route is still
running there (``result``). The thread and its connection
are this process's (created on first use, after any fork; a web worker that has served a
large scope holds one more connection to PostgreSQL), and the connection is checked for
age and health before each use, as a request's is (``CONN_MAX_AGE``)."""

from __future__ import annotations

import logging
import os
import re
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

from django.db import DEFAULT_DB_ALIAS, connections, transaction

from core.sqltemplate import read_connection
from core.tenancy import TENANT_SETTING

logger = logging.getLogger(__name__)

T = TypeVar("T")

# How long the request waits for the second connection before running the route itself.
RESULT_SECONDS = 10.0
# pg_export_snapshot()'s identifiers: hexadecimal groups joined by dashes.
_SNAPSHOT = re.compile(r"^[0-9A-F]+(-[0-9A-F]+)+$")
_EXPORT_SQL = (
    "SELECT CASE WHEN pg_current_xact_id_if_assigned() IS NULL THEN pg_export_snapshot() END,"
    " current_setting('role'), current_setting(%s, true)"
)

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()
# The route last handed to the thread: a request never queues behind one still running.
_last: Future | None = None


def start(route: Callable[[], T]) -> Future | None:
    """``route()`` on the second connection, in this transaction's snapshot, role and
    tenant; None if it cannot read exactly what this transaction reads (see the module's
    docstring). One round trip on the request's connection."""
    if read_connection().alias != DEFAULT_DB_ALIAS:
        return None
    connection = connections[DEFAULT_DB_ALIAS]
    if not connection.in_atomic_block:
        return None  # nothing to share: recall always runs in a transaction
    with connection.cursor() as cursor:
        cursor.execute(_EXPORT_SQL, [TENANT_SETTING])
        snapshot, role, tenant = cursor.fetchone()
    if not snapshot or not _SNAPSHOT.match(snapshot):
        return None
    global _last
    with _pool_lock:
        if _last is not None and not _last.done():
            return None  # an earlier route still runs there (it outlived its request)
        _last = _executor_locked().submit(_in_snapshot, snapshot, role, tenant or "", route)
        return _last


def result(future: Future, fallback: Callable[[], T]) -> T:
    """What ``route()`` returned on the second connection, or — if it failed or took
    longer than ``RESULT_SECONDS`` — ``fallback()`` on the request's own connection."""
    try:
        return future.result(timeout=RESULT_SECONDS)
    except Exception as e:  # noqa: BLE001 - any failure there: the route runs here
        # The type only: a database error's message may quote values.
        logger.warning(
            "recall's second connection failed (%s); route run in the request", type(e).__name__
        )
        future.cancel()
        return fallback()


def close() -> None:
    """Close the second connection (it belongs to the pool thread; tests call this before
    their database is dropped)."""
    with _pool_lock:
        pool = _pool
    if pool is not None:
        pool.submit(connections.close_all).result()


def _in_snapshot(snapshot: str, role: str, tenant: str, route: Callable[[], T]) -> T:
    connection = connections[DEFAULT_DB_ALIAS]
    connection.close_if_unusable_or_obsolete()
    with transaction.atomic(using=DEFAULT_DB_ALIAS):
        with connection.cursor() as cursor:
            # The first statements of the transaction, as PostgreSQL requires for both.
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            cursor.execute(f"SET TRANSACTION SNAPSHOT '{snapshot}'")
            cursor.execute(
                "SELECT set_config('role', %s, true), set_config(%s, %s, true)",
                [role, TENANT_SETTING, tenant],
            )
        return route()


def _executor() -> ThreadPoolExecutor:
    with _pool_lock:
        return _executor_locked()


def _executor_locked() -> ThreadPoolExecutor:
    global _pool
    if _pool is None:  # created on first use, never before a fork
        _pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="engram-recall-side")
    return _pool


def _after_fork_in_child() -> None:
    # The parent's thread (and its connection) do not exist in the child.
    global _pool, _pool_lock, _last
    _pool = None
    _last = None
    _pool_lock = threading.Lock()


os.register_at_fork(after_in_child=_after_fork_in_child)
