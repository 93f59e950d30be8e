"""Settings of recall's reads that are not scoring: how its statements reach PostgreSQL
(memory/recall/accel/prepared.py). Kept apart from base.py, which merges them into
``ENGRAM_RETRIEVAL`` (so benches toggle them by name like the other speed-ups); base.py
has already loaded ``.env`` into the environment."""

from __future__ import annotations

import environ

env = environ.Env()

ENGRAM_RECALL_READS = {
    # Recall's largest statements (the lexical route's BM25, the trigram and scope reads,
    # the context, the found records) prepared on their connection and run again by name:
    # PostgreSQL parses and plans each shape once per connection instead of on every
    # request (docs/performance.md, issue 39, sixth round). The same SQL and the same rows;
    # off: each statement sent as text, as Django sends every other. Turn it off behind a
    # pooler in transaction mode that does not keep prepared statements (PgBouncer before
    # 1.21, or without max_prepared_statements).
    "PREPARED_STATEMENTS": env.bool("ENGRAM_RECALL_PREPARED_STATEMENTS", default=True),
    # Those prepared statements planned generically from their first run, in recall's
    # transaction only (``plan_cache_mode``, set transaction-local with recall's context):
    # planned once per connection and shape instead of on each of a shape's first runs,
    # and recall's context, whose custom plans PostgreSQL keeps choosing, no longer
    # planned on every request (docs/performance.md, issue 39, seventh round). The same
    # SQL and rows; off: PostgreSQL's own choice (``auto``). Only with the setting above.
    "GENERIC_PLANS": env.bool("ENGRAM_RECALL_GENERIC_PLANS", default=True),
    # The lexical route runs before the exact and trigram routes, so that its first
    # statement (with ENGRAM_RECALL_LEXEMES_WITH_STATISTICS) also reads the scope's
    # statistics, which those routes ask for when the question names something (whether
    # the scope is large): one round trip fewer for such a question, the slowest shape of
    # LoCoMo's (docs/performance.md, issue 39, eleventh round). The routes are independent:
    # the same hits; off: exact, trigram, recency, lexical, as the reference runs them.
    "LEXICAL_FIRST": env.bool("ENGRAM_RECALL_LEXICAL_FIRST", default=True),
    # With PREPARED_STATEMENTS: the recall's trace and audit row, written after the answer
    # is ranked (on the request's critical path), inserted by a prepared statement too:
    # their ~30 values sent apart from the text, the statement parsed and planned once per
    # connection (memory/recall/trace.py; docs/performance.md, issue 39, eleventh round).
    # The same statement and rows; off: Django's cursor, the values inlined.
    "PREPARED_TRACE": env.bool("ENGRAM_RECALL_PREPARED_TRACE", default=True),
    # An API recall's trace and audit row handed to the request's transaction and sent
    # with its COMMIT in one psycopg pipeline: one round trip after the answer instead of
    # two (core/db/with_commit.py; docs/performance.md, issue 39, fourteenth round). The
    # same statement and rows in the same transaction; off: inserted when recall ends.
    "TRACE_WITH_COMMIT": env.bool("ENGRAM_RECALL_TRACE_WITH_COMMIT", default=False),
    # With ONE_SCOPE_READ: the ids of the records the vector route may return read as
    # their bytes one after another (``uuid_send``) instead of an array of uuids, and
    # matched to the kept vectors' rows by those bytes (memory/recall/accel/scope_read.py,
    # ``ScopeVectors.rows_in``; docs/performance.md, issue 39, thirteenth round): no
    # ``uuid.UUID`` built per id beside the question's embedding. The same rows; off:
    # the array, a set of uuids.
    "PACKED_SEARCHABLE": env.bool("ENGRAM_RECALL_PACKED_SEARCHABLE", default=True),
    # The entity index's levers (recall weights entity_mention / entity_hop, off by
    # default) read in two statements instead of three: both levers' mention rows in one,
    # then the records that may come along as rows of a compiled, prepared statement, a
    # model instance built only for those that join (memory/recall/accel/entity_read.py;
    # docs/recall.md, issue 34, recall36). The same answers; off: the reference's reads.
    "ONE_ENTITY_READ": env.bool("ENGRAM_RECALL_ONE_ENTITY_READ", default=True),
}
