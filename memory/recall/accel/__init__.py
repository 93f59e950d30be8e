"""Recall's speed-ups, each apart from the reference it speeds up (``memory.recall.routes``
and the pipeline), each behind a setting, each held to the reference's answers by
``tests/memory/test_recall_accel_equivalence.py``; docs/performance.md has what each saves.

- ``vector_cache`` + ``cached_scan`` (``ENGRAM_RECALL_VECTOR_CACHE``): a scope's vectors
  kept in process memory, checked against the database's rows in each recall's own
  transaction, ranked in process instead of scanned after the question is embedded.
- ``scope_read`` (``ENGRAM_RECALL_ONE_SCOPE_READ``, with the vector cache): the
  scope's vector count, embedding ids and searchable ids in one statement instead of
  three.
- packed searchable ids (``ENGRAM_RECALL_PACKED_SEARCHABLE``, in ``scope_read``): the ids
  the vector route may return read as their bytes and matched to the kept rows by them
  (``ScopeVectors.rows_in``), no ``uuid.UUID`` built per id.
- ``credit_ahead`` (``ENGRAM_RECALL_CREDIT_AHEAD``): the word routes' hits credited to the
  candidates while the question is embedded, only the vector and slot routes' after it.
- ``trigram_read`` (``ENGRAM_RECALL_ONE_TRIGRAM_READ``): the trigram route's searches for
  every token of the question in one statement over the eligible docs read once; with
  ``ENGRAM_RECALL_TRIGRAM_BOUND``, a doc's word similarity to a token computed only if
  the doc holds enough of the token's trigrams to reach the floor.
- ``trace_commit`` (``ENGRAM_RECALL_ASYNC_TRACE_COMMIT``, on): an API recall's trace and
  audit row committed without waiting for the disk (an access log's durability trade).
- compiled SQL (``ENGRAM_RECALL_COMPILED_QUERIES``, ``core.sqltemplate``): a route's
  queryset compiled once per shape and run again with other values.
- the early embedding (``ENGRAM_RECALL_EARLY_EMBEDDING``, ``QueryVector.speculate``): the
  question's embedding starts once the request has passed its checks, before recall
  reads its context.
- judging ahead (``ENGRAM_RECALL_JUDGE_AHEAD``, ``pack.judge_ahead``): while the question
  is embedded, the found statements are checked for instruction-like text.
- prepared statements (``ENGRAM_RECALL_PREPARED_STATEMENTS``, ``prepared``): the largest
  statements (BM25, the trigram, scope and lexeme reads, the context, the records)
  prepared on their connection and run again by name: planned once per connection and
  shape, not on every request.
- ``entity_read`` (``ENGRAM_RECALL_ONE_ENTITY_READ``, the pipeline's choice): the entity
  levers' mention rows in one statement and the records that may join as rows of one
  compiled statement, an instance built only for those that join.
- a large scope's counts kept 30 s (``ENGRAM_RECALL_SCOPE_COUNTS``,
  ``routes.common.kept_a_while``): BM25's statistics and the vector count.

Each keeps its state in ``core.process_state`` (prepared statements: in their
connection, as psycopg keeps them)."""
