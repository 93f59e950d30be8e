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

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.path.join(os.getcwd(), "bench", "perf"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

import django  # noqa: E402

django.setup()

from detector_prefilter_ab import candidates  # noqa: E402
from detector_prefilter_ab import run as decide_all  # noqa: E402
from django.test import override_settings  # noqa: E402

KEYS = ("PHONE_RUNS", "PREFILTER_INDEX", "SWITCHES_ONCE")
RUN = "a3f09b12"  # write_api.py's run ids are uuid4().hex[:8]: five digits is typical


def run(cands, on: bool, keys: tuple[str, ...] = KEYS) -> float:
    from django.conf import settings

    batch = {**settings.ENGRAM_WRITE_BATCH, **dict.fromkeys(keys, on)}
    with override_settings(ENGRAM_WRITE_BATCH=batch):
        return decide_all(cands)


def main() -> None:
    kind, rounds = sys.argv[1], int(sys.argv[2])
    keys = tuple(sys.argv[3].split(",")) if len(sys.argv) > 3 else KEYS
    cands = candidates(kind, 1200, RUN)
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
