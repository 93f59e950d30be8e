"""Serializer building blocks shared by every app's API."""

from __future__ import annotations

from rest_framework import serializers


class StrictInputSerializer(serializers.Serializer):
    """Refuses fields it does not declare: a typo or a forged ``tenant``/``subject`` in a
    body is an error the client sees, never silently ignored."""

    def to_internal_value(self, data):
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError(
                    {
                        name: [
                            "Unknown field; remove it (tenant and subject come from your credentials)."
                        ]
                        for name in unknown
                    }
                )
        return super().to_internal_value(data)


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    extra = serializers.DictField()
