"""The recall's trace and audit row committed without waiting for the disk
(``ENGRAM_RECALL_ASYNC_TRACE_COMMIT``; on by default).

An API recall's transaction writes two rows, its trace and its audit event, after the
answer is ranked; its commit then waits for PostgreSQL to flush them to disk, the one
write of the request on its critical path. With this setting the request's transaction
commits with ``synchronous_commit = off`` (a transaction-local setting, made while the
question is embedded): the commit returns once the rows are in the write-ahead log's
buffers, and PostgreSQL's WAL writer flushes them within ``3 x wal_writer_delay``
(0.6 s by default). Nothing else changes: the answer, the rows, their atomicity, and
what other sessions see.

What it gives up: if the *database server* crashes in that window, the trace and the
audit event of recalls answered just before are lost (the database stays consistent;
an agent's feedback on such a trace is then 404). An application crash loses nothing.
A recall's trace and read-audit row are an access log, not governed memory, and
PostgreSQL's documentation suggests exactly this for such rows; so it is on. Memory
writes, deletions and their audit rows always wait: this switch is transaction-local, in
the recall's own transaction, and any later synchronous commit flushes the WAL before it
too (``bench/perf/trace_commit_crash.py`` crashes the server and counts what survived;
``tests/memory/test_recall_trace_commit.py`` reads the session's setting at every write).
A deployment that must not lose a read's audit row sets it ``false``.

Only an API request's transaction (``in_tenant_transaction``) is switched, where recall's
rows (and the key's last-used time) are the request's only writes; recall inside another
caller's transaction never changes that transaction's durability."""

from __future__ import annotations

from django.conf import settings
from django.db import connections, router

from memory.models import RecallTrace


def enabled() -> bool:
    return bool(settings.ENGRAM_RETRIEVAL["ASYNC_TRACE_COMMIT"])


def commit_without_waiting() -> None:
    """The current transaction (on the trace's database) commits without waiting for its
    WAL flush."""
    connection = connections[router.db_for_write(RecallTrace)]
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config('synchronous_commit', 'off', true)")
