"""Serializer building blocks shared by every app's API."""

from __future__ import annotations

from rest_framework import serializers

from core.codes import ERROR_CODE_CHOICES

# JSON types each field kind accepts. DRF would otherwise coerce 0 into "0", "1.5" into
# 1.5 and "yes" into True; a client sending the wrong type has a bug we should tell it
# about rather than guess around.
_EXPECTED_TYPES: list[tuple[type[serializers.Field], tuple[type, ...], str]] = [
    (serializers.BooleanField, (bool,), "a boolean"),
    (serializers.IntegerField, (int,), "an integer"),
    (serializers.FloatField, (int, float), "a number"),
    (serializers.CharField, (str,), "a string"),
    (serializers.ChoiceField, (str,), "a string"),
    (serializers.DateTimeField, (str,), "an ISO 8601 date-time string"),
    (serializers.UUIDField, (str,), "a UUID string"),
    (serializers.DictField, (dict,), "an object"),
    (serializers.ListField, (list,), "a list"),
]


def _type_error(field: serializers.Field, value: object) -> str | None:
    if value is None:
        return None  # DRF's allow_null/required handling applies
    for kind, accepted, described in _EXPECTED_TYPES:
        if isinstance(field, kind):
            ok = isinstance(value, accepted) and not (
                isinstance(value, bool) and bool not in accepted
            )
            return None if ok else f"Expected {described}."
    return None


class StrictInputSerializer(serializers.Serializer):
    """Refuses fields it does not declare — a typo or a forged ``tenant``/``subject`` in a
    body is an error the client sees, never silently ignored — and values of the wrong
    JSON type."""

    def to_internal_value(self, data):
        if isinstance(data, dict):
            errors: dict[str, list[str]] = {}
            for name in sorted(set(data) - set(self.fields)):
                errors[name] = [
                    "Unknown field; remove it (tenant and subject come from your credentials)."
                ]
            for name, field in self.fields.items():
                if name in data and not field.read_only:
                    problem = _type_error(field, data[name])
                    if problem:
                        errors[name] = [problem]
            if errors:
                raise serializers.ValidationError(errors)
        return super().to_internal_value(data)


class ErrorSerializer(serializers.Serializer):
    code = serializers.ChoiceField(
        choices=ERROR_CODE_CHOICES,
        help_text="Stable, machine-readable (core.codes.ErrorCode); accept unknown ones too.",
    )
    message = serializers.CharField(help_text="What went wrong and what to do next.")
    extra = serializers.DictField(
        help_text="Details: fields (what to fix), retry_after_seconds, limits, …"
    )
