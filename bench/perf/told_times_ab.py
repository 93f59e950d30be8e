"""The told times (``memory.temporal.said.said_times``, the entity mentions of kind date)
with ``ENGRAM_WRITE_BATCH["TOLD_TIME_GATES"]`` off and on, alternated in one process.

    cd <worktree> && .venv/bin/python bench/perf/told_times_ab.py [--rounds 6] [--n 1200]
        [--data /work/shared/data/locomo-dev]

Reads write_api.py's bench statements and the LoCoMo dev turns (``"Speaker: text"``), each
said on 8 May 2023, and prints µs of this thread's CPU a text, min / median over the
rounds, for each side (the order alternates round by round), with the load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path.cwd()
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench" / "perf"))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--n", type=int, default=1200)
    parser.add_argument("--data", type=Path, default=Path("/work/shared/data/locomo-dev"))
    args = parser.parse_args()

    from bench._harness import django_setup

    django_setup()
    from django.conf import settings
    from write_api import candidate
    from write_cpu import locomo_statements

    from memory.temporal import said

    when = datetime(2023, 5, 8, 14, tzinfo=UTC)
    sets = {"bench": [candidate(i, "6b899bb9")["statement"] for i in range(args.n)]}
    if args.data.is_dir():
        sets["locomo"] = locomo_statements(args.data)[: args.n]
    base = dict(settings.ENGRAM_WRITE_BATCH)
    for name, texts in sets.items():
        spent: dict[bool, list[float]] = {False: [], True: []}
        for r in range(args.rounds):
            for on in (False, True) if r % 2 == 0 else (True, False):
                settings.ENGRAM_WRITE_BATCH = {**base, "TOLD_TIME_GATES": on}
                t0 = time.thread_time()
                for text in texts:
                    said.said_times(text, when)
                spent[on].append((time.thread_time() - t0) * 1e6 / len(texts))
        settings.ENGRAM_WRITE_BATCH = base
        print(
            f"{name}: said_times µs a text, min / median: "
            + "; ".join(
                f"{'on' if on else 'off'} {min(v):.1f} / {statistics.median(v):.1f}"
                for on, v in spent.items()
            )
            + f" ({args.rounds} rounds, {len(texts)} texts); load {os.getloadavg()[0]:.2f}"
        )


if __name__ == "__main__":
    main()
