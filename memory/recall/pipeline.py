"""The recall pipeline, step by step (see ``memory.recall``). Each stage is bracketed by
``recall_stage`` (core.observability.metrics), which times and traces it."""

from __future__ import annotations

import uuid
from contextlib import nullcontext
from dataclasses import dataclass, replace
from datetime import datetime
from time import perf_counter

from django.conf import settings
from django.utils import timezone

from core.actor import Actor
from core.observability.metrics import recall_stage
from core.tenancy import tenant_context
from memory.models import MemoryRecord, MemoryStatus
from memory.recall.accel import trace_commit
from memory.recall.crossrank import model_rerank, reranker_id
from memory.recall.decompose import by_parts
from memory.recall.dedupe import dedupe
from memory.recall.entities import entity_expand
from memory.recall.expand import around_hits
from memory.recall.pack import (
    RecallItem,
    attach_sources,
    context_pack,
    fit_budget,
    item_for,
    judge_ahead,
)
from memory.recall.query import QueryVector, read_question
from memory.recall.rank import fuse_and_rerank
from memory.recall.routes import RouteQuery, SlotKeys, run_routes, slot_keys
from memory.recall.routing import Facts, RoutingThresholds, returned, route
from memory.recall.scope import (
    Eligible,
    RecallRequest,
    RecallScope,
    filter_q,
    history_q,
    recall_context,
    scope_q,
)
from memory.recall.signals import Candidate
from memory.recall.timewin import time_asked, time_named
from memory.recall.trace import record_recall
from memory.recall.weights import RecallWeights

# How far down the ranking a route that leaves items out (auto, inject_only) looks, in
# multiples of k.
_ROUTED_DEPTH = 3


def _thresholds(tenant_policy: dict) -> RoutingThresholds:
    try:
        return RoutingThresholds.from_policy(tenant_policy)
    except (TypeError, ValueError):
        # A malformed tenant setting must not break recall: the defaults apply (the
        # console validates the setting when it is saved).
        return RoutingThresholds()


def routed_items(
    deduped: list[Candidate],
    request: RecallRequest,
    *,
    as_of: datetime,
    weights: RecallWeights,
    thresholds: RoutingThresholds,
    procedures_subject_id: uuid.UUID | None,
) -> list[RecallItem]:
    """The top ``request.k`` items, in rank order, each routed (``routing.route``), of
    those ``request.route`` returns."""
    conflicted = pending_slots([c.record for c in deduped])
    top: list[RecallItem] = []
    for c in deduped:
        if len(top) == request.k:
            break
        item = item_for(c, request, as_of=as_of, weights=weights)
        record = c.record
        routed = route(
            item,
            Facts(
                sensitivity=record.sensitivity,
                reviewed_procedure=procedures_subject_id is not None
                and record.subject_id == procedures_subject_id,
                open_conflict=(record.subject_id, record.namespace, record.predicate) in conflicted,
            ),
            as_of=as_of,
            thresholds=thresholds,
        )
        item.use, item.use_reason = routed.use, routed.reason
        if returned(routed, request.route):
            top.append(item)
    return top


def pending_slots(records: list) -> set[tuple]:
    """The slots (subject, namespace, predicate) of ``records`` that hold a value pending
    the user's confirmation: an open conflict. One query, none without predicates."""
    predicates = {r.predicate for r in records if r.predicate}
    if not predicates:
        return set()
    return set(
        MemoryRecord.objects.filter(
            subject_id__in={r.subject_id for r in records},
            predicate__in=predicates,
            status=MemoryStatus.PENDING_CONFIRMATION,
        ).values_list("subject_id", "namespace", "predicate")
    )


class SubjectKindRefused(Exception):
    """The subject is of a kind the caller may not recall for (``refuse_kinds``)."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


@dataclass
class RecallResult:
    trace_id: uuid.UUID | None
    items: list[RecallItem]
    context_pack: str
    as_of: datetime
    known_at: datetime | None
    empty_reason: str = ""
    dropped_by_budget: int = 0
    # Memories the routes found that have no vector yet (the embedding queue lags): they
    # were matched by the exact, lexical and trigram routes only.
    vector_pending: int = 0
    model_id: str = ""
    # The embedder failed (e.g. the configured endpoint is down): the vector route was
    # skipped and the answer rests on the exact, lexical and trigram routes.
    vector_unavailable: bool = False
    # The cross-encoder asked to reorder the top candidates (its model id), and why its
    # answer was not used (it failed: the order is Engram's own).
    reranker: str = ""
    rerank_error: str = ""


def recall(
    *,
    actor: Actor,
    scope: RecallScope,
    request: RecallRequest,
    weights: RecallWeights | None = None,
    record_trace: bool = True,
    request_id: str = "",
    refuse_kinds: frozenset[str] = frozenset(),
    in_tenant_transaction: bool = False,
    early: QueryVector | None = None,
) -> RecallResult:
    """Run the whole read path for one request. Preconditions: ``scope`` comes from an
    authenticated credential and ``request`` is validated (k and budget bounded).

    The subject is looked up with recall's context, not before it: ``Subject.DoesNotExist``
    if it is not there (in ``scope.tenant_id``), ``SubjectKindRefused`` if its kind is one
    of ``refuse_kinds`` — both before anything is read or written.

    ``in_tenant_transaction``: the caller's transaction is already scoped to
    ``scope.tenant_id`` under the application role (an API request: TenantContextMiddleware
    and the API key's tenant), so recall does not open a savepoint and set and restore
    the tenant around its work (four round trips). Recall checks that it is so.

    ``early``: the caller's ``QueryVector.speculate`` of the question, started once the
    request passed its checks; recall uses it only if it is what recall would embed."""
    started = perf_counter()
    now = timezone.now()
    as_of = request.as_of or now
    # Embedding the question is the largest single cost and runs on another thread while
    # the database work proceeds; only the vector and slot routes wait for it. It starts
    # before the context is read, as the question was asked, when that is likely what
    # recall embeds (``QueryVector.speculate``, ENGRAM_RECALL_EARLY_EMBEDDING).
    early = early or QueryVector.speculate(request.query)
    with nullcontext() if in_tenant_transaction else tenant_context(scope.tenant_id):
        with recall_stage("scope"):
            context = recall_context(scope, request, now)
        if context.transaction_tenant != str(scope.tenant_id):
            raise RuntimeError("recall ran in a transaction scoped to another tenant")
        if context.subject_kind in refuse_kinds:
            raise SubjectKindRefused(context.subject_kind)
        if weights is None:
            # The question is embedded under ``context.model_id`` (below).
            weights = RecallWeights.for_tenant(
                context.tenant_policy, context.model_id, reranker_id()
            )
        asking = {
            "now": as_of,
            "drop_time": weights.drop_named_time > 0,
            "unname_speakers": weights.unname_speakers > 0,
        }
        question = read_question(request.query, context, **asking)
        searched = replace(request, query=question.searched)
        if early is not None and early.serves(question.embedded, context.model_id):
            query_vector = early
        else:  # the only other place recall embeds (besides a question's parts, 5b)
            query_vector = QueryVector.start(question.embedded, context.model_id)
        reranker = rerank_error = ""
        if context.consent_withdrawn:
            # The user withdrew consent: their memories are not used for anyone.
            items, reason, dropped, pending = [], "consent_withdrawn", 0, 0
        else:
            # 1–2. scope and filter: the only records any route may look at.
            procedures_subject_id = context.procedures_subject_id
            in_scope = scope_q(scope, request, procedures_subject_id)
            valid = filter_q(request, as_of=as_of, now=now)
            eligible = Eligible.of(scope, request, procedures_subject_id, as_of=as_of, now=now)
            # Other versions of single-valued facts, if the subject has any (or the
            # tenant's procedures, each one single-valued, are in reach).
            with recall_stage("scope"):
                keys = (
                    slot_keys(in_scope, valid, history_q(request, now=now))
                    if context.single_valued_slots or procedures_subject_id is not None
                    else SlotKeys()
                )
            if record_trace and in_tenant_transaction and trace_commit.enabled():
                trace_commit.commit_without_waiting()  # opt-in: see accel.trace_commit
            # 3. routes, each searching inside ``eligible``.
            subject_ids = [scope.subject_id] + (
                [procedures_subject_id] if procedures_subject_id else []
            )
            with recall_stage("routes"):
                candidates, pending = run_routes(
                    RouteQuery(
                        eligible=eligible,
                        scope=scope,
                        request=searched,
                        weights=weights,
                        subject_ids=subject_ids,
                        query_vector=query_vector,
                        slot_keys=keys,
                        predicates=context.predicates,
                        scope_names=question.scope_names,
                        with_speakers=bool(question.speaker),
                    ),
                    while_embedding=(
                        judge_ahead if settings.ENGRAM_RETRIEVAL["JUDGE_AHEAD"] else None
                    ),
                )
            # 4–5. fusion, relevance gate and rerank.
            with recall_stage("rank"):
                ranked = fuse_and_rerank(
                    candidates,
                    weights,
                    as_of=as_of,
                    recent=question.recent,
                    about_others=question.about_others,
                    speaker=question.speaker,
                    question=question.searched,
                    names=question.scope_names,
                )
            # 5b. an optional cross-encoder reorders the top ones (never adds one).
            ranked, reranker, rerank_error = model_rerank(
                ranked, question.searched, weights=weights
            )

            def rank_part(part: str) -> list[Candidate]:
                asked = read_question(part, context, **asking)
                found, _ = run_routes(
                    RouteQuery(
                        eligible=eligible,
                        scope=scope,
                        request=replace(request, query=asked.searched),
                        weights=weights,
                        subject_ids=subject_ids,
                        query_vector=QueryVector.start(asked.embedded, query_vector.model_id),
                        slot_keys=keys,
                        predicates=context.predicates,
                        scope_names=asked.scope_names,
                        with_speakers=bool(asked.speaker),
                    )
                )
                return fuse_and_rerank(
                    found,
                    weights,
                    as_of=as_of,
                    recent=asked.recent,
                    about_others=asked.about_others,
                    speaker=asked.speaker,
                    question=asked.searched,
                    names=asked.scope_names,
                )

            # 5b'. a question of several parts, recalled part by part (``decompose``).
            with recall_stage("rank"):
                ranked = by_parts(ranked, weights, question=request.query, rank_part=rank_part)
            # 5c. the hits' threads: spread over them and the turns next to the best hits,
            #     if the tenant's weights ask for them.
            with recall_stage("rank"):
                ranked = around_hits(ranked, eligible, weights, about_others=question.about_others)
                # 5d. the entities the question and the best hits name (entity index);
                #     with ENGRAM_RECALL_ONE_ENTITY_READ read in two statements (the same
                #     answers, ``accel.entity_read``).
                expand_entities = entity_expand
                if settings.ENGRAM_RETRIEVAL["ONE_ENTITY_READ"]:
                    from memory.recall.accel.entity_read import entity_expand_in_two_reads

                    expand_entities = entity_expand_in_two_reads
                ranked = expand_entities(
                    ranked,
                    eligible,
                    weights,
                    question=question.searched,
                    about_others=question.about_others,
                )
                # 5e. the time the question names, if any.
                ranked = time_named(
                    ranked,
                    weights,
                    question=question.with_time or question.searched,
                    now=as_of,
                    eligible=eligible,
                    query_vector=query_vector,
                    about_others=question.about_others,
                )
                # 5f. a question that asks for a time prefers the memories that tell one.
                ranked = time_asked(ranked, weights, question=question.searched)
            # 6. one value per slot, one version per lineage, no near-duplicates. A route
            #    that leaves some items out looks further down the ranking.
            with recall_stage("rank"):
                deduped = dedupe(
                    ranked,
                    as_of=as_of,
                    limit=request.k if request.route == "all" else _ROUTED_DEPTH * request.k,
                )
            # 6b. routing: each item is injected or verified (``routing``); the route asked
            #     for chooses which come back.
            # 7. the top k that fit the token budget, measured with their sources as the
            #    pack shows them.
            with recall_stage("pack"):
                top = routed_items(
                    deduped,
                    request,
                    as_of=as_of,
                    weights=weights,
                    thresholds=_thresholds(context.tenant_policy),
                    procedures_subject_id=procedures_subject_id,
                )
                attach_sources(top, {c.id: c.record for c in deduped})
                items, dropped = fit_budget(
                    top,
                    budget=request.token_budget,
                    purpose=request.purpose,
                    as_of=as_of,
                    known_at=request.known_at,
                )
            reason = "" if items else "no_relevant_memory"
        # 8. pack.
        with recall_stage("pack"):
            pack = context_pack(
                items, purpose=request.purpose, as_of=as_of, known_at=request.known_at
            )
        trace_id = None
        if record_trace:
            with recall_stage("trace"):
                trace_id = record_recall(
                    actor=actor,
                    scope=scope,
                    request=request,
                    items=items,
                    request_id=request_id,
                    latency_ms=(perf_counter() - started) * 1000,
                    with_commit=in_tenant_transaction,
                )
    return RecallResult(
        trace_id=trace_id,
        items=items,
        context_pack=pack,
        as_of=as_of,
        known_at=request.known_at,
        empty_reason=reason,
        dropped_by_budget=dropped,
        vector_pending=pending,
        model_id=query_vector.model_id,
        vector_unavailable=query_vector.failed,
        reranker=reranker,
        rerank_error=rerank_error,
    )
