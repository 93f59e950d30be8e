"""The lexical docs of new records as plain rows: ``indexing.search_docs_write``'s insert
without a ``MemorySearchDoc`` instance a record, behind
``ENGRAM_WRITE_BATCH["PLAIN_DOC_ROWS"]`` (with ``JSON_INSERTS``; default on).

The reference builds each doc as a model instance and ``core.db.json_rows.rows_insert``
reads it back field by field into one JSON document. Here each row is built as a dict of
the columns the write sets (record, tenant, subject, the two texts, the context and its
event, ``indexed_at`` taken row by row as the model's default is) and sent in the same
statement: ``json_populate_recordset`` against the table's row type, the same conflict
clause on the record (a rewrite updates the same five columns). The columns it leaves out
are the record's copies (purpose, sensitivity, validity, status …): NULL in the
reference's rows too, and the table's trigger fills them from the record before either
row is stored. The same rows either way (tests/memory/test_write_plain_rows.py)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from django.db import connections, router
from django.utils import timezone

from memory import lexical
from memory.models import MemoryRecord, MemorySearchDoc
from memory.neighbourhood import Context

# The columns the write sets, in the reference's order; the rest are the trigger's.
COLUMNS = (
    "record_id",
    "tenant_id",
    "subject_id",
    "segmented_text",
    "trigram_text",
    "indexed_at",
    "context_event_id",
    "context_text",
)
# What a rewrite of an existing doc updates (``search_docs_write``'s update_fields).
UPDATED = ("segmented_text", "trigram_text", "context_text", "context_event_id", "indexed_at")


def doc_row(record: MemoryRecord, context: Context | None) -> dict:
    """``indexing._search_doc``'s values for ``record``, as the insert's JSON carries them."""
    return {
        "record_id": str(record.id),
        "tenant_id": str(record.tenant_id),
        "subject_id": str(record.subject_id),
        "segmented_text": lexical.document_text(
            statement=record.statement, predicate=record.predicate, value=record.value
        ),
        "trigram_text": lexical.trigram_text(
            statement=record.statement, predicate=record.predicate, value=record.value
        ),
        "indexed_at": timezone.now().isoformat(),
        "context_event_id": str(context.event_id) if context else None,
        "context_text": " ".join(lexical.segment(context.text)) if context else "",
    }


def doc_rows_insert(rows: Sequence[dict]) -> None:
    """One insert of ``rows`` (``doc_row``'s), a conflict on the record updating it."""
    connection = connections[router.db_for_write(MemorySearchDoc)]
    q = connection.ops.quote_name
    table = q(MemorySearchDoc._meta.db_table)
    cols = ", ".join(q(c) for c in COLUMNS)
    sets = ", ".join(f"{q(c)} = EXCLUDED.{q(c)}" for c in UPDATED)
    # ensure_ascii=False as json_rows: a lone surrogate fails in psycopg's encoding there too.
    payload = json.dumps(list(rows), ensure_ascii=False, separators=(",", ":"))
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({cols}) SELECT {cols} "
            f"FROM json_populate_recordset(NULL::{table}, %s::json) "
            f"ON CONFLICT({q('record_id')}) DO UPDATE SET {sets}",
            [payload],
        )
