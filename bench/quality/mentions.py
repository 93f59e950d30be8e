"""What the entity index holds for a benchmark's data: mentions per kind, how many of them
are the conversation's speakers, and how many name few enough records to lead anywhere
(``memory.recall.entities.MAX_RECORDS``).

    ENGRAM_TEST_DB_NAME=bench_locomo .venv/bin/python bench/quality/mentions.py [--rebuild]

Reads the kept database of ``bench/quality/locomo.py --keepdb`` (the same
``ENGRAM_TEST_DB_NAME``); ``--rebuild`` first rewrites every record's mentions from its
statement (``memory.services.mentions.mentions_rebuild``, what ``manage.py
engram_mentions`` does), so a change to ``memory.entities`` is measured without a new
ingest. Prints counts only, never the entities' text.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
os.environ.setdefault("ENGRAM_TEST_DB_NAME", "bench_locomo")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rebuild", action="store_true", help="rewrite the mentions first")
    args = parser.parse_args()
    connection.creation.create_test_db(verbosity=0, autoclobber=False, keepdb=True, serialize=False)

    from accounts.models import Tenant
    from memory.models import MemoryMention, MemoryRecord, Subject
    from memory.recall.entities import MAX_RECORDS
    from memory.services.mentions import mentions_rebuild

    for tenant in Tenant.objects.all():
        if args.rebuild:
            print(f"rebuilt {mentions_rebuild(tenant.id)} mentions", flush=True)
        rows = list(
            MemoryMention.objects.filter(tenant_id=tenant.id).values_list(
                "subject_id", "norm", "kind", "alias_of"
            )
        )
        if not rows:
            continue
        records = MemoryRecord.objects.filter(tenant_id=tenant.id).count()
        # A subject's speakers: the names that open its records ("Name: text").
        speakers: set[tuple] = set()
        for subject in Subject.objects.filter(tenant_id=tenant.id):
            statements = MemoryRecord.objects.filter(subject=subject).values_list(
                "statement", flat=True
            )
            heads = Counter(s.split(":", 1)[0].strip().casefold() for s in statements if ":" in s)
            speakers |= {(subject.id, h) for h, n in heads.items() if n >= 20}
        per_norm = Counter((s, n) for s, n, _, _ in rows)
        kinds = Counter(k for _, _, k, _ in rows)
        speaker_rows = sum(1 for s, n, _, _ in rows if (s, n) in speakers)
        leading = sum(1 for s, n, _, _ in rows if per_norm[(s, n)] <= MAX_RECORDS)
        distinct = len(per_norm)
        print(
            f"tenant {tenant.slug}: {records} records, {len(rows)} mentions"
            f" ({distinct} entities per subject), {speaker_rows} of them speakers' names,"
            f" {leading} naming <= {MAX_RECORDS} records, aliases"
            f" {sum(1 for r in rows if r[3])}"
        )
        print("  by kind: " + ", ".join(f"{k} {kinds[k]}" for k in sorted(kinds)))


if __name__ == "__main__":
    main()
