"""DRF authentication: the tenant and agent come from the API key, the subject from a
signed subject token (or, behind a setting, a trusted gateway header). Nothing in a
request body can choose either. It lives in memory because a gateway header names a
subject that is created on first sight (memory/services/subjects.py)."""

from __future__ import annotations

import uuid

from django.conf import settings
from rest_framework import authentication, exceptions

from accounts.authentication import GATEWAY_SUBJECT_HEADER, SUBJECT_TOKEN_HEADER, AgentPrincipal
from accounts.models import ApiKey
from accounts.services.credentials import (
    CredentialError,
    api_key_authenticate,
    subject_token_verify,
)
from memory.api.auth_one_read import key_and_access, token_claim
from memory.models import AgentAccess
from memory.selectors import agent_access_state
from memory.services.subjects import subject_from_gateway_header


def authorization(request) -> tuple[str, str] | None:
    """The Authorization header as (scheme, credential), or None without one."""
    header = authentication.get_authorization_header(request).decode("latin-1")
    if not header:
        return None
    scheme, _, raw = header.partition(" ")
    return scheme, raw.strip()


def bearer_key(request) -> str | None:
    """The API key a request presents as ``Bearer <key>``, unchecked; None otherwise."""
    scheme, raw = authorization(request) or ("", "")
    return raw if scheme == ApiKeyAuthentication.keyword and raw else None


class ApiKeyAuthentication(authentication.BaseAuthentication):
    keyword = "Bearer"

    def authenticate(self, request):
        presented = authorization(request)
        if presented is None:
            return None
        scheme, raw = presented
        if scheme != self.keyword or not raw:
            raise exceptions.AuthenticationFailed(
                "Use 'Authorization: Bearer egk_…'.", code="invalid_api_key"
            )
        # (prefix, tenant) when TenantContextMiddleware scoped the transaction to the
        # presented key's tenant as the request began (ENGRAM_API_KEY_TENANT_AT_ENTRY).
        scoped = getattr(request, "key_tenant_at_entry", None)
        token = request.META.get(SUBJECT_TOKEN_HEADER)
        claim = token_claim(token) if token and settings.ENGRAM["KEY_ACCESS_ONE_READ"] else None
        if claim is not None:
            # The key and the subject's access in one statement (memory/api/auth_one_read.py).
            try:
                key, state = key_and_access(raw, claim, scoped=scoped)
            except CredentialError as e:
                raise exceptions.AuthenticationFailed(e.message, code=e.code) from None
            self._refuse_access(state)
            return AgentPrincipal(agent=key.agent, api_key=key, subject_id=claim.subject_id), key
        try:
            key = api_key_authenticate(raw, scoped=scoped)
        except CredentialError as e:
            raise exceptions.AuthenticationFailed(e.message, code=e.code) from None
        subject_id = self._subject_id(request, key)
        if subject_id is not None:
            self._check_agent_access(key, subject_id)
        return AgentPrincipal(agent=key.agent, api_key=key, subject_id=subject_id), key

    @staticmethod
    def _check_agent_access(key: ApiKey, subject_id: uuid.UUID) -> None:
        """The user may have paused or revoked this agent's access to their memories
        (their settings page): then every request naming them is refused, whatever the
        route, before any view runs."""
        ApiKeyAuthentication._refuse_access(
            agent_access_state(
                tenant_id=key.tenant_id, agent_id=key.agent_id, subject_id=subject_id
            )
        )

    @staticmethod
    def _refuse_access(state: str | None) -> None:
        """ApiError (403) when the subject paused or revoked the agent's access."""
        # Imported here: core.api imports DRF's views, which import this module.
        from core.api import ApiError

        if state is not None:
            raise ApiError(
                f"agent_access_{state}",
                "The user has paused this agent's access to their memories; it works "
                "again when they resume it on their memory settings page."
                if state == AgentAccess.PAUSED
                else "The user has revoked this agent's access to their memories. Only "
                "they can allow it again, on their memory settings page.",
                status_code=403,
            )

    def _subject_id(self, request, key: ApiKey) -> uuid.UUID | None:
        token = request.META.get(SUBJECT_TOKEN_HEADER)
        if token:
            try:
                claim = subject_token_verify(token, tenant_id=key.tenant_id, agent_id=key.agent_id)
            except CredentialError as e:
                raise exceptions.AuthenticationFailed(e.message, code=e.code) from None
            return claim.subject_id
        gateway = request.META.get(GATEWAY_SUBJECT_HEADER)
        if gateway and settings.ENGRAM["TRUST_GATEWAY_SUBJECT_HEADER"]:
            try:
                return subject_from_gateway_header(tenant_id=key.tenant_id, header=gateway).id
            except ValueError as e:
                raise exceptions.AuthenticationFailed(
                    str(e), code="invalid_gateway_subject"
                ) from None
        return None

    def authenticate_header(self, request) -> str:
        return self.keyword
