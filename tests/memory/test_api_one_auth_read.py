"""The API key and the agent's access to the token's subject read in one statement
(``ENGRAM_API_ONE_AUTH_READ``) refuse and admit exactly what the reference does (the key,
then the subject token, then the access, each in its own step): every combination of a
key, a subject token and the user's choice about the agent's access gets the same status
and code either way, and an admitted request makes one statement fewer."""

from __future__ import annotations

import itertools
import time
from datetime import timedelta

import pytest
from django.core import signing
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import ApiKey
from accounts.services.credentials import SUBJECT_TOKEN_SALT, api_key_revoke
from core.actor import Actor
from core.tenancy import tenant_context
from memory.models import AgentAccess, SubjectAgentAccess
from memory.services.subject_tokens import subject_token_issue
from tests.helpers.cast import ApiClient, agent_with_key


def _token(tenant_id, agent_id, subject_id, *, expires_in: int = 600) -> str:
    payload = {
        "t": str(tenant_id),
        "a": str(agent_id),
        "s": str(subject_id),
        "e": int(time.time()) + expires_in,
    }
    return signing.dumps(payload, salt=SUBJECT_TOKEN_SALT, compress=False)


def _keys(tenant, other_tenant_agent, write_agent) -> dict[str, str]:
    revoked = agent_with_key(tenant, "revoked", ["read", "write"])
    expired = agent_with_key(tenant, "expired", ["read", "write"])
    with tenant_context(tenant.id):
        api_key_revoke(
            actor=Actor.system(tenant.id), api_key=ApiKey.objects.get(agent=revoked.agent)
        )
        ApiKey.objects.filter(agent=expired.agent).update(
            expires_at=timezone.now() - timedelta(minutes=1)
        )
    prefix, _ = write_agent.key.rsplit("_", 1)
    return {
        "valid": write_agent.key,
        "wrong secret": f"{prefix}_not-the-secret",
        "unknown": "egk_000000000000_secret",
        "malformed": "egk-malformed",
        "revoked": revoked.key,
        "expired": expired.key,
        "other tenant": other_tenant_agent.key,
    }


def _tokens(write_agent, read_agent, other_tenant_agent, owner_subject, same_tenant_user):
    agent = write_agent.agent
    valid = _token(agent.tenant_id, agent.id, owner_subject.id)
    return {
        "none": None,
        "valid": valid,
        "bob's": _token(agent.tenant_id, agent.id, same_tenant_user[1].id),
        "tampered": valid[:-2] + ("AA" if not valid.endswith("AA") else "BB"),
        "expired": _token(agent.tenant_id, agent.id, owner_subject.id, expires_in=-5),
        "another agent's": subject_token_issue(
            tenant_id=agent.tenant_id, agent_id=read_agent.agent.id, subject_id=owner_subject.id
        ),
        "another tenant's": _token(
            other_tenant_agent.agent.tenant_id, other_tenant_agent.agent.id, owner_subject.id
        ),
        "garbage": "not-a-token",
    }


def _answer(settings, one_read: bool, key: str, token: str | None) -> tuple[int, str]:
    settings.ENGRAM = {**settings.ENGRAM, "ONE_AUTH_READ": one_read}
    response = ApiClient(key, token).get("/api/v1/memories")
    body = response.json()
    return response.status_code, body.get("code", "") if isinstance(body, dict) else ""


@pytest.mark.parametrize(
    "access", [None, AgentAccess.PAUSED, AgentAccess.REVOKED, "another agent paused"]
)
def test_one_auth_read_refuses_and_admits_as_the_reference(
    settings,
    tenant,
    write_agent,
    read_agent,
    other_tenant_agent,
    owner_subject,
    same_tenant_user,
    access,
):
    with tenant_context(tenant.id):
        if access in (AgentAccess.PAUSED, AgentAccess.REVOKED):
            SubjectAgentAccess.objects.create(
                tenant=tenant, subject=owner_subject, agent=write_agent.agent, state=access
            )
        elif access is not None:
            SubjectAgentAccess.objects.create(
                tenant=tenant,
                subject=owner_subject,
                agent=read_agent.agent,
                state=AgentAccess.PAUSED,
            )
        # Bob paused this agent too: his token is refused whatever the owner chose.
        SubjectAgentAccess.objects.create(
            tenant=tenant,
            subject=same_tenant_user[1],
            agent=write_agent.agent,
            state=AgentAccess.PAUSED,
        )
    keys = _keys(tenant, other_tenant_agent, write_agent)
    tokens = _tokens(write_agent, read_agent, other_tenant_agent, owner_subject, same_tenant_user)
    seen = set()
    for (key_name, key), (token_name, token) in itertools.product(keys.items(), tokens.items()):
        reference = _answer(settings, False, key, token)
        assert _answer(settings, True, key, token) == reference, (key_name, token_name)
        seen.add(reference)
    # The combinations reach every kind of answer (the comparison above could fail).
    codes = {code for _, code in seen}
    assert {"invalid_api_key", "revoked_api_key", "expired_api_key"} <= codes
    assert {"invalid_subject_token", "expired_subject_token", "agent_access_paused"} <= codes
    assert (200 in {status for status, _ in seen}) == (access not in ("paused", "revoked"))
    if access == AgentAccess.REVOKED:
        assert "agent_access_revoked" in codes


def test_one_auth_read_saves_a_statement(settings, write_agent, owner_subject):
    client = write_agent.client(owner_subject)

    def statements(one_read: bool) -> int:
        settings.ENGRAM = {**settings.ENGRAM, "ONE_AUTH_READ": one_read}
        with CaptureQueriesContext(connection) as captured:
            assert client.get("/api/v1/memories").status_code == 200
        return len(captured)

    statements(False)  # the key's last-used time written once, before both
    assert statements(True) == statements(False) - 1
