"""Recall's largest statements prepared on their connection
(``ENGRAM_RECALL_PREPARED_STATEMENTS``).

Django sends every statement as text with its values inlined (psycopg's client-side
binding), so PostgreSQL parses, rewrites and plans it again on every request. For the
lexical route's BM25 statement, the trigram and scope reads, recall's context and the
found records, that planning costs about as much backend CPU as running them (1.5 ms of
the BM25 statement's 3.5 ms on LoCoMo's questions: docs/performance.md, issue 39, sixth
round), on the cores the question's embedding needs.

``cursor()`` gives a cursor on the same connection (the request's transaction, its
tenant and role) that sends the values apart from the text (server-side binding) and
prepares each statement it runs: psycopg names it on the connection the first time its
text and parameter types are seen and runs it by name after that; PostgreSQL plans it
afresh for its first executions and then keeps a generic plan if that costs no more
(``plan_cache_mode`` auto). The text is the reference's, character for character: the
rows are the same. What is kept is the connection's own (psycopg's per-connection
statement cache, at most ``prepared_max`` statements, and the server's), gone with the
connection; psycopg drops them on a rollback. Django's own cursors, which never prepare,
are untouched.

Off: ``connection.cursor()``, as everywhere else. Off too behind a pooler in
transaction mode that does not keep prepared statements (PgBouncer before 1.21).

``ENGRAM_RECALL_GENERIC_PLANS``: ``plan_generically()`` sets ``plan_cache_mode`` to
``force_generic_plan`` for the rest of the transaction (``set_config(..., true)``), so
each prepared statement is planned once per connection and shape, at its first run, and
run on that plan after. With PostgreSQL's own choice (``auto``) a shape is planned afresh
on each of its first five runs on every connection, and recall's context, whose generic
plan PostgreSQL estimates dearer than its custom ones, is planned on every request; its
generic plan reads the same rows through the same indexes (docs/performance.md, issue 39,
seventh round). Only named prepared statements (and PL/pgSQL's saved plans, none of which
run in a recall) follow ``plan_cache_mode``: Django's own statements, sent as text, are
planned as before. The setting dies with the transaction."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Any

import psycopg
from django.conf import settings
from django.db.backends.utils import CursorDebugWrapper, CursorWrapper

from core.sqltemplate import QueryTemplate, read_connection

# The connection's threshold for preparing a statement by its count of runs: never (the
# cursors below prepare at once; Django's client-side cursors never prepare). psycopg
# prepares nothing, even when asked, while the threshold is None (Django's default).
_BY_COUNT_NEVER = sys.maxsize


class _PreparingCursor(psycopg.Cursor):
    """Server-side binding; every statement prepared (``prepare=True``)."""

    def execute(self, query, params=None, *, prepare=True, binary=None):
        return super().execute(query, params, prepare=prepare, binary=binary)


class _LoggedPreparing(CursorDebugWrapper):
    """Django's query log (DEBUG, ``CaptureQueriesContext``) for a preparing cursor: the
    statement with its values, as the log shows every other. Django reads it back from
    the cursor, and psycopg keeps no text for a statement run by name."""

    def execute(self, sql, params=None):
        with self.debug_sql(self.db.ops.compose_sql(sql, params), params):
            return CursorWrapper.execute(self, sql, params)


def enabled() -> bool:
    """On, with compiled queries (``core.sqltemplate``): then a statement's text repeats
    from one request to the next, its values apart. Without them the ORM builds some
    statements with their values in the text, which would be prepared to run once."""
    retrieval = settings.ENGRAM_RETRIEVAL
    return bool(retrieval["PREPARED_STATEMENTS"] and retrieval["COMPILED_QUERIES"])


def cursor(connection=None):
    """A cursor on ``connection`` (the read connection by default) whose statements are
    prepared, when the setting is on and the connection is psycopg's; else its usual
    cursor. Wrapped as Django wraps its own (execute wrappers and query logging apply)."""
    connection = connection or read_connection()
    if not enabled() or connection.vendor != "postgresql":
        return connection.cursor()
    connection.validate_thread_sharing()
    connection.ensure_connection()
    raw = connection.connection
    if not isinstance(raw, psycopg.Connection):
        return connection.cursor()
    if raw.prepare_threshold is None:
        raw.prepare_threshold = _BY_COUNT_NEVER
    preparing = _PreparingCursor(raw)
    if connection.queries_logged:
        return _LoggedPreparing(preparing, connection)
    return connection.make_cursor(preparing)


def generic_plans() -> bool:
    """``plan_generically()`` has work to do: statements are prepared and the setting is on."""
    return enabled() and bool(settings.ENGRAM_RETRIEVAL["GENERIC_PLANS"])


def plan_generically(connection=None) -> None:
    """The prepared statements of the current transaction on ``connection`` (the read
    connection by default) planned generically from their first run, when
    ``generic_plans()``; else nothing. Call it inside the transaction (recall's): outside
    one the setting lasts one statement."""
    if not generic_plans():
        return
    with cursor(connection) as preparing:
        preparing.execute(_GENERIC_PLANS, [])


_GENERIC_PLANS = "SELECT set_config('plan_cache_mode', 'force_generic_plan', true)"


def statement(template: QueryTemplate, shape: tuple, values: Mapping[str, Any]) -> tuple[str, list]:
    """``template``'s SQL and parameters for ``shape`` and ``values``, to be prepared: with
    ``generic_plans()``, its constants written into the text (``sql_with_constants``), so
    that the plan made once knows them as a custom plan would; else the reference's."""
    if generic_plans():
        return template.sql_with_constants(shape, values)
    return template.sql_with_params(shape, values)


def rows(template: QueryTemplate, shape: tuple, values: Mapping[str, Any]) -> Sequence[tuple]:
    """``template.rows(shape, values)``, its statement prepared (``cursor()``)."""
    if not enabled():
        return template.rows(shape, values)
    sql, params = statement(template, shape, values)
    with cursor() as preparing:
        preparing.execute(sql, params)
        return preparing.fetchall()
