"""One detector part's CPU per text with its exact gate off and on, alternated in one
process (the thirteenth write round's gates, issue 39).

    cd <worktree> && OMP_NUM_THREADS=1 .venv/bin/python bench/perf/detector_gate_parts_ab.py \\
        bench|locomo [--rounds 5]

Times only the part each gate stands before, on 1,200 texts (write_api.py's statements
with their values, or LoCoMo dev turns), each in the form the secret scan gives it:
``secrets._prose_spans`` on the detection form (``ENGRAM_DETECTOR_ASCII_BRANCH_GATE``),
``used_secrets.used_secret_spans`` on it (``ENGRAM_DETECTOR_TIED_DIGIT_GATE``) and
``formats.nfkc_visible`` on the text (``ENGRAM_DETECTOR_NFKC_STABLE_GATE``). This thread's
CPU per text, min and median over ``--rounds``, each round off then on.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.path.join(os.getcwd(), "bench", "perf"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.test import override_settings  # noqa: E402
from write_api import candidate  # noqa: E402
from write_cpu import locomo_statements  # noqa: E402

from memory.detectors import formats, secrets, used_secrets  # noqa: E402
from memory.text_normalize import detection_form  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("texts", choices=["bench", "locomo"])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--data", default="/work/shared/data/locomo-dev")
    args = parser.parse_args()
    if args.texts == "locomo":
        texts = locomo_statements(Path(args.data))[:1200]
    else:
        rows = [candidate(i, "a3f09b12") for i in range(1200)]
        texts = [f"{c['statement']}\n{c.get('value', '')}" for c in rows]
    forms = [detection_form(t).text for t in texts]
    parts = {
        "ASCII_BRANCH_GATE": lambda: [secrets._prose_spans(f) for f in forms],
        "TIED_DIGIT_GATE": lambda: [
            used_secrets.used_secret_spans(f, secrets.looks_like_secret) for f in forms
        ],
        "NFKC_STABLE_GATE": lambda: [formats.nfkc_visible(t) for t in texts],
    }
    for key, run in parts.items():
        times: dict[bool, list[float]] = {False: [], True: []}
        for _ in range(args.rounds):
            for on in (False, True):
                with override_settings(ENGRAM_WRITE_BATCH={**settings.ENGRAM_WRITE_BATCH, key: on}):
                    start = time.thread_time()
                    run()
                    times[on].append((time.thread_time() - start) / len(texts) * 1e6)
        off, on_ = sorted(times[False]), sorted(times[True])
        print(
            f"{args.texts} {key}: off min {off[0]:.1f} median {off[len(off) // 2]:.1f}"
            f" | on min {on_[0]:.1f} median {on_[len(on_) // 2]:.1f} µs a text"
        )
    print("load", " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
