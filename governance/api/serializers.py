from __future__ import annotations

from django.conf import settings
from rest_framework import serializers

from core.serializers import StrictInputSerializer
from governance.models import ProposalSource

AGENT_SOURCES = [
    (ProposalSource.AGENT.value, ProposalSource.AGENT.label),
    (ProposalSource.TOOL.value, ProposalSource.TOOL.label),
    (ProposalSource.EXTERNAL.value, ProposalSource.EXTERNAL.label),
]


class ProcedureChangeRequestInputSerializer(StrictInputSerializer):
    proposed_text = serializers.CharField(
        max_length=settings.ENGRAM["MAX_TEXT_CHARS"],
        help_text="The full new text of the procedure (not a patch).",
    )
    base_version = serializers.IntegerField(
        min_value=0,
        help_text="The approved version you read (GET /procedures/<slug>); 0 for an empty one.",
    )
    rationale = serializers.CharField(max_length=4000, required=False, default="", allow_blank=True)
    source = serializers.ChoiceField(
        choices=AGENT_SOURCES,
        default=ProposalSource.AGENT.value,
        help_text="Where the text comes from. tool and external proposals are flagged and can never be approved.",
    )
    source_uri = serializers.CharField(
        max_length=1000, required=False, default="", allow_blank=True
    )


class ProcedureChangeRequestOutputSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    procedure = serializers.CharField()
    base_version = serializers.IntegerField()
    status = serializers.CharField()
    warnings = serializers.ListField(child=serializers.CharField())
    created_at = serializers.DateTimeField()


class ProcedureOutputSerializer(serializers.Serializer):
    slug = serializers.CharField()
    title = serializers.CharField()
    kind = serializers.CharField()
    namespace = serializers.CharField()
    version = serializers.IntegerField(help_text="Current approved version; 0 when none.")
    text = serializers.CharField(allow_null=True)
    record_id = serializers.UUIDField(allow_null=True)


class ProcedureChangeRequestStatusOutputSerializer(ProcedureChangeRequestOutputSerializer):
    decided_at = serializers.DateTimeField(allow_null=True)
    approved_version = serializers.IntegerField(
        allow_null=True, help_text="The version number this request became, once approved."
    )
