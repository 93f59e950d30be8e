"""Each write-policy detector's CPU per text, in process, with no database.

    cd <worktree> && OMP_NUM_THREADS=1 .venv/bin/python bench/perf/write_detectors_cpu.py \\
        [bench|locomo] [--rounds 5] [--n 1200] [--run a3f09b12]

Runs each detector ``decide`` calls (and the learned heads' n-gram scores) over ``--n``
texts (write_api.py's statements with the run id ``--run``, or LoCoMo dev turns, each as
``decide`` builds it: statement, newline, value), one detector at a time so every call
starts from cold per-text caches as in a request (``--n`` is more than they hold), and
prints this thread's CPU per text, min and median over ``--rounds``. The detectors nest
(the special categories run inside the sensitive-data detector), so they do not add up.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.path.join(os.getcwd(), "bench", "perf"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

import django  # noqa: E402

django.setup()

from datetime import UTC, datetime  # noqa: E402

from detector_prefilter_ab import candidates  # noqa: E402

from memory import content_rules  # noqa: E402
from memory.detectors import learned  # noqa: E402
from memory.detectors.instructions import find_injection  # noqa: E402
from memory.detectors.special_categories import find_special_categories  # noqa: E402
from memory.temporal import valid_time_hint  # noqa: E402

NOW = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)


def _phones(text: str) -> bool:
    return content_rules._may_hold_phone_number(content_rules.normalize_for_detection(text))


DETECTORS = {
    "valid_time_hint": lambda t: valid_time_hint(t, NOW, slot=False),
    "find_secrets": content_rules.find_secrets,
    "find_transient": content_rules.find_transient,
    "find_system_of_record": lambda t: content_rules.find_system_of_record(t, ""),
    "find_sensitive_personal_data": content_rules.find_sensitive_personal_data,
    "  of it: phone filter says 'may hold'": _phones,
    "  of it: find_special_categories": find_special_categories,
    "find_injection": find_injection,
    "learned n-gram scores": lambda t: learned.scores(t, embedding=False),
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("kind", nargs="?", default="bench", choices=["bench", "locomo"])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--n", type=int, default=1200)
    parser.add_argument("--run", default="a3f09b12")
    args = parser.parse_args()
    texts = [f"{c.statement}\n" for c in candidates(args.kind, args.n, args.run)]
    for fn in DETECTORS.values():  # warm: compiled rules, plans, indexes
        for t in texts[:50]:
            fn(t)
    times: dict[str, list[float]] = {name: [] for name in DETECTORS}
    passes = sum(1 for t in texts if _phones(t))
    for _ in range(args.rounds):
        for name, fn in DETECTORS.items():
            started = time.thread_time()
            for t in texts:
                fn(t)
            times[name].append((time.thread_time() - started) / len(texts) * 1e6)
    for name, v in times.items():
        v.sort()
        print(f"{name:42s} min {v[0]:8.1f}  median {v[len(v) // 2]:8.1f} µs a text")
    print(f"{passes}/{len(texts)} texts pass the phone filter; load", os.getloadavg())


if __name__ == "__main__":
    main()
