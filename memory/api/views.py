"""Agent write API (``/api/v1/``). Adapters only: parse, call one service, render."""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import AgentPrincipal
from accounts.permissions import HasAdminScope, HasReadScope, HasWriteScope
from core.actor import Actor
from core.api import ApiError
from core.serializers import ErrorSerializer
from memory.api import serializers as s
from memory.api.candidate_wire import candidates_input
from memory.models import MemoryRecord, MemoryType, Subject, SubjectKind
from memory.selectors import (
    events_resolve_client_ids,
    memory_get_for_subject,
    memory_list_for_agent,
)
from memory.selectors.write_lookups import subject_of_tenant
from memory.services.deletion import subject_erase
from memory.services.events import (
    ConsentWithdrawn,
    EventIdConflict,
    EventInput,
    events_append,
)
from memory.services.idempotency import (
    IdempotencyKeyReused,
    idempotency_key_valid,
    idempotent_call,
    request_sha256,
)
from memory.services.writes import WriteOutcome, candidates_submit
from memory.write_policy import Candidate, Intent

SUBJECT_HEADER = OpenApiParameter(
    "X-Engram-Subject-Token",
    str,
    OpenApiParameter.HEADER,
    required=True,
    description="Signed subject token naming the end user (POST /api/v1/subject-tokens).",
)
IDEMPOTENCY_KEY_HEADER = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description=(
        "Optional, 1-200 printable ASCII characters, scoped to the agent and subject. The "
        "first successful answer is kept for ENGRAM_IDEMPOTENCY_TTL_HOURS (default 24): a "
        "retry with the same key and body returns it again with 'Idempotent-Replayed: true' "
        "and writes nothing; the same key with another body is refused (422 "
        "idempotency_key_reused)."
    ),
)
ERRORS = {
    400: ErrorSerializer,
    401: ErrorSerializer,
    403: ErrorSerializer,
    404: ErrorSerializer,
    413: ErrorSerializer,
}


class SubjectScopedView(APIView):
    """Every memory operation acts for one subject, named by the credential."""

    def subject(self, request: Request) -> Subject:
        subject = subject_of_tenant(request.user.tenant_id, self.subject_id(request))
        if subject is None:
            raise subject_gone()
        if not org_subject_tokens_allowed(subject.kind):
            raise subject_kind_refused()
        return subject

    @staticmethod
    def subject_id(request: Request) -> uuid.UUID:
        """The subject the credential names (not yet looked up: ``subject`` does that)."""
        principal: AgentPrincipal = request.user
        if principal.subject_id is None:
            raise ApiError(
                "subject_required",
                "Send the end user's subject token in the X-Engram-Subject-Token header.",
                status_code=status.HTTP_403_FORBIDDEN,
            )
        return principal.subject_id

    @staticmethod
    def actor(request: Request) -> Actor:
        principal: AgentPrincipal = request.user
        return Actor.agent(principal.agent.id, principal.tenant_id)

    @staticmethod
    def request_id(request: Request) -> str:
        return request.META.get("HTTP_X_REQUEST_ID", "")[:64] or uuid.uuid4().hex

    def resolve_sources(
        self,
        request: Request,
        subject: Subject,
        data: dict[str, Any],
        resolved: dict[str, uuid.UUID] | None = None,
    ) -> tuple[uuid.UUID, ...]:
        """``resolved``: the batch's client ids already looked up together (one query)."""
        principal: AgentPrincipal = request.user
        client_ids = data.get("source_client_event_ids") or []
        if resolved is None:
            resolved = events_resolve_client_ids(
                tenant_id=principal.tenant_id,
                agent_id=principal.agent.id,
                subject_id=subject.id,
                client_ids=client_ids,
            )
        missing = [c for c in client_ids if c not in resolved]
        if missing:
            raise ApiError(
                "unknown_source_event",
                "Some source_client_event_ids were never appended for this subject; append the events first.",
                extra={"source_client_event_ids": missing},
            )
        return tuple(
            dict.fromkeys([*data.get("source_event_ids", []), *(resolved[c] for c in client_ids)])
        )


def _outcome_json(index: int, o: WriteOutcome) -> dict[str, Any]:
    return {
        "index": index,
        "operation": o.operation,
        "reason_code": o.reason_code,
        "message": o.message,
        "record_id": o.record_id,
        "target_id": o.target_id,
        "findings": list(o.findings),
    }


def event_id_conflict(conflict: EventIdConflict) -> ApiError:
    return ApiError(
        "idempotency_conflict",
        "These client_event_ids were already used for this user with other content; nothing "
        "of the batch was stored. Send new content under new client_event_ids.",
        status_code=status.HTTP_409_CONFLICT,
        extra={"client_event_ids": conflict.client_event_ids},
    )


class EventAppendView(SubjectScopedView):
    permission_classes = [HasWriteScope]

    @extend_schema(
        operation_id="events_append",
        summary="Append raw events (idempotent by client_event_id, per subject)",
        description=(
            "A retry of a stored event returns it with created=false. Reusing a "
            "client_event_id of this subject for other content is a 409 "
            "(idempotency_conflict, extra.client_event_ids) and nothing of the batch is "
            "stored. Another user's identical id is another event."
        ),
        parameters=[SUBJECT_HEADER],
        request=s.EventBatchInputSerializer,
        responses={200: s.EventBatchOutputSerializer, 409: ErrorSerializer, **ERRORS},
    )
    def post(self, request: Request) -> Response:
        subject = self.subject(request)
        data = _validated(s.EventBatchInputSerializer, request)
        items = [EventInput(**e) for e in data["events"]]
        try:
            outcomes = events_append(
                actor=self.actor(request),
                agent_id=request.user.agent.id,
                subject=subject,
                items=items,
                request_id=self.request_id(request),
            )
        except ConsentWithdrawn:
            raise ApiError(
                "consent_withdrawn",
                "The user has withdrawn consent to memory; their messages are not stored.",
                status_code=status.HTTP_403_FORBIDDEN,
            ) from None
        except EventIdConflict as conflict:
            raise event_id_conflict(conflict) from None
        return Response(
            {
                "results": [
                    {
                        "client_event_id": o.client_event_id,
                        "event_id": o.event_id,
                        "created": o.created,
                        "redactions": o.redactions,
                        "error": {"code": o.error_code, "message": o.error_message, "extra": {}}
                        if o.error_code
                        else None,
                    }
                    for o in outcomes
                ]
            }
        )


class CandidateSubmitView(SubjectScopedView):
    permission_classes = [HasWriteScope]

    @extend_schema(
        operation_id="candidates_submit",
        summary="Propose memory candidates; the policy engine decides each one",
        parameters=[SUBJECT_HEADER, IDEMPOTENCY_KEY_HEADER],
        request=s.CandidateBatchInputSerializer,
        responses={200: s.CandidateBatchOutputSerializer, **ERRORS, 422: ErrorSerializer},
    )
    def post(self, request: Request) -> Response:
        subject = self.subject(request)
        key = request.headers.get("Idempotency-Key")
        if key is not None and not idempotency_key_valid(key):
            raise ApiError(
                "invalid_idempotency_key",
                "Idempotency-Key must be 1 to 200 printable ASCII characters.",
                extra={"max_length": 200},
            )
        data = _candidates_validated(request)
        if key is None:
            return Response(self.apply(request, subject, data)[1])
        try:
            result = idempotent_call(
                actor=self.actor(request),
                agent_id=request.user.agent.id,
                subject_id=subject.id,
                key=key,
                body_sha256=request_sha256(request.data),
                apply=lambda: self.apply(request, subject, data),
            )
        except IdempotencyKeyReused:
            raise ApiError(
                "idempotency_key_reused",
                "This Idempotency-Key was already used with a different request body; "
                "use a new key for a new request.",
                status_code=status.HTTP_422_UNPROCESSABLE_ENTITY,
            ) from None
        response = Response(result.body, status=result.status)
        if result.replayed:
            response["Idempotent-Replayed"] = "true"
        return response

    def apply(self, request: Request, subject: Subject, data: dict) -> tuple[int, dict]:
        if subject.kind == SubjectKind.ORG and any(
            c["memory_type"] == MemoryType.PROCEDURAL for c in data["candidates"]
        ):
            raise procedure_change_refused()
        # Every candidate's cited client ids in one query (the batch path's shape).
        resolved = events_resolve_client_ids(
            tenant_id=request.user.tenant_id,
            agent_id=request.user.agent.id,
            subject_id=subject.id,
            client_ids=sorted(
                {
                    c
                    for item in data["candidates"]
                    for c in item.get("source_client_event_ids") or []
                }
            ),
        )
        candidates = []
        for item in data["candidates"]:
            sources = self.resolve_sources(request, subject, item, resolved)
            item.pop("source_client_event_ids", None)
            item.pop("source_event_ids", None)
            candidates.append(Candidate(**item, source_event_ids=sources))
        outcomes = candidates_submit(
            actor=self.actor(request),
            subject=subject,
            candidates=candidates,
            agent_id=request.user.agent.id,
            request_id=self.request_id(request),
        )
        return 200, {"results": [_outcome_json(i, o) for i, o in enumerate(outcomes)]}


class MemoryRecordMixin(SubjectScopedView):
    def record(self, request: Request, subject: Subject, record_id: uuid.UUID) -> MemoryRecord:
        # Above the agent's clearance a record does not exist for it (404, as in recall
        # and the list): reading, changing or deleting it by id would reveal it.
        record = memory_get_for_subject(
            tenant_id=subject.tenant_id,
            subject_id=subject.id,
            record_id=record_id,
            clearance=request.user.agent.clearance,
        )
        if record is None:
            raise ApiError("not_found", "No such memory for this subject.", status_code=404)
        return record

    def submit_change(self, request: Request, subject: Subject, candidate: Candidate) -> Response:
        if candidate.memory_type == MemoryType.PROCEDURAL:
            raise procedure_change_refused()
        [outcome] = candidates_submit(
            actor=self.actor(request),
            subject=subject,
            candidates=[candidate],
            agent_id=request.user.agent.id,
            request_id=self.request_id(request),
        )
        return Response(_outcome_json(0, outcome))


def _change_candidate(record: MemoryRecord, *, intent: str, **overrides: Any) -> Candidate:
    """An agent's change acting on ``record``: its restatement, sensitivity and importance
    kept; valid time, retention and sources only as the request gives them."""
    return Candidate.from_record(
        record,
        sensitivity=record.sensitivity,
        importance=record.importance,
        intent=intent,
        target_record_id=record.id,
        **overrides,
    )


class MemoryDetailView(MemoryRecordMixin):
    permission_classes = [HasReadScope]

    def get_permissions(self):
        if self.request.method == "DELETE":
            return [HasWriteScope()]
        return super().get_permissions()

    @extend_schema(
        operation_id="memory_retrieve",
        summary="One of the subject's memory records",
        parameters=[SUBJECT_HEADER],
        responses={200: s.MemoryRecordOutputSerializer, **ERRORS},
    )
    def get(self, request: Request, record_id: uuid.UUID) -> Response:
        subject = self.subject(request)
        record = self.record(request, subject, record_id)
        return Response(s.MemoryRecordOutputSerializer(record).data)

    @extend_schema(
        operation_id="memory_delete",
        summary="Delete a memory and its history (a user or policy request)",
        parameters=[SUBJECT_HEADER],
        request=s.MemoryDeleteInputSerializer,
        responses={200: s.CandidateResultSerializer, **ERRORS},
    )
    def delete(self, request: Request, record_id: uuid.UUID) -> Response:
        subject = self.subject(request)
        data = _validated(s.MemoryDeleteInputSerializer, request, allow_empty=True)
        record = self.record(request, subject, record_id)
        return self.submit_change(
            request,
            subject,
            _change_candidate(record, intent=Intent.FORGET, assertion_kind=data["assertion_kind"]),
        )


class MemorySupersedeView(MemoryRecordMixin):
    permission_classes = [HasWriteScope]

    @extend_schema(
        operation_id="memory_supersede",
        summary="Replace a memory's value with a new one (old version kept in history)",
        parameters=[SUBJECT_HEADER],
        request=s.MemorySupersedeInputSerializer,
        responses={200: s.CandidateResultSerializer, **ERRORS},
    )
    def post(self, request: Request, record_id: uuid.UUID) -> Response:
        subject = self.subject(request)
        data = _validated(s.MemorySupersedeInputSerializer, request)
        record = self.record(request, subject, record_id)
        candidate = _change_candidate(
            record,
            intent=Intent.CORRECT if data["correction"] else Intent.SUPERSEDE,
            statement=data["statement"],
            value=data["value"],
            assertion_kind=data["assertion_kind"],
            confidence=data["confidence"],
            valid_from=data["valid_from"],
            source_event_ids=self.resolve_sources(request, subject, data),
            source_uri=data["source_uri"],
        )
        return self.submit_change(request, subject, candidate)


class MemoryRetractView(MemoryRecordMixin):
    permission_classes = [HasWriteScope]

    @extend_schema(
        operation_id="memory_retract",
        summary="Mark a memory as wrong (it stops being used; history is kept)",
        parameters=[SUBJECT_HEADER],
        request=s.MemoryRetractInputSerializer,
        responses={200: s.CandidateResultSerializer, **ERRORS},
    )
    def post(self, request: Request, record_id: uuid.UUID) -> Response:
        subject = self.subject(request)
        data = _validated(s.MemoryRetractInputSerializer, request)
        record = self.record(request, subject, record_id)
        candidate = _change_candidate(
            record,
            intent=Intent.RETRACT,
            assertion_kind=data["assertion_kind"],
            source_event_ids=self.resolve_sources(request, subject, data),
        )
        return self.submit_change(request, subject, candidate)


class MemoryListView(SubjectScopedView):
    """The subject's current memories (active and valid now), newest first, one page at a
    time. The subject comes from the subject token; no parameter can name another."""

    permission_classes = [HasReadScope]

    @extend_schema(
        operation_id="memory_list",
        summary="List the subject's current memories (filtered, paginated)",
        parameters=[SUBJECT_HEADER, s.MemoryListQuerySerializer],
        responses={200: s.MemoryListOutputSerializer, **ERRORS},
    )
    def get(self, request: Request) -> Response:
        subject = self.subject(request)
        allowed = set(s.MemoryListQuerySerializer().fields)
        unknown = sorted(set(request.query_params) - allowed)
        if unknown:
            raise ApiError(
                "invalid_input",
                "Some fields are invalid; see extra.fields for what to fix.",
                extra={"fields": {name: ["Unknown query parameter."] for name in unknown}},
            )
        params = s.MemoryListQuerySerializer(data=request.query_params.dict())
        params.is_valid(raise_exception=True)
        p = params.validated_data
        qs = memory_list_for_agent(
            tenant_id=subject.tenant_id,
            subject_id=subject.id,
            clearance=request.user.agent.clearance,
            memory_type=p.get("memory_type", ""),
            namespace=p.get("namespace", ""),
            predicate=p.get("predicate", ""),
            purpose=p.get("purpose", ""),
            query=p.get("q", ""),
        )
        count = qs.count()
        page = list(qs[p["offset"] : p["offset"] + p["limit"]])
        end = p["offset"] + len(page)
        body = {"count": count, "next_offset": end if end < count else None, "results": page}
        return Response(s.MemoryListOutputSerializer(body).data)


class SubjectEraseView(SubjectScopedView):
    """Erase everything about the subject: the same deletion workflow, receipt and
    verification as the settings page's "delete everything" and the operator command
    (``memory.services.deletion.subject_erase``). Admin scope, like naming subjects."""

    permission_classes = [HasAdminScope]

    @extend_schema(
        operation_id="subject_erase",
        summary="Erase everything about the subject (memories, raw events, indexes, …)",
        parameters=[SUBJECT_HEADER],
        request=s.SubjectEraseInputSerializer,
        responses={200: s.SubjectEraseOutputSerializer, **ERRORS},
    )
    def post(self, request: Request) -> Response:
        subject = self.subject(request)
        _validated(s.SubjectEraseInputSerializer, request)
        deletion = subject_erase(actor=self.actor(request), subject=subject)
        return Response(
            {
                "deletion_request_id": deletion.id,
                "status": deletion.status,
                "receipt": deletion.receipt,
                "verification": deletion.verification,
            }
        )


def subject_gone() -> ApiError:
    return ApiError(
        "subject_required", "The subject named by the token no longer exists.", status_code=403
    )


def subject_kind_refused() -> ApiError:
    return ApiError(
        "subject_kind_not_allowed",
        "Organisation subjects cannot be acted on with a subject token; procedures "
        "change only through change requests.",
        status_code=403,
    )


def refused_subject_kinds() -> frozenset[str]:
    """The subject kinds a subject token may not name (``org_subject_tokens_allowed``)."""
    return frozenset(k for k in SubjectKind.values if not org_subject_tokens_allowed(k))


def org_subject_tokens_allowed(kind: str) -> bool:
    """Organisation subjects hold the tenant's reviewed procedures: subject tokens may not
    name them unless ENGRAM["ALLOW_ORG_SUBJECT_TOKENS"] is set (and even then procedural
    memory stays read-only here)."""
    return kind != SubjectKind.ORG or settings.ENGRAM.get("ALLOW_ORG_SUBJECT_TOKENS", False)


def procedure_change_refused() -> ApiError:
    return ApiError(
        "procedure_change_requires_review",
        "Procedures change only through a change request and review: "
        "POST /api/v1/procedures/<slug>/change-requests.",
        status_code=status.HTTP_403_FORBIDDEN,
    )


def _candidates_validated(request: Request) -> dict[str, Any]:
    """The candidates body: a plain one read directly (``ENGRAM_WRITE_PLAIN_VALIDATION``,
    memory/api/candidate_wire.py), any other by the serializer."""
    if settings.ENGRAM_WRITE_BATCH["PLAIN_VALIDATION"]:
        plain = candidates_input(request.data, max_items=s.MAX_BATCH)
        if plain is not None:
            return {"candidates": plain}
    return _validated(s.CandidateBatchInputSerializer, request)


def _validated(serializer_class, request: Request, *, allow_empty: bool = False) -> dict[str, Any]:
    payload = request.data
    if allow_empty and not payload:
        payload = {}
    if not isinstance(payload, dict):
        raise ApiError("invalid_input", "The request body must be a JSON object.")
    serializer = serializer_class(data=payload)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)
