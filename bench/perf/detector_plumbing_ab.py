"""The write policy's CPU per candidate with issue 39's detector plumbing off and on,
alternated in one process.

    cd <worktree> && .venv/bin/python bench/perf/detector_plumbing_ab.py bench|locomo ROUNDS [KEYS]

``decide`` on 1,200 candidates (write_api.py's, with a run id of eight hex digits as that
bench writes, or LoCoMo dev turns), learned heads off so the rules alone are timed, this
thread's CPU time; each round runs both modes, and the minimum over rounds is what a busy
machine distorts least. "Off" turns ``ENGRAM_DETECTOR_PHONE_RUNS``,
``ENGRAM_DETECTOR_PREFILTER_INDEX`` and ``ENGRAM_DETECTOR_SWITCHES_ONCE`` off (every other
shortcut as configured; ``KEYS``, comma-separated, turns only those off); more candidates than the per-text caches hold, so each round
computes every text again.
"""

from __future__ import annotations

import os
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.path.join(os.getcwd(), "bench", "perf"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

import django  # noqa: E402

django.setup()

from django.test import override_settings  # noqa: E402
from write_api import candidate as api_candidate  # noqa: E402
from write_cpu import locomo_statements  # noqa: E402

from accounts.policies import TenantPolicy  # noqa: E402
from memory.write_policy import Candidate, SubjectState, decide  # noqa: E402

NOW = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)
KEYS = ("PHONE_RUNS", "PREFILTER_INDEX", "SWITCHES_ONCE")
RUN = "a3f09b12"  # write_api.py's run ids are uuid4().hex[:8]: five digits is typical


def candidates(kind: str) -> list[Candidate]:
    if kind == "locomo":
        texts = locomo_statements(Path("/work/shared/data/locomo-dev"))[:1200]
        return [
            Candidate(**{**api_candidate(i, RUN), "statement": t, "memory_type": "episodic"})
            for i, t in enumerate(texts)
        ]
    return [Candidate(**api_candidate(i, RUN)) for i in range(1200)]


def run(cands: list[Candidate], on: bool, keys: tuple[str, ...] = KEYS) -> float:
    from django.conf import settings

    batch = {**settings.ENGRAM_WRITE_BATCH, **dict.fromkeys(keys, on)}
    with override_settings(ENGRAM_WRITE_BATCH=batch):
        started = time.thread_time()
        for c in cands:
            decide(
                c,
                existing=[],
                subject=SubjectState(),
                tenant=TenantPolicy(),
                now=NOW,
                learned_detectors=False,
            )
        return (time.thread_time() - started) / len(cands) * 1e3


def main() -> None:
    kind, rounds = sys.argv[1], int(sys.argv[2])
    keys = tuple(sys.argv[3].split(",")) if len(sys.argv) > 3 else KEYS
    cands = candidates(kind)
    for on in (True, False):  # warm both modes (the rule plans and indexes)
        run(cands, on, keys)
    times: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(rounds):
        for on in (False, True):
            times[on].append(run(cands, on, keys))
    for on in (False, True):
        v = sorted(times[on])
        print(
            f"{kind} {','.join(keys)} {'on ' if on else 'off'}: min {v[0]:.3f} median "
            f"{v[len(v) // 2]:.3f} ms per candidate over {len(v)} runs"
        )
    print("load", " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
