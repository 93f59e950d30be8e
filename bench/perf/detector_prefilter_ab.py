"""The write policy's CPU per candidate with the detector prefilters off and on, alternated.

    cd <worktree> && .venv/bin/python bench/perf/detector_prefilter_ab.py bench|locomo ROUNDS

``decide`` on 600 candidates (write_api.py's, or LoCoMo dev turns), learned heads off so the
rules alone are timed, this thread's CPU time; each round runs both modes, and the minimum
over rounds is what a busy machine distorts least. "Off" is the plain rule loop
(``prefilter.search_any_reference``) and the matcher of phone numbers on any digit; every
other fast path of ``ENGRAM_FAST_DETECTION_TEXT`` stays as configured in both.
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

from write_api import candidate as api_candidate  # noqa: E402
from write_cpu import locomo_statements  # noqa: E402

from accounts.policies import TenantPolicy  # noqa: E402
from memory import content_rules  # noqa: E402
from memory.detectors import prefilter  # noqa: E402
from memory.write_policy import Candidate, SubjectState, decide  # noqa: E402

NOW = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)
FAST, REFERENCE = prefilter.search_any_fast, prefilter.search_any_reference
MIN_DIGITS = content_rules._min_phone_digits


def candidates(kind: str, n: int = 600, run_id: str = "ab") -> list[Candidate]:
    """``n`` of write_api.py's candidates (its run id ``run_id``), or of LoCoMo dev turns."""
    if kind == "locomo":
        texts = locomo_statements(Path("/work/shared/data/locomo-dev"))[:n]
        return [
            Candidate(**{**api_candidate(i, run_id), "statement": t, "memory_type": "episodic"})
            for i, t in enumerate(texts)
        ]
    return [Candidate(**api_candidate(i, run_id)) for i in range(n)]


def mode(on: bool) -> None:
    prefilter.search_any_fast = FAST if on else REFERENCE
    content_rules._min_phone_digits = MIN_DIGITS if on else (lambda: 1)


def run(cands: list[Candidate]) -> float:
    """This thread's CPU milliseconds per candidate of ``decide``, learned heads off."""
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
    cands = candidates(kind)
    for on in (True, False):  # warm every cache in both modes
        mode(on)
        run(cands)
    times: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(rounds):
        for on in (False, True):
            mode(on)
            times[on].append(run(cands))
    for on in (False, True):
        v = sorted(times[on])
        print(
            f"{kind} prefilters {'on ' if on else 'off'}: min {v[0]:.3f} median "
            f"{v[len(v) // 2]:.3f} ms per candidate over {len(v)} runs"
        )
    print("load", " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
