"""Settings of recall's exact bounds: work a search skips because it provably cannot
change the answer (memory/recall/accel/). Kept apart from base.py, which merges them into
``ENGRAM_RETRIEVAL`` (so benches toggle them by name like the other speed-ups); base.py
has already loaded ``.env`` into the environment."""

from __future__ import annotations

import environ

env = environ.Env()

ENGRAM_RECALL_BOUNDS = {
    # The trigram route's typo search (with ENGRAM_RECALL_ONE_TRIGRAM_READ) computes a
    # doc's word similarity to a token only if the doc holds enough of the token's
    # trigrams to reach the floor (each trigram's letters as a substring: a necessary
    # condition, so the same hits; memory/recall/accel/trigram_read.py,
    # docs/performance.md, issue 39, ninth round). false: every doc that holds one of the
    # token's pieces is scored, as the reference does.
    "TRIGRAM_BOUND": env.bool("ENGRAM_RECALL_TRIGRAM_BOUND", default=True),
}
