"""``POST /api/v1/conversation``: one conversation turn in one request — the messages are
appended, Engram's extraction proposes memories from them, and the write policy's
decisions come back (``memory.services.conversation``). The equivalent of Mem0's
``add(messages, user_id=…)``; ``POST /candidates`` stays the precise path.

With ``candidates`` (the items of ``POST /candidates``, citing the messages by
``source_client_event_ids``) the request is instead ``POST /events`` then ``POST
/candidates`` in one transaction (``turn_append``): the agent's candidates are decided and
Engram's inline extraction is not run (appending queues the background job, as ``POST
/events`` does). An empty list stores the messages and decides nothing."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.permissions import HasWriteScope
from core.api import ApiError
from core.codes import Operation
from core.serializers import StrictInputSerializer
from memory.api.conversation_wire import turn_input
from memory.api.idempotency import idempotency_key, idempotent_response
from memory.api.serializers import (
    MAX_BATCH,
    MAX_TEXT,
    CandidateInputSerializer,
    CandidateResultSerializer,
    EventResultSerializer,
)
from memory.api.views import (
    ERRORS,
    IDEMPOTENCY_KEY_HEADER,
    SUBJECT_HEADER,
    SubjectScopedView,
    _outcome_json,
    _validated,
    event_id_conflict,
    procedure_change_refused,
)
from memory.models import EventKind, EventRole, MemoryType, Subject, SubjectKind
from memory.services.conversation import (
    TurnResult,
    UnknownSourceEvents,
    conversation_turn_ingest,
    turn_append,
)
from memory.services.events import ConsentWithdrawn, EventIdConflict, EventInput
from memory.write_policy import Candidate


class ConversationMessageInputSerializer(StrictInputSerializer):
    client_event_id = serializers.CharField(
        max_length=200,
        help_text="Your idempotency key for this message (the clients make one for you).",
    )
    role = serializers.ChoiceField(choices=EventRole.choices)
    content = serializers.CharField(max_length=MAX_TEXT, trim_whitespace=False)
    speaker = serializers.CharField(max_length=200, required=False, allow_blank=True)
    occurred_at = serializers.DateTimeField(required=False, allow_null=True)


class ConversationTurnInputSerializer(StrictInputSerializer):
    messages = ConversationMessageInputSerializer(
        many=True, allow_empty=False, max_length=MAX_BATCH
    )
    thread_id = serializers.CharField(
        max_length=200,
        required=False,
        allow_blank=True,
        help_text="The conversation these messages belong to.",
    )
    candidates = CandidateInputSerializer(
        many=True,
        required=False,
        allow_empty=True,
        max_length=MAX_BATCH,
        help_text=(
            "Your own proposals from this turn (the items of POST /candidates; cite the "
            "messages by source_client_event_ids). When given, Engram's extraction is not "
            "run for this request and 'candidates' in the answer holds the decisions."
        ),
    )


class ConversationDecisionSerializer(serializers.Serializer):
    message_index = serializers.IntegerField(help_text="Which message it was extracted from.")
    client_event_id = serializers.CharField()
    operation = serializers.ChoiceField(choices=[(o.value, o.value) for o in Operation])
    reason_code = serializers.CharField()
    message = serializers.CharField()
    record_id = serializers.UUIDField(allow_null=True)
    target_id = serializers.UUIDField(allow_null=True)
    findings = serializers.ListField(child=serializers.CharField())
    statement = serializers.CharField(help_text="What the extractor proposed to remember.")
    predicate = serializers.CharField()
    value = serializers.JSONField(allow_null=True)
    assertion_kind = serializers.CharField()


class ConversationTurnOutputSerializer(serializers.Serializer):
    events = EventResultSerializer(many=True, help_text="One per message, in order.")
    decisions = ConversationDecisionSerializer(
        many=True, help_text="Every memory extracted from the new messages, with its decision."
    )
    llm_rejected = serializers.IntegerField(
        help_text="Messages whose LLM extraction was malformed and discarded (rules still ran)."
    )
    llm_unavailable = serializers.IntegerField(
        help_text="Messages the configured LLM extractor could not be reached for."
    )
    candidates = CandidateResultSerializer(
        many=True,
        help_text="The decision on each of the request's own candidates, in order "
        "(as POST /candidates answers); empty without them.",
    )


def _body(result: TurnResult) -> dict[str, Any]:
    data = {
        "events": [
            {
                "client_event_id": o.client_event_id,
                "event_id": o.event_id,
                "created": o.created,
                "redactions": o.redactions,
                "error": {"code": o.error_code, "message": o.error_message, "extra": {}}
                if o.error_code
                else None,
            }
            for o in result.events
        ],
        "decisions": [
            {
                "message_index": d.event_index,
                "client_event_id": d.client_event_id,
                "operation": d.outcome.operation,
                "reason_code": d.outcome.reason_code,
                "message": d.outcome.message,
                "record_id": d.outcome.record_id,
                "target_id": d.outcome.target_id,
                "findings": list(d.outcome.findings),
                "statement": d.candidate.statement,
                "predicate": d.candidate.predicate,
                "value": d.candidate.value,
                "assertion_kind": d.candidate.assertion_kind,
            }
            for d in result.decisions
        ],
        "llm_rejected": result.llm_rejected,
        "llm_unavailable": result.llm_unavailable,
        "candidates": [_outcome_json(i, o) for i, o in enumerate(result.candidates)],
    }
    return dict(ConversationTurnOutputSerializer(data).data)


class ConversationTurnView(SubjectScopedView):
    permission_classes = [HasWriteScope]

    @extend_schema(
        operation_id="conversation_turn",
        summary="Append a conversation turn; Engram extracts memories and returns the decisions",
        parameters=[SUBJECT_HEADER, IDEMPOTENCY_KEY_HEADER],
        request=ConversationTurnInputSerializer,
        responses={
            200: ConversationTurnOutputSerializer,
            **ERRORS,
            409: ERRORS[400],
            422: ERRORS[400],
        },
    )
    def post(self, request: Request) -> Response:
        subject = self.subject(request)
        key = idempotency_key(request)
        data = _turn_validated(request)
        return idempotent_response(
            request,
            actor=self.actor(request),
            subject=subject,
            key=key,
            apply=lambda: self.apply(request, subject, data),
        )

    def apply(self, request: Request, subject: Subject, data: dict) -> tuple[int, dict]:
        thread_id = data.get("thread_id", "")
        items = [
            EventInput(
                client_event_id=m["client_event_id"],
                kind=EventKind.MESSAGE,
                role=m["role"],
                content=m["content"],
                thread_id=thread_id,
                speaker=m.get("speaker", ""),
                occurred_at=m.get("occurred_at"),
            )
            for m in data["messages"]
        ]
        common = {
            "actor": self.actor(request),
            "agent_id": request.user.agent.id,
            "subject": subject,
            "items": items,
            "request_id": self.request_id(request),
        }
        try:
            if "candidates" in data:
                result = turn_append(**common, **_candidates(subject, data["candidates"]))
            else:
                result = conversation_turn_ingest(**common)
        except UnknownSourceEvents as unknown:
            raise ApiError(
                "unknown_source_event",
                "Some source_client_event_ids are neither among this request's messages nor "
                "appended before for this subject; nothing of the request was stored.",
                extra={"source_client_event_ids": unknown.client_event_ids},
            ) from None
        except ConsentWithdrawn:
            raise ApiError(
                "consent_withdrawn",
                "The user has withdrawn consent to memory; their messages are not stored.",
                status_code=status.HTTP_403_FORBIDDEN,
            ) from None
        except EventIdConflict as conflict:
            raise event_id_conflict(conflict) from None
        return 200, _body(result)


def _turn_validated(request: Request) -> dict[str, Any]:
    """The turn body: a plain one read directly (``ENGRAM_INGEST_PLAIN_VALIDATION``,
    memory/api/conversation_wire.py), any other by the serializer."""
    if settings.ENGRAM_INGEST["PLAIN_VALIDATION"]:
        plain = turn_input(request.data, max_items=MAX_BATCH)
        if plain is not None:
            return plain
    return _validated(ConversationTurnInputSerializer, request)


def _candidates(subject: Subject, items: list[dict]) -> dict[str, Any]:
    """The request's candidates as ``POST /candidates`` builds them, and the client ids
    each cites (resolved by the service, after the messages are appended)."""
    if subject.kind == SubjectKind.ORG and any(
        c["memory_type"] == MemoryType.PROCEDURAL for c in items
    ):
        raise procedure_change_refused()
    candidates, cited = [], []
    for item in items:
        item = dict(item)
        cited.append(tuple(item.pop("source_client_event_ids", None) or ()))
        ids = tuple(item.pop("source_event_ids", None) or ())
        candidates.append(Candidate(**item, source_event_ids=ids))
    return {"candidates": candidates, "cited": cited}
