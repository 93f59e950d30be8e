"""``ENGRAM_LEARNED_PAIR_STATES`` off and on, alternated in one process: thread CPU per
text of the learned n-gram heads' logits (``Model.ngram_logits``: the features, their
vector and the heads' product; what ``write_vectors.prepare`` computes once a candidate).

    cd <worktree> && OMP_NUM_THREADS=1 .venv/bin/python bench/perf/learned_pairs_ab.py \\
        [--rounds 9] [--texts bench|locomo] [--n 1000] [--data ../shared/data/locomo-dev]

Each round times every text once with the setting off and once on, the order alternating
round by round, after a warm-up pass a side (the per-token caches are shared and warm on
both sides, as in a running worker). Asserts the logits are equal on every text. Prints
each round, then min and median per side. ``time.thread_time``: what the machine's load
moves least."""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
ROOT = Path.cwd()
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench" / "perf"))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--texts", choices=["bench", "locomo"], default="bench")
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data" / "locomo-dev")
    args = parser.parse_args()

    from bench._harness import django_setup

    django_setup()
    import numpy as np
    from django.conf import settings
    from django.test import override_settings
    from write_api import candidate
    from write_cpu import locomo_statements

    from memory.detectors import learned

    if args.texts == "locomo":
        texts = locomo_statements(args.data)[: args.n]
    else:
        texts = [candidate(i, "abcdefgh")["statement"] for i in range(args.n)]
    model = learned.model()
    sides = {
        on: {**settings.ENGRAM_WRITE_BATCH, "FAST_DETECTION_TEXT": True, "LEARNED_PAIR_STATES": on}
        for on in (False, True)
    }

    def run(on: bool) -> tuple[float, list]:
        with override_settings(ENGRAM_WRITE_BATCH=sides[on]):
            start = time.thread_time()
            out = [model.ngram_logits(t) for t in texts]
            return (time.thread_time() - start) * 1e6 / len(texts), out

    _, off = run(False)
    _, on = run(True)
    assert all(np.array_equal(a, b) for a, b in zip(off, on, strict=True)), "logits differ"
    times: dict[bool, list[float]] = {False: [], True: []}
    for r in range(args.rounds):
        for side in (False, True) if r % 2 == 0 else (True, False):
            times[side].append(run(side)[0])
        print(f"round {r}: off {times[False][-1]:.1f} µs, on {times[True][-1]:.1f} µs", flush=True)
    for side, name in ((False, "off"), (True, "on")):
        t = times[side]
        print(f"{name}: min {min(t):.1f} / median {statistics.median(t):.1f} µs a text")
    pairs = [a - b for a, b in zip(times[False], times[True], strict=True)]
    print(
        f"off − on, pair by pair: median {statistics.median(pairs):.1f}, "
        f"mean {statistics.mean(pairs):.1f} µs; {len(texts)} {args.texts} texts; "
        "load " + " ".join(f"{x:.2f}" for x in os.getloadavg())
    )


if __name__ == "__main__":
    main()
