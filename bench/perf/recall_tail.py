"""Which LoCoMo questions make recall's tail, and where their time goes: each question
through the whole web stack in process (Django's test client, ``POST /api/v1/recall``),
on the database ``bench/perf/recall_perf.py --keepdb --memories-per-subject N`` loaded,
with its embedding already in the query cache (asked once before it is timed), so that
what is measured is the work that runs beside the embedding and after it.

Per request and per part (exclusive of the parts called inside it): the request
thread's CPU (``time.thread_time``) and its PostgreSQL backend's CPU (the backend's
``/proc/PID/schedstat``, nanoseconds on a CPU: the same machine), the two that share the
cores with the embedding. Prints the parts' mean for all questions and for the slowest
twentieth (``--tail``: by the request's CPU, thread + backend), then the tail questions' shape (words,
capitalised words, digits, candidates, SQL statements) beside the rest's. ``--toggle
NAME`` alternates a setting request by request (both columns in one run). ``--front``
also charges each middleware's hooks, DRF's steps, the transaction, the tenant statement,
the key, the subject token, the access and the view as parts of their own. Also the
CPU after the request thread first had the question's embedding (``QueryVector.result``
returned): thread and backend, the part of a request on the critical path after it.

Usage: OMP_NUM_THREADS=1 ENGRAM_BENCH_DB=bench_lat .venv/bin/python bench/perf/recall_tail.py \
    --memories-per-subject 600 --requests 400 --questions-dir /work/shared/data/locomo-dev
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import re
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("ENGRAM_BENCH_DB", "bench_perf")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.perf.perf_settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402

from bench.perf.recall_perf import (  # noqa: E402
    loaded_per_subject_tenant,
    locomo_questions,
    pct,
    post_recall,
    subject_tokens,
)
from bench.perf.recall_timeline import toggle  # noqa: E402
from memory.recall.query import warm_up  # noqa: E402

WARM_UP = 10

# (module, attribute, part): swapped for this process only. A dotted attribute is a
# class's method.
PARTS = (
    ("memory.api.authentication", "ApiKeyAuthentication.authenticate", "auth"),
    ("memory.api.recall", "_recall_input", "body"),
    ("memory.api.recall", "recall", "recall (rest)"),
    ("memory.api.recall", "recall_answer", "answer"),
    ("memory.recall.pipeline", "recall_context", "context"),
    ("memory.recall.pipeline", "read_question", "question"),
    ("memory.recall.pipeline", "slot_keys", "slot keys"),
    ("memory.recall.pipeline", "run_routes", "routes: credits"),
    ("memory.recall.routes.exact", "search", "routes: exact"),
    ("memory.recall.routes", "search_trigram", "routes: trigram"),
    ("memory.recall.routes.recency", "search", "routes: recency"),
    ("memory.recall.routes.lexical", "search", "routes: lexical"),
    ("memory.recall.routes", "load_records", "routes: records"),
    ("memory.recall.accel.cached_scan", "prepare", "routes: vector checks"),
    ("memory.recall.routes.slot", "search", "routes: slot"),
    ("memory.recall.pipeline", "judge_ahead", "judge ahead"),
    ("memory.recall.pipeline", "fuse_and_rerank", "rank"),
    ("memory.recall.pipeline", "by_parts", "decompose"),
    ("memory.recall.pipeline", "around_hits", "around hits"),
    ("memory.recall.pipeline", "entity_expand", "entities"),
    ("memory.recall.pipeline", "time_named", "time named"),
    ("memory.recall.pipeline", "dedupe", "dedupe"),
    ("memory.recall.pipeline", "routed_items", "routing"),
    ("memory.recall.pipeline", "attach_sources", "sources"),
    ("memory.recall.pipeline", "fit_budget", "budget"),
    ("memory.recall.pipeline", "context_pack", "pack"),
    ("memory.recall.pipeline", "record_recall", "trace"),
)


def backend_ns() -> int:
    """Nanoseconds the connection's PostgreSQL backend has spent on a CPU."""
    pid = connection.connection.info.backend_pid
    with open(f"/proc/{pid}/schedstat") as f:
        return int(f.read().split()[0])


class Clock:
    """Exclusive CPU (thread, backend) per part, for one request at a time."""

    def __init__(self) -> None:
        self.stack: list[list] = []
        self.parts: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
        self.on = False
        self.candidates = 0
        # (thread ns, backend ns, wall ns) when the request thread first had the
        # question's embedding (``QueryVector.result`` returned): what follows is the
        # critical path.
        self.embedded: tuple[int, int, int] | None = None

    def mark_result(self, result):
        """``QueryVector.result`` noting when the request thread first has it."""

        def marked(vector):
            value = result(vector)
            if self.on and self.embedded is None:
                self.embedded = (time.thread_time_ns(), backend_ns(), time.perf_counter_ns())
            return value

        return marked

    def wrap(self, function, part: str):
        def timed(*args, **kwargs):
            if not self.on:
                return function(*args, **kwargs)
            frame = [time.thread_time_ns(), backend_ns(), 0, 0]
            self.stack.append(frame)
            try:
                result = function(*args, **kwargs)
                if part == "routes: credits" and isinstance(result, tuple):
                    self.candidates += len(result[0])
                if part == "routes: vector checks" and callable(result):
                    return self.wrap(result, "routes: vector scan")
                return result
            finally:
                self.stack.pop()
                cpu = time.thread_time_ns() - frame[0]
                db = backend_ns() - frame[1]
                self.parts[part][0] += (cpu - frame[2]) / 1e6
                self.parts[part][1] += (db - frame[3]) / 1e6
                if self.stack:
                    self.stack[-1][2] += cpu
                    self.stack[-1][3] += db

        return timed


# Before the view (``--front``): each middleware's own work, and DRF's steps around the
# view, charged as parts of their own (what "outside the parts" held).
FRONT = (
    ("rest_framework.views", "APIView.initialize_request", "drf: request"),
    ("rest_framework.views", "APIView.perform_content_negotiation", "drf: negotiation"),
    ("rest_framework.views", "APIView.check_permissions", "drf: permissions"),
    ("rest_framework.views", "APIView.check_throttles", "drf: throttles"),
    ("rest_framework.views", "APIView.determine_version", "drf: version"),
    ("rest_framework.views", "APIView.finalize_response", "drf: finalize"),
    ("rest_framework.response", "Response.rendered_content", "drf: render"),
    ("django.core.handlers.base", "BaseHandler.resolve_request", "django: resolve"),
    ("django.test.client", "Client.request", "test client"),
    ("django.core.handlers.base", "BaseHandler._get_response", "django: get_response"),
    ("rest_framework.views", "APIView.dispatch", "drf: dispatch"),
    ("rest_framework.views", "APIView.initial", "drf: initial"),
    ("rest_framework.request", "Request._authenticate", "drf: authenticate"),
    ("memory.api.recall", "RecallView.post", "view: post"),
    ("memory.api.views", "SubjectScopedView.subject", "view: subject"),
    ("django.db.transaction", "Atomic.__enter__", "db: begin"),
    ("django.db.transaction", "Atomic.__exit__", "db: commit"),
    ("accounts.middleware", "enter_tenant", "db: enter tenant"),
    ("memory.api.authentication", "api_key_authenticate", "auth: key"),
    ("memory.api.authentication", "subject_token_verify", "auth: subject token"),
    ("memory.api.authentication", "ApiKeyAuthentication._check_agent_access", "auth: access"),
)
_HOOKS = ("__call__", "process_request", "process_view", "process_response")


def front_parts() -> list[tuple[object, str, str]]:
    """(owner, attribute, part) for FRONT and every middleware's own hooks."""
    from django.conf import settings

    found = []
    for module_name, attribute, part in FRONT:
        owner = importlib.import_module(module_name)
        *path, name = attribute.split(".")
        for step in path:
            owner = getattr(owner, step, None)
        if owner is not None and name in vars(owner):
            found.append((owner, name, part))
    for dotted in settings.MIDDLEWARE:
        module_name, _, class_name = dotted.rpartition(".")
        cls = getattr(importlib.import_module(module_name), class_name)
        for hook in _HOOKS:
            if hook in vars(cls):
                found.append((cls, hook, f"mw: {class_name}.{hook}"))
    return found


def instrument(clock: Clock, front: bool = False) -> None:
    if front:
        for owner, name, part in front_parts():
            value = vars(owner)[name]
            if isinstance(value, property):
                setattr(owner, name, property(clock.wrap(value.fget, part)))
            elif isinstance(value, staticmethod):
                setattr(owner, name, staticmethod(clock.wrap(value.__func__, part)))
            else:
                setattr(owner, name, clock.wrap(value, part))
    for module_name, attribute, part in PARTS:
        owner = importlib.import_module(module_name)
        *path, name = attribute.split(".")
        for step in path:
            owner = getattr(owner, step)
        setattr(owner, name, clock.wrap(getattr(owner, name), part))
    from memory.recall.query import QueryVector

    QueryVector.result = clock.mark_result(QueryVector.result)


def shape(question: str) -> dict[str, float]:
    words = re.findall(r"[\w']+", question)
    return {
        "chars": len(question),
        "words": len(words),
        "capitalised words": sum(1 for w in words[1:] if w[:1].isupper()),
        "digits": sum(c.isdigit() for c in question),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--memories-per-subject", type=int, required=True)
    parser.add_argument("--subjects", type=int, default=2)
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument("--questions-dir", type=Path, required=True)
    parser.add_argument("--toggle", metavar="NAME", help="settings alternated request by request")
    parser.add_argument("--show", type=int, default=12, help="tail questions printed")
    parser.add_argument(
        "--tail", type=float, default=95, help="the tail: at or above this percentile"
    )
    parser.add_argument(
        "--front", action="store_true", help="also charge each middleware and DRF step"
    )
    args = parser.parse_args()
    real = locomo_questions(args.questions_dir)
    tenant = loaded_per_subject_tenant(args.memories_per_subject, args.subjects)
    tokens = subject_tokens(tenant)
    warm_up()
    client = Client(HTTP_HOST="127.0.0.1")
    rng = random.Random(13)
    asked = [
        (real[i % len(real)], rng.choice(tenant["subjects"]))
        for i in range(args.requests + WARM_UP)
    ]
    print(f"embedding {len(asked)} questions into the query cache …", flush=True)
    for question, subject in asked:
        post_recall(client, tenant, tokens[subject], question)
    clock = Clock()
    instrument(clock, front=args.front)
    states = (True, False) if args.toggle else (None,)
    rows: dict = {state: [] for state in states}
    statements = {"n": 0}

    def count(execute, sql, params, many, context):
        statements["n"] += 1
        return execute(sql, params, many, context)

    for i, (question, subject) in enumerate(asked):
        state = states[i % len(states)]
        if args.toggle:
            toggle(args.toggle.split(","), state)
        clock.parts.clear()
        clock.candidates = 0
        clock.embedded = None
        statements["n"] = 0
        clock.on = True
        connection.ensure_connection()
        started, cpu, db = time.perf_counter(), time.thread_time_ns(), backend_ns()
        with connection.execute_wrapper(count):
            post_recall(client, tenant, tokens[subject], question)
        wall = (time.perf_counter() - started) * 1000
        ended = (time.thread_time_ns(), backend_ns(), time.perf_counter_ns())
        total = ((ended[0] - cpu) / 1e6, (ended[1] - db) / 1e6)
        after = (
            tuple((ended[i] - clock.embedded[i]) / 1e6 for i in range(3))
            if clock.embedded
            else (0.0, 0.0, 0.0)
        )
        clock.on = False
        if i < WARM_UP:
            continue
        rows[state].append(
            {
                "question": question,
                "wall": wall,
                "cpu": total[0],
                "db": total[1],
                "after": after[0] + after[1],
                "after thread": after[0],
                "after backend": after[1],
                "after wall": after[2],
                "parts": dict(clock.parts),
                "candidates": clock.candidates,
                "statements": statements["n"],
            }
        )
    print(f"load average {os.getloadavg()[0]:.1f}")
    for state in states:
        report(rows[state], f"{args.toggle}={state}: " if args.toggle else "", args.show, args.tail)


def report(rows: list[dict], head: str, show: int, tail_from: float = 95) -> None:
    both = sorted(r["cpu"] + r["db"] for r in rows)
    cut = pct(both, tail_from)
    tail = [r for r in rows if r["cpu"] + r["db"] >= cut]
    rest = [r for r in rows if r["cpu"] + r["db"] < cut]
    for key in ("wall", "cpu", "db"):
        v = sorted(r[key] for r in rows)
        print(f"{head}{key:>5} p50 {pct(v, 50):6.2f} / p95 {pct(v, 95):6.2f} ms")
    for key in ("after thread", "after backend", "after", "after wall"):
        v = sorted(r[key] for r in rows)
        print(
            f"{head}{key:>13} the embedding's result: mean {statistics.mean(v):5.2f}"
            f" p50 {pct(v, 50):5.2f} / p95 {pct(v, 95):5.2f} ms"
            f" {'wall (the client waits)' if key == 'after wall' else 'CPU'}"
        )
    print(
        f"{head}thread + backend CPU p50 {pct(both, 50):.2f} / p90 {pct(both, 90):.2f}"
        f" / p95 {pct(both, 95):.2f} ms (the tail: p{tail_from:g}+)"
    )
    names = sorted({p for r in rows for p in r["parts"]})

    def mean(group: list[dict], part: str, i: int) -> float:
        return sum(r["parts"].get(part, (0.0, 0.0))[i] for r in group) / max(1, len(group))

    print(
        f"  {'part (exclusive), ms a request':30} {'all: thread':>11} {'backend':>8}"
        f" {'tail: thread':>12} {'backend':>8}"
    )
    for part in sorted(names, key=lambda p: -(mean(rows, p, 0) + mean(rows, p, 1))):
        print(
            f"  {part:30} {mean(rows, part, 0):11.2f} {mean(rows, part, 1):8.2f}"
            f" {mean(tail, part, 0):12.2f} {mean(tail, part, 1):8.2f}"
        )
    outside = [r["cpu"] - sum(v[0] for v in r["parts"].values()) for r in rows]
    print(f"  {'outside the parts (middleware, DRF)':30} {statistics.mean(outside):11.2f}")
    print(f"  {'shape, mean':30} {'rest':>11} {'tail':>8}")
    for key in ("chars", "words", "capitalised words", "digits"):
        a = statistics.mean(shape(r["question"])[key] for r in rest)
        b = statistics.mean(shape(r["question"])[key] for r in tail)
        print(f"  {key:30} {a:11.1f} {b:8.1f}")
    for key in ("candidates", "statements"):
        a = statistics.mean(r[key] for r in rest)
        b = statistics.mean(r[key] for r in tail)
        print(f"  {key:30} {a:11.1f} {b:8.1f}")
    print(
        f"  the tail's questions (thread + backend ms, candidates, statements), {show} of"
        f" {len(tail)}:"
    )
    for r in sorted(tail, key=lambda r: -(r["cpu"] + r["db"]))[:show]:
        print(
            f"    {r['cpu'] + r['db']:6.1f}  {r['candidates']:4d} {r['statements']:3d}"
            f"  {r['question'][:90]}"
        )


if __name__ == "__main__":
    main()
