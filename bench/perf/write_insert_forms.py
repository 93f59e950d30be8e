"""Thread CPU of one 100-row insert, four ways, on rows copied from the bench's latest
records, mentions and audit rows (run write_cpu.py first), each in a rolled-back transaction:

    cd <worktree> && .venv/bin/python bench/perf/write_insert_forms.py [ROUNDS]

- ``ref``: ``bulk_create`` (Django 5.2: one ``INSERT ... SELECT * FROM UNNEST(arrays)``);
- ``copy``: ``COPY table FROM STDIN`` (text), rows written by psycopg. PostgreSQL refuses it
  on a table with row-level security for a role subject to it: the web workers' role;
- ``tempcopy``: ``COPY`` into a temporary table, then ``INSERT ... SELECT`` (what the
  application role could do);
- ``json``: one JSON document unpacked by ``json_populate_recordset``
  (``core/db/json_rows.py``).

Connects as the owner (the bench's default), which bypasses row-level security, so ``copy``
runs here.
"""

from __future__ import annotations

import copy
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path.cwd()))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")


class Rollback(Exception):
    pass


def main() -> None:
    import django

    django.setup()
    from django.db import connection, transaction
    from django.test import override_settings

    from core.db.json_rows import rows_insert
    from core.models import AuditEvent
    from memory.models import MemoryMention, MemoryRecord

    def fields_of(model):
        fields = [f for f in model._meta.concrete_fields if not f.generated]
        if model._meta.pk.get_internal_type() in ("AutoField", "BigAutoField"):
            fields = [f for f in fields if not f.primary_key]
        return fields

    def prepared(fields, obj):
        return [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]

    def copy_rows(model, objs, table=None):
        fields = fields_of(model)
        cols = ", ".join(connection.ops.quote_name(f.column) for f in fields)
        with connection.cursor() as cursor:
            with cursor.copy(f"COPY {table or model._meta.db_table} ({cols}) FROM STDIN") as cp:
                for obj in objs:
                    cp.write_row(prepared(fields, obj))

    def temp_copy(model, objs):
        fields = fields_of(model)
        cols = ", ".join(connection.ops.quote_name(f.column) for f in fields)
        table = model._meta.db_table
        with connection.cursor() as cursor:
            cursor.execute(
                f"CREATE TEMP TABLE IF NOT EXISTS tmp_{table} ON COMMIT DELETE ROWS AS "
                f"SELECT {cols} FROM {table} WITH NO DATA"
            )
            copy_rows(model, objs, f"tmp_{table}")
            cursor.execute(
                f"INSERT INTO {table} ({cols}) SELECT {cols} FROM tmp_{table}; TRUNCATE tmp_{table}"
            )

    def ref(model, objs):
        with override_settings(ENGRAM_WRITE_BATCH={"JSON_INSERTS": False}):
            rows_insert(model, objs)

    def json_rows(model, objs):
        with override_settings(ENGRAM_WRITE_BATCH={"JSON_INSERTS": True}):
            rows_insert(model, objs)

    def fresh(model, objs):
        out = []
        for obj in objs:
            new = copy.copy(obj)
            new._state = copy.copy(obj._state)
            new._state.adding = True
            if model is MemoryRecord:
                new.id = uuid.uuid4()
            else:
                new.pk = None
            out.append(new)
        return out

    records = list(MemoryRecord.objects.order_by("-recorded_at")[:100])
    mentions = list(MemoryMention.objects.order_by("-id")[:100])
    audits = list(AuditEvent.objects.order_by("-id")[:100])
    ways = {"ref": ref, "copy": copy_rows, "tempcopy": temp_copy, "json": json_rows}
    spent: dict[tuple[str, str], list[float]] = {}
    for _ in range(int(sys.argv[1]) if len(sys.argv) > 1 else 10):
        for name, way in ways.items():
            for model, objs in (
                (MemoryRecord, records),
                (MemoryMention, mentions),
                (AuditEvent, audits),
            ):
                try:
                    with transaction.atomic():
                        if model is MemoryMention:
                            owners = fresh(MemoryRecord, records)
                            MemoryRecord.objects.bulk_create(owners)
                            batch = fresh(model, objs)
                            for i, m in enumerate(batch):
                                m.record_id = owners[i % len(owners)].id
                        else:
                            batch = fresh(model, objs)
                        start = time.thread_time()
                        way(model, batch)
                        spent.setdefault((model.__name__, name), []).append(
                            time.thread_time() - start
                        )
                        raise Rollback
                except Rollback:
                    pass
    for (model, name), times in sorted(spent.items()):
        print(
            f"{model:14s} {name:9s} min / median {min(times) * 1e3:.2f} / "
            f"{statistics.median(times) * 1e3:.2f} ms per 100 rows"
        )
    print("load", " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
