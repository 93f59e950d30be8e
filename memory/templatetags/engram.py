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
register.filter("reviewer_reason_label", labels.reviewer_reason_label)
register.filter("reviewer_source_label", labels.reviewer_source_label)


@register.filter
def is_future(record) -> bool:
    """The record's validity starts after now (a plan, not how things are)."""
    from django.utils import timezone

    return bool(record.valid_from and record.valid_from > timezone.now())


@register.simple_tag(takes_context=True)
def workplaces(context) -> dict[str, bool]:
    """Which staff pages the header links to for the signed-in user: the governance
    console (reviewers and tenant admins of the active tenant) and /ops/ (tenant admins
    and staff). Other members reach neither from the header."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"console": False, "ops": False}
    from accounts.tenancy import user_memberships

    tenant_id = getattr(request, "tenant_id", None)
    roles = {
        m.role for m in user_memberships(user.pk) if tenant_id is None or m.tenant_id == tenant_id
    }
    return {
        "console": bool(roles & {"reviewer", "admin"}),
        "ops": user.is_staff or "admin" in roles,
    }
