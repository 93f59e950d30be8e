"""Recall quality benchmark: the hybrid pipeline vs a pure-vector top-k baseline on the
bilingual golden set (bench/golden/recall_v1.json; v2-v4 with ``--golden``).

It creates its own throw-away database (``bench_recall`` on the same PostgreSQL server),
writes every memory through the real write path (so supersede, closed copies, deletion and
quarantine happen as in production), embeds them with the configured embedder, and asks
every query through ``memory.recall.recall``.

Reports, per split (tune / heldout / all) and per system: Recall@5, Recall@10, nDCG@10,
precision (share of returned items that answer the question), stale-memory recall rate,
abstention correctness, leak rate (items of another subject or tenant, deleted or
quarantined ones), items returned (÷ k) and latency p50/p95 (in process, query
embedding included, query cache cleared before each query).

The baseline is what a naive vector memory does: cosine top-k over every embedded memory
of the subject, with no validity, status or purpose filter and no lexical routes.

Usage:  .venv/bin/python bench/quality/recall.py [--keepdb] [--weights '{"vector": 1.2}']
                                         [--golden bench/golden/recall_v2.json]

``--golden`` picks the golden set (default v1). Another set gets its own database
(``bench_<stem>``, e.g. ``bench_recall_v2``), load context (``results/<stem>_context.json``)
and result files (``results/<stem>.txt`` / ``.json``); v1 keeps the historical names.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import sys
import threading
import time
from collections import defaultdict
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
GOLDEN_V1 = ROOT / "bench" / "golden" / "recall_v1.json"


def _golden_arg() -> Path:
    """--golden, read before Django starts (the database name depends on it)."""
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--golden", default=str(GOLDEN_V1))
    path = Path(pre.parse_known_args()[0].golden)
    return path if path.is_absolute() else (Path.cwd() / path).resolve()


GOLDEN = _golden_arg()
# v1 keeps its historical names; any other golden set gets names of its own.
STEM = "" if GOLDEN == GOLDEN_V1 else GOLDEN.stem
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
os.environ.setdefault("ENGRAM_TEST_DB_NAME", f"bench_{STEM}" if STEM else "bench_recall")
os.environ["ENGRAM_EMBED_AFTER_COMMIT"] = "none"

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402

from memory.services.reindex_drift import ndcg, recall_at  # noqa: E402

PURPOSE = "personalization"
K = 10
RESULTS = ROOT / "bench" / "results"
CONTEXT_FILE = RESULTS / (f"{STEM}_context.json" if STEM else "recall_context.json")
RESULT_STEM = STEM or "recall"
TENANT_B_SUBJECTS = 10  # the first subjects are copied into a second tenant (leak check)
PROGRESS_EVERY = 500


class _EmbedProgress(threading.Thread):
    """Prints how many embeddings exist every few seconds while reindex() runs."""

    def __init__(self, target: int, every: float = 20.0):
        super().__init__(daemon=True)
        self.target, self.every, self.done = target, every, threading.Event()

    def run(self) -> None:
        from django.db import connection as conn

        from memory.models import MemoryEmbedding

        t0, start = time.perf_counter(), None
        try:
            while not self.done.wait(self.every):
                n = MemoryEmbedding.objects.count()
                start = n if start is None else start
                elapsed = time.perf_counter() - t0
                rate = (n - start) / max(elapsed - self.every, 1e-9) if n > start else 0.0
                eta = (self.target - n) / rate if rate else float("nan")
                print(f"  embedded {n}/~{self.target} ({rate:.0f}/s, ETA {eta:.0f}s)", flush=True)
        finally:
            conn.close()


def load(data: dict) -> dict:
    """Write the golden set through the write path; returns the bench context."""
    from accounts.models import Tenant
    from accounts.services.tenants import agent_create, tenant_create
    from core.actor import Actor
    from core.codes import Operation
    from memory.models import MemoryRecord, MemoryStatus
    from memory.services.index_maintenance import reindex
    from memory.services.subjects import subject_get_or_create
    from memory.services.writes import candidates_submit
    from memory.write_policy import Candidate, Intent

    digest = hashlib.sha256(GOLDEN.read_bytes()).hexdigest()
    if Tenant.objects.filter(slug="bench-a").exists():
        ctx = json.loads(CONTEXT_FILE.read_text())
        if ctx.get("golden_sha256", digest) != digest:
            raise SystemExit(
                f"{GOLDEN.name} changed since the kept database was loaded: "
                "run once without --keepdb to reload it."
            )
        return ctx

    ctx: dict = {"subjects": {}, "keys": {}, "forbidden": {}, "outcomes": defaultdict(int)}
    ctx["golden"] = str(GOLDEN.relative_to(ROOT)) if GOLDEN.is_relative_to(ROOT) else str(GOLDEN)
    ctx["golden_sha256"] = digest
    tenants = {
        "a": tenant_create(slug="bench-a", name="Bench A"),
        "b": tenant_create(slug="bench-b", name="Bench B"),
    }
    agent = agent_create(actor=Actor.system(tenants["a"].id), tenant=tenants["a"], name="bench")
    ctx["agent_id"] = str(agent.id)
    ctx["tenant_id"] = str(tenants["a"].id)

    def write(tenant, subject, m: dict) -> list:
        actor = Actor.system(tenant.id, "bench")
        candidate = Candidate(
            memory_type=m.get("memory_type", "semantic"),
            namespace="assistant/profile",
            statement=m["statement"],
            predicate=m.get("predicate", ""),
            value=m.get("value"),
            assertion_kind="user_explicit",
            confidence=1.0,
            purpose=PURPOSE,
            consent_basis="explicit_consent",
            valid_from=datetime.fromisoformat(m["valid_from"]) if m.get("valid_from") else None,
            user_confirmed_sensitive=True,
        )
        [o] = candidates_submit(actor=actor, subject=subject, candidates=[candidate])
        ctx["outcomes"][f"{m['role']}:{o.operation}:{o.reason_code}"] += 1
        if m["role"] == "deleted" and o.record_id:
            forget = Candidate(
                **{**candidate.__dict__, "intent": Intent.FORGET, "target_record_id": o.record_id}
            )
            candidates_submit(actor=actor, subject=subject, candidates=[forget])
        if (
            o.operation in (Operation.ADD, Operation.SUPERSEDE, Operation.QUARANTINE)
            and o.record_id
        ):
            return [o.record_id]
        return []

    plan = (("a", data["subjects"]), ("b", data["subjects"][:TENANT_B_SUBJECTS]))
    total = sum(len(s["memories"]) for _, subjects in plan for s in subjects)
    written, t0 = 0, time.perf_counter()
    print(f"writing {total} memories through the write path", flush=True)
    for tenant_key, subjects in plan:
        tenant = tenants[tenant_key]
        for s in subjects:
            subject = subject_get_or_create(tenant_id=tenant.id, kind="user", external_id=s["id"])
            for m in s["memories"]:
                written += 1
                if written % PROGRESS_EVERY == 0 or written == total:
                    elapsed = time.perf_counter() - t0
                    rate = written / elapsed
                    print(
                        f"  written {written}/{total} ({rate:.0f}/s, "
                        f"ETA {(total - written) / rate:.0f}s)",
                        flush=True,
                    )
                for rid in write(tenant, subject, m):
                    if tenant_key != "a":
                        continue
                    ctx["keys"][str(rid)] = [s["id"], m["key"], m["role"]]
            if tenant_key == "a":
                ctx["subjects"][s["id"]] = str(subject.id)
    # Closed copies made by supersede inherit their original's key.
    for r in MemoryRecord.objects.filter(tenant=tenants["a"], supersedes__isnull=False).values(
        "id", "supersedes_id"
    ):
        if str(r["id"]) not in ctx["keys"] and str(r["supersedes_id"]) in ctx["keys"]:
            ctx["keys"][str(r["id"])] = ctx["keys"][str(r["supersedes_id"])]
    forbidden = MemoryRecord.objects.filter(
        tenant=tenants["a"], status__in=[MemoryStatus.DELETED, MemoryStatus.QUARANTINED]
    ).values_list("id", flat=True)
    ctx["forbidden"] = [str(i) for i in forbidden]
    ctx["write_seconds"] = round(time.perf_counter() - t0, 1)
    t = time.perf_counter()
    target = MemoryRecord.objects.exclude(status=MemoryStatus.DELETED).count()
    print(f"embedding ~{target} records", flush=True)
    progress = _EmbedProgress(target)
    progress.start()
    try:
        result = reindex(lexical_docs=False)
    finally:
        progress.done.set()
        progress.join()
    ctx["embed_seconds"] = round(time.perf_counter() - t, 1)
    ctx["embedded"] = result.embeddings
    ctx["outcomes"] = dict(ctx["outcomes"])
    RESULTS.mkdir(exist_ok=True)
    CONTEXT_FILE.write_text(json.dumps(ctx, indent=1))
    return ctx


def expectations(ctx: dict, query: dict) -> tuple[set[str], set[str]]:
    """(relevant ids, stale ids) for a query, from what the write path actually stored."""
    from memory.models import MemoryRecord, MemoryStatus

    if query["kind"] == "abstain" or not query["key"]:
        return set(), set()
    key_ids = [
        rid
        for rid, (sid, key, role) in ctx["keys"].items()
        if sid == query["subject"] and key == query["key"] and role == "relevant"
    ]
    at = datetime.fromisoformat(query["as_of"]) if query.get("as_of") else timezone.now()
    relevant, stale = set(), set()
    for r in MemoryRecord.objects.filter(id__in=key_ids):
        valid = r.valid_from <= at and (r.valid_to is None or r.valid_to > at)
        current = r.status == MemoryStatus.ACTIVE and r.superseded_at is None
        (relevant if valid and current else stale).add(str(r.id))
    return relevant, stale


def run_hybrid(ctx, query, weights):
    import uuid

    from core.actor import Actor
    from memory import embedders
    from memory.recall import RecallRequest, RecallScope, recall

    embedders._query_cache.clear()
    scope = RecallScope(
        tenant_id=uuid.UUID(ctx["tenant_id"]),
        subject_id=uuid.UUID(ctx["subjects"][query["subject"]]),
        agent_id=uuid.UUID(ctx["agent_id"]),
        clearance="internal",
    )
    request = RecallRequest(
        query=query["query"],
        purpose=PURPOSE,
        as_of=datetime.fromisoformat(query["as_of"]) if query.get("as_of") else None,
        k=K,
        token_budget=8000,
    )
    t = time.perf_counter()
    result = recall(
        actor=Actor.agent(ctx["agent_id"], scope.tenant_id),
        scope=scope,
        request=request,
        weights=weights,
        record_trace=False,
    )
    return [str(i.id) for i in result.items], (time.perf_counter() - t) * 1000


def run_vector(ctx, query, weights):
    from pgvector.django import CosineDistance

    from memory import embedders
    from memory.models import MemoryEmbedding
    from memory.selectors import active_model_id

    embedders._query_cache.clear()
    t = time.perf_counter()
    model_id, vector = embedders.embed_query_cached(query["query"], active_model_id())
    distance = CosineDistance("vector", vector)
    rows = (
        MemoryEmbedding.objects.filter(
            tenant_id=ctx["tenant_id"],
            subject_id=ctx["subjects"][query["subject"]],
            model_id=model_id,
        )
        .annotate(d=distance)
        .order_by(distance + 0)
        .values_list("record_id", flat=True)[:K]
    )
    out = [str(r) for r in rows]
    return out, (time.perf_counter() - t) * 1000


def evaluate(ctx, queries, runner, weights) -> dict:
    own = {sid: set() for sid in ctx["subjects"]}
    for rid, (sid, _, _) in ctx["keys"].items():
        own[sid].add(rid)
    forbidden = set(ctx["forbidden"])
    m = defaultdict(list)
    for q in queries:
        relevant, stale = expectations(ctx, q)
        ranked, ms = runner(ctx, q, weights)
        m["latency"].append(ms)
        foreign = [r for r in ranked if r not in own[q["subject"]] and r not in ctx["keys"]]
        other_subject = [
            r for r in ranked if r in ctx["keys"] and ctx["keys"][r][0] != q["subject"]
        ]
        m["leak"].append(1.0 if (foreign or other_subject or set(ranked) & forbidden) else 0.0)
        if relevant:
            m["recall@5"].append(recall_at(ranked, relevant, 5))
            m["recall@10"].append(recall_at(ranked, relevant, 10))
            m["ndcg@10"].append(ndcg(ranked, relevant))
            m["answered"].append(1.0 if ranked else 0.0)
            if ranked:
                # Share of what reached the prompt that answers the question (context noise).
                m["precision"].append(len(relevant & set(ranked)) / len(ranked))
            m[f"recall@10[{q['kind']}]"].append(len(relevant & set(ranked[:10])) / len(relevant))
        else:
            m["abstention"].append(1.0 if not ranked else 0.0)
        m["items_returned"].append(len(ranked) / K)
        if stale:
            m["stale_recall"].append(1.0 if stale & set(ranked[:K]) else 0.0)
    out = {}
    for name, values in m.items():
        if name == "latency":
            values = sorted(values)
            out["latency_p50_ms"] = statistics.median(values)
            out["latency_p95_ms"] = values[int(0.95 * (len(values) - 1))]
        else:
            out[name] = sum(values) / len(values)
            out[f"n_{name}"] = len(values)
    return out


def bar(value: float, width: int = 40) -> str:
    filled = int(round(max(0.0, min(1.0, value)) * width))
    return "█" * filled + "·" * (width - filled)


def report(results: dict) -> str:
    lines = []
    metrics = [
        "recall@5",
        "recall@10",
        "ndcg@10",
        "precision",
        "stale_recall",
        "abstention",
        "leak",
        "answered",
        "items_returned",
    ]
    for split, systems in results.items():
        lines.append(f"\n== {split} ==")
        lines.append(f"{'metric':<28}{'hybrid':>9}{'vector':>9}")
        names = metrics + sorted(k for k in systems["hybrid"] if k.startswith("recall@10["))
        for name in names:
            h, v = systems["hybrid"].get(name), systems["vector"].get(name)
            n = systems["hybrid"].get(f"n_{name}", "")
            fmt = lambda x: f"{x:9.3f}" if x is not None else f"{'-':>9}"  # noqa: E731
            lines.append(f"{name + f' (n={n})':<28}{fmt(h)}{fmt(v)}")
        for pct in ("p50", "p95"):
            key = f"latency_{pct}_ms"
            lines.append(
                f"{'latency ' + pct + ' ms':<28}{systems['hybrid'][key]:9.1f}{systems['vector'][key]:9.1f}"
            )
    last = list(results)[-1]
    all_ = results[last]
    lines.append(f"\nplot ({last}; H = hybrid, V = vector baseline)")
    for name in ["recall@10", "ndcg@10", "precision", "stale_recall", "abstention", "leak"]:
        for sys_key, label in (("hybrid", "H"), ("vector", "V")):
            value = all_[sys_key].get(name, 0.0)
            lines.append(f"{name:<13}{label} |{bar(value)}| {value:.3f}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--keepdb", action="store_true", help="keep (and reuse) the bench DB")
    parser.add_argument("--weights", default="", help="JSON overrides of RecallWeights")
    parser.add_argument("--split", default="", help="only this split (tune/heldout)")
    parser.add_argument(
        "--golden", default=str(GOLDEN_V1), help="golden set JSON (default: recall_v1.json)"
    )
    args = parser.parse_args()

    from memory.recall import RecallWeights

    weights = RecallWeights.for_tenant({"recall_weights": json.loads(args.weights or "{}")})
    data = json.loads(GOLDEN.read_text())
    old_name = connection.creation.create_test_db(
        verbosity=0, autoclobber=True, keepdb=args.keepdb, serialize=False
    )
    try:
        t = time.perf_counter()
        ctx = load(data)
        print(
            f"{GOLDEN.name}: loaded in {time.perf_counter() - t:.0f}s (writes "
            f"{ctx.get('write_seconds')}s); embedded {ctx.get('embedded')} "
            f"in {ctx.get('embed_seconds')}s; write outcomes: {ctx['outcomes']}"
        )
        queries = data["queries"]
        splits = {
            "tune": [q for q in queries if q["split"] == "tune"],
            "heldout": [q for q in queries if q["split"] == "heldout"],
            "all": queries,
        }
        if args.split:
            splits = {args.split: splits[args.split]}
        results = {}
        for split, qs in splits.items():
            if split == "all" and not args.split:
                # Derived from the two halves would double the run; re-run for simplicity.
                pass
            results[split] = {}
            for system, runner in (("hybrid", run_hybrid), ("vector", run_vector)):
                t = time.perf_counter()
                results[split][system] = evaluate(ctx, qs, runner, weights)
                print(
                    f"  {split}/{system}: {len(qs)} queries in {time.perf_counter() - t:.0f}s",
                    flush=True,
                )
        text = report(results)
        print(text)
        RESULTS.mkdir(exist_ok=True)
        (RESULTS / f"{RESULT_STEM}.txt").write_text(text + "\n")
        (RESULTS / f"{RESULT_STEM}.json").write_text(json.dumps(results, indent=1))
    finally:
        if not args.keepdb:
            connection.creation.destroy_test_db(old_name, verbosity=0, keepdb=False)


if __name__ == "__main__":
    main()
