"""Agent credentials at the API: API keys (missing, bad, rotated, revoked), subject tokens
(issued only to admin keys, bound to their tenant and agent, expiring) and the trusted
gateway header."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from accounts.services.credentials import api_key_revoke, api_key_rotate
from core.actor import Actor
from memory.models import SourceEvent
from memory.services.subject_tokens import subject_token_issue
from tests.helpers.api import assert_error, event
from tests.helpers.cast import ApiClient

pytestmark = pytest.mark.django_db


def test_subject_token_of_another_tenant_or_agent_refused(
    write_agent, other_tenant_agent, owner_subject, read_agent
):
    # A token issued to the owner's tenant, replayed with another tenant's key.
    token = subject_token_issue(
        tenant_id=owner_subject.tenant_id,
        agent_id=write_agent.agent.id,
        subject_id=owner_subject.id,
    )
    intruder = ApiClient(other_tenant_agent.key, token)
    assert_error(
        intruder.post_json("/api/v1/events", {"events": [event(1)]}), 401, "invalid_subject_token"
    )
    # The same tenant's other agent cannot borrow it either.
    assert_error(
        ApiClient(read_agent.key, token).get(
            "/api/v1/memories/00000000-0000-0000-0000-000000000000"
        ),
        401,
        "invalid_subject_token",
    )
    assert_error(
        ApiClient(write_agent.key, token + "x").post_json("/api/v1/events", {"events": [event(1)]}),
        401,
        "invalid_subject_token",
    )


@override_settings(
    ENGRAM={**__import__("django.conf").conf.settings.ENGRAM, "SUBJECT_TOKEN_MAX_AGE_SECONDS": -1}
)
def test_expired_subject_token(write_agent, owner_subject):
    assert_error(
        write_agent.client(owner_subject).post_json("/api/v1/events", {"events": [event(1)]}),
        401,
        "expired_subject_token",
    )


def test_missing_or_bad_credentials(owner_subject, write_agent):
    assert_error(
        ApiClient().post_json("/api/v1/events", {"events": [event(1)]}), 401, "not_authenticated"
    )
    assert_error(
        ApiClient("egk_nothere_secret").post_json("/api/v1/events", {}), 401, "invalid_api_key"
    )
    assert_error(ApiClient("garbage").post_json("/api/v1/events", {}), 401, "invalid_api_key")
    no_subject = ApiClient(write_agent.key)
    assert_error(
        no_subject.post_json("/api/v1/events", {"events": [event(1)]}), 403, "subject_required"
    )


def test_revoked_and_rotated_keys(write_agent, owner_subject, tenant):
    client = write_agent.client(owner_subject)
    key = write_agent.agent.api_keys.get()
    new_key, new_plain = api_key_rotate(
        actor=Actor.system(tenant.id), api_key=key, overlap=timedelta(hours=1)
    )
    # Overlap: both keys work.
    assert client.post_json("/api/v1/events", {"events": [event(1)]}).status_code == 200
    token = subject_token_issue(
        tenant_id=tenant.id, agent_id=write_agent.agent.id, subject_id=owner_subject.id
    )
    assert (
        ApiClient(new_plain, token).post_json("/api/v1/events", {"events": [event(2)]}).status_code
        == 200
    )
    # After the overlap the old key is expired.
    type(key).objects.filter(pk=key.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert_error(client.post_json("/api/v1/events", {"events": [event(3)]}), 401, "expired_api_key")
    api_key_revoke(actor=Actor.system(tenant.id), api_key=new_key)
    assert_error(
        ApiClient(new_plain, token).post_json("/api/v1/events", {"events": [event(4)]}),
        401,
        "revoked_api_key",
    )


# --- subject tokens ---------------------------------------------------------------------


def test_subject_tokens_need_admin_scope(admin_agent, write_agent):
    r = ApiClient(admin_agent.key).post_json("/api/v1/subject-tokens", {"external_id": "carol"})
    assert r.status_code == 201
    body = r.json()
    assert body["expires_in"] > 0
    # The token works for the admin agent's own requests, and names carol.
    client = ApiClient(admin_agent.key, body["token"])
    assert client.post_json("/api/v1/events", {"events": [event(1)]}).status_code == 200
    assert SourceEvent.objects.get().subject.external_id == "carol"
    assert_error(
        ApiClient(write_agent.key).post_json("/api/v1/subject-tokens", {"external_id": "carol"}),
        403,
    )
    assert_error(
        ApiClient(admin_agent.key).post_json("/api/v1/subject-tokens", {"external_id": ""}), 400
    )
    assert_error(
        ApiClient(admin_agent.key).post_json(
            "/api/v1/subject-tokens", {"external_id": "x", "subject_kind": "alien"}
        ),
        400,
    )


def test_gateway_header_ignored_unless_enabled(write_agent, tenant):
    client = ApiClient(write_agent.key, HTTP_X_ENGRAM_GATEWAY_SUBJECT="user:dave")
    assert_error(
        client.post_json("/api/v1/events", {"events": [event(1)]}), 403, "subject_required"
    )
    from django.conf import settings

    with override_settings(ENGRAM={**settings.ENGRAM, "TRUST_GATEWAY_SUBJECT_HEADER": True}):
        assert client.post_json("/api/v1/events", {"events": [event(1)]}).status_code == 200
        assert SourceEvent.objects.get().subject.external_id == "dave"
        bad = ApiClient(write_agent.key, HTTP_X_ENGRAM_GATEWAY_SUBJECT="nocolon")
        assert_error(
            bad.post_json("/api/v1/events", {"events": [event(2)]}), 401, "invalid_gateway_subject"
        )


def test_authenticating_a_key_scopes_the_transaction_to_its_tenant_only_if_it_exists(
    write_agent, other_tenant
):
    """The key's tenant is looked up and set in one statement: a known prefix scopes the
    transaction to the key's tenant; an unknown one leaves the scope as it was."""
    from accounts.services.credentials import CredentialError, api_key_authenticate
    from core.tenancy import current_tenant_id, tenant_context

    with tenant_context(other_tenant.id):
        with pytest.raises(CredentialError):
            api_key_authenticate("egk_nothere_secret")
        assert current_tenant_id() == str(other_tenant.id)
        key = api_key_authenticate(write_agent.key)
        assert current_tenant_id() == str(write_agent.agent.tenant_id) == str(key.tenant_id)
