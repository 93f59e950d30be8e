"""Settings of the conversation ingest's exact shortcuts (memory/services/conversation.py,
memory/services/events.py, memory/tasks.py's extraction): each has a plain reference it is
tested equal to (tests/memory/test_ingest_shortcuts.py). Kept apart from base.py (which
imports it); base.py has already loaded ``.env`` into the environment."""

from __future__ import annotations

import environ

env = environ.Env()

ENGRAM_INGEST = {
    # POST /conversation with the agent's own candidates: the events those candidates
    # cite are marked extracted in the request's transaction (the job would find each
    # already cited and skip it), and the extraction job is queued only when some new
    # event is left uncited (otherwise only the threads' summaries are). Off: the job
    # runs for every new event, as after POST /events. The same rows either way.
    "CITED_EXTRACTION_INLINE": env.bool("ENGRAM_INGEST_CITED_EXTRACTION_INLINE", default=True),
    # The extraction job (memory.tasks.extract_events) takes a savepoint only around an
    # event's writes (the submission of what it proposes), none for the events that
    # propose nothing; off: a savepoint around every event's job.
    "EXTRACTION_FEWER_SAVEPOINTS": env.bool(
        "ENGRAM_INGEST_EXTRACTION_FEWER_SAVEPOINTS", default=True
    ),
    # The batch's finished jobs marked done by one UPDATE per distinct result; off:
    # bulk_update's CASE per row and field. The same rows (one finish time per batch).
    "EXTRACTION_GROUPED_FINISH": env.bool("ENGRAM_INGEST_EXTRACTION_GROUPED_FINISH", default=True),
    # POST /conversation's plain bodies (messages, thread_id, candidates with their dates)
    # read by memory/api/conversation_wire.py instead of building the DRF serializers;
    # any other body, and every error, is the serializer's. Off: the serializer always.
    "PLAIN_VALIDATION": env.bool("ENGRAM_INGEST_PLAIN_VALIDATION", default=True),
    # A thread's summary (memory/services/compression.py) rebuilt from one read (its
    # events with their active memories' statements) and written by one upsert; off:
    # two reads and update_or_create. The same summary either way.
    "SUMMARY_ONE_READ": env.bool("ENGRAM_INGEST_SUMMARY_ONE_READ", default=True),
    # The thread summary job's TaskRun (its key a fresh UUID, so no row can exist yet)
    # written by one INSERT once the summary is done; off: run_job's locking read, insert
    # in a savepoint and update. The same row (a failed attempt takes the reference path).
    "SUMMARY_JOB_ONE_INSERT": env.bool("ENGRAM_INGEST_SUMMARY_JOB_ONE_INSERT", default=True),
    # POST /conversation's events appended inside the turn's own savepoint (a failure
    # there fails the whole turn anyway); off: events_append takes a savepoint of its own.
    "TURN_EVENTS_NO_SAVEPOINT": env.bool("ENGRAM_INGEST_TURN_EVENTS_NO_SAVEPOINT", default=True),
    # The appended events, and the turn form's extraction rows, inserted as one JSON
    # document (core/db/json_rows.py, itself behind ENGRAM_WRITE_BATCH["JSON_INSERTS"]);
    # off: bulk_create. The same rows either way.
    "EVENTS_JSON_INSERT": env.bool("ENGRAM_INGEST_EVENTS_JSON_INSERT", default=True),
    # POST /conversation with candidates: the new events a memory cites found and marked
    # extracted in one statement (INSERT ... SELECT ... WHERE EXISTS); off: a read, then
    # the insert. The same rows either way.
    "EXTRACTION_ROWS_ONE_STATEMENT": env.bool(
        "ENGRAM_INGEST_EXTRACTION_ROWS_ONE_STATEMENT", default=True
    ),
}
