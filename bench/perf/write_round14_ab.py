"""The fourteenth round's write-path cuts off and on, alternated in one process: thread CPU
per candidate of ``candidates_submit`` (the web worker's share) and of the policy's
``decide`` inside it, and the PostgreSQL backend's CPU.

    cd <worktree> && ENGRAM_EMBED_AFTER_COMMIT=none OMP_NUM_THREADS=1 \\
        .venv/bin/python bench/perf/write_round14_ab.py [--rounds 10] [--texts bench|locomo] \\
        [--base d1fe38d] [--cuts replace,prefilter,records]

The cuts, and what "off" puts back:
- ``replace``: ``candidate_replace`` → ``dataclasses.replace`` (memory/write_policy/policy.py,
  memory/services/writes.py);
- ``prefilter``: ``search_any_one_pass`` as the ``--base`` commit has it (compiled from
  ``git show BASE:memory/detectors/prefilter.py`` into the live module) and the universe
  read with the slot's lock (``Slot.get``);
- ``records``: ``ENGRAM_WRITE_BATCH["POSITIONAL_RECORDS"]`` off.
Each round submits one batch of 100 fresh candidates (write_cpu.py's) with the cuts off and
one with them on, to a subject each, the order alternating round by round, after a warm-up
batch a side. Prints each round, then min and median per side. ``time.thread_time``: what
the machine's load moves least."""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
ROOT = Path.cwd()
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench" / "perf"))


def _function_at(base: str, path: str, name: str, module) -> object:
    """The function ``name`` as commit ``base`` defines it in ``path``, compiled in the live
    ``module``'s namespace (so it calls the live helpers)."""
    source = subprocess.run(
        ["git", "show", f"{base}:{path}"], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout
    start = source.index(f"\ndef {name}(") + 1
    nxt = source.find("\ndef ", start + 1)
    namespace = dict(vars(module))
    exec(compile(source[start : nxt if nxt > 0 else None], f"{base}:{path}", "exec"), namespace)
    return namespace[name]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--texts", choices=["bench", "locomo"], default="bench")
    parser.add_argument(
        "--data",
        type=Path,
        default=Path(__file__).resolve().parents[3] / "shared" / "data" / "locomo-dev",
    )
    parser.add_argument("--base", default="d1fe38d")
    parser.add_argument("--cuts", default="replace,prefilter,records")
    parser.add_argument(
        "--parts", action="store_true", help="time each cut's own calls instead (time_parts)"
    )
    args = parser.parse_args()
    cuts = set(args.cuts.split(","))

    from bench._harness import backend_cpu_ms, django_setup

    django_setup()
    from django.conf import settings
    from django.db import connection
    from write_cpu import bench_writer

    from memory.detectors import prefilter
    from memory.services import writes
    from memory.services.subjects import subject_get_or_create
    from memory.write_policy import policy

    run, tenant, actor, batch = bench_writer(args.texts, args.data)
    if args.parts:
        return time_parts(args, batch, tenant, _function_at)
    base_batch = dict(settings.ENGRAM_WRITE_BATCH)
    live = {
        "policy.candidate_replace": policy.candidate_replace,
        "writes.candidate_replace": writes.candidate_replace,
        "search_any_one_pass": prefilter.search_any_one_pass,
    }
    old_pass = _function_at(
        args.base, "memory/detectors/prefilter.py", "search_any_one_pass", prefilter
    )
    spent = {"decide": 0.0}
    plain_decide = writes.decide

    def timed_decide(*a, **kw):
        t0 = time.thread_time()
        try:
            return plain_decide(*a, **kw)
        finally:
            spent["decide"] += time.thread_time() - t0

    writes.decide = timed_decide

    def side(on: bool) -> None:
        if "replace" in cuts:
            policy.candidate_replace = (
                live["policy.candidate_replace"] if on else dataclasses.replace
            )
            writes.candidate_replace = (
                live["writes.candidate_replace"] if on else dataclasses.replace
            )
        if "prefilter" in cuts:
            prefilter.search_any_one_pass = live["search_any_one_pass"] if on else old_pass
            if on:
                prefilter._universe.__dict__.pop("current", None)
            else:  # the universe read under the slot's lock, as before
                prefilter._universe.current = prefilter._universe.get
        if "records" in cuts:
            settings.ENGRAM_WRITE_BATCH = {**base_batch, "POSITIONAL_RECORDS": on}

    subjects = {
        on: subject_get_or_create(
            tenant_id=tenant.id, kind="user", external_id=f"r14-{run}-{on}", display_name="Dana"
        )
        for on in (False, True)
    }
    backend_ms = backend_cpu_ms(connection)

    figures: dict[bool, list[tuple[float, float, float]]] = {False: [], True: []}
    b = 0
    for r in range(-1, args.rounds):
        for on in (False, True) if r % 2 else (True, False):
            side(on)
            candidates = batch(b)
            b += 1
            spent["decide"] = 0.0
            pg0, t0 = backend_ms(), time.thread_time()
            writes.candidates_submit(actor=actor, subject=subjects[on], candidates=candidates)
            cpu, pg = time.thread_time() - t0, backend_ms() - pg0
            if r >= 0:  # round -1: warm-up; ms a candidate
                figures[on].append((cpu * 10, spent["decide"] * 10, pg / 100))
        if r >= 0:
            off, on_ = figures[False][-1], figures[True][-1]
            print(
                f"round {r}: off {off[0]:.3f} (decide {off[1]:.3f}, backend {off[2]:.3f}) / on "
                f"{on_[0]:.3f} (decide {on_[1]:.3f}, backend {on_[2]:.3f}) ms a candidate; "
                f"load {os.getloadavg()[0]:.1f}",
                flush=True,
            )
    side(True)
    writes.decide = plain_decide
    for on in (False, True):
        cols = list(zip(*figures[on], strict=True))
        parts = [
            f"{label} min {min(col):.3f} / median {statistics.median(col):.3f}"
            for label, col in zip(("whole", "decide", "backend"), cols, strict=True)
        ]
        print(f"{'on ' if on else 'off'} {args.cuts}: " + "; ".join(parts) + f" ms ({args.texts})")
    diffs = [f[0] - n[0] for f, n in zip(figures[False], figures[True], strict=True)]
    print(
        f"whole off − on, pair by pair: median {statistics.median(diffs):.3f}, mean "
        f"{statistics.mean(diffs):.3f} ms a candidate; load "
        + " ".join(f"{x:.2f}" for x in os.getloadavg())
    )


def time_parts(args, batch, tenant, function_at) -> None:
    """Each cut's own calls, off and on alternated, µs a candidate (thread CPU), ``--parts``: six
    candidate copies (the write path makes five or six), one record instance, and the
    ``search_any_one_pass`` calls ``decide`` made on the batch's candidates, replayed."""
    from detector_prefilter_ab import run as decide_all
    from django.conf import settings
    from django.utils import timezone

    from memory.detectors import prefilter
    from memory.models import MemoryRecord
    from memory.services.record_instances import record_instance
    from memory.services.subjects import subject_get_or_create
    from memory.write_policy.decision import candidate_replace

    cands = [c for b in range(6) for c in batch(100 + b)]
    subject = subject_get_or_create(
        tenant_id=tenant.id, kind="user", external_id="r14-parts", display_name="Dana"
    )
    now = timezone.now()

    def copies(replace) -> None:
        for c in cands:
            c = replace(c, predicate="", subject_names=("Dana",), unsourced_claim=False)
            c = replace(c, source_roles=("user",), reference_time=now)
            c = replace(c, source_roles=("user",), reference_time=now)
            c = replace(c, confidence=0.9, valid_from=now, cardinality="multi")
            c = replace(c, reference_time=now)
            replace(c, sensitivity="restricted")

    def records(build) -> None:
        for c in cands:
            rid = uuid.uuid4()
            build(
                id=rid,
                tenant_id=subject.tenant_id,
                subject=subject,
                namespace=c.namespace,
                memory_type=c.memory_type,
                predicate=c.predicate,
                statement=c.statement,
                value=c.value,
                content_key="k",
                cardinality="multi",
                assertion_kind=c.assertion_kind,
                confidence=c.confidence,
                source_uri="",
                valid_from=now,
                valid_to=None,
                recorded_at=now,
                supersedes=None,
                lineage_id=rid,
                status="active",
                status_reason="",
                purpose=c.purpose,
                sensitivity=c.sensitivity,
                consent_basis=c.consent_basis,
                expires_at=None,
                importance=0.5,
                created_by_agent_id=None,
                created_by_user_id=None,
                conflicts_with_id=None,
            )

    calls = []
    live = prefilter.search_any_one_pass

    def recording(patterns, text, switches=None):
        calls.append((patterns, text, switches))
        return live(patterns, text, switches)

    prefilter.search_any_one_pass = recording
    decide_all(cands)
    prefilter.search_any_one_pass = live
    old = function_at(args.base, "memory/detectors/prefilter.py", "search_any_one_pass", prefilter)
    assert all(old(*c) == live(*c) for c in calls), "the loops differ"

    def replay(fn, current) -> None:
        if current:
            prefilter._universe.__dict__.pop("current", None)
        else:
            prefilter._universe.current = prefilter._universe.get
        for c in calls:
            fn(*c)
        prefilter._universe.__dict__.pop("current", None)

    base = dict(settings.ENGRAM_WRITE_BATCH)
    sides = {
        "candidate copies (6)": (
            lambda: copies(dataclasses.replace),
            lambda: copies(candidate_replace),
        ),
        "record instance": (
            lambda: records(lambda **v: MemoryRecord(**v)),
            lambda: records(record_instance),
        ),
        "search_any_one_pass calls": (lambda: replay(old, False), lambda: replay(live, True)),
    }
    settings.ENGRAM_WRITE_BATCH = {**base, "POSITIONAL_RECORDS": True}
    times: dict[tuple[str, bool], list[float]] = {}
    for r in range(args.rounds):
        for name, fns in sides.items():
            for on in (False, True) if r % 2 else (True, False):
                t0 = time.thread_time()
                fns[on]()
                times.setdefault((name, on), []).append(
                    (time.thread_time() - t0) * 1e6 / len(cands)
                )
    settings.ENGRAM_WRITE_BATCH = base
    for name in sides:
        off, on = times[(name, False)], times[(name, True)]
        print(
            f"{name}: off min {min(off):.1f} / median {statistics.median(off):.1f}, on min "
            f"{min(on):.1f} / median {statistics.median(on):.1f} µs a candidate ({args.texts})"
        )
    print(
        f"{len(calls) / len(cands):.1f} search_any calls a candidate; load "
        + " ".join(f"{x:.2f}" for x in os.getloadavg())
    )


if __name__ == "__main__":
    main()
