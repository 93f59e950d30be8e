from rest_framework import serializers

from core.serializers import StrictInputSerializer
from memory.models import SubjectKind


class SubjectTokenInputSerializer(StrictInputSerializer):
    subject_kind = serializers.ChoiceField(choices=SubjectKind.choices, default=SubjectKind.USER)
    external_id = serializers.CharField(
        max_length=200, help_text="Your id for the end user (or agent, org, project)."
    )


class SubjectTokenOutputSerializer(serializers.Serializer):
    token = serializers.CharField()
    subject_id = serializers.UUIDField()
    expires_in = serializers.IntegerField(help_text="Seconds until the token expires.")
