"""API keys and subject tokens: issue, verify, rotate, revoke."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.db import connection, transaction
from django.utils import timezone

from accounts.models import Agent, ApiKey, Scope, Tenant
from core.actor import Actor
from core.audit import audit_record
from core.codes import AuditAction
from core.sqltemplate import ModelColumns, Placeholders, QueryTemplate, read_connection
from core.tenancy import TENANT_SETTING

KEY_PREFIX = "egk"
SUBJECT_TOKEN_SALT = "engram.subject-token.v1"


class CredentialError(Exception):
    """Credentials were missing, malformed, unknown, revoked or expired."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def api_key_issue(
    *, actor: Actor, agent: Agent, scopes: list[str], label: str = ""
) -> tuple[ApiKey, str]:
    """Create a key and return it with its plaintext, which is never retrievable again."""
    unknown = set(scopes) - set(Scope.values)
    if not scopes or unknown:
        raise ValueError(f"scopes must be a non-empty subset of {Scope.values}")
    prefix = secrets.token_hex(6)
    secret = secrets.token_urlsafe(32)
    key = ApiKey.objects.create(
        tenant_id=agent.tenant_id,
        agent=agent,
        label=label,
        prefix=prefix,
        secret_hash=_hash_secret(secret),
        scopes=sorted(set(scopes)),
    )
    audit_record(
        actor=actor,
        action=AuditAction.APIKEY_ISSUE,
        extra={"api_key_id": str(key.id), "agent_id": str(agent.id), "scopes": key.scopes},
    )
    return key, f"{KEY_PREFIX}_{prefix}_{secret}"


def api_key_revoke(*, actor: Actor, api_key: ApiKey) -> ApiKey:
    if api_key.revoked_at is None:
        api_key.revoked_at = timezone.now()
        api_key.save(update_fields=["revoked_at"])
        audit_record(
            actor=actor, action=AuditAction.APIKEY_REVOKE, extra={"api_key_id": str(api_key.id)}
        )
    return api_key


@transaction.atomic
def api_key_rotate(
    *, actor: Actor, api_key: ApiKey, overlap: timedelta = timedelta(hours=24)
) -> tuple[ApiKey, str]:
    """Issue a replacement with the same scopes; the old key works until ``overlap`` ends."""
    new_key, plaintext = api_key_issue(
        actor=actor, agent=api_key.agent, scopes=list(api_key.scopes), label=api_key.label
    )
    api_key.expires_at = timezone.now() + overlap
    api_key.save(update_fields=["expires_at"])
    audit_record(
        actor=actor,
        action=AuditAction.APIKEY_ROTATE,
        extra={"api_key_id": str(api_key.id), "replacement_id": str(new_key.id)},
    )
    return new_key, plaintext


def key_parts(raw: str) -> list[str] | None:
    """``raw`` as [``egk``, prefix, secret], or None when it is not shaped like a key.
    Keys are issued in ASCII; anything else (a lone surrogate cannot even be hashed) is
    malformed, refused before the database is asked."""
    parts = raw.split("_", 2)
    if (
        not raw.isascii()
        or len(parts) != 3
        or parts[0] != KEY_PREFIX
        or not parts[1]
        or not parts[2]
    ):
        return None
    return parts


def api_key_authenticate(
    raw: str,
    *,
    load_key: Callable[[str], ApiKey | None] | None = None,
    scoped: tuple[str, uuid.UUID | None] | None = None,
) -> ApiKey:
    """Return the usable key for ``raw`` or raise CredentialError. Constant-time compare.

    ``load_key(prefix)``, if given, loads the key (with its agent and the agent's tenant)
    once the transaction is scoped to its tenant, in place of ``_key_with_prefix``: a
    caller may read more in the same statement (``memory.api.auth_one_read``). Every check
    below applies to what it returns. ``scoped``: (prefix, tenant) when the transaction
    is already scoped to that prefix's tenant (``core.tenancy.enter_tenant_of_key``); the
    tenant is then not asked for again."""
    parts = key_parts(raw)
    if parts is None:
        raise CredentialError(
            "invalid_api_key", "The API key is malformed; it looks like egk_<prefix>_<secret>."
        )
    if scoped is not None and scoped[0] == parts[1]:
        # The request's transaction was scoped to this prefix's tenant as it began
        # (``core.tenancy.enter_tenant_of_key``, ENGRAM_API_KEY_TENANT_AT_ENTRY).
        tenant_id = scoped[1]
    else:
        # Row-level security hides every key until the tenant is known: ask the SECURITY
        # DEFINER lookup for the key's tenant and scope the transaction to it (one round
        # trip; an unknown prefix changes nothing), then load the key.
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT found.tenant, CASE WHEN found.tenant IS NOT NULL"
                " THEN set_config(%s, found.tenant::text, true) END"
                " FROM (SELECT engram_api_key_tenant(%s) AS tenant OFFSET 0) found",
                [TENANT_SETTING, parts[1]],
            )
            tenant_id = cursor.fetchone()[0]
    if tenant_id is None:
        raise CredentialError("invalid_api_key", "The API key is not valid.")
    key = (load_key or _key_with_prefix)(parts[1])
    if key is None or not hmac.compare_digest(key.secret_hash, _hash_secret(parts[2])):
        raise CredentialError("invalid_api_key", "The API key is not valid.")
    now = timezone.now()
    if key.revoked_at is not None or not key.agent.is_active:
        raise CredentialError(
            "revoked_api_key", "This API key has been revoked. Ask your tenant admin for a new one."
        )
    if key.expires_at is not None and key.expires_at <= now:
        raise CredentialError(
            "expired_api_key", "This API key has expired (rotated). Use its replacement."
        )
    # Touch at most once a minute: a write per request would cost more than the request.
    if key.last_used_at is None or now - key.last_used_at > timedelta(minutes=1):
        ApiKey.objects.filter(pk=key.pk).update(last_used_at=now)
    return key


def _key_with_prefix(prefix: str) -> ApiKey | None:
    """The key with ``prefix`` (the tenant's, under row-level security), its agent and
    the agent's tenant loaded with it. With ``ENGRAM_API_COMPILED_AUTH`` the same query
    runs from its SQL compiled once (``core.sqltemplate``): every request passes here,
    and compiling the ``select_related`` queryset costs more than running it."""
    if not settings.ENGRAM["API_COMPILED_AUTH"]:
        return ApiKey.objects.select_related("agent", "agent__tenant").filter(prefix=prefix).first()
    rows = _KEY_BY_PREFIX.rows((), {"prefix": prefix})
    return key_from_row(rows[0]) if rows else None


_KEY = ModelColumns(ApiKey)
_AGENT = ModelColumns(Agent, "agent__")
_TENANT = ModelColumns(Tenant, "agent__tenant__")
# The key's, its agent's and the agent's tenant's columns, in the order ``key_from_row``
# reads them (a ``values_list`` over ``ApiKey``).
KEY_ROW_NAMES = (*_KEY.names, *_AGENT.names, *_TENANT.names)


def key_from_row(row: Sequence) -> ApiKey:
    """The key, its agent and the agent's tenant from a row of ``KEY_ROW_NAMES`` (any
    columns after them are ignored), as ``select_related`` would have loaded them."""
    connection = read_connection()
    key_end, agent_end = len(_KEY), len(_KEY) + len(_AGENT)
    key = _KEY.instance(row[:key_end], connection)
    agent = _AGENT.instance(row[key_end:agent_end], connection)
    agent.tenant = _TENANT.instance(row[agent_end : len(KEY_ROW_NAMES)], connection)
    key.agent = agent
    return key


def _key_by_prefix_query(p: Placeholders):
    # What ``.first()`` asks of the reference's queryset: ordered by the key, one row.
    return (
        ApiKey.objects.filter(prefix=p.text("prefix"))
        .order_by("pk")
        .values_list(*KEY_ROW_NAMES)[:1]
    )


_KEY_BY_PREFIX = QueryTemplate(
    _key_by_prefix_query, enabled=lambda: settings.ENGRAM["API_COMPILED_AUTH"]
)


@dataclass(frozen=True)
class SubjectClaim:
    tenant_id: uuid.UUID
    agent_id: uuid.UUID
    subject_id: uuid.UUID


def subject_token_sign(
    *,
    tenant_id: uuid.UUID,
    agent_id: uuid.UUID,
    subject_id: uuid.UUID,
    lifetime_seconds: int | None = None,
) -> str:
    """A signed, short-lived token naming one subject, bound to one tenant and agent. Only
    signs: ``memory.services.subject_tokens.subject_token_issue`` checks the subject first.

    The token carries its own expiry (``e``, Unix seconds): every instance that verifies it
    applies the lifetime the issuing instance chose, whatever its own setting."""
    lifetime = lifetime_seconds or settings.ENGRAM["SUBJECT_TOKEN_MAX_AGE_SECONDS"]
    payload = {
        "t": str(tenant_id),
        "a": str(agent_id),
        "s": str(subject_id),
        "e": int(time.time()) + int(lifetime),
    }
    return signing.dumps(payload, salt=SUBJECT_TOKEN_SALT, compress=False)


def _expired() -> CredentialError:
    return CredentialError(
        "expired_subject_token", "The subject token has expired; ask for a new one."
    )


def subject_token_verify(token: str, *, tenant_id: uuid.UUID, agent_id: uuid.UUID) -> SubjectClaim:
    return subject_claim_bound(subject_token_claim(token), tenant_id=tenant_id, agent_id=agent_id)


def subject_token_claim(token: str) -> SubjectClaim:
    """The claim of a token signed here and not expired, not yet checked against the key
    that presents it (``subject_claim_bound``). Reads no database."""
    try:
        payload = signing.loads(token, salt=SUBJECT_TOKEN_SALT)
    except signing.BadSignature:
        raise CredentialError("invalid_subject_token", "The subject token is not valid.") from None
    if not isinstance(payload, dict):
        raise CredentialError("invalid_subject_token", "The subject token is not valid.")
    expires = payload.get("e")
    if expires is None:
        # Issued before tokens carried an expiry: this instance's lifetime applies.
        try:
            signing.loads(
                token,
                salt=SUBJECT_TOKEN_SALT,
                max_age=settings.ENGRAM["SUBJECT_TOKEN_MAX_AGE_SECONDS"],
            )
        except signing.SignatureExpired:
            raise _expired() from None
    elif not isinstance(expires, int) or time.time() >= expires:
        raise _expired()
    try:
        claim = SubjectClaim(
            uuid.UUID(payload["t"]), uuid.UUID(payload["a"]), uuid.UUID(payload["s"])
        )
    except (KeyError, TypeError, ValueError):
        raise CredentialError("invalid_subject_token", "The subject token is not valid.") from None
    return claim


def subject_claim_bound(
    claim: SubjectClaim, *, tenant_id: uuid.UUID, agent_id: uuid.UUID
) -> SubjectClaim:
    """``claim`` if it was issued to this tenant's agent; else CredentialError."""
    if claim.tenant_id != tenant_id or claim.agent_id != agent_id:
        raise CredentialError(
            "invalid_subject_token", "The subject token was issued to another agent or tenant."
        )
    return claim
