"""Where a conversation ingest's time goes at the HTTP level, per turn, in process: the
whole Django handler (middleware, DRF, authentication, JSON in and out), the services and
the extraction job that appending queues (eager, on commit, without a broker — as in the
embedded default and in ``bench/perf/write_api.py --ingest``).

    ENGRAM_EMBED_AFTER_COMMIT=none .venv/bin/python bench/perf/ingest_http.py \
        [--data /work/shared/data/locomo-dev] [--turns 1200] [--chinese 400] \
        [--form split|turn|both] [--batch 100] [--rounds 2] [--profile split|turn]
        [--ab [--switches SUMMARY_JOB_ONE_INSERT,TURN_EVENTS_NO_SAVEPOINT]]

Sends the turns as ``write_api.py --ingest`` does (consecutive turns of one session, at
most ``--batch`` a request, one candidate per turn citing its message): the split form
``POST /events`` then ``POST /candidates``, the turn form ``POST /conversation`` with the
messages and their candidates, through ``django.test.Client`` (no socket). ``--chinese``
adds generated Chinese turns (with time words, some future-dated) as a second data set.
Per turn: this thread's CPU time (``time.thread_time``, robust to a busy machine) of the
whole and of each stage (functions wrapped for the run only; stages nest, so they do not
add up), and the round trips (SQL statements) by kind and table. With ``--rounds`` > 1
the forms alternate, a fresh subject per set and round. ``--profile``: cProfile of one
form, by own time."""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import sys
import time
import uuid
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
ROOT = Path.cwd()
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench" / "perf"))

# (module, attribute, label): timed where the request calls them.
STAGES = (
    ("memory.api.authentication", "ApiKeyAuthentication.authenticate", "auth: API key + token"),
    ("memory.api.views", "EventAppendView.post", "view: POST /events"),
    ("memory.api.views", "CandidateSubmitView.post", "view: POST /candidates"),
    ("memory.api.conversation", "ConversationTurnView.post", "view: POST /conversation"),
    ("memory.api.conversation", "_validated", "  turn body validation (serializer)"),
    ("memory.api.conversation", "_turn_validated", "  turn body validation (either reader)"),
    ("memory.api.conversation", "_body", "  turn answer body"),
    ("memory.api.views", "events_append", "events_append (POST /events)"),
    ("memory.services.conversation", "events_append", "events_append (POST /conversation)"),
    ("memory.services.events", "redact_secrets", "  secret scan + redaction"),
    ("memory.services.events", "_redact_json", "  metadata scan"),
    ("memory.services.events", "_fingerprint", "  fingerprint"),
    ("memory.services.events", "audit_record", "  audit row"),
    ("memory.api.views", "candidates_submit", "candidates_submit (POST /candidates)"),
    ("memory.services.conversation", "candidates_submit", "candidates_submit (turn form)"),
    ("memory.services.extraction", "candidates_submit", "candidates_submit (extraction)"),
    ("memory.services.writes", "decide", "  policy engine (detectors)"),
    ("memory.write_policy.policy", "valid_time_hint", "    time words"),
    ("memory.services.writes", "_apply", "  apply decision"),
    ("memory.services.write_vectors", "prepare", "  passage vectors for the learned heads"),
    ("memory.services.write_batch", "flush_docs", "  sources + search docs (batch)"),
    ("memory.tasks", "run_jobs_together", "jobs run together (extraction, on commit)"),
    ("memory.tasks", "run_job", "jobs run alone (thread summary, on commit)"),
    ("memory.services.extraction", "event_extract", "  event_extract"),
    ("memory.services.extraction", "rule_extract", "    rule_extract"),
    ("memory.tasks", "summarize_thread", "  thread summary"),
    ("rest_framework.renderers", "JSONRenderer.render", "JSON rendering"),
)

_ZH = (
    "我上周搬到了杭州，{i}号楼离公司很近",
    "下个月我要去成都出差，大概待{i}天",
    "其实我不太喜欢太甜的咖啡，第{i}次点错了",
    "明天下午三点我们开会讨论第{i}版的方案",
    "去年我在深圳工作，今年调到了北京",
    "周末和朋友去爬山了，拍了{i}张照片",
    "我女儿今年{i}岁，刚开始学钢琴",
    "记住我对花生过敏，点外卖的时候注意",
    "我的新手机号是138{i:08d}，有事打给我",
    "三周后我们搬去上海，房子已经找好了",
)


def chinese_turns(n: int, start: datetime) -> list[dict]:
    """Generated Chinese turns in sessions of 20 (time words, a phone number, a move)."""
    return [
        {
            "dia_id": f"zh{i}",
            "speaker": "李雷" if i % 2 else "韩梅梅",
            "text": _ZH[i % len(_ZH)].format(i=i),
            "at": start + timedelta(days=i // 20, minutes=i % 20),
            "session": i // 20 + 1,
        }
        for i in range(n)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=Path("/work/shared/data/locomo-dev"))
    parser.add_argument("--turns", type=int, default=1200, help="LoCoMo turns per round")
    parser.add_argument("--chinese", type=int, default=400, help="Chinese turns per round")
    parser.add_argument("--form", choices=["split", "turn", "both"], default="both")
    parser.add_argument("--batch", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--profile", choices=["split", "turn"], default=None)
    parser.add_argument(
        "--ab",
        action="store_true",
        help="each round twice: ENGRAM_INGEST's shortcuts off, then on (alternated)",
    )
    parser.add_argument(
        "--switches",
        default="",
        help="with --ab, toggle only these ENGRAM_INGEST keys (comma-separated; default all)",
    )
    parser.add_argument("--top", type=int, default=40)
    args = parser.parse_args()
    os.environ.setdefault("ENGRAM_SUBJECT_TOKEN_MAX_AGE", "3600")

    from bench._harness import bench_credentials, django_setup

    django_setup()
    import logging

    for noisy in ("celery", "kombu", "engram.request"):
        logging.getLogger(noisy).setLevel(logging.ERROR)
    from django.db import connection
    from django.test import Client
    from write_api import chunks, turn_bodies
    from write_http import sql_kind, swap

    from bench.quality.locomo import load_folder, turns_of

    locomo: list[dict] = []
    for name, conv in load_folder(args.data).items():
        locomo += [{**t, "dia_id": f"{name}:{t['dia_id']}"} for t in turns_of(conv)]
    sets = {"locomo": locomo[: args.turns]}
    if args.chinese:
        sets["chinese"] = chinese_turns(args.chinese, datetime(2026, 11, 2, 9, tzinfo=UTC))
    client = Client()
    run = uuid.uuid4().hex[:8]

    current: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])
    sql: dict[str, int] = defaultdict(int)

    def timed_for(label):
        def wrap(f):
            def timed(*a, **kw):
                c = time.thread_time()
                try:
                    return f(*a, **kw)
                finally:
                    current[label][0] += (time.thread_time() - c) * 1000
                    current[label][1] += 1

            return timed

        return wrap

    def wrapper(execute, q, params, many, context):
        sql[sql_kind(q)] += 1
        return execute(q, params, many, context)

    def post(path: str, body: dict, headers: dict) -> dict:
        response = client.post(path, body, content_type="application/json", **headers)
        assert response.status_code == 200, response.content[:300]
        return response.json()

    def ingest(form: str, turns: list[dict], tag: str) -> float:
        key, token = bench_credentials("bench", f"ingest-http-{run}-{tag}")
        headers = {"HTTP_AUTHORIZATION": f"Bearer {key}", "HTTP_X_ENGRAM_SUBJECT_TOKEN": token}
        cpu = 0.0
        for chunk in chunks(turns, args.batch):
            thread_id, messages, candidates = turn_bodies(chunk, tag)
            c = time.thread_time()
            if form == "turn":
                body = {"thread_id": thread_id, "messages": messages, "candidates": candidates}
                post("/api/v1/conversation", body, headers)
            else:
                events = [{**m, "kind": "message", "thread_id": thread_id} for m in messages]
                post("/api/v1/events", {"events": events}, headers)
                post("/api/v1/candidates", {"candidates": candidates}, headers)
            cpu += time.thread_time() - c
        return cpu

    # Warm-up: connection, caches, compiled queries, the detectors' models.
    for form in ("split", "turn"):
        ingest(form, locomo[:40], f"warm-{form}")
    forms = {"split": ["split"], "turn": ["turn"], "both": ["split", "turn"]}[args.form]
    from django.conf import settings

    shortcuts = dict(settings.ENGRAM_INGEST)
    toggled = set(args.switches.split(",")) - {""} or set(shortcuts)
    assert toggled <= set(shortcuts), f"unknown switches: {toggled - set(shortcuts)}"
    modes = ["off", "on"] if args.ab else [""]
    order = [(f, m) for _ in range(args.rounds) for f in forms for m in modes]
    swapped = [s for p, a, label in STAGES if (s := swap(p, a, timed_for(label)))]
    totals: dict[tuple[str, str], list] = {}
    print(f"run {run} · {cpu_model()} · load " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    try:
        for i, (form, mode) in enumerate(order):
            if mode:
                settings.ENGRAM_INGEST = {
                    k: (mode == "on" and v) if k in toggled else v for k, v in shortcuts.items()
                }
            for set_name, turns in sets.items():
                current.clear()
                sql.clear()
                profile = cProfile.Profile() if args.profile == form else None
                if profile:
                    profile.enable()
                with connection.execute_wrapper(wrapper):
                    cpu = ingest(form, turns, f"{set_name}-{form}-{i}")
                if profile:
                    profile.disable()
                n = len(turns)
                print(
                    f"\n{form} form{' ' + mode if mode else ''}, {set_name}, round {i}: {n} turns; "
                    "CPU of this thread "
                    f"{cpu * 1000 / n:.3f} ms a turn ({n / cpu:.0f} turns per CPU-second); "
                    f"{sum(sql.values()) / n:.2f} round trips a turn · load "
                    + " ".join(f"{x:.2f}" for x in os.getloadavg())
                )
                print(f"  {'stage (CPU)':<48} {'ms/turn':>8} {'calls':>6}")
                for label, (ms, calls) in current.items():
                    print(f"  {label[:48]:<48} {ms / n:8.3f} {calls:6d}")
                print(f"  {'round trips':<48} {'/turn':>8} {'count':>6}")
                for kind, count in sorted(sql.items(), key=lambda kv: -kv[1]):
                    print(f"  {kind[:48]:<48} {count / n:8.3f} {count:6d}")
                totals.setdefault((form + mode, set_name), []).append(cpu * 1000 / n)
                if profile:
                    out = io.StringIO()
                    pstats.Stats(profile, stream=out).sort_stats(
                        os.environ.get("SORT", "tottime")
                    ).print_stats(args.top)
                    print(out.getvalue())
    finally:
        for target, name, original in swapped:
            setattr(target, name, original)
    print("\nCPU ms a turn, by round:")
    for (form, set_name), values in totals.items():
        print(f"  {form:<9} {set_name:<8} " + " ".join(f"{v:.3f}" for v in values))


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return "unknown CPU"


if __name__ == "__main__":
    main()
