"""The API key and the subject's access for its agent in one statement
(``ENGRAM_API_KEY_ACCESS_ONE_READ``, config/settings/request_path.py).

The reference (``ApiKeyAuthentication``) reads the key (with its agent and tenant), checks
it, verifies the subject token against it, then reads the access the subject left this
agent: two statements after the tenant is set. Here the subject token's signature and
expiry are checked first (no database), so its subject is known when the key is read, and
the access row comes with the key as a scalar subquery on the key row's own tenant and
agent. What is refused, and in which order, is unchanged: a key's refusal first (the
same ``api_key_authenticate``), then the token's (its decoding error, or a claim issued
to another tenant or agent), then a paused or revoked access. Revocation stays exact:
nothing is cached, each request reads the key's and the access's current rows in the
transaction that the tenant scope and row-level security apply to.

A token that does not decode takes the reference path (it is refused there, after the
key's checks); so does the gateway header (it may create the subject)."""

from __future__ import annotations

import uuid

from django.db.models import OuterRef, Subquery

from accounts.models import ApiKey
from accounts.services.credentials import (
    KEY_ROW_NAMES,
    CredentialError,
    SubjectClaim,
    api_key_authenticate,
    key_from_row,
    subject_claim_bound,
    subject_token_claim,
)
from core.sqltemplate import Placeholders, QueryTemplate
from memory.models import SubjectAgentAccess


def token_claim(token: str) -> SubjectClaim | None:
    """The token's claim, or None when it does not decode (the reference refuses it)."""
    try:
        return subject_token_claim(token)
    except CredentialError:
        return None


def key_and_access(
    raw: str, claim: SubjectClaim, *, scoped: tuple[str, uuid.UUID | None] | None = None
) -> tuple[ApiKey, str | None]:
    """The usable key for ``raw`` and the access state (``paused``, ``revoked``, None) the
    claim's subject left the key's agent; CredentialError as the reference raises it.
    ``scoped`` as ``api_key_authenticate`` takes it."""
    access: list[str | None] = []

    def load(prefix: str) -> ApiKey | None:
        rows = _KEY_AND_ACCESS.rows((), {"prefix": prefix, "subject": claim.subject_id})
        if not rows:
            return None
        access.append(rows[0][-1])
        return key_from_row(rows[0])

    key = api_key_authenticate(raw, load_key=load, scoped=scoped)
    subject_claim_bound(claim, tenant_id=key.tenant_id, agent_id=key.agent_id)
    return key, access[0]


def _key_and_access_query(p: Placeholders):
    # The reference's two queries: the key as ``_key_by_prefix_query`` reads it, and
    # ``agent_access_state`` for the key's own tenant and agent (first by primary key).
    access = (
        SubjectAgentAccess.objects.filter(
            tenant_id=OuterRef("tenant_id"),
            agent_id=OuterRef("agent_id"),
            subject_id=p.uuid("subject"),
        )
        .order_by("pk")
        .values("state")[:1]
    )
    return (
        ApiKey.objects.filter(prefix=p.text("prefix"))
        .order_by("pk")
        .annotate(access_state=Subquery(access))
        .values_list(*KEY_ROW_NAMES, "access_state")[:1]
    )


# Always compiled once: the setting that chooses this path is the one switch.
_KEY_AND_ACCESS = QueryTemplate(_key_and_access_query, enabled=lambda: True)
