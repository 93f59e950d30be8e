"""Request-thread CPU of ``memory.recall.recall`` under two or more arms (recall weights
and retrieval settings), asked in this process on LoCoMo dev, the arms alternated
question by question (their order rotated), each recall asked once untimed first (its
embedding cached, the statements prepared) and then timed by ``time.thread_time``.

    OMP_NUM_THREADS=1 ENGRAM_TEST_DB_NAME=r36 .venv/bin/python bench/perf/recall_arms_cpu.py \
        /work/shared/data/locomo-dev --per-conv 50 --arms '{
          "off": {}, "on": {"weights": {"entity_mention": 0.8, "entity_hop": 0.6}}}'

An arm is ``{"weights": {...recall_weights...}, "retrieval": {...ENGRAM_RETRIEVAL...}}``;
two arms with the same contents are the A/A run (the noise). Uses the database
``bench/quality/locomo.py --keepdb`` left (same ``ENGRAM_TEST_DB_NAME``). ``--profile ARM``
instead runs cProfile over that arm's timed recalls and prints the top functions.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.quality import locomo  # noqa: E402  (sets up Django)


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--arms", type=json.loads, required=True)
    parser.add_argument("--per-conv", type=int, default=50, help="questions per conversation")
    parser.add_argument("--profile", default="", help="profile this arm instead")
    parser.add_argument(
        "--check-equal", action="store_true", help="every arm must return the same items"
    )
    args = parser.parse_args()

    from django.conf import settings
    from django.db import connection

    from memory.recall import RecallRequest, recall
    from memory.recall.weights import RecallWeights

    convs = locomo.load_folder(args.folder)
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=True, serialize=False)
    os.environ["ENGRAM_RECALL_FREEZE_ACCESS"] = "1"
    plain = RecallWeights.for_tenant.__func__
    retrieval = dict(settings.ENGRAM_RETRIEVAL)
    current: dict = {}

    def for_tenant(cls, policy, model_id="", reranker_id=""):
        policy = dict(policy or {})
        policy["recall_weights"] = {**(policy.get("recall_weights") or {}), **current}
        return plain(cls, policy, model_id, reranker_id)

    RecallWeights.for_tenant = classmethod(for_tenant)

    answers: dict[str, list] = {}

    def ask(arm: dict, actor, scope, question: str) -> float:
        current.clear()
        current.update(arm.get("weights", {}))
        settings.ENGRAM_RETRIEVAL = {**retrieval, **arm.get("retrieval", {})}
        started = time.thread_time()
        result = recall(
            actor=actor,
            scope=scope,
            request=RecallRequest(query=question, purpose=locomo.PURPOSE, k=10),
            record_trace=False,
        )
        spent = (time.thread_time() - started) * 1000
        answers[json.dumps(arm, sort_keys=True)] = [(i.id, i.scores["final"]) for i in result.items]
        return spent

    questions = []
    for name, conv in convs.items():
        actor, scope = locomo.in_process_reader(locomo.credentials(name))
        step = max(1, len(conv["qa"]) // args.per_conv)
        questions += [(actor, scope, q["question"]) for q in conv["qa"][::step][: args.per_conv]]
    names = list(args.arms)
    times: dict[str, list[float]] = {n: [] for n in names}
    differ = 0
    profiler = cProfile.Profile(time.thread_time) if args.profile else None
    for i, (actor, scope, question) in enumerate(questions):
        order = names[i % len(names) :] + names[: i % len(names)]
        for n in order:
            ask(args.arms[n], actor, scope, question)  # warm
        for n in order:
            if profiler is not None and n == args.profile:
                profiler.enable()
                times[n].append(ask(args.arms[n], actor, scope, question))
                profiler.disable()
            else:
                times[n].append(ask(args.arms[n], actor, scope, question))
        if args.check_equal:
            given = list(answers.values())
            if any(g != given[0] for g in given):
                differ += 1
                print(f"DIFFERENT: {question}", flush=True)
        answers.clear()
    settings.ENGRAM_RETRIEVAL = retrieval
    RecallWeights.for_tenant = classmethod(plain)
    print(f"{len(questions)} questions, load {os.getloadavg()[0]:.1f}")
    if args.check_equal:
        print(f"  arms answering differently: {differ} questions")
    for n in names:
        t = times[n]
        print(
            f"  {n:>12}: p50 {statistics.median(t):6.2f}  p95 {_pct(t, 0.95):6.2f}"
            f"  mean {statistics.fmean(t):6.2f} ms"
        )
    if profiler is not None:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(45)


if __name__ == "__main__":
    main()
