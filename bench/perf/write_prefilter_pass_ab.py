"""The literal prefilter's questions of a write, indexed against one pass
(``ENGRAM_DETECTOR_PREFILTER_ONE_PASS``), alternated in one process.

    cd <worktree> && OMP_NUM_THREADS=1 .venv/bin/python bench/perf/write_prefilter_pass_ab.py \\
        bench|locomo [ROUNDS]

Records every ``search_any`` question ``decide`` asks of 1,200 candidates (write_api.py's,
run id as detector_plumbing_ab.py, or LoCoMo dev turns; learned heads off), then answers
them all with ``search_any_indexed`` and with ``search_any_one_pass``, alternated, each
round from cold per-text caches, and prints this thread's CPU per candidate (min and
median of the rounds): only the prefilter's path, the rest of the detectors left out, so a
busy machine blurs it less than a whole decision.
"""

from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.path.join(os.getcwd(), "bench", "perf"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

import django  # noqa: E402

django.setup()

from detector_plumbing_ab import RUN  # noqa: E402
from detector_prefilter_ab import candidates  # noqa: E402
from detector_prefilter_ab import run as decide_all  # noqa: E402

from core import process_state  # noqa: E402
from memory.detectors import prefilter  # noqa: E402


def questions(kind: str) -> tuple[int, list[tuple[list, str]]]:
    cands = candidates(kind, 1200, RUN)
    asked: list[tuple[list, str]] = []
    original = prefilter.search_any_one_pass

    def recording(patterns, text):
        asked.append((patterns, text))
        return original(patterns, text)

    prefilter.search_any_one_pass = recording
    try:
        decide_all(cands)
    finally:
        prefilter.search_any_one_pass = original
    return len(cands), asked


def answer(asked, fn) -> tuple[float, list[bool]]:
    prefilter._text_pieces_joined.cache_clear()
    for patterns, _ in asked[:1]:
        fn(patterns, "")
    universe = prefilter._universe.peek()
    if universe is not None:
        universe.presents.clear()
    started = time.thread_time()
    out = [fn(patterns, text) for patterns, text in asked]
    return time.thread_time() - started, out


def main() -> None:
    kind = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    n, asked = questions(kind)
    process_state.reset("memory.detectors.prefilter.universe")
    modes = {"indexed": prefilter.search_any_indexed, "one pass": prefilter.search_any_one_pass}
    reference = answer(asked, modes["indexed"])[1]
    assert answer(asked, modes["one pass"])[1] == reference
    times: dict[str, list[float]] = {m: [] for m in modes}
    for _ in range(rounds):
        for name, fn in modes.items():
            times[name].append(answer(asked, fn)[0] * 1e6 / n)
    print(f"{kind}: {len(asked) / n:.1f} questions a candidate, the same answers")
    for name, v in times.items():
        v.sort()
        print(f"  {name:8s} min {v[0]:7.1f}  median {v[len(v) // 2]:7.1f} µs a candidate")
    print("load", " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
