"""Issuing subject tokens: which subjects a token may name (the subject lives here, in
memory); the signing and verifying are accounts' (accounts/services/credentials.py)."""

from __future__ import annotations

import uuid

from django.conf import settings

from accounts.services.credentials import CredentialError, subject_token_sign
from memory.models import Subject, SubjectKind


def subject_token_kind_check(kind: str) -> None:
    """Raise CredentialError when subject tokens may not name a subject of ``kind``."""
    if kind == SubjectKind.ORG and not settings.ENGRAM.get("ALLOW_ORG_SUBJECT_TOKENS"):
        raise CredentialError(
            "subject_kind_not_allowed",
            "Subject tokens cannot name an organisation subject: the tenant's procedures "
            "change only through change requests and review.",
        )


def subject_token_issue(*, tenant_id: uuid.UUID, agent_id: uuid.UUID, subject_id: uuid.UUID) -> str:
    """A signed, short-lived token naming one subject, bound to one tenant and agent.
    Never for an organisation subject (it holds the tenant's reviewed procedures) unless
    ``ENGRAM["ALLOW_ORG_SUBJECT_TOKENS"]`` is set; raises CredentialError."""
    kind = Subject.objects.filter(tenant_id=tenant_id, id=subject_id).values_list("kind", flat=True)
    subject_token_kind_check(kind.first() or "")
    return subject_token_sign(tenant_id=tenant_id, agent_id=agent_id, subject_id=subject_id)
