"""The settings page's sentence about the tenant's policy for messages sent while consent
is withdrawn (memory.consent.events_after_consent_withdrawn)."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _

from accounts.models import Tenant
from memory.consent import events_after_consent_withdrawn

register = template.Library()


@register.simple_tag
def consent_events_policy(subject) -> str:
    policy = Tenant.objects.filter(pk=subject.tenant_id).values_list("policy", flat=True).first()
    if events_after_consent_withdrawn(policy) == "keep_short":
        return _(
            "Under this organisation's policy, your new messages may still be kept for a few "
            "days for the conversation only; they are never turned into memories and are "
            "deleted with everything else."
        )
    return _("Your new messages are not stored either: agents' attempts to save them are refused.")
