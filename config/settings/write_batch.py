"""Settings of the write request's batch path and its exact shortcuts
(memory/services/write_batch.py, memory/detectors, memory/api/candidate_wire.py): each
shortcut has a plain reference it is tested equal to. Kept apart from base.py (which
imports it); base.py has already loaded ``.env`` into the environment."""

from __future__ import annotations

import environ

from config.settings.detector_gates import DETECTOR_GATES

env = environ.Env()

# A request carrying at least MIN_CANDIDATES candidates looks up its cited events and the
# existing values of its slots once for the whole batch and writes its source links and
# search docs together (memory/services/write_batch.py); off: every candidate looks up and
# writes on its own (the reference path). Decisions are the same either way.
ENGRAM_WRITE_BATCH = {
    "LOOKUPS": env.bool("ENGRAM_WRITE_BATCH_LOOKUPS", default=True),
    "MIN_CANDIDATES": env.int("ENGRAM_WRITE_BATCH_MIN_CANDIDATES", default=4),
    # The detectors' exact shortcuts: ASCII text normalised at once (detection_form,
    # nfkc_visible, normalize_text), no phone-number matcher on text without a digit, the
    # learned n-gram heads' features hashed once per distinct token; off: the references.
    # The same results either way (tests/memory/test_detection_text_fast.py,
    # tests/memory/test_fast_ngrams.py).
    "FAST_DETECTION_TEXT": env.bool("ENGRAM_FAST_DETECTION_TEXT", default=True),
    # With FAST_DETECTION_TEXT, the learned heads' word-pair buckets continued from each
    # word's cached checksum (zlib.crc32's running value) instead of each pair's string
    # built and hashed, and the dates and times cut only from text with a digit
    # (memory/detectors/learned); off: hashed_fast. The same buckets
    # (tests/memory/test_fast_ngrams.py).
    "LEARNED_PAIR_STATES": env.bool("ENGRAM_LEARNED_PAIR_STATES", default=True),
    # The phone-number matcher only on text with enough digits inside one run of the
    # characters its pattern is made of (memory/detectors/phone_runs.py); off: the digits
    # of the whole text decide. The same findings (tests/memory/test_detector_plumbing.py).
    "PHONE_RUNS": env.bool("ENGRAM_DETECTOR_PHONE_RUNS", default=True),
    # The literal prefilter by an index from literal to rule and the text's pieces built
    # in C (memory/detectors/prefilter.py, search_any_indexed); off: rule by rule.
    "PREFILTER_INDEX": env.bool("ENGRAM_DETECTOR_PREFILTER_INDEX", default=True),
    # With it, a text's pieces narrowed once to the keys of every rule list, so each
    # list's question looks up a few dozen keys (memory/detectors/prefilter.py, search_any_one_pass); off:
    # each question intersects the list's keys with all the text's pieces.
    "PREFILTER_ONE_PASS": env.bool("ENGRAM_DETECTOR_PREFILTER_ONE_PASS", default=True),
    # These switches read once per change of settings (memory/detectors/switches.py).
    "SWITCHES_ONCE": env.bool("ENGRAM_DETECTOR_SWITCHES_ONCE", default=True),
    "CONTENT_KEYS_ONCE": env.bool("ENGRAM_WRITE_CONTENT_KEYS_ONCE", default=True),
    # POST /api/v1/candidates reads a plain body without building the DRF serializers
    # (memory/api/candidate_wire.py; any other body goes to them); off: the serializers.
    "PLAIN_VALIDATION": env.bool("ENGRAM_WRITE_PLAIN_VALIDATION", default=True),
    # Round trips a write can do without: no context-turn lookup for new records that
    # cite no event, the subject's write lock and its write counter in one statement.
    # Off: the reference statements (the same rows either way).
    "FEWER_ROUND_TRIPS": env.bool("ENGRAM_WRITE_FEWER_ROUND_TRIPS", default=True),
    # The request's subject and the tenant's policy read from SQL compiled once
    # (memory/selectors/write_lookups.py); off: the ORM's querysets, built every time.
    "COMPILED_LOOKUPS": env.bool("ENGRAM_WRITE_COMPILED_LOOKUPS", default=True),
    # The flush's inserts (new records, source links, lexical docs, entity mentions,
    # audit rows) carry their rows as one JSON document unpacked by the server
    # (core/db/json_rows.py); off: bulk_create's arrays. The same rows either way
    # (tests/core/test_json_rows.py).
    "JSON_INSERTS": env.bool("ENGRAM_WRITE_JSON_INSERTS", default=True),
    # The entity mentions of new records go to their insert as plain rows (tuples in one
    # JSON document), not as MemoryMention instances (memory/services/mentions.py); off:
    # the instances through json_rows (or bulk_create). The same rows either way
    # (tests/memory/test_write_plain_rows.py).
    "PLAIN_MENTION_ROWS": env.bool("ENGRAM_WRITE_PLAIN_MENTION_ROWS", default=True),
    # With it, the mentions of records created in this transaction: the tenant and subject
    # sent once, not in every row, and the rows (unique by record and name, as the
    # conflict clause would keep them) inserted without ON CONFLICT (memory/services/
    # mentions.py); off: every column in every row and the clause. The same rows.
    "NEW_MENTION_ROWS": env.bool("ENGRAM_WRITE_NEW_MENTION_ROWS", default=True),
    # A candidate's text check and its prepared form (canonical predicate, the subject's
    # names) computed once a request, not by each of the batch's prefetch, the learned
    # heads' vectors and the submission (memory/services/writes.py, write_batch.py); off:
    # each asks again. The same decisions and rows (tests/memory/test_write_plain_rows.py).
    "TEXT_CHECKED_ONCE": env.bool("ENGRAM_WRITE_TEXT_CHECKED_ONCE", default=True),
    # The lexical docs of records (memory/services/indexing.py) go to their insert as plain
    # rows of the columns the write sets (memory/services/search_doc_rows.py), not
    # MemorySearchDoc instances; off: the instances through json_rows. The same rows.
    "PLAIN_DOC_ROWS": env.bool("ENGRAM_WRITE_PLAIN_DOC_ROWS", default=True),
    # A write request's audit rows go to their insert as plain rows, not AuditEvent
    # instances (memory/services/write_audits.py); off: the instances. The same rows.
    "PLAIN_AUDIT_ROWS": env.bool("ENGRAM_WRITE_PLAIN_AUDIT_ROWS", default=True),
    # The batch path's sensitivity ranks read from a table built once, not by
    # Sensitivity.rank's list of the enum's values each time (memory/services/write_batch.py);
    # off: Sensitivity.rank. The same ranks (tests/memory/test_write_plain_rows.py).
    "SENSITIVITY_RANKS_ONCE": env.bool("ENGRAM_WRITE_SENSITIVITY_RANKS_ONCE", default=True),
    # Entity extraction's exact gates (memory/entities.py): dates searched only in text
    # with a digit and a month's letters, "-", 年 or 月; no CJK test of an ASCII text's
    # words; off: the reference. The same mentions (tests/memory/test_entity_gates.py).
    "ENTITY_GATES": env.bool("ENGRAM_ENTITY_GATES", default=True),
    # With it: an ASCII text not searched for Latin words beside CJK characters, and
    # normalised without NFKC and the traditional fold (both leave ASCII as it is)
    # (memory/entities.py); off: the reference. The same mentions.
    "ENTITY_ASCII_GATES": env.bool("ENGRAM_ENTITY_ASCII_GATES", default=True),
    # The told times' exact gates (memory/temporal/said.py, said_more.py: the entity
    # mentions of kind date): a pattern searched only where a piece every match holds is
    # found first; off: every pattern on every text. The same times
    # (tests/memory/test_told_time_gates.py).
    "TOLD_TIME_GATES": env.bool("ENGRAM_TOLD_TIME_GATES", default=True),
    # A new record's instance built by Django's positional __init__, each field it is not
    # given at its default, its subject set through the descriptor
    # (memory/services/record_instances.py); off: MemoryRecord(**values). The same
    # instance (tests/memory/test_record_instances.py).
    "POSITIONAL_RECORDS": env.bool("ENGRAM_WRITE_POSITIONAL_RECORDS", default=True),
    # The detectors' exact gates (config/settings/detector_gates.py).
    **DETECTOR_GATES,
}
