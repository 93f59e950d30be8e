"""Writes sent together with their request's commit: one round trip instead of two.

A request whose last write is known before its response is rendered (a recall's trace and
read-audit row) can hand that write to the request's transaction instead of running it
at once: ``TenantContextMiddleware`` opens the transaction inside ``request_transaction``,
and when the response is ready it sends the queued writes and the COMMIT in one psycopg
pipeline: the INSERT and the COMMIT go to PostgreSQL together and the request waits for
one answer instead of two (on a busy machine each round trip is also a
wake-up of the backend and of the request's thread). The same statements, in the same
transaction, in the same order relative to each other; a write that fails fails the
commit, and the request with it, as a failing COMMIT would.

Only the outermost transaction takes writes (a request inside a caller's transaction,
a test's among them, writes at once), and only while the setting is on
(``ENGRAM_RECALL_TRACE_WITH_COMMIT``). The queue lives on the request's connection for the
request's duration: no process-wide state."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from django.conf import settings

_QUEUE = "engram_with_commit"


def enabled() -> bool:
    return bool(settings.ENGRAM_RETRIEVAL["TRACE_WITH_COMMIT"])


def at_commit(connection, write: Callable[[], None]) -> bool:
    """Queue ``write`` (statements on ``connection``, nothing read back) to be sent with
    the commit of the request's transaction. False when no request transaction takes it:
    then the caller writes at once."""
    queued = getattr(connection, _QUEUE, None)
    if queued is None:
        return False
    queued.append(write)
    return True


@contextmanager
def request_transaction(connection, *, outermost: bool) -> Iterator[Callable[[], None]]:
    """Around the request's ``transaction.atomic()`` block (entered inside this one):
    yields ``send``, to be called as the block's last statement when the transaction is to
    commit. ``send`` runs the queued writes and the COMMIT in one psycopg pipeline, whose
    single sync is the one round trip; the block's own commit then finds the transaction
    already committed and sends nothing (psycopg's ``commit`` on an idle connection), and
    Django runs its ``on_commit`` callbacks as usual. A write or a COMMIT that fails raises
    inside the block: Django rolls back (nothing is left to roll back) and the request
    fails as it would on a failing COMMIT. Nothing queued: ``send`` does nothing."""
    if not (outermost and enabled()):
        yield lambda: None
        return
    queued: list[Callable[[], None]] = []

    def send() -> None:
        writes = list(queued)
        queued.clear()
        setattr(connection, _QUEUE, None)
        if not writes:
            return
        with connection.connection.pipeline():
            for write in writes:
                write()
            # Never prepared: PostgreSQL does not prepare transaction control.
            connection.connection.execute("COMMIT", prepare=False)

    setattr(connection, _QUEUE, queued)
    try:
        yield send
    finally:
        setattr(connection, _QUEUE, None)
