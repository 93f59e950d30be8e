"""Recall API (``POST /api/v1/recall``) and recall feedback. Adapters only: validate, call
the recall pipeline (memory.recall), render."""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.permissions import HasReadScope
from core.api import ApiError
from core.db_router import replica_reads
from core.observability import metrics
from core.serializers import ErrorSerializer, StrictInputSerializer
from memory.api.recall_wire import recall_answer, recall_input
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
    RecallFeedbackConflict,
    RecallFeedbackUnknownIds,
    RecallRequest,
    RecallResult,
    RecallScope,
    RecallTraceNotFound,
    SubjectKindRefused,
    recall,
    recall_feedback_record,
)
from memory.recall.routing import REASONS as ROUTING_REASONS
from memory.recall.routing import ROUTE_MODES, USES, VERIFY_ORDER

CONF = settings.ENGRAM_RETRIEVAL

_QUERY_MAX = 2000
_PURPOSE_MAX = 100


class RecallInputSerializer(StrictInputSerializer):
    query = serializers.CharField(max_length=_QUERY_MAX, help_text="What the agent needs to know.")
    purpose = serializers.CharField(
        max_length=_PURPOSE_MAX,
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
    route = serializers.ChoiceField(
        choices=ROUTE_MODES,
        required=False,
        default="all",
        help_text="Which items come back, each routed to 'inject' or 'verify' (item.use): "
        "'all' every item (what a memory tool returns when the agent asks); 'auto' both "
        "sections without notes from external content or with instruction-like text; "
        "'inject_only' only what is safe to inject (what a runtime adds every turn).",
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
    use = serializers.ChoiceField(
        choices=USES,
        help_text="'inject': the user's own fresh fact or preference (or a reviewed "
        "procedure), safe to put in a prompt as it is; 'verify': check before relying on it.",
    )
    use_reason = serializers.ChoiceField(
        choices=ROUTING_REASONS,
        help_text="Why: user_stated or reviewed_procedure for inject; for verify the first "
        "of " + ", ".join(VERIFY_ORDER) + ".",
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


def _validated(serializer_class, request: Request) -> dict[str, Any]:
    if not isinstance(request.data, dict):
        raise ApiError("invalid_input", "The request body must be a JSON object.")
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


_ITEM_FIELDS = (
    "id memory_type namespace predicate statement value assertion_kind confidence "
    "importance status valid_from valid_to recorded_at scores flags use use_reason"
).split()
_RESULT_FIELDS = (
    "context_pack as_of known_at dropped_by_budget vector_pending vector_unavailable "
    "reranker rerank_error"
).split()


# The optional fields' defaults, as RecallInputSerializer gives them (recall_input; a test
# holds the two to the same validated bodies).
_INPUT_DEFAULTS = {
    "memory_types": [],
    "namespaces": [],
    "predicates": [],
    "as_of": None,
    "known_at": None,
    "valid_during_start": None,
    "valid_during_end": None,
    "include_future": False,
    "k": CONF["DEFAULT_K"],
    "token_budget": CONF["DEFAULT_TOKEN_BUDGET"],
    "route": "all",
}


def _plain_options() -> dict[str, Any]:
    """The scalar fields a plain body may hold besides the query and the purpose
    (``ENGRAM_RECALL_PLAIN_OPTIONS``), as ``recall_wire.recall_input`` reads them: the
    ranges and choices of ``RecallInputSerializer``'s fields."""
    return {
        "k": (1, CONF["MAX_K"]),
        "token_budget": (100, CONF["MAX_TOKEN_BUDGET"]),
        "route": ROUTE_MODES,
        "include_future": bool,
    }


def _recall_input(request: Request) -> dict[str, Any]:
    """The body, validated: a plain one without building the serializer
    (``ENGRAM_RECALL_PLAIN_SERIALIZERS``; with ``ENGRAM_RECALL_PLAIN_OPTIONS`` a plain one
    may also hold ``k``, ``token_budget``, ``route`` and ``include_future``), any other by
    it."""
    if settings.ENGRAM_RETRIEVAL["PLAIN_SERIALIZERS"] and isinstance(request.data, dict):
        plain = recall_input(
            request.data,
            max_chars={"query": _QUERY_MAX, "purpose": _PURPOSE_MAX},
            defaults=_INPUT_DEFAULTS,
            options=_plain_options() if settings.ENGRAM_RETRIEVAL["PLAIN_OPTIONS"] else None,
        )
        if plain is not None:
            return plain
    return _validated(RecallInputSerializer, request)


def _answer(result: RecallResult) -> dict[str, Any]:
    """The answer, rendered by its documented output serializer (or, with
    ``ENGRAM_RECALL_PLAIN_SERIALIZERS``, as it renders it, without building it)."""
    if settings.ENGRAM_RETRIEVAL["PLAIN_SERIALIZERS"]:
        return recall_answer(result)
    return RecallOutputSerializer(
        {
            "trace_id": result.trace_id,
            "empty": not result.items,
            "empty_reason": result.empty_reason,
            "items": [
                {
                    **{f: getattr(i, f) for f in _ITEM_FIELDS},
                    "source": {"event_ids": i.source_event_ids, "uri": i.source_uri},
                }
                for i in result.items
            ],
            **{f: getattr(result, f) for f in _RESULT_FIELDS},
        }
    ).data


class RecallView(SubjectScopedView):
    permission_classes = [HasReadScope]

    @extend_schema(
        operation_id="recall",
        summary="Recall what the agent should know for a task, as items and a context pack",
        parameters=[SUBJECT_HEADER],
        request=RecallInputSerializer,
        responses={200: RecallOutputSerializer, **ERRORS},
    )
    def post(self, request: Request) -> Response:
        # Nothing of the recall runs before its checks: the edge (core.edge), the key and
        # the subject token (DRF's ``initial``), then the body (the serializer). Only then
        # does recall start, and with it the question's embedding (memory.recall.pipeline).
        scope = _scope(self, request, look_up=False)
        data = _recall_input(request)
        clock = metrics.recall_started()
        # Reads go to the replica when it has replayed this subject's writes (db_router).
        with replica_reads(scope.tenant_id, scope.subject_id):
            try:
                result = self._recall(request, scope, data)
            except Subject.DoesNotExist:
                raise subject_gone() from None
            except SubjectKindRefused:
                raise subject_kind_refused() from None
        metrics.recall_finished(clock, result)
        return Response(_answer(result))

    def _recall(
        self,
        request: Request,
        scope: RecallScope,
        data: dict[str, Any],
    ) -> RecallResult:
        return recall(
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
                route=data["route"],
            ),
            request_id=self.request_id(request),
        )


class RecallFeedbackView(SubjectScopedView):
    permission_classes = [HasReadScope]

    @extend_schema(
        operation_id="recall_feedback",
        summary="Report which recalled memories were used and whether they helped",
        description="Once per recall, by the agent that recalled: the same report again "
        "answers 200 and changes nothing; a different one is a 409. Every used id must be "
        "one the recall returned (else 400 unknown_record_ids). Another subject's or "
        "agent's recall is a 404.",
        parameters=[SUBJECT_HEADER],
        request=RecallFeedbackInputSerializer,
        responses={200: RecallFeedbackOutputSerializer, 409: ErrorSerializer, **ERRORS},
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
        except RecallFeedbackUnknownIds as e:
            raise ApiError(
                "unknown_record_ids",
                "These ids were not returned by this recall.",
                extra={"record_ids": [str(i) for i in e.record_ids]},
            ) from None
        except RecallFeedbackConflict:
            raise ApiError(
                "feedback_conflict",
                "This recall already has different feedback; the first report stands.",
                status_code=409,
            ) from None
        return Response(
            RecallFeedbackOutputSerializer(
                {
                    "trace_id": trace.id,
                    "used_record_ids": trace.used_record_ids,
                    "helpful": trace.helpful,
                }
            ).data
        )
