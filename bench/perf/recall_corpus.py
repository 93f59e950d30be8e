"""The corpus ``recall_perf.py`` loads and asks about: 100,000 memories across 100 tenants,
or per-user conversations of LoCoMo-like turns, with questions of the same shape; loaded
directly (bulk inserts, random unit vectors: see ``recall_perf.py``). Imported after
``recall_perf`` has set Django up."""

from __future__ import annotations

import json
import random
import time
import uuid
from datetime import timedelta
from pathlib import Path

import numpy as np  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]

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
