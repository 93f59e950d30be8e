"""Where a write's time goes, stage by stage, in process, on the configured database (the
embedded PostgreSQL by default).

    .venv/bin/python bench/perf/write_stages.py [--batches 10] [--size 100] [--events N]
                                                [--data /work/shared/data/locomo-dev]

Appends conversation turns as events (batches of ``--size``), then submits one candidate
per turn citing it (the LoCoMo ingest's shape: the context-turn lookup, source links and
slot lookups all run), and times each stage of both paths: Python functions wrapped for
the run only (swapped back afterwards), and every SQL statement by kind and table through
``connection.execute_wrapper`` (savepoints, each table's inserts — their triggers run
inside them — and each lookup). Trigger functions are timed by PostgreSQL itself
(``pg_stat_user_functions``) when the connection may turn ``track_functions`` on.

Turns come from the LoCoMo dev conversations when ``--data`` names them, otherwise from
generated English and Chinese sentences. The table lists total ms per stage, ms per
candidate (or event) and calls; stages nest, so they do not add up to the whole.
``ENGRAM_WRITE_BATCH_LOOKUPS=0`` / ``=1`` selects the write path being measured.
"""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import os
import re
import sys
import time
import uuid
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path

# One OpenMP thread, as the web workers (bench/_harness.py): the learned heads' embedding
# calls otherwise spin every core of a shared machine (ten times slower at a load of 4).
os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench._harness import django_setup, machine, progress  # noqa: E402

# (module, attribute, label): functions timed where the write path calls them.
CANDIDATE_STAGES = (
    ("memory.services.writes", "candidates_submit", "candidates: whole request"),
    ("memory.services.writes", "_submit_with_retries", "per candidate, incl. savepoint"),
    ("memory.services.writes", "_candidate_text_problem", "text check (NUL, Unicode)"),
    ("memory.services.writes", "_sources", "cited events lookup"),
    ("memory.services.writes", "_existing_facts", "slot lookup (existing facts)"),
    ("memory.services.writes", "decide", "policy engine (detectors, time words)"),
    ("memory.write_policy.policy", "valid_time_hint", "  of it: time words"),
    ("memory.temporal", "_dateparser_future", "    of it: dateparser calls"),
    ("memory.content_rules", "find_secrets", "  of it: secret scan"),
    ("memory.content_rules", "find_sensitive_personal_data", "  of it: sensitive data"),
    ("memory.write_policy.policy", "learned_scores", "  of it: learned heads' scores"),
    ("memory.services.write_vectors", "prepare", "passage vectors for the learned heads"),
    ("memory.detectors.learned", "needs_embedding", "  of it: n-gram heads (cached after)"),
    ("memory.detectors.learned", "embed", "  of it: embedding calls"),
    ("memory.services.writes", "_unless_stale", "ordering check (stale change)"),
    ("memory.services.writes", "_apply", "apply decision (inserts)"),
    ("memory.services.record_changes", "_link_sources", "  of it: source links"),
    ("memory.services.record_changes", "record_indexed_on_write", "  of it: search doc"),
    ("memory.services.indexing", "preceding_turns", "    of it: context-turn lookup"),
    ("memory.services.mentions", "mentions_write", "    of it: entity mentions"),
    ("memory.services.writes", "write_audits", "audit rows (one insert)"),
    ("memory.services.write_batch", "prefetch", "batch: prefetch lookups"),
    ("memory.services.write_batch", "flush_docs", "batch: search docs at the end"),
)
EVENT_STAGES = (
    ("memory.services.events", "events_append", "events: whole request"),
    ("memory.services.events", "redact_secrets", "secret scan + redaction"),
    ("memory.services.events", "_redact_json", "metadata scan"),
    ("memory.services.events", "_fingerprint", "fingerprint"),
    ("memory.services.events", "_consent_state", "consent lookup"),
    ("memory.services.events", "audit_record", "audit row"),
    ("memory.services.extraction", "event_extract", "extraction of one event (eager)"),
)

_TABLE = re.compile(r'(?:INTO|FROM|UPDATE)\s+"?([a-z_]+)"?', re.IGNORECASE)


def sql_kind(sql: str) -> str:
    head = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else "?"
    if head in ("SAVEPOINT", "RELEASE", "ROLLBACK"):
        return "sql: savepoints"
    table = _TABLE.search(sql)
    return f"sql: {head.lower()} {table[1] if table else ''}".rstrip()


def turns(data: Path | None, n: int) -> list[tuple[str, str, str]]:
    """(thread, speaker, text) of ``n`` conversation turns."""
    out: list[tuple[str, str, str]] = []
    if data is not None:
        for path in sorted(data.glob("*.json")):
            convo = json.loads(path.read_text())
            convo = convo.get("conversation", convo)
            for key in sorted(k for k in convo if re.fullmatch(r"session_\d+", k)):
                for turn in convo[key]:
                    text = turn["text"]
                    if turn.get("blip_caption"):
                        text += f" [shares a photo: {turn['blip_caption']}]"
                    out.append((f"{path.stem}-{key}", turn["speaker"], text))
    while len(out) < n:  # generated turns, English and Chinese
        i = len(out)
        out.append(
            (
                f"gen-{i // 20}",
                "Dana" if i % 2 else "Li",
                f"I started learning pottery {i} weeks ago and love the {i % 7} glazes"
                if i % 3
                else f"我上周开始学第{i}首曲子，下个月要在朋友的婚礼上表演",
            )
        )
    return out[:n]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--batches", type=int, default=10)
    parser.add_argument("--size", type=int, default=100)
    parser.add_argument("--data", type=Path, default=None, help="LoCoMo dev folder")
    parser.add_argument(
        "--warm-up",
        type=int,
        default=1,
        help="batches run first, untimed, on another subject and other turns: the first "
        "call's imports and compiled rules and the embedding model's load are paid there, "
        "not spread over the timed candidates (0: none, as before 2026-12-07)",
    )
    args = parser.parse_args()
    django_setup()
    for noisy in ("celery", "kombu"):  # eager jobs log each run with its arguments
        logging.getLogger(noisy).setLevel(logging.ERROR)

    from django.conf import settings
    from django.db import connection

    from accounts.models import Agent, Tenant
    from accounts.services.tenants import agent_create, tenant_create
    from core.actor import Actor
    from memory.services import events as events_service
    from memory.services import writes
    from memory.services.events import EventInput
    from memory.services.subjects import subject_get_or_create
    from memory.write_policy import Candidate

    run = uuid.uuid4().hex[:8]
    tenant = Tenant.objects.filter(slug="bench").first() or tenant_create(
        slug="bench", name="Benchmarks"
    )
    agent = Agent.objects.filter(tenant=tenant, name="bench").first() or agent_create(
        actor=Actor.system(tenant.id, "bench"), tenant=tenant, name="bench"
    )
    subject = subject_get_or_create(
        tenant_id=tenant.id, kind="user", external_id=f"stages-{run}", display_name="Dana"
    )
    actor = Actor.agent(agent.id, tenant.id)
    batch_setting = getattr(settings, "ENGRAM_WRITE_BATCH", {}).get("LOOKUPS")
    print(f"Engram write stages · run {run} · {machine()} · {cpu_model()}")
    print(f"WRITE_BATCH_LOOKUPS={batch_setting} · EMBED_AFTER_COMMIT=", end="")
    print(settings.ENGRAM_RETRIEVAL["EMBED_AFTER_COMMIT"])
    total = args.batches * args.size
    all_turns = turns(args.data, total + args.warm_up * args.size)
    base = datetime(2026, 11, 1, tzinfo=UTC)

    def one_batch(subj, chunk, at: int, tag: str, phase: dict | None = None) -> None:
        """Append ``chunk``'s turns as events, then submit one candidate citing each;
        with ``phase``, both timed into ``walls`` and ``cpus``."""
        items = [
            EventInput(
                client_event_id=f"{run}-{tag}-{j}",
                kind="message",
                role="user",
                content=text,
                thread_id=thread,
                speaker=speaker,
                occurred_at=base + timedelta(minutes=at + j),
            )
            for j, (thread, speaker, text) in enumerate(chunk)
        ]
        if phase is not None:
            phase["name"] = "events"
        start, cpu = time.perf_counter(), time.thread_time()
        outcomes = events_service.events_append(
            actor=actor, agent_id=agent.id, subject=subj, items=items
        )
        if phase is not None:
            walls["events"] += time.perf_counter() - start
            cpus["events"] += time.thread_time() - cpu
        candidates = [
            Candidate(
                memory_type="episodic",
                namespace="conversation",
                statement=f"{speaker}: {text}"[:2000],
                assertion_kind="user_explicit",
                confidence=0.9,
                purpose="personalization",
                consent_basis="explicit_consent",
                source_event_ids=(o.event_id,),
            )
            for o, (_, speaker, text) in zip(outcomes, chunk, strict=True)
        ]
        if phase is not None:
            phase["name"] = "candidates"
        start, cpu = time.perf_counter(), time.thread_time()
        writes.candidates_submit(
            actor=actor, subject=subj, candidates=candidates, agent_id=agent.id
        )
        if phase is not None:
            walls["candidates"] += time.perf_counter() - start
            cpus["candidates"] += time.thread_time() - cpu

    walls = {"events": 0.0, "candidates": 0.0}
    cpus = {"events": 0.0, "candidates": 0.0}  # this thread's CPU time (load-robust)
    if args.warm_up:
        warm = subject_get_or_create(
            tenant_id=tenant.id, kind="user", external_id=f"stages-warm-{run}", display_name="Li"
        )
        for w in range(args.warm_up):
            at = total + w * args.size
            one_batch(warm, all_turns[at : at + args.size], at, f"warm{w}")

    times: dict[str, list[float]] = defaultdict(list)
    swapped = []
    for module_name, name, label in CANDIDATE_STAGES + EVENT_STAGES:
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        original = getattr(module, name, None)
        if original is None:
            continue

        def timed(*a, _f=original, _label=label, **kw):
            start = time.perf_counter()
            try:
                return _f(*a, **kw)
            finally:
                times[_label].append((time.perf_counter() - start) * 1000)

        setattr(module, name, timed)
        swapped.append((module, name, original))

    phase = {"name": ""}
    sql_times: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))

    def wrapper(execute, sql, params, many, context):
        start = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            sql_times[phase["name"]][sql_kind(sql)].append((time.perf_counter() - start) * 1000)

    functions = trigger_stats_begin(connection)
    try:
        with connection.execute_wrapper(wrapper):
            for b in range(args.batches):
                chunk = all_turns[b * args.size : (b + 1) * args.size]
                one_batch(subject, chunk, b * args.size, str(b), phase)
                progress(b + 1, args.batches, "batches")
    finally:
        for module, name, original in swapped:
            setattr(module, name, original)
    triggers = trigger_stats_end(connection, functions)

    print(f"\n{total} events, then {total} candidates citing them, batches of {args.size}")
    print("load average: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    for kind, stages in (("candidates", CANDIDATE_STAGES), ("events", EVENT_STAGES)):
        wall = walls[kind]
        print(
            f"\n{kind}: {total / wall:.0f}/s in process ({wall * 1000 / total:.2f} ms each; "
            f"CPU of this thread {cpus[kind] * 1000 / total:.2f} ms each)"
        )
        if kind == "events" and not settings.CELERY_BROKER_URL:
            print("  (no broker: extraction of the events runs eagerly, inside these figures)")
        print(f"  {'stage':<46} {'total ms':>9} {'ms each':>8} {'calls':>6}")
        for _, _, label in stages:
            if times.get(label):
                v = times[label]
                print(f"  {label:<46} {sum(v):9.1f} {sum(v) / total:8.3f} {len(v):6d}")
        for sql, v in sorted(sql_times[kind].items(), key=lambda kv: -sum(kv[1])):
            print(f"  {sql[:46]:<46} {sum(v):9.1f} {sum(v) / total:8.3f} {len(v):6d}")
    if triggers:
        print("\ntrigger functions (PostgreSQL's own timing, both phases)")
        for name, calls, ms in triggers:
            print(f"  {name[:46]:<46} {ms:9.1f} {ms / total:8.3f} {calls:6d}")
    elif triggers is None:
        print("\n(trigger timing unavailable: track_functions needs a superuser connection)")


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return "unknown CPU"


_TRIGGER_SQL = """
    SELECT funcname, calls, self_time FROM pg_stat_user_functions
"""


def trigger_stats_begin(connection) -> dict | None:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SET track_functions = 'pl'")
            cursor.execute(_TRIGGER_SQL)
            return {name: (calls, ms) for name, calls, ms in cursor.fetchall()}
    except Exception:  # noqa: BLE001 — not a superuser: report without trigger timing
        return None


def trigger_stats_end(connection, before: dict | None) -> list | None:
    if before is None:
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_force_next_flush()")
        cursor.execute(_TRIGGER_SQL)
        rows = cursor.fetchall()
    out = []
    for name, calls, ms in rows:
        c0, m0 = before.get(name, (0, 0.0))
        if calls - c0:
            out.append((name, calls - c0, ms - m0))
    return sorted(out, key=lambda r: -r[2])


if __name__ == "__main__":
    main()
