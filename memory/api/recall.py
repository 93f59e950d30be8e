"""Recall API (``POST /api/v1/recall``) and recall feedback. Adapters only: validate, call
the recall pipeline (memory.recall), render."""

from __future__ import annotations

import hashlib
import json
import threading
import time
import uuid
from collections import OrderedDict
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.permissions import HasReadScope
from core.api import ApiError
from core.db_router import replica_reads
from core.observability import metrics
from core.serializers import StrictInputSerializer
from memory.api.authentication import bearer_key
from memory.api.serializers import NAMESPACE_RE, PREDICATE_RE
from memory.api.views import (
    ERRORS,
    SUBJECT_HEADER,
    SubjectScopedView,
    refused_subject_kinds,
    subject_gone,
    subject_kind_refused,
)
from memory.models import AssertionKind, MemoryStatus, MemoryType, Subject
from memory.recall import (
    STAGE_MODULES,
    QueryVector,
    RecallRequest,
    RecallResult,
    RecallScope,
    RecallTraceNotFound,
    SubjectKindRefused,
    recall,
    recall_feedback_record,
)

CONF = settings.ENGRAM_RETRIEVAL
# Per-stage recall timings for /metrics, without touching the pipeline's code.
metrics.instrument_recall_stages(*STAGE_MODULES)


_QUERY_MAX = 2000


class RecallInputSerializer(StrictInputSerializer):
    query = serializers.CharField(max_length=_QUERY_MAX, help_text="What the agent needs to know.")
    purpose = serializers.CharField(
        max_length=100,
        help_text="The task's purpose; only memories written for this purpose are returned.",
    )
    memory_types = serializers.ListField(
        child=serializers.ChoiceField(choices=MemoryType.choices),
        required=False,
        default=list,
        max_length=3,
    )
    namespaces = serializers.ListField(
        child=serializers.RegexField(NAMESPACE_RE, max_length=300),
        required=False,
        default=list,
        max_length=20,
        help_text="Namespace prefixes to search in (a namespace and everything below it).",
    )
    predicates = serializers.ListField(
        child=serializers.RegexField(PREDICATE_RE, max_length=200),
        required=False,
        default=list,
        max_length=50,
    )
    as_of = serializers.DateTimeField(
        required=False, allow_null=True, default=None, help_text="Valid time: what was true then."
    )
    known_at = serializers.DateTimeField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Record time: what Engram believed then (corrections made later are ignored).",
    )
    valid_during_start = serializers.DateTimeField(required=False, allow_null=True, default=None)
    valid_during_end = serializers.DateTimeField(required=False, allow_null=True, default=None)
    include_future = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Also return facts that only become valid later (flagged future_dated).",
    )
    k = serializers.IntegerField(
        required=False, default=CONF["DEFAULT_K"], min_value=1, max_value=CONF["MAX_K"]
    )
    token_budget = serializers.IntegerField(
        required=False,
        default=CONF["DEFAULT_TOKEN_BUDGET"],
        min_value=100,
        max_value=CONF["MAX_TOKEN_BUDGET"],
    )

    def validate_query(self, value: str) -> str:
        if not value.strip():
            raise serializers.ValidationError("The query must contain words.")
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        start, end = attrs.get("valid_during_start"), attrs.get("valid_during_end")
        if start and end and start >= end:
            raise serializers.ValidationError(
                {"valid_during_end": ["Must be after valid_during_start."]}
            )
        return attrs


class RecallSourceOutputSerializer(serializers.Serializer):
    event_ids = serializers.ListField(child=serializers.UUIDField())
    uri = serializers.CharField()


class RecallItemOutputSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    memory_type = serializers.ChoiceField(choices=MemoryType.choices)
    namespace = serializers.CharField()
    predicate = serializers.CharField()
    statement = serializers.CharField()
    value = serializers.JSONField(allow_null=True)
    assertion_kind = serializers.ChoiceField(choices=AssertionKind.choices)
    confidence = serializers.FloatField()
    importance = serializers.FloatField()
    status = serializers.ChoiceField(
        choices=MemoryStatus.choices,
        help_text="'active' unless known_at asks about a version since closed.",
    )
    valid_from = serializers.DateTimeField()
    valid_to = serializers.DateTimeField(allow_null=True)
    recorded_at = serializers.DateTimeField()
    source = RecallSourceOutputSerializer()
    scores = serializers.DictField(
        child=serializers.FloatField(),
        help_text="Per-signal breakdown: route scores (exact, lexical, lexical_coverage, "
        "trigram, vector, recency), fused, confidence, importance, freshness, final.",
    )
    flags = serializers.ListField(
        child=serializers.CharField(),
        help_text=(
            "inferred, external_source, may_be_outdated, future_dated, "
            "instruction_like_text, about_someone_else."
        ),
    )


class RecallOutputSerializer(serializers.Serializer):
    trace_id = serializers.UUIDField(
        help_text="Report which items you used to /recall/{id}/feedback."
    )
    empty = serializers.BooleanField(help_text="True when nothing relevant and permitted exists.")
    empty_reason = serializers.CharField(help_text="no_relevant_memory, consent_withdrawn or ''.")
    items = RecallItemOutputSerializer(many=True)
    context_pack = serializers.CharField(
        help_text="The items framed as untrusted data for a prompt (never as instructions)."
    )
    as_of = serializers.DateTimeField()
    known_at = serializers.DateTimeField(allow_null=True)
    dropped_by_budget = serializers.IntegerField()
    vector_pending = serializers.IntegerField(
        help_text="Found memories without a vector yet (the embedding queue lags; recall "
        "never embeds on the read path): they were matched by the exact, lexical or "
        "trigram routes only and get a vector score once the queue has embedded them."
    )
    vector_unavailable = serializers.BooleanField(
        help_text="The embedder could not be reached: semantic matching was skipped and "
        "these results come from the exact, lexical and trigram routes only. Retry later "
        "for paraphrased questions."
    )
    reranker = serializers.CharField(
        help_text="The cross-encoder asked to reorder the top items (its model id, e.g. "
        "rerank/bge-reranker-v2-m3), or '' when none is configured. Each item it scored "
        "carries its score as scores.model_rerank."
    )
    rerank_error = serializers.CharField(
        help_text="Why the reranker's answer was not used (it failed or timed out), or ''. "
        "The items are then in Engram's own order."
    )


class RecallFeedbackInputSerializer(StrictInputSerializer):
    used_record_ids = serializers.ListField(
        child=serializers.UUIDField(), max_length=CONF["MAX_K"], default=list
    )
    helpful = serializers.BooleanField(required=False, allow_null=True, default=None)


class RecallFeedbackOutputSerializer(serializers.Serializer):
    trace_id = serializers.UUIDField()
    used_record_ids = serializers.ListField(child=serializers.UUIDField())
    helpful = serializers.BooleanField(allow_null=True)


def _scope(view: SubjectScopedView, request: Request, *, look_up: bool = True) -> RecallScope:
    """The recall scope the credential names. ``look_up``: check the subject exists and may
    be named now; recall itself does that with its context query (``refuse_kinds``)."""
    subject_id = view.subject(request).id if look_up else view.subject_id(request)
    agent = request.user.agent
    return RecallScope(
        tenant_id=request.user.tenant_id,
        subject_id=subject_id,
        agent_id=agent.id,
        clearance=agent.clearance,
    )


def _speculate(request: Request) -> QueryVector | None:
    """The embedding of the body's query, started before the body is validated (a query
    the serializer will refuse is not embedded: not a string, empty or too long)."""
    return _speculate_query(request.data)


def _speculate_query(body: Any) -> QueryVector | None:
    query = body.get("query") if isinstance(body, dict) else None
    if not isinstance(query, str) or not query.strip() or len(query) > _QUERY_MAX:
        return None
    return QueryVector.speculate(query)


class RecentRecallKeys:
    """Digests of the API keys that made a recall in this process lately (never a key:
    a 16-byte BLAKE2b digest of it). A recall presenting one of them has its question's
    embedding started before the key is checked (``RecallView.initial``): the
    authentication's round trips and the middleware then run beside the embedding.

    Only a caller holding a key that made a successful recall here within ``seconds``
    can make this process embed anything before the key is checked; the embedding is
    used only if the checks (authentication, permissions, throttles) pass again. A key
    that fails them is forgotten at once, and its embedding cancelled if it has not
    started, so a revoked key costs at most one embedding per process. At most ``size``
    digests are kept, the least recently used dropped first."""

    def __init__(self, size: int = 4096, seconds: float = 300.0) -> None:
        self.size = size
        self.seconds = seconds
        self._seen: OrderedDict[bytes, float] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def digest(key: str) -> bytes:
        return hashlib.blake2b(key.encode(), digest_size=16).digest()

    def remember(self, digest: bytes) -> None:
        with self._lock:
            self._seen[digest] = time.monotonic() + self.seconds
            self._seen.move_to_end(digest)
            while len(self._seen) > self.size:
                self._seen.popitem(last=False)

    def forget(self, digest: bytes) -> None:
        with self._lock:
            self._seen.pop(digest, None)

    def __contains__(self, digest: bytes) -> bool:
        with self._lock:
            until = self._seen.get(digest)
            if until is not None and until < time.monotonic():
                del self._seen[digest]
                until = None
        return until is not None


RECENT_RECALL_KEYS = RecentRecallKeys()
# A recall body larger than this is not read before authentication (a real one is ~100
# bytes to a few KB; the serializer bounds the query at 2,000 characters).
_EARLY_BODY_MAX = 16 * 1024


class EarlyRecallEmbedding:
    """Middleware, first after the request log: for ``POST /api/v1/recall`` with a key in
    ``RECENT_RECALL_KEYS``, the question's embedding starts here, before the rest of the
    middleware, the URL resolver and DRF (~1 ms); ``RecallView.initial`` takes it
    (``EARLY``) and runs the key's checks beside it. A request that never passes those
    checks — refused there, or before the view by the edge or another middleware — has
    its key forgotten and its embedding cancelled if it has not started, as a refusal in
    ``initial`` has: a key stops causing embeddings before its checks the first time one
    of its requests fails them. Any other request passes untouched."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response
        self.path = ""

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "POST":
            self.path = self.path or reverse("api-recall")
            if request.path == self.path:  # both with the script prefix
                key = bearer_key(request)
                digest = RecentRecallKeys.digest(key) if key else None
                if digest is not None and digest in RECENT_RECALL_KEYS:
                    early = _speculate_before_checks(request)
                    setattr(request, EARLY, (digest, early))
                    response = self.get_response(request)
                    if not getattr(request, EARLY_CHECKED, False):
                        RECENT_RECALL_KEYS.forget(digest)
                        if early is not None:
                            early.cancel()
                    return response
        return self.get_response(request)


# Where the middleware leaves (the key's digest, the embedding started) on the request,
# and where the view says the key's checks passed.
EARLY = "engram_early_recall"
EARLY_CHECKED = "engram_early_recall_checked"


def _speculate_before_checks(django_request: HttpRequest) -> QueryVector | None:
    """``_speculate`` before the key is checked, for a key in ``RECENT_RECALL_KEYS``: the
    body is read as plain JSON here and left for DRF's parser (which applies the edge's
    checks and reports what is wrong with it, as for any request)."""
    if django_request.content_type != "application/json":
        return None
    try:
        length = int(django_request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return None
    if not 0 < length <= _EARLY_BODY_MAX:
        return None
    try:
        body = json.loads(django_request.body)
    except (ValueError, OSError):  # malformed or unreadable: DRF's parser says so later
        return None
    return _speculate_query(body)


def _validated(serializer_class, request: Request) -> dict[str, Any]:
    if not isinstance(request.data, dict):
        raise ApiError("invalid_input", "The request body must be a JSON object.")
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


_DATETIME = serializers.DateTimeField()


def _when(value):
    return _DATETIME.to_representation(value) if value is not None else None


def _result_json(result: RecallResult) -> dict[str, Any]:
    """The answer as ``RecallOutputSerializer`` renders it (which documents it, and
    tests/memory/test_recall_api.py holds this to), built directly: DRF's field-by-field
    rendering of ten items took longer than the database work left after the question's
    embedding."""
    return {
        "trace_id": str(result.trace_id) if result.trace_id is not None else None,
        "empty": not result.items,
        "empty_reason": str(result.empty_reason),
        "items": [
            {
                "id": str(i.id),
                "memory_type": str(i.memory_type),
                "namespace": str(i.namespace),
                "predicate": str(i.predicate),
                "statement": str(i.statement),
                "value": i.value,
                "assertion_kind": str(i.assertion_kind),
                "confidence": float(i.confidence),
                "importance": float(i.importance),
                "status": str(i.status),
                "valid_from": _when(i.valid_from),
                "valid_to": _when(i.valid_to),
                "recorded_at": _when(i.recorded_at),
                "source": {
                    "event_ids": [str(e) for e in i.source_event_ids],
                    "uri": str(i.source_uri),
                },
                "scores": {str(k): float(v) for k, v in i.scores.items()},
                "flags": [str(f) for f in i.flags],
            }
            for i in result.items
        ],
        "context_pack": str(result.context_pack),
        "as_of": _when(result.as_of),
        "known_at": _when(result.known_at),
        "dropped_by_budget": int(result.dropped_by_budget),
        "vector_pending": int(result.vector_pending),
        "vector_unavailable": bool(result.vector_unavailable),
        "reranker": str(result.reranker),
        "rerank_error": str(result.rerank_error),
    }


class RecallView(SubjectScopedView):
    permission_classes = [HasReadScope]
    early: QueryVector | None = None
    key_digest: bytes | None = None

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        """DRF's checks (authentication, permissions, throttles); for a key that made a
        recall here lately (``RecentRecallKeys``) the question's embedding started before
        them (``EarlyRecallEmbedding``)."""
        key = bearer_key(request)
        digest = RecentRecallKeys.digest(key) if key else None
        early_digest, early = getattr(request._request, EARLY, (None, None))
        if early is not None and early_digest == digest:
            self.early = early
        try:
            super().initial(request, *args, **kwargs)
        except Exception:
            if digest is not None:
                RECENT_RECALL_KEYS.forget(digest)
            if self.early is not None:
                self.early.cancel()
            raise
        setattr(request._request, EARLY_CHECKED, True)
        self.key_digest = digest

    @extend_schema(
        operation_id="recall",
        summary="Recall what the agent should know for a task, as items and a context pack",
        parameters=[SUBJECT_HEADER],
        request=RecallInputSerializer,
        responses={200: RecallOutputSerializer, **ERRORS},
    )
    def post(self, request: Request) -> Response:
        # The question's embedding is what a recall waits for longest: it starts first,
        # before the body is validated (recall keeps it only if it embedded what recall
        # would) — for a key that made a recall lately, before the key is checked
        # (``initial``) — and the subject is looked up with recall's own context query.
        scope = _scope(self, request, look_up=False)
        early = self.early or _speculate(request)
        data = _validated(RecallInputSerializer, request)
        clock = metrics.recall_started()
        # Reads go to the replica when it has replayed this subject's writes (db_router).
        with replica_reads(scope.tenant_id, scope.subject_id):
            try:
                result = self._recall(request, scope, data, early)
            except Subject.DoesNotExist:
                raise subject_gone() from None
            except SubjectKindRefused:
                raise subject_kind_refused() from None
        metrics.recall_finished(clock, result)
        if self.key_digest is not None:
            RECENT_RECALL_KEYS.remember(self.key_digest)
        return Response(_result_json(result))

    def _recall(
        self,
        request: Request,
        scope: RecallScope,
        data: dict[str, Any],
        early: QueryVector | None,
    ) -> RecallResult:
        return recall(
            early=early,
            actor=self.actor(request),
            scope=scope,
            refuse_kinds=refused_subject_kinds(),
            # TenantContextMiddleware's transaction, scoped to the API key's tenant.
            in_tenant_transaction=True,
            request=RecallRequest(
                query=data["query"],
                purpose=data["purpose"],
                memory_types=tuple(data["memory_types"]),
                namespaces=tuple(data["namespaces"]),
                predicates=tuple(data["predicates"]),
                as_of=data["as_of"],
                known_at=data["known_at"],
                valid_during_start=data["valid_during_start"],
                valid_during_end=data["valid_during_end"],
                include_future=data["include_future"],
                k=data["k"],
                token_budget=data["token_budget"],
            ),
            request_id=self.request_id(request),
        )


class RecallFeedbackView(SubjectScopedView):
    permission_classes = [HasReadScope]

    @extend_schema(
        operation_id="recall_feedback",
        summary="Report which recalled memories were used and whether they helped",
        parameters=[SUBJECT_HEADER],
        request=RecallFeedbackInputSerializer,
        responses={200: RecallFeedbackOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, trace_id: uuid.UUID) -> Response:
        scope = _scope(self, request)
        data = _validated(RecallFeedbackInputSerializer, request)
        try:
            trace = recall_feedback_record(
                actor=self.actor(request),
                scope=scope,
                trace_id=trace_id,
                used_record_ids=data["used_record_ids"],
                helpful=data["helpful"],
            )
        except RecallTraceNotFound:
            raise ApiError(
                "not_found", "No such recall for this subject.", status_code=404
            ) from None
        return Response(
            {
                "trace_id": trace.id,
                "used_record_ids": trace.used_record_ids,
                "helpful": trace.helpful,
            }
        )
