"""``write_cpu.py`` with the write flush's inserts timed: thread CPU spent in
``core.db.json_rows.rows_insert`` by model (records, source links, lexical docs, entity
mentions, audit rows), the warm-up batch included.

    cd <worktree> && ENGRAM_EMBED_AFTER_COMMIT=none OMP_NUM_THREADS=1 \\
        ENGRAM_WRITE_JSON_INSERTS=0|1 .venv/bin/python bench/perf/write_inserts_cpu.py \\
        --batches 14 --texts bench|locomo

Takes ``write_cpu.py``'s arguments; prints its line, then the inserts' milliseconds.
"""

from __future__ import annotations

import atexit
import os
import runpy
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path.cwd()
sys.path.insert(0, str(ROOT))
sys.argv = ["write_cpu.py", *sys.argv[1:]]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")


def main() -> None:
    import django

    django.setup()
    import core.audit
    import core.db.json_rows
    import memory.services.indexing
    import memory.services.mentions
    import memory.services.write_batch

    reference = core.db.json_rows.rows_insert
    spent: Counter[str] = Counter()

    def timed(model, objs, **kwargs):
        start = time.thread_time()
        try:
            return reference(model, objs, **kwargs)
        finally:
            spent[model.__name__] += time.thread_time() - start

    for module in (
        memory.services.write_batch,
        memory.services.indexing,
        memory.services.mentions,
        core.audit,
    ):
        module.rows_insert = timed
    atexit.register(
        lambda: print(
            "inserts (thread CPU, ms):",
            {name: round(s * 1000) for name, s in spent.items()},
            "total",
            round(sum(spent.values()) * 1000),
        )
    )
    runpy.run_path(str(ROOT / "bench" / "perf" / "write_cpu.py"), run_name="__main__")


if __name__ == "__main__":
    main()
