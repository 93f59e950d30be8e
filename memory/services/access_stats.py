"""Access statistics of recalled memories (how often, and when last, each was recalled),
written off the request.

Recall must not write to the memory rows it returns: an UPDATE inside the recall
transaction costs a round trip, takes row locks that concurrent recalls of the same
memories (and writes superseding them) then wait for, and turns every read into a
write. Instead, when a recall's transaction commits, its ids are handed to one daemon
thread per process, which folds them (count per record, latest time) and writes them in
one UPDATE per tenant every ``FLUSH_SECONDS`` — ids sorted, so two flushers never
deadlock. The thread runs at a low priority, like the embedding thread.

What this trades: statistics lag recall by about a second, and a process that dies
loses at most its last unflushed second of counts. They are statistics (they feed decay
and importance, never permission or validity), and every recall's ids are also kept in
its ``RecallTrace``.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime

from django.db import connection, transaction

from core.tenancy import tenant_context
from memory.services.background import BatchingThread

FLUSH_SECONDS = 1.0
STATS_THREAD_NICE = 15

# (tenant_id, record ids, when)
_Access = tuple[uuid.UUID, tuple[uuid.UUID, ...], datetime]


def access_stats_write(accesses: Sequence[_Access]) -> int:
    """Fold ``accesses`` and write them: one UPDATE per tenant, on this thread's
    connection. Only the statistics columns are touched. Returns the rows updated."""
    folded: dict[uuid.UUID, dict[uuid.UUID, list]] = defaultdict(dict)
    for tenant_id, ids, at in accesses:
        per_record = folded[tenant_id]
        for rid in ids:
            count_last = per_record.setdefault(rid, [0, at])
            count_last[0] += 1
            count_last[1] = max(count_last[1], at)
    updated = 0
    for tenant_id, per_record in folded.items():
        rows = sorted(per_record.items(), key=lambda kv: str(kv[0]))
        with tenant_context(tenant_id), connection.cursor() as cursor:
            cursor.execute(
                """
                UPDATE memory_memoryrecord AS r
                SET access_count = r.access_count + a.n,
                    last_accessed_at = GREATEST(COALESCE(r.last_accessed_at, a.at), a.at)
                FROM unnest(%s::uuid[], %s::int[], %s::timestamptz[]) AS a(id, n, at)
                WHERE r.id = a.id AND r.tenant_id = %s
                """,
                [
                    [rid for rid, _ in rows],
                    [n for _, (n, _) in rows],
                    [at for _, (_, at) in rows],
                    tenant_id,
                ],
            )
            updated += cursor.rowcount
    return updated


# One writer thread per process (started on the first committed recall); a second's worth
# of recalls is folded into one write.
_writer = BatchingThread(
    "engram-access-stats",
    access_stats_write,
    nice=STATS_THREAD_NICE,
    gather_seconds=FLUSH_SECONDS,
)


def access_recorded(tenant_id: uuid.UUID, record_ids: Sequence[uuid.UUID], at: datetime) -> None:
    """Called by recall inside its transaction: the ids reach the writer thread only if
    that transaction commits (a failed recall counts nothing)."""
    if record_ids:
        access = (tenant_id, tuple(record_ids), at)
        transaction.on_commit(lambda: _writer.put(access))


def access_stats_join() -> None:
    _writer.join()
