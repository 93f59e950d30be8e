"""Calibrate recall's relevance gate and fusion weights for the configured models on a
labelled set, and store them per model (``manage.py engram_calibrate``).

The gate's similarities and margins mean different things under different embedding
models, so they are fit for the model recall serves and kept under the tenant policy key
``recall_weights_by_model[<model id>]``, which ``RecallWeights.for_tenant`` reads over the
tenant's ``recall_weights``. With a cross-encoder configured its share of the order
(``rerank_blend``) is fit too and kept under ``recall_weights_by_model[rerank/<model>]``.

How: the labelled set is written into a scratch tenant through the real write path,
embedded under the active model, and every query is recalled through the real pipeline
(``memory.recall.recall``) once per point of a small grid around the current weights
(``GRID``: the vector gate's ``vector_min_margin`` and ``vector_sure_similarity``, the
lexical gate's ``min_lexical_coverage`` and the ``semantic`` rerank weight). A point is
scored by the mean over queries of nDCG@10 (a query with relevant memories) or correct
abstention (a query with none: an empty answer scores 1). The scratch tenant lives in one
transaction that is rolled back at the end, so nothing of it remains, even when the run
is interrupted. Ties keep the current weights: a change is made only when it scores better.

Two file formats (``labelled_set_load``):

- simple, one subject: ``{"memories": [{"id": "m1", "statement": "..."}],
  "queries": [{"query": "...", "relevant": ["m1"]}]}`` (``relevant`` empty: the right
  answer is to abstain);
- golden, as ``memory/fixtures/reindex_drift.json`` and ``bench/golden``: ``subjects``
  with ``memories`` (``key``, ``statement``), and ``queries`` (``subject``, ``key``,
  ``query``): relevant are the subject's memories with the query's key (none: abstain).
"""

from __future__ import annotations

import itertools
import json
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from django.db import transaction

from accounts.models import Sensitivity, Tenant
from accounts.services.tenants import agent_create, tenant_create
from core.actor import Actor
from core.audit import audit_record
from core.codes import AuditAction
from core.tenancy import tenant_context
from memory.models import MemoryRecord
from memory.recall import RecallRequest, RecallScope, RecallWeights, recall
from memory.recall.crossrank import reranker_id
from memory.selectors import active_model_id
from memory.services.indexing import index_pending_records
from memory.services.reindex_drift import ndcg, recall_at
from memory.services.subjects import subject_get_or_create
from memory.services.writes import candidates_submit
from memory.write_policy import Candidate

PURPOSE = "personalization"
K = 10
# The grid around the current weights: each key's values as a function of its current
# value. 3 x 3 x 3 x 3 = 81 points; a run recalls every query once per point.
GRID: dict[str, Callable[[float], list[float]]] = {
    "vector_min_margin": lambda v: [v * 0.8, v, v * 1.25],
    "vector_sure_similarity": lambda v: [v - 0.02, v, min(v + 0.02, 1.0)],
    "min_lexical_coverage": lambda v: [max(v - 0.1, 0.0), v, min(v + 0.1, 1.0)],
    "semantic": lambda v: [v / 2, v, v * 2],
}
BLENDS = [0.0, 0.3, 0.5, 0.7, 0.9, 1.0]
EMBED_BATCH = 64


class CalibrationError(ValueError):
    """The labelled set or the request cannot be calibrated on; the message says why."""


@dataclass(frozen=True)
class LabelledQuery:
    subject: str
    query: str
    relevant: frozenset[str]  # memory labels; empty: the right answer is to abstain


@dataclass(frozen=True)
class LabelledSet:
    name: str
    memories: dict[str, list[tuple[str, str]]]  # subject -> [(label, statement)]
    queries: list[LabelledQuery]

    def sample(self, n: int | None) -> LabelledSet:
        """At most ``n`` queries, evenly spread over the set (every kind and language
        stays represented), and only the subjects they ask about."""
        queries = self.queries
        if n and len(queries) > n:
            step = len(queries) / n
            queries = [queries[int(i * step)] for i in range(n)]
        asked = {q.subject for q in queries}
        return LabelledSet(
            self.name, {s: m for s, m in self.memories.items() if s in asked}, queries
        )


@dataclass
class GridPoint:
    weights: dict[str, float]
    ndcg: float = 0.0  # mean nDCG@10 over queries with relevant memories
    recall: float = 0.0  # mean Recall@10 over them
    abstention: float = 0.0  # share of queries without relevant memories answered empty
    score: float = 0.0  # mean per query of nDCG@10 or correct abstention
    current: bool = False


@dataclass
class Calibration:
    model_id: str
    reranker_id: str
    labelled_set: str
    queries: int
    answerable: int
    memories: int
    not_stored: dict[str, int]
    points: list[GridPoint]  # best first
    blends: list[GridPoint] = field(default_factory=list)  # best first; with a reranker
    seconds: float = 0.0

    @property
    def best(self) -> GridPoint:
        return self.points[0]

    def by_model(self) -> dict[str, dict[str, float]]:
        """What ``calibration_apply`` writes: {model id: {weight: value}}."""
        out = {self.model_id: dict(self.best.weights)}
        if self.reranker_id and self.blends:
            out[self.reranker_id] = {"rerank_blend": self.blends[0].weights["rerank_blend"]}
        return out

    def as_json(self) -> dict[str, Any]:
        return {
            "model_id": self.model_id,
            "reranker": self.reranker_id,
            "labelled_set": self.labelled_set,
            "queries": self.queries,
            "answerable": self.answerable,
            "memories": self.memories,
            "not_stored": self.not_stored,
            "current": asdict(next(p for p in self.points if p.current)),
            "best": asdict(self.best),
            "recall_weights_by_model": self.by_model(),
            "seconds": round(self.seconds, 1),
        }


# --- the labelled set -------------------------------------------------------------------


def _fail(path: Path, message: str) -> CalibrationError:
    return CalibrationError(f"{path}: {message}")


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def labelled_set_load(path: Path) -> LabelledSet:
    """Read and check a labelled set (either format, see the module docstring)."""
    path = Path(path)
    if not path.is_file():
        raise CalibrationError(
            f'No labelled set at {path}. Pass a JSON file: {{"memories": [{{"id", '
            f'"statement"}}], "queries": [{{"query", "relevant": [ids]}}]}}, or one '
            f"in the golden format of memory/fixtures/reindex_drift.json."
        )
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise _fail(path, "is not UTF-8 text.") from None
    except json.JSONDecodeError as e:
        raise _fail(path, f"is not JSON (line {e.lineno}, column {e.colno}: {e.msg}).") from None
    if not isinstance(data, dict) or not isinstance(data.get("queries"), list):
        raise _fail(path, "expected an object with a 'queries' list.")
    if isinstance(data.get("subjects"), list):
        labelled = _golden(path, data)
    elif isinstance(data.get("memories"), list):
        labelled = _simple(path, data)
    else:
        raise _fail(
            path,
            "expected 'memories' and 'queries' (the simple format) or 'subjects' and "
            "'queries' (the golden format of memory/fixtures/reindex_drift.json).",
        )
    if not labelled.queries:
        raise _fail(path, "has no queries.")
    if not any(q.relevant for q in labelled.queries):
        raise _fail(path, "no query has a relevant memory: nothing to rank.")
    return labelled


def _simple(path: Path, data: dict) -> LabelledSet:
    memories: list[tuple[str, str]] = []
    for i, m in enumerate(data["memories"]):
        label = str(m.get("id", "")).strip() if isinstance(m, dict) else ""
        statement = _text(m.get("statement")) if isinstance(m, dict) else ""
        if not label or not statement:
            raise _fail(path, f"memories[{i}] needs an 'id' and a non-empty 'statement'.")
        memories.append((label, statement))
    labels = {label for label, _ in memories}
    if len(labels) != len(memories):
        raise _fail(path, "two memories share an 'id'.")
    queries = []
    for i, q in enumerate(data["queries"]):
        text = _text(q.get("query")) if isinstance(q, dict) else ""
        relevant = q.get("relevant", []) if isinstance(q, dict) else None
        if not text or not isinstance(relevant, list):
            raise _fail(path, f"queries[{i}] needs a 'query' and a 'relevant' list of ids.")
        unknown = sorted({str(r) for r in relevant} - labels)
        if unknown:
            raise _fail(path, f"queries[{i}] lists relevant ids no memory has: {unknown}.")
        queries.append(LabelledQuery("s", text, frozenset(str(r) for r in relevant)))
    return LabelledSet(path.name, {"s": memories}, queries)


def _golden(path: Path, data: dict) -> LabelledSet:
    memories: dict[str, list[tuple[str, str]]] = {}
    keys: dict[str, dict[str, set[str]]] = {}
    for i, s in enumerate(data["subjects"]):
        sid = str(s.get("id", "")).strip() if isinstance(s, dict) else ""
        if not sid or not isinstance(s.get("memories"), list):
            raise _fail(path, f"subjects[{i}] needs an 'id' and a 'memories' list.")
        rows = memories.setdefault(sid, [])
        for j, m in enumerate(s["memories"]):
            statement = _text(m.get("statement")) if isinstance(m, dict) else ""
            if not statement:
                raise _fail(path, f"subjects[{i}].memories[{j}] needs a 'statement'.")
            if m.get("role", "relevant") != "relevant":
                continue  # deleted / distractor roles of the benchmark sets: not written
            label = f"{sid}:{j}"
            rows.append((label, statement))
            keys.setdefault(sid, {}).setdefault(str(m.get("key", "")), set()).add(label)
    queries = []
    for i, q in enumerate(data["queries"]):
        text = _text(q.get("query")) if isinstance(q, dict) else ""
        sid = str(q.get("subject", "")) if isinstance(q, dict) else ""
        if not text or sid not in memories:
            raise _fail(path, f"queries[{i}] needs a 'query' and the 'subject' of one subject.")
        if q.get("as_of"):
            continue  # needs bitemporal data, not a ranking: left out
        key = str(q.get("key") or "")
        relevant = frozenset(keys.get(sid, {}).get(key, set())) if key else frozenset()
        queries.append(LabelledQuery(sid, text, relevant))
    return LabelledSet(path.name, memories, queries)


# --- the grid ---------------------------------------------------------------------------


def grid(base: RecallWeights, values: dict[str, list[float]] | None = None) -> list[dict]:
    """The grid points (the current weights first), as {key: value} for ``GRID``'s keys.
    ``values`` replaces the generated values of a key (a model whose similarities sit
    on another scale needs other values, not steps around e5's)."""
    axes = {}
    for key, around in GRID.items():
        chosen = (values or {}).get(key) or around(getattr(base, key))
        axes[key] = sorted({round(float(v), 4) for v in chosen})
    current = {key: round(getattr(base, key), 4) for key in GRID}
    points = [dict(zip(axes, combo, strict=True)) for combo in itertools.product(*axes.values())]
    return [current] + [p for p in points if p != current]


def _scored(point: GridPoint, per_query: list[tuple[frozenset, list[str]]]) -> GridPoint:
    ndcgs, recalls, abstained = [], [], []
    for relevant, ranked in per_query:
        if relevant:
            ndcgs.append(ndcg(ranked, set(relevant), K))
            recalls.append(recall_at(ranked, set(relevant), K))
        else:
            abstained.append(0.0 if ranked else 1.0)
    point.ndcg = round(sum(ndcgs) / len(ndcgs), 4) if ndcgs else 0.0
    point.recall = round(sum(recalls) / len(recalls), 4) if recalls else 0.0
    point.abstention = round(sum(abstained) / len(abstained), 4) if abstained else 0.0
    point.score = round((sum(ndcgs) + sum(abstained)) / max(len(per_query), 1), 4)
    return point


def _best_first(points: list[GridPoint], current: dict[str, float]) -> list[GridPoint]:
    """Best score first; among equal scores the point nearest the current weights (the
    smallest sum of relative changes), so a tie keeps the current weights."""

    def change(p: GridPoint) -> float:
        return sum(abs(v - current[k]) / (abs(current[k]) or 1.0) for k, v in p.weights.items())

    return sorted(points, key=lambda p: (-p.score, -p.ndcg, -p.recall, change(p)))


class _RolledBack(Exception):
    pass


@contextmanager
def _scratch() -> Iterator[None]:
    """One transaction that is always rolled back: the scratch tenant never persists."""
    try:
        with transaction.atomic():
            yield
            raise _RolledBack
    except _RolledBack:
        pass


def calibrate(
    labelled: LabelledSet,
    *,
    base: RecallWeights | None = None,
    values: dict[str, list[float]] | None = None,
    progress: Callable[[str], None] = lambda line: None,
) -> Calibration:
    """Fit the grid's weights (and, with a reranker, ``rerank_blend``) on ``labelled``
    for the active embedding model. ``base``: the current weights (the grid is around
    them; default: the defaults). Writes nothing that outlives the call."""
    started = time.monotonic()
    base = base or RecallWeights()
    model_id = active_model_id()
    reranker = reranker_id()
    not_stored: dict[str, int] = {}
    with _scratch():
        tenant = tenant_create(slug=f"calibrate-{uuid.uuid4().hex[:12]}", name="engram_calibrate")
        actor = Actor.system(tenant.id, "engram_calibrate")
        agent = agent_create(
            actor=actor, tenant=tenant, name="engram_calibrate", clearance=Sensitivity.INTERNAL
        )
        records = _write(tenant, labelled, not_stored, progress)
        _embed(
            tenant,
            [rid for _, by_label in records.values() for rid in by_label.values()],
            model_id,
            progress,
        )

        def run(weights: RecallWeights) -> list[tuple[frozenset, list[str]]]:
            out = []
            for q in labelled.queries:
                subject_id, by_label = records[q.subject]
                label_of = {rid: label for label, rid in by_label.items()}
                result = recall(
                    actor=Actor.agent(agent.id, tenant.id),
                    scope=RecallScope(tenant.id, subject_id, agent.id, agent.clearance),
                    request=RecallRequest(query=q.query, purpose=PURPOSE, k=K, token_budget=8000),
                    weights=weights,
                    record_trace=False,
                )
                ranked = [label_of.get(i.id, str(i.id)) for i in result.items]
                out.append((q.relevant, ranked))
            return out

        points = grid(base, values)
        scored: list[GridPoint] = []
        tick = time.monotonic()
        for n, weights in enumerate(points, 1):
            point = _scored(GridPoint(weights, current=n == 1), run(replace(base, **weights)))
            scored.append(point)
            elapsed = time.monotonic() - tick
            progress(
                f"grid {n}/{len(points)}  score {point.score:.3f}  (best so far "
                f"{max(p.score for p in scored):.3f})  ETA {elapsed / n * (len(points) - n):.0f}s"
            )
        scored = _best_first(scored, points[0])
        blends: list[GridPoint] = []
        if reranker:
            best = replace(base, **scored[0].weights)
            for n, blend in enumerate(BLENDS, 1):
                point = GridPoint({"rerank_blend": blend}, current=blend == base.rerank_blend)
                blends.append(_scored(point, run(replace(best, rerank_blend=blend))))
                progress(f"rerank_blend {n}/{len(BLENDS)}  {blend}: score {blends[-1].score:.3f}")
            blends = _best_first(blends, {"rerank_blend": base.rerank_blend})
    answerable = sum(1 for q in labelled.queries if q.relevant)
    return Calibration(
        model_id=model_id,
        reranker_id=reranker,
        labelled_set=labelled.name,
        queries=len(labelled.queries),
        answerable=answerable,
        memories=sum(len(m) for m in labelled.memories.values()),
        not_stored=not_stored,
        points=scored,
        blends=blends,
        seconds=time.monotonic() - started,
    )


def _write(
    tenant: Tenant,
    labelled: LabelledSet,
    not_stored: dict[str, int],
    progress: Callable[[str], None],
) -> dict[str, tuple[uuid.UUID, dict[str, uuid.UUID]]]:
    """Each subject's memories through the write path: {subject: (id, {label: record})}."""
    actor = Actor.system(tenant.id, "engram_calibrate")
    out: dict[str, tuple[uuid.UUID, dict[str, uuid.UUID]]] = {}
    total, written = sum(len(m) for m in labelled.memories.values()), 0
    for key, memories in labelled.memories.items():
        with tenant_context(tenant.id):
            subject = subject_get_or_create(
                tenant_id=tenant.id, kind="user", external_id=f"calibrate-{key}"
            )
            outcomes = candidates_submit(
                actor=actor,
                subject=subject,
                candidates=[
                    Candidate(
                        memory_type="semantic",
                        namespace="assistant/profile",
                        statement=statement,
                        assertion_kind="user_explicit",
                        confidence=1.0,
                        purpose=PURPOSE,
                        consent_basis="explicit_consent",
                        # Labelled data the operator chose (a health fact is a fact to
                        # find here, not one to hold for review).
                        user_confirmed_sensitive=True,
                    )
                    for _, statement in memories
                ],
            )
        by_label = {}
        for (label, _), outcome in zip(memories, outcomes, strict=True):
            if outcome.record_id is None:
                reason = f"{outcome.operation}:{outcome.reason_code}"
                not_stored[reason] = not_stored.get(reason, 0) + 1
            else:
                by_label[label] = outcome.record_id
        out[key] = (subject.id, by_label)
        written += len(memories)
        if len(out) % 10 == 0 or written == total:
            progress(f"written {written}/{total} memories")
    return out


def _embed(
    tenant: Tenant, record_ids: list[uuid.UUID], model_id: str, progress: Callable[[str], None]
) -> None:
    with tenant_context(tenant.id):
        # A supersede's closed copies and the like are embedded too, as the queue would.
        ids = list(MemoryRecord.objects.filter(tenant=tenant).values_list("id", flat=True))
    ids = list(dict.fromkeys([*record_ids, *ids]))
    for start in range(0, len(ids), EMBED_BATCH):
        batch = ids[start : start + EMBED_BATCH]
        index_pending_records(batch, tenant_id=tenant.id, model_ids=[model_id])
        progress(f"embedded {min(start + EMBED_BATCH, len(ids))}/{len(ids)} ({model_id})")


# --- storing the result -----------------------------------------------------------------


@transaction.atomic
def calibration_apply(*, actor: Actor, tenant: Tenant, calibration: Calibration) -> Tenant:
    """Store the calibrated weights under ``recall_weights_by_model`` of ``tenant``'s
    policy, over what was there for the same models (other models' entries and other
    policy keys are kept), and audit the change."""
    with tenant_context(tenant.id):
        locked = Tenant.objects.select_for_update().get(pk=tenant.pk)
        policy = dict(locked.policy or {})
        by_model = dict(policy.get("recall_weights_by_model") or {})
        for model, weights in calibration.by_model().items():
            held = by_model.get(model)
            by_model[model] = {**(held if isinstance(held, dict) else {}), **weights}
        policy["recall_weights_by_model"] = by_model
        locked.policy = policy
        locked.save(update_fields=["policy"])
        audit_record(
            actor=actor,
            action=AuditAction.TENANT_POLICY_UPDATE,
            extra={
                "changed": ["recall_weights_by_model"],
                "models": sorted(calibration.by_model()),
                "labelled_set": calibration.labelled_set,
                "score": calibration.best.score,
            },
        )
    return locked
