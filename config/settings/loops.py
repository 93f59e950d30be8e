"""Settings of the loops around memory: recall feedback into importance, working memory and
closing threads, the quality inspector. Kept apart from base.py (which imports them) so
each settings module stays readable; environment variables are read the same way (base.py
has already loaded ``.env`` into the environment)."""

from __future__ import annotations

import environ

env = environ.Env()

# --- Recall feedback into ranking (memory/services/recall_feedback.py) ---------------------
ENGRAM_FEEDBACK = {
    # A memory an agent reports as used gains STEP_UP importance, up to CAP; one returned
    # UNUSED_AFTER reported recalls in a row without use loses STEP_DOWN per further such
    # recall, down to FLOOR. Importance written above CAP or below FLOOR is left as it is.
    "STEP_UP": env.float("ENGRAM_FEEDBACK_STEP_UP", default=0.05),
    "STEP_DOWN": env.float("ENGRAM_FEEDBACK_STEP_DOWN", default=0.05),
    "CAP": env.float("ENGRAM_FEEDBACK_CAP", default=0.9),
    "FLOOR": env.float("ENGRAM_FEEDBACK_FLOOR", default=0.1),
    "UNUSED_AFTER": env.int("ENGRAM_FEEDBACK_UNUSED_AFTER", default=5),
}

# --- Working memory (memory/working/, docs/working-memory.md) ---------------------------
ENGRAM_WORKING_MEMORY = {
    # Where it lives: a redis:// (or rediss://) URL; "postgres" for the UNLOGGED table;
    # unset: the broker's Redis when CELERY_BROKER_URL is a Redis URL, else the table.
    "URL": env("ENGRAM_WORKING_MEMORY_URL", default=""),
    "DEFAULT_TTL_SECONDS": env.int("ENGRAM_WORKING_MEMORY_TTL_SECONDS", default=3600),
    "MAX_TTL_SECONDS": env.int("ENGRAM_WORKING_MEMORY_MAX_TTL_SECONDS", default=7 * 86400),
    "MAX_VALUE_BYTES": env.int("ENGRAM_WORKING_MEMORY_MAX_VALUE_BYTES", default=64 * 1024),
    "MAX_THREAD_BYTES": env.int("ENGRAM_WORKING_MEMORY_MAX_THREAD_BYTES", default=1024 * 1024),
    # Closing a thread writes a session summary: extractive offline, or by any
    # OpenAI-compatible chat completions endpoint when this is set.
    "SUMMARY_MODEL_URL": env("ENGRAM_SUMMARY_MODEL_URL", default=""),
    "SUMMARY_MODEL": env("ENGRAM_SUMMARY_MODEL", default="gpt-4o-mini"),
    "SUMMARY_MODEL_API_KEY": env("ENGRAM_SUMMARY_MODEL_API_KEY", default=""),
    "SUMMARY_TIMEOUT_SECONDS": env.float("ENGRAM_SUMMARY_TIMEOUT", default=10.0),
    "SUMMARY_NAMESPACE": env("ENGRAM_SUMMARY_NAMESPACE", default="assistant/sessions"),
    # A thread no event has arrived in for this long is closed as if by the agent
    # (memory/services/thread_idle.py; 0: never); threads quiet for longer than the
    # lookback as well are left alone, at most PER_RUN are closed per tenant and run.
    "IDLE_CLOSE_SECONDS": env.int("ENGRAM_THREAD_IDLE_CLOSE_SECONDS", default=1800),
    "IDLE_LOOKBACK_SECONDS": env.int("ENGRAM_THREAD_IDLE_LOOKBACK_SECONDS", default=7 * 86400),
    "IDLE_CLOSE_PER_RUN": env.int("ENGRAM_THREAD_IDLE_CLOSE_PER_RUN", default=200),
}

# --- Quality inspector (memory/services/inspector, docs/quality-inspector.md) -------------
ENGRAM_QUALITY = {
    # Near-duplicates: active records of one subject, scope and type whose vectors are at
    # least this close (cosine) and whose words overlap at least this much (Jaccard) but
    # are not the same words. The newest this-many records of a subject are compared, at
    # most this-many subjects per run (the most recently written first).
    "DUPLICATE_COSINE": 0.96,
    "DUPLICATE_MIN_WORD_OVERLAP": 0.3,
    "DUPLICATE_RECORDS_PER_SUBJECT": 300,
    "SUBJECTS_PER_RUN": 500,
    # Findings of one kind kept per run (the rest are counted, not listed).
    "FINDINGS_PER_KIND": 200,
    # Low-value density: a subject's share of active records older than DAYS, not recalled
    # in DAYS and of importance at most IMPORTANCE; reported at SHARE and MIN_RECORDS.
    "LOW_VALUE_DAYS": 90,
    "LOW_VALUE_IMPORTANCE": 0.3,
    "LOW_VALUE_SHARE": 0.5,
    "LOW_VALUE_MIN_RECORDS": 5,
    # Index health: records waiting longer than this for a vector; dead share of the
    # vector table's rows (VACUUM due) with at least BLOAT_MIN_DEAD dead rows.
    "INDEX_LAG_SECONDS": 900,
    "BLOAT_DEAD_RATIO": 0.2,
    "BLOAT_MIN_DEAD": 1000,
    # Retrieval canaries: at most this many per tenant; a run below MIN_RECALL is a finding.
    "CANARIES_PER_TENANT": 50,
    "CANARY_MIN_RECALL": 1.0,
}
