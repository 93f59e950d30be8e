"""Settings of when recall does its work: work moved off the request's critical path (the
time after the question's embedding) without changing what is done or its answer
(memory/recall/accel/). Kept apart from base.py, which merges them into
``ENGRAM_RETRIEVAL`` (so benches toggle them by name like the other speed-ups); base.py
has already loaded ``.env`` into the environment."""

from __future__ import annotations

import environ

env = environ.Env()

ENGRAM_RECALL_ORDER = {
    # The exact, lexical, trigram and recency routes' hits (and the lexical coverage)
    # credited to the candidates while the question is embedded; only the vector and slot
    # routes' credits after it (memory/recall/accel/credit_ahead.py; docs/performance.md,
    # issue 39, thirteenth round). The same candidates in the same order; off: every
    # route credited after the embedding, as the reference does (``routes.credit``).
    "CREDIT_AHEAD": env.bool("ENGRAM_RECALL_CREDIT_AHEAD", default=True),
}
