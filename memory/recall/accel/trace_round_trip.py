"""The recall's trace and audit row sent together, in one round trip
(``ENGRAM_RECALL_TRACE_ONE_ROUND_TRIP``).

They are the only writes of a recall and come after its answer is ranked: two ORM
inserts, each waiting for PostgreSQL's answer before the next is sent. With this setting
they are sent in psycopg's pipeline mode (``Connection.pipeline()``, psycopg's public
API, on the connection Django opened): the trace's insert does not wait for its answer;
the audit row's insert, which reads its id back, then waits for both. The same
statements, the same rows, in the same transaction; an error in either is raised as
before (at the audit row's insert at the latest). A database driver without pipeline
mode (psycopg 2) takes the reference's two round trips."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.db import connections, router


def enabled() -> bool:
    return bool(settings.ENGRAM_RETRIEVAL["TRACE_ONE_ROUND_TRIP"])


@contextmanager
def one_round_trip(model) -> Iterator[None]:
    """Statements on ``model``'s database inside this block are pipelined."""
    connection = connections[router.db_for_write(model)]
    connection.ensure_connection()
    pipeline = getattr(connection.connection, "pipeline", None)
    if pipeline is None:
        yield
        return
    with pipeline():
        yield
