"""A memory's history and the subject's export, for agents (``/api/v1/``).

- ``GET /memories/{id}/history``: every version of the memory, with both timelines of the
  detail page (``memory.timeline``): what is believed true when (valid time) and what
  Engram believed when (record time), by whom and why. Read scope; what the agent may
  read of it (not deleted or held, within its clearance).
- ``GET /subject/export``: everything remembered about the subject, machine-readable: the
  very JSON of the "Export (JSON)" link on the user's pages, from the same service
  (``memory.services.user_memory.subject_export``). Admin scope, as erasure: it carries
  the raw conversation and every version, whatever the agent's clearance. Audited.
"""

from __future__ import annotations

import uuid

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.permissions import HasAdminScope, HasReadScope
from core.api import ApiError
from memory.api.serializers import MemoryRecordOutputSerializer
from memory.api.views import ERRORS, SUBJECT_HEADER, SubjectScopedView
from memory.models import MemoryStatus
from memory.selectors import memory_history_for_agent, memory_write_reasons
from memory.services.user_memory import subject_export
from memory.timeline import author_of, memory_timelines

# --- history ---------------------------------------------------------------------------


class MemoryAuthorOutputSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=[("agent", "agent"), ("user", "user"), ("system", "system")]
    )
    id = serializers.CharField(
        allow_null=True, help_text="The agent's or user's id; null for Engram itself."
    )


class MemoryVersionOutputSerializer(MemoryRecordOutputSerializer):
    status_reason = serializers.CharField(help_text="Reason code of the version's status.")
    author = serializers.SerializerMethodField()

    def get_author(self, obj) -> MemoryAuthorOutputSerializer:
        author = author_of(obj)
        return {"kind": author.kind, "id": author.id}  # type: ignore[return-value]


class MemoryPeriodOutputSerializer(serializers.Serializer):
    record_id = serializers.UUIDField()
    valid_from = serializers.DateTimeField()
    valid_to = serializers.DateTimeField(allow_null=True)
    when = serializers.ChoiceField(
        choices=[("past", "past"), ("now", "now"), ("future", "future")],
        help_text="Where the period lies at the time of asking.",
    )
    status = serializers.CharField()


class MemoryChangeOutputSerializer(serializers.Serializer):
    recorded_at = serializers.DateTimeField()
    reason_code = serializers.CharField(help_text="Why the change was made (a reason code).")
    author = MemoryAuthorOutputSerializer()
    versions = MemoryPeriodOutputSerializer(many=True, help_text="The versions it wrote.")


class MemoryHistoryOutputSerializer(serializers.Serializer):
    record_id = serializers.UUIDField()
    lineage_id = serializers.UUIDField()
    current_id = serializers.UUIDField(
        allow_null=True, help_text="The version in force now; null when none is."
    )
    versions = MemoryVersionOutputSerializer(many=True, help_text="Oldest first, in record time.")
    periods = MemoryPeriodOutputSerializer(
        many=True,
        help_text="Valid time: what is believed to have been true when, oldest first.",
    )
    changes = MemoryChangeOutputSerializer(
        many=True, help_text="Record time: what Engram believed when, newest first."
    )


def _period_json(p) -> dict:
    return {
        "record_id": p.record_id,
        "valid_from": p.valid_from,
        "valid_to": p.valid_to,
        "when": p.when,
        "status": p.status,
    }


class MemoryHistoryView(SubjectScopedView):
    permission_classes = [HasReadScope]

    @extend_schema(
        operation_id="memory_history",
        summary="Every version of a memory, with its valid-time and record-time timelines",
        parameters=[SUBJECT_HEADER],
        responses={200: MemoryHistoryOutputSerializer, **ERRORS},
    )
    def get(self, request: Request, record_id: uuid.UUID) -> Response:
        subject = self.subject(request)
        versions = memory_history_for_agent(
            tenant_id=subject.tenant_id,
            subject_id=subject.id,
            record_id=record_id,
            clearance=request.user.agent.clearance,
        )
        if versions is None:
            raise ApiError("not_found", "No such memory for this subject.", status_code=404)
        now = timezone.now()
        timelines = memory_timelines(versions, now, memory_write_reasons(record=versions[0]))
        in_force = [
            v
            for v in versions
            if v.status == MemoryStatus.ACTIVE
            and v.superseded_at is None
            and v.valid_from <= now
            and (v.valid_to is None or v.valid_to > now)
        ]
        current = max(in_force, key=lambda v: v.valid_from, default=None)
        body = {
            "record_id": record_id,
            "lineage_id": versions[0].lineage_id,
            "current_id": current.id if current else None,
            "versions": versions,
            "periods": [_period_json(p) for p in timelines.periods],
            "changes": [
                {
                    "recorded_at": c.recorded_at,
                    "reason_code": c.reason_code,
                    "author": {"kind": c.author.kind, "id": c.author.id},
                    "versions": [_period_json(p) for p in c.versions],
                }
                for c in timelines.changes
            ],
        }
        return Response(MemoryHistoryOutputSerializer(body).data)


# --- export ----------------------------------------------------------------------------
# The shape of ``subject_export`` (format "engram.subject_export"), for the schema only:
# the view returns the service's dictionary as it is, so the API and the page's JSON
# export cannot differ (tests/memory/test_portability_api.py compares them).


class ExportSubjectSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    tenant_id = serializers.UUIDField()
    kind = serializers.CharField()
    external_id = serializers.CharField()
    display_name = serializers.CharField()


class ExportConsentSerializer(serializers.Serializer):
    memory_paused = serializers.BooleanField()
    consent_withdrawn_at = serializers.DateTimeField(allow_null=True)


class ExportRecordSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    lineage_id = serializers.UUIDField()
    supersedes_id = serializers.UUIDField(allow_null=True)
    status = serializers.CharField()
    status_reason = serializers.CharField()
    memory_type = serializers.CharField()
    namespace = serializers.CharField()
    predicate = serializers.CharField()
    statement = serializers.CharField()
    value = serializers.JSONField(allow_null=True)
    cardinality = serializers.CharField()
    assertion_kind = serializers.CharField()
    confidence = serializers.FloatField()
    valid_from = serializers.DateTimeField(allow_null=True)
    valid_to = serializers.DateTimeField(allow_null=True)
    recorded_at = serializers.DateTimeField(allow_null=True)
    superseded_at = serializers.DateTimeField(allow_null=True)
    purpose = serializers.CharField()
    sensitivity = serializers.CharField()
    consent_basis = serializers.CharField()
    expires_at = serializers.DateTimeField(allow_null=True)
    importance = serializers.FloatField()
    evidence_count = serializers.IntegerField()
    source_uri = serializers.CharField()
    source_event_ids = serializers.ListField(child=serializers.UUIDField())
    created_by_agent_id = serializers.UUIDField(allow_null=True)
    created_by_user_id = serializers.IntegerField(allow_null=True)


class ExportEventSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    kind = serializers.CharField()
    role = serializers.CharField()
    speaker = serializers.CharField()
    content = serializers.CharField()
    thread_id = serializers.CharField()
    uri = serializers.CharField()
    occurred_at = serializers.DateTimeField(allow_null=True)
    received_at = serializers.DateTimeField(allow_null=True)


class SubjectExportOutputSerializer(serializers.Serializer):
    format = serializers.CharField(help_text='"engram.subject_export"')
    format_version = serializers.IntegerField()
    exported_at = serializers.DateTimeField()
    subject = ExportSubjectSerializer()
    consent = ExportConsentSerializer()
    records = ExportRecordSerializer(many=True, help_text="Every version of every memory.")
    source_events = ExportEventSerializer(many=True)
    audit_event_ids = serializers.ListField(child=serializers.IntegerField())


class SubjectExportView(SubjectScopedView):
    permission_classes = [HasAdminScope]

    @extend_schema(
        operation_id="subject_export",
        summary="Everything remembered about the subject, machine-readable (GDPR Art. 20)",
        parameters=[SUBJECT_HEADER],
        responses={200: SubjectExportOutputSerializer, **ERRORS},
    )
    def get(self, request: Request) -> Response:
        subject = self.subject(request)
        return Response(subject_export(subject=subject, actor=self.actor(request)))
