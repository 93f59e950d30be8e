"""Template filters that turn codes into human, translated labels (``memory.labels``)
and draw the pages' charts (``memory.charts``)."""

from __future__ import annotations

from django import template

from memory import labels

register = template.Library()

register.filter("purpose_label", labels.purpose_label)
register.filter("topic_label", labels.topic_label)
register.filter("reason_label", labels.reason_label)
register.filter("operation_label", labels.operation_label)
register.filter("action_label", labels.action_label)
register.filter("store_label", labels.store_label)


@register.filter
def is_future(record) -> bool:
    """The record's validity starts after now (a plan, not how things are)."""
    from django.utils import timezone

    return bool(record.valid_from and record.valid_from > timezone.now())
