"""Working memory and closing a thread (``/api/v1/threads/{thread_id}/…``).

- ``PUT/GET/DELETE /threads/{thread_id}/working/{key}`` and ``GET /threads/{thread_id}/working``:
  the short-term state of the current task, for the subject the credential names
  (``memory.working``). Never returned by recall; never exported.
- ``POST /threads/{thread_id}/close``: ends the session (``memory.services.thread_close``):
  kept items and what extraction finds become candidates through the write policy, a
  session summary is written, the thread's working memory is dropped. Idempotent.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.permissions import HasReadScope, HasWriteScope
from core.api import ApiError
from core.serializers import ErrorSerializer, StrictInputSerializer
from memory.api.serializers import MAX_BATCH, MAX_TEXT, CandidateResultSerializer
from memory.api.views import ERRORS, SUBJECT_HEADER, SubjectScopedView, _validated
from memory.models import AssertionKind, MemoryType
from memory.working.service import (
    WorkingRefused,
    check_thread_id,
    limits,
    working_delete,
    working_get,
    working_list,
    working_put,
)
from memory.working.store import Entry

THREAD_PARAM = OpenApiParameter(
    "thread_id",
    str,
    OpenApiParameter.PATH,
    description="Your thread (conversation) id: 1-200 letters, digits or . _ : @ - / (as in your events).",
)
KEY_PARAM = OpenApiParameter(
    "key",
    str,
    OpenApiParameter.PATH,
    description="1-128 letters, digits or . _ : @ -.",
)
WORKING_ERRORS = {**ERRORS, 422: ErrorSerializer}


class WorkingPutInputSerializer(StrictInputSerializer):
    value = serializers.JSONField(help_text="Any JSON value (size-limited).")
    ttl_seconds = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="Seconds until the value expires (default ENGRAM_WORKING_MEMORY_TTL_SECONDS; "
        "at most ENGRAM_WORKING_MEMORY_MAX_TTL_SECONDS).",
    )


class WorkingEntryOutputSerializer(serializers.Serializer):
    key = serializers.CharField()
    value = serializers.JSONField()
    size_bytes = serializers.IntegerField()
    expires_at = serializers.DateTimeField()


class WorkingListOutputSerializer(serializers.Serializer):
    thread_id = serializers.CharField()
    total_bytes = serializers.IntegerField()
    max_thread_bytes = serializers.IntegerField()
    results = WorkingEntryOutputSerializer(many=True)


def _entry_json(entry: Entry) -> dict[str, Any]:
    return dict(WorkingEntryOutputSerializer(entry).data)


def _refused(exc: WorkingRefused) -> ApiError:
    return ApiError(exc.code, exc.message, status_code=exc.status, extra=exc.extra)


def _not_found() -> ApiError:
    return ApiError(
        "not_found",
        "No such working memory key in this thread (it may have expired).",
        status_code=status.HTTP_404_NOT_FOUND,
    )


class WorkingListView(SubjectScopedView):
    permission_classes = [HasReadScope]

    @extend_schema(
        operation_id="working_list",
        summary="The thread's working memory (live keys and values)",
        parameters=[SUBJECT_HEADER, THREAD_PARAM],
        responses={200: WorkingListOutputSerializer, **ERRORS},
    )
    def get(self, request: Request, thread_id: str) -> Response:
        subject = self.subject(request)
        try:
            entries = working_list(subject=subject, thread_id=thread_id)
        except WorkingRefused as exc:
            raise _refused(exc) from None
        body = {
            "thread_id": thread_id,
            "total_bytes": sum(e.size_bytes for e in entries),
            "max_thread_bytes": limits().max_thread,
            "results": entries,
        }
        return Response(WorkingListOutputSerializer(body).data)


class WorkingKeyView(SubjectScopedView):
    permission_classes = [HasReadScope]

    def get_permissions(self):
        if self.request.method in ("PUT", "DELETE"):
            return [HasWriteScope()]
        return super().get_permissions()

    @extend_schema(
        operation_id="working_get",
        summary="One working memory value",
        parameters=[SUBJECT_HEADER, THREAD_PARAM, KEY_PARAM],
        responses={200: WorkingEntryOutputSerializer, **ERRORS},
    )
    def get(self, request: Request, thread_id: str, key: str) -> Response:
        subject = self.subject(request)
        try:
            entry = working_get(subject=subject, thread_id=thread_id, key=key)
        except WorkingRefused as exc:
            raise _refused(exc) from None
        if entry is None:
            raise _not_found()
        return Response(_entry_json(entry))

    @extend_schema(
        operation_id="working_put",
        summary="Put (overwrite) a working memory value with a time-to-live",
        description=(
            "Refused with nothing stored: a malformed key (400), a value or thread over "
            "its size limit (413 value_too_large / thread_full), consent withdrawn or "
            "memory paused (403 consent_withdrawn / memory_paused), a string that looks "
            "like a secret (422 secret_detected, extra.paths)."
        ),
        parameters=[SUBJECT_HEADER, THREAD_PARAM, KEY_PARAM],
        request=WorkingPutInputSerializer,
        responses={200: WorkingEntryOutputSerializer, **WORKING_ERRORS},
    )
    def put(self, request: Request, thread_id: str, key: str) -> Response:
        subject = self.subject(request)
        data = _validated(WorkingPutInputSerializer, request)
        try:
            entry = working_put(
                subject=subject,
                thread_id=thread_id,
                key=key,
                value=data["value"],
                ttl_seconds=data.get("ttl_seconds"),
            )
        except WorkingRefused as exc:
            raise _refused(exc) from None
        return Response(_entry_json(entry))

    @extend_schema(
        operation_id="working_delete",
        summary="Delete a working memory value",
        parameters=[SUBJECT_HEADER, THREAD_PARAM, KEY_PARAM],
        responses={204: None, **ERRORS},
    )
    def delete(self, request: Request, thread_id: str, key: str) -> Response:
        subject = self.subject(request)
        try:
            deleted = working_delete(subject=subject, thread_id=thread_id, key=key)
        except WorkingRefused as exc:
            raise _refused(exc) from None
        if not deleted:
            raise _not_found()
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- closing a thread ---------------------------------------------------------------------


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "description": "A working memory key of the thread."},
            {
                "type": "object",
                "required": ["statement"],
                "additionalProperties": False,
                "properties": {
                    "statement": {"type": "string"},
                    "type": {"type": "string", "enum": ["semantic", "episodic"]},
                    "assertion_kind": {"type": "string", "enum": list(AssertionKind.values)},
                    "source_event_ids": {
                        "type": "array",
                        "items": {"type": "string", "format": "uuid"},
                    },
                },
            },
        ]
    }
)
class KeepItemSerializer(serializers.Field):
    """A working memory key (string), or ``{"statement", "type", …}``."""

    def to_internal_value(self, data):
        if isinstance(data, str):
            return data
        if isinstance(data, dict):
            item = KeepStatementSerializer(data=data)
            item.is_valid(raise_exception=True)
            return dict(item.validated_data)
        raise serializers.ValidationError(
            'Each item is a working memory key or {"statement": ..., "type": ...}.'
        )

    def to_representation(self, value):
        return value


class KeepStatementSerializer(StrictInputSerializer):
    statement = serializers.CharField(max_length=MAX_TEXT)
    type = serializers.ChoiceField(
        choices=[MemoryType.SEMANTIC, MemoryType.EPISODIC], default=MemoryType.SEMANTIC
    )
    assertion_kind = serializers.ChoiceField(
        choices=AssertionKind.choices, default=AssertionKind.AGENT_INFERENCE
    )
    source_event_ids = serializers.ListField(
        child=serializers.UUIDField(), required=False, default=list, max_length=MAX_BATCH
    )


class ThreadCloseInputSerializer(StrictInputSerializer):
    keep = serializers.ListField(
        child=KeepItemSerializer(),
        required=False,
        default=list,
        max_length=MAX_BATCH,
        help_text='Working memory keys, or {"statement", "type": "semantic"|"episodic", '
        '"assertion_kind", "source_event_ids"} items, to become memory candidates.',
    )
    summary = serializers.BooleanField(
        required=False, default=True, help_text="Write the session summary (EPISODIC)."
    )


class KeptResultSerializer(CandidateResultSerializer):
    kept = serializers.CharField(help_text="The key, or 'statement'.")


class ThreadCloseOutputSerializer(serializers.Serializer):
    thread_id = serializers.CharField()
    closed_at = serializers.DateTimeField()
    replayed = serializers.BooleanField(help_text="True when the thread was already closed.")
    kept = KeptResultSerializer(many=True)
    extracted = CandidateResultSerializer(many=True)
    summary = CandidateResultSerializer(allow_null=True)
    summary_writer = serializers.CharField(help_text="extractive, model or none.")
    event_count = serializers.IntegerField()
    working_dropped = serializers.IntegerField()


class ThreadCloseView(SubjectScopedView):
    permission_classes = [HasWriteScope]

    @extend_schema(
        operation_id="thread_close",
        summary="End a session: keep what was marked, extract, summarise, drop working memory",
        description=(
            "Each kept item and each candidate extraction finds in the thread's events goes "
            "through the write policy; the session summary (EPISODIC, citing the thread's "
            "events) too. Then the thread's working memory is dropped. A second close of "
            "the same thread returns the first answer (replayed=true) and writes nothing."
        ),
        parameters=[SUBJECT_HEADER, THREAD_PARAM],
        request=ThreadCloseInputSerializer,
        responses={200: ThreadCloseOutputSerializer, **WORKING_ERRORS},
    )
    def post(self, request: Request, thread_id: str) -> Response:
        from memory.services.thread_close import ThreadCloseRefused, thread_close

        subject = self.subject(request)
        try:
            check_thread_id(thread_id)
        except WorkingRefused as exc:
            raise _refused(exc) from None
        data = _validated(ThreadCloseInputSerializer, request)
        try:
            result = thread_close(
                actor=self.actor(request),
                agent_id=request.user.agent.id,
                subject=subject,
                thread_id=thread_id,
                keep=data.get("keep", []),
                summary=data.get("summary", True),
                request_id=self.request_id(request),
            )
        except ThreadCloseRefused as exc:
            raise ApiError(exc.code, exc.message, extra=exc.extra) from None
        return Response(ThreadCloseOutputSerializer(result).data)
