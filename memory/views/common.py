"""What the pages share: the signed-in user's own subject."""

from __future__ import annotations

from django.http import Http404, HttpRequest

from memory.models import (
    Subject,
)
from memory.services import user_memory


def _subject(request: HttpRequest) -> Subject:
    """The user's own subject in their active tenant, created on first need; 404 for a
    signed-in user who belongs to no tenant."""
    if request.tenant_id is None:
        raise Http404("not a member of any tenant")
    return user_memory.user_subject_ensure(user=request.user, tenant_id=request.tenant_id)
