"""Memories addressed by slot — a namespace and a predicate — for key-value stores such as
LangGraph's (``engramhq_client.langgraph.EngramStore``), many per request:

- ``POST /api/v1/memories/by-slot/lookup``: the current memory in each slot (or null);
  with ``refresh_ttl_seconds``, records that have a time-to-live get it moved forward
  ("refresh on read", write scope).
- ``PUT /api/v1/memories/by-slot``: put or delete many slots at once, without reading
  first: each becomes the candidate it means for the slot as it is now
  (``memory.services.slots``) and goes through the write policy. ``Idempotency-Key``
  makes a resend (an outbox replay) apply nothing twice.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.models import Sensitivity
from accounts.permissions import HasReadScope, HasWriteScope
from core.serializers import StrictInputSerializer
from memory.api.idempotency import idempotency_key, idempotent_response
from memory.api.serializers import (
    MAX_BATCH,
    MAX_TEXT,
    NAMESPACE_RE,
    PREDICATE_RE,
    CandidateBatchOutputSerializer,
    MemoryRecordOutputSerializer,
    _bounded_json,
)
from memory.api.views import (
    ERRORS,
    IDEMPOTENCY_KEY_HEADER,
    SUBJECT_HEADER,
    SubjectScopedView,
    _outcome_json,
    _validated,
)
from memory.models import AssertionKind, ConsentBasis, MemoryType, Subject
from memory.predicates import canonical_predicate
from memory.selectors import memory_current_in_slots
from memory.services.slots import SlotWrite, memory_slots_ttl_refresh, memory_slots_write

MAX_TTL_SECONDS = 10 * 365 * 24 * 3600


class SlotInputSerializer(StrictInputSerializer):
    namespace = serializers.RegexField(NAMESPACE_RE, max_length=300)
    predicate = serializers.RegexField(PREDICATE_RE, max_length=200)


class SlotLookupInputSerializer(StrictInputSerializer):
    slots = SlotInputSerializer(many=True, allow_empty=False, max_length=MAX_BATCH)
    refresh_ttl_seconds = serializers.IntegerField(
        min_value=1,
        max_value=MAX_TTL_SECONDS,
        required=False,
        allow_null=True,
        help_text="Move the expiry of found records that have one to now + this (write scope).",
    )


class SlotOutputSerializer(serializers.Serializer):
    namespace = serializers.CharField()
    predicate = serializers.CharField()


class SlotLookupResultSerializer(serializers.Serializer):
    slot = SlotOutputSerializer()
    record = MemoryRecordOutputSerializer(allow_null=True)


class SlotLookupOutputSerializer(serializers.Serializer):
    results = SlotLookupResultSerializer(many=True, help_text="One per slot, in order.")


class SlotWriteInputSerializer(StrictInputSerializer):
    namespace = serializers.RegexField(NAMESPACE_RE, max_length=300)
    predicate = serializers.RegexField(PREDICATE_RE, max_length=200)
    delete = serializers.BooleanField(
        required=False, help_text="Delete the slot's current memory (its history too)."
    )
    statement = serializers.CharField(max_length=MAX_TEXT, required=False)
    value = serializers.JSONField(required=False, allow_null=True, validators=[_bounded_json])
    memory_type = serializers.ChoiceField(choices=MemoryType.choices, required=False)
    assertion_kind = serializers.ChoiceField(choices=AssertionKind.choices)
    confidence = serializers.FloatField(min_value=0.0, max_value=1.0, required=False)
    purpose = serializers.CharField(max_length=100, required=False)
    consent_basis = serializers.ChoiceField(choices=ConsentBasis.choices, required=False)
    sensitivity = serializers.ChoiceField(choices=Sensitivity.choices, required=False)
    importance = serializers.FloatField(min_value=0.0, max_value=1.0, required=False)
    expires_at = serializers.DateTimeField(required=False, allow_null=True)
    valid_from = serializers.DateTimeField(required=False, allow_null=True)

    def validate(self, attrs):
        if not attrs.get("delete"):
            missing = [
                name
                for name in ("statement", "confidence", "purpose", "consent_basis")
                if name not in attrs
            ]
            if missing:
                raise serializers.ValidationError(
                    {name: ["Required unless delete is true."] for name in missing}
                )
        return attrs


class SlotWriteBatchInputSerializer(StrictInputSerializer):
    writes = SlotWriteInputSerializer(many=True, allow_empty=False, max_length=MAX_BATCH)

    def validate_writes(self, writes):
        seen: dict[tuple[str, str], int] = {}
        for index, w in enumerate(writes):
            slot = (w["namespace"], canonical_predicate(w["predicate"]))
            if slot in seen:
                raise serializers.ValidationError(
                    f"Writes {seen[slot]} and {index} name the same slot; send only the last."
                )
            seen[slot] = index
        return writes


class SlotLookupView(SubjectScopedView):
    permission_classes = [HasReadScope]

    def get_permissions(self):
        data = self.request.data if isinstance(self.request.data, dict) else {}
        if data.get("refresh_ttl_seconds"):
            return [HasWriteScope()]
        return super().get_permissions()

    @extend_schema(
        operation_id="memory_slots_lookup",
        summary="The current memory in each of many slots (namespace + predicate)",
        parameters=[SUBJECT_HEADER],
        request=SlotLookupInputSerializer,
        responses={200: SlotLookupOutputSerializer, **ERRORS},
    )
    def post(self, request: Request) -> Response:
        subject = self.subject(request)
        data = _validated(SlotLookupInputSerializer, request)
        slots = [(s["namespace"], s["predicate"]) for s in data["slots"]]
        records = memory_current_in_slots(
            tenant_id=subject.tenant_id,
            subject_id=subject.id,
            clearance=request.user.agent.clearance,
            slots=slots,
        )
        if data.get("refresh_ttl_seconds"):
            memory_slots_ttl_refresh(
                actor=self.actor(request),
                subject=subject,
                records=[r for r in records if r is not None],
                ttl=timedelta(seconds=data["refresh_ttl_seconds"]),
            )
        body = {
            "results": [
                {"slot": {"namespace": ns, "predicate": p}, "record": record}
                for (ns, p), record in zip(slots, records, strict=True)
            ]
        }
        return Response(SlotLookupOutputSerializer(body).data)


class SlotWriteView(SubjectScopedView):
    permission_classes = [HasWriteScope]

    @extend_schema(
        operation_id="memory_slots_write",
        summary="Put or delete the memory in many slots; each goes through the write policy",
        parameters=[SUBJECT_HEADER, IDEMPOTENCY_KEY_HEADER],
        request=SlotWriteBatchInputSerializer,
        responses={200: CandidateBatchOutputSerializer, **ERRORS, 422: ERRORS[400]},
    )
    def put(self, request: Request) -> Response:
        subject = self.subject(request)
        key = idempotency_key(request)
        data = _validated(SlotWriteBatchInputSerializer, request)
        return idempotent_response(
            request,
            actor=self.actor(request),
            subject=subject,
            key=key,
            apply=lambda: self.apply(request, subject, data),
        )

    def apply(self, request: Request, subject: Subject, data: dict) -> tuple[int, dict]:
        writes = [_slot_write(w) for w in data["writes"]]
        outcomes = memory_slots_write(
            actor=self.actor(request),
            agent_id=request.user.agent.id,
            subject=subject,
            clearance=request.user.agent.clearance,
            writes=writes,
            request_id=self.request_id(request),
        )
        body = {"results": [_outcome_json(i, o) for i, o in enumerate(outcomes)]}
        return 200, dict(CandidateBatchOutputSerializer(body).data)


def _slot_write(w: dict[str, Any]) -> SlotWrite:
    defaults = SlotWrite(namespace=w["namespace"], predicate=w["predicate"])
    return SlotWrite(
        namespace=w["namespace"],
        predicate=w["predicate"],
        delete=w.get("delete", False),
        statement=w.get("statement", ""),
        value=w.get("value"),
        memory_type=w.get("memory_type", defaults.memory_type),
        assertion_kind=w["assertion_kind"],
        confidence=w.get("confidence", defaults.confidence),
        purpose=w.get("purpose", ""),
        consent_basis=w.get("consent_basis", ""),
        sensitivity=w.get("sensitivity"),
        importance=w.get("importance", defaults.importance),
        expires_at=w.get("expires_at"),
        valid_from=w.get("valid_from"),
    )
