"""Round 21's relation reading (``memory/detectors/access_relations.py``) on and off, in
one process, alternated: this thread's CPU per text of ``secrets.secret_spans`` (the
credential scan every write runs), over write_api.py's statements and LoCoMo dev turns.

    cd <worktree> && OMP_NUM_THREADS=1 .venv/bin/python bench/perf/relation_reading_ab.py [--rounds 7] [--n 1200]

"Off" replaces the reading with one that finds nothing; the other round-21 changes (two
Chinese patterns and a round-number check) stay in both. Per-text caches are cleared before
every pass, so each text is read cold as in a request.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.path.join(os.getcwd(), "bench", "perf"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

import django  # noqa: E402

django.setup()

from detector_prefilter_ab import candidates  # noqa: E402

from memory.detectors import secrets  # noqa: E402

ON = secrets.relation_spans


def _off(text, looks_like_secret):
    return []


def run(texts: list[str], on: bool) -> float:
    secrets.relation_spans = ON if on else _off
    started = time.thread_time()
    for t in texts:
        secrets.secret_spans(t)
    return (time.thread_time() - started) / len(texts) * 1e6


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--n", type=int, default=1200)
    ap.add_argument("--chunk", type=int, default=50)
    args = ap.parse_args()
    for kind in ("bench", "locomo"):
        texts = [c.statement for c in candidates(kind, args.n)]
        a, b = [], []
        for r in range(args.rounds):
            # alternate A and B chunk by chunk (the machine's load drifts within a round);
            # every pass salts its texts so no cache returns an earlier pass's answer
            on_t = off_t = 0.0
            for i in range(0, len(texts), args.chunk):
                chunk = texts[i : i + args.chunk]
                order = (True, False) if (i // args.chunk + r) % 2 == 0 else (False, True)
                for on in order:
                    took = run([f"{t} #{r}{'a' if on else 'b'}" for t in chunk], on) * len(chunk)
                    if on:
                        on_t += took
                    else:
                        off_t += took
            a.append(on_t / len(texts))
            b.append(off_t / len(texts))
        print(
            f"{kind:7s} n={len(texts)}  on median {statistics.median(a):8.1f} µs"
            f"  off median {statistics.median(b):8.1f} µs  diff of medians "
            f"{statistics.median(a) - statistics.median(b):+.1f} µs  (rounds {args.rounds})"
        )
    secrets.relation_spans = ON


if __name__ == "__main__":
    main()
