from __future__ import annotations

from django.conf import settings
from rest_framework import serializers

from accounts.models import Sensitivity
from core.codes import Operation
from core.serializers import StrictInputSerializer
from memory.models import (
    AssertionKind,
    Cardinality,
    ConsentBasis,
    EventKind,
    EventRole,
    MemoryType,
    RetentionClass,
    SubjectKind,
)
from memory.write_policy import Intent

NAMESPACE_RE = r"^[\w\-][\w.\-]*(/[\w\-][\w.\-]*)*$"
PREDICATE_RE = r"^[\w.\-:]+$"
MAX_TEXT = settings.ENGRAM["MAX_TEXT_CHARS"]
MAX_BATCH = settings.ENGRAM["MAX_BATCH_ITEMS"]


def _bounded_json(value):
    import json

    if len(json.dumps(value, ensure_ascii=False)) > MAX_TEXT:
        raise serializers.ValidationError(f"At most {MAX_TEXT} characters of JSON.")
    return value


# --- events ---------------------------------------------------------------------------


class EventInputSerializer(StrictInputSerializer):
    client_event_id = serializers.CharField(
        max_length=200, help_text="Your idempotency key for this event."
    )
    kind = serializers.ChoiceField(choices=EventKind.choices)
    role = serializers.ChoiceField(choices=EventRole.choices)
    content = serializers.CharField(max_length=MAX_TEXT, trim_whitespace=False)
    thread_id = serializers.CharField(max_length=200, required=False, default="", allow_blank=True)
    speaker = serializers.CharField(max_length=200, required=False, default="", allow_blank=True)
    uri = serializers.CharField(max_length=1000, required=False, default="", allow_blank=True)
    occurred_at = serializers.DateTimeField(required=False, allow_null=True, default=None)
    retention_class = serializers.ChoiceField(
        choices=RetentionClass.choices, required=False, default=RetentionClass.STANDARD
    )
    metadata = serializers.DictField(required=False, default=dict, validators=[_bounded_json])


class EventBatchInputSerializer(StrictInputSerializer):
    events = EventInputSerializer(many=True, allow_empty=False, max_length=MAX_BATCH)


class EventResultSerializer(serializers.Serializer):
    client_event_id = serializers.CharField()
    event_id = serializers.UUIDField(allow_null=True)
    created = serializers.BooleanField(help_text="False when this is a retry of a stored event.")
    redactions = serializers.IntegerField(help_text="Secrets removed before storage.")
    error = serializers.DictField(allow_null=True)


class EventBatchOutputSerializer(serializers.Serializer):
    results = EventResultSerializer(many=True)


# --- candidates -----------------------------------------------------------------------


class SourceRefsMixin(serializers.Serializer):
    source_event_ids = serializers.ListField(
        child=serializers.UUIDField(), required=False, default=list, max_length=50
    )
    source_client_event_ids = serializers.ListField(
        child=serializers.CharField(max_length=200),
        required=False,
        default=list,
        max_length=50,
        help_text="Your client_event_id values of events you appended; resolved for you.",
    )
    source_uri = serializers.CharField(
        max_length=1000, required=False, default="", allow_blank=True
    )


class CandidateInputSerializer(StrictInputSerializer, SourceRefsMixin):
    memory_type = serializers.ChoiceField(choices=MemoryType.choices)
    namespace = serializers.RegexField(NAMESPACE_RE, max_length=300)
    statement = serializers.CharField(max_length=MAX_TEXT)
    predicate = serializers.RegexField(
        PREDICATE_RE, max_length=200, required=False, default="", allow_blank=True
    )
    value = serializers.JSONField(
        required=False, allow_null=True, default=None, validators=[_bounded_json]
    )
    cardinality = serializers.ChoiceField(
        choices=Cardinality.choices, required=False, allow_null=True, default=None
    )
    assertion_kind = serializers.ChoiceField(choices=AssertionKind.choices)
    confidence = serializers.FloatField(min_value=0.0, max_value=1.0)
    purpose = serializers.CharField(max_length=100, allow_blank=True)
    consent_basis = serializers.ChoiceField(choices=ConsentBasis.choices, allow_blank=True)
    sensitivity = serializers.ChoiceField(
        choices=Sensitivity.choices, required=False, default=Sensitivity.INTERNAL
    )
    intent = serializers.ChoiceField(
        choices=[(i.value, i.value) for i in Intent], required=False, default=Intent.ASSERT
    )
    target_record_id = serializers.UUIDField(required=False, allow_null=True, default=None)
    valid_from = serializers.DateTimeField(required=False, allow_null=True, default=None)
    valid_to = serializers.DateTimeField(required=False, allow_null=True, default=None)
    importance = serializers.FloatField(min_value=0.0, max_value=1.0, required=False, default=0.5)
    expires_at = serializers.DateTimeField(required=False, allow_null=True, default=None)

    def validate(self, attrs):
        if attrs["valid_from"] and attrs["valid_to"] and attrs["valid_to"] <= attrs["valid_from"]:
            raise serializers.ValidationError({"valid_to": ["Must be after valid_from."]})
        if attrs["cardinality"] == Cardinality.SINGLE and not attrs["predicate"]:
            raise serializers.ValidationError(
                {"predicate": ["A single-valued memory needs a predicate."]}
            )
        return attrs


class CandidateBatchInputSerializer(StrictInputSerializer):
    candidates = CandidateInputSerializer(many=True, allow_empty=False, max_length=MAX_BATCH)


class CandidateResultSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    operation = serializers.ChoiceField(choices=[(o.value, o.value) for o in Operation])
    reason_code = serializers.CharField()
    message = serializers.CharField()
    record_id = serializers.UUIDField(allow_null=True)
    target_id = serializers.UUIDField(allow_null=True)
    findings = serializers.ListField(child=serializers.CharField())


class CandidateBatchOutputSerializer(serializers.Serializer):
    results = CandidateResultSerializer(many=True)


# --- explicit operations on one record ------------------------------------------------


class MemorySupersedeInputSerializer(StrictInputSerializer, SourceRefsMixin):
    statement = serializers.CharField(max_length=MAX_TEXT)
    value = serializers.JSONField(
        required=False, allow_null=True, default=None, validators=[_bounded_json]
    )
    assertion_kind = serializers.ChoiceField(choices=AssertionKind.choices)
    confidence = serializers.FloatField(min_value=0.0, max_value=1.0)
    valid_from = serializers.DateTimeField(required=False, allow_null=True, default=None)
    correction = serializers.BooleanField(
        required=False,
        default=False,
        help_text="True when the old value was wrong all along (not merely outdated).",
    )


class MemoryRetractInputSerializer(StrictInputSerializer, SourceRefsMixin):
    assertion_kind = serializers.ChoiceField(choices=AssertionKind.choices)


class MemoryDeleteInputSerializer(StrictInputSerializer):
    assertion_kind = serializers.ChoiceField(
        choices=AssertionKind.choices,
        required=False,
        default=AssertionKind.USER_EXPLICIT,
        help_text="Who asks for deletion; deletion requests are always honoured.",
    )


class MemoryRecordOutputSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    memory_type = serializers.CharField()
    namespace = serializers.CharField()
    predicate = serializers.CharField()
    statement = serializers.CharField()
    value = serializers.JSONField(allow_null=True)
    cardinality = serializers.CharField()
    assertion_kind = serializers.CharField()
    confidence = serializers.FloatField()
    status = serializers.CharField()
    valid_from = serializers.DateTimeField()
    valid_to = serializers.DateTimeField(allow_null=True)
    recorded_at = serializers.DateTimeField()
    superseded_at = serializers.DateTimeField(allow_null=True)
    supersedes_id = serializers.UUIDField(allow_null=True)
    lineage_id = serializers.UUIDField()
    purpose = serializers.CharField()
    sensitivity = serializers.CharField()
    consent_basis = serializers.CharField()
    evidence_count = serializers.IntegerField()
    expires_at = serializers.DateTimeField(
        allow_null=True, help_text="End of the time-to-live; null when it has none."
    )
    source_uri = serializers.CharField()
    source_event_ids = serializers.SerializerMethodField()

    def get_source_event_ids(self, obj) -> list[str]:
        # .all() so a list view's prefetch_related("source_events") is used.
        return [str(e.id) for e in obj.source_events.all()]


# --- listing the subject's current memories (GET /api/v1/memories) --------------------


class MemoryListQuerySerializer(serializers.Serializer):
    """Query parameters of ``GET /api/v1/memories``. Unknown parameters are refused by the
    view (a typo such as ``?namspace=`` would otherwise silently list everything)."""

    memory_type = serializers.ChoiceField(choices=MemoryType.choices, required=False)
    namespace = serializers.RegexField(
        NAMESPACE_RE,
        max_length=300,
        required=False,
        help_text="A namespace prefix: that namespace and everything below it.",
    )
    predicate = serializers.RegexField(PREDICATE_RE, max_length=200, required=False)
    purpose = serializers.CharField(max_length=100, required=False)
    q = serializers.CharField(
        max_length=200,
        required=False,
        help_text="Words that must all occur in the statement or predicate (substring match).",
    )
    limit = serializers.IntegerField(min_value=1, max_value=200, required=False, default=50)
    offset = serializers.IntegerField(min_value=0, max_value=100_000, required=False, default=0)


class MemoryListOutputSerializer(serializers.Serializer):
    count = serializers.IntegerField(help_text="How many current memories match the filters.")
    next_offset = serializers.IntegerField(
        allow_null=True, help_text="Pass as offset for the next page; null on the last page."
    )
    results = MemoryRecordOutputSerializer(many=True)


# --- erasure of a whole subject ------------------------------------------------------


class SubjectEraseInputSerializer(StrictInputSerializer):
    confirm = serializers.BooleanField(
        help_text="Must be true: everything about the subject is deleted for good."
    )

    def validate_confirm(self, value):
        if value is not True:
            raise serializers.ValidationError("Send confirm: true to erase everything.")
        return value


class SubjectEraseOutputSerializer(serializers.Serializer):
    deletion_request_id = serializers.UUIDField()
    status = serializers.CharField(help_text="done, or failed when verification found rows.")
    receipt = serializers.DictField(
        child=serializers.IntegerField(), help_text="Store → rows erased."
    )
    verification = serializers.DictField(
        child=serializers.IntegerField(), help_text="Route → rows still found (all 0 when done)."
    )


class SubjectTokenInputSerializer(StrictInputSerializer):
    subject_kind = serializers.ChoiceField(choices=SubjectKind.choices, default=SubjectKind.USER)
    external_id = serializers.CharField(
        max_length=200, help_text="Your id for the end user (or agent, org, project)."
    )


class SubjectTokenOutputSerializer(serializers.Serializer):
    token = serializers.CharField()
    subject_id = serializers.UUIDField()
    expires_in = serializers.IntegerField(help_text="Seconds until the token expires.")
