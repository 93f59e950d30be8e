"""The API key's lookup from SQL compiled once (``ENGRAM_API_COMPILED_AUTH``) authenticates
exactly as the ORM's queryset does: the same key, agent and tenant, loaded together, and
the same refusals — a revoked key, an expired one, an inactive agent's, another tenant's
secret, a read key asking to write — with the setting on and off."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from accounts.models import Agent, ApiKey, Tenant
from accounts.services.credentials import CredentialError, api_key_authenticate, api_key_revoke
from core.actor import Actor
from memory.services.user_memory import subject_agent_access_set
from tests.helpers.api import assert_error, event

pytestmark = pytest.mark.django_db

BOTH = pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "orm"])


def compiled_auth(on: bool):
    return override_settings(ENGRAM={**settings.ENGRAM, "API_COMPILED_AUTH": on})


def fields_of(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def test_the_compiled_lookup_loads_what_the_orm_loads(write_agent, tenant):
    Tenant.objects.filter(pk=tenant.pk).update(policy={"retention_days": 30, "names": ["ü", 1]})
    ApiKey.objects.filter(agent=write_agent.agent).update(
        expires_at=timezone.now() + timedelta(hours=1), last_used_at=timezone.now()
    )
    loaded = {}
    for on in (False, True):
        with compiled_auth(on):
            key = api_key_authenticate(write_agent.key)
        with CaptureQueriesContext(connection) as queries:
            agent, key_tenant = key.agent, key.agent.tenant
        assert not queries.captured_queries  # loaded with the key, as select_related does
        loaded[on] = (fields_of(key), fields_of(agent), fields_of(key_tenant))
        assert not key._state.adding and key._state.db == agent._state.db == "default"
    assert loaded[True] == loaded[False]
    assert loaded[True][2]["policy"] == {"retention_days": 30, "names": ["ü", 1]}


@BOTH
def test_revoked_expired_and_inactive_agents_keys_refused(compiled, write_agent, owner_subject):
    client = write_agent.client(owner_subject)
    key = ApiKey.objects.get(agent=write_agent.agent)
    with compiled_auth(compiled):
        assert client.post_json("/api/v1/events", {"events": [event(1)]}).status_code == 200
        ApiKey.objects.filter(pk=key.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
        assert_error(
            client.post_json("/api/v1/events", {"events": [event(2)]}), 401, "expired_api_key"
        )
        ApiKey.objects.filter(pk=key.pk).update(expires_at=None)
        Agent.objects.filter(pk=write_agent.agent.pk).update(is_active=False)
        assert_error(
            client.post_json("/api/v1/events", {"events": [event(3)]}), 401, "revoked_api_key"
        )
        Agent.objects.filter(pk=write_agent.agent.pk).update(is_active=True)
        assert client.post_json("/api/v1/events", {"events": [event(4)]}).status_code == 200
        api_key_revoke(actor=Actor.system(key.tenant_id), api_key=key)
        assert_error(
            client.post_json("/api/v1/events", {"events": [event(5)]}), 401, "revoked_api_key"
        )


@BOTH
def test_another_tenants_key_is_its_own_tenants_only(
    compiled, write_agent, other_tenant_agent, other_tenant
):
    with compiled_auth(compiled):
        # Its own tenant's key, whichever tenant the transaction was scoped to before.
        key = api_key_authenticate(other_tenant_agent.key)
        assert key.tenant_id == key.agent.tenant.id == other_tenant.id
        # Another tenant's prefix with this tenant's secret, and the other way round.
        _, mine, my_secret = write_agent.key.split("_", 2)
        _, theirs, their_secret = other_tenant_agent.key.split("_", 2)
        for forged in (f"egk_{theirs}_{my_secret}", f"egk_{mine}_{their_secret}"):
            with pytest.raises(CredentialError) as refused:
                api_key_authenticate(forged)
            assert refused.value.code == "invalid_api_key"


@BOTH
def test_a_subjects_paused_or_revoked_access_holds(
    compiled, write_agent, read_agent, owner, owner_subject
):
    user, _ = owner
    client = write_agent.client(owner_subject)
    with compiled_auth(compiled):
        for state in ("paused", "revoked", None):
            subject_agent_access_set(
                user=user, subject=owner_subject, agent_id=write_agent.agent.id, state=state
            )
            response = client.post_json("/api/v1/events", {"events": [event(1)]})
            if state is None:
                assert response.status_code == 200
            else:
                assert_error(response, 403, f"agent_access_{state}")
            # Another agent of the same tenant keeps its access.
            assert read_agent.client(owner_subject).get("/api/v1/memories").status_code == 200


@BOTH
def test_a_read_keys_scopes_hold(compiled, read_agent, owner_subject):
    with compiled_auth(compiled):
        assert_error(
            read_agent.client(owner_subject).post_json("/api/v1/events", {"events": [event(1)]}),
            403,
        )


@BOTH
def test_malformed_and_unknown_keys_refused(compiled, write_agent, owner_subject):
    _, prefix, _ = write_agent.key.split("_", 2)
    with compiled_auth(compiled):
        for raw in ("garbage", "egk__x", "egk_nothere_secret", f"egk_{prefix}_wrong"):
            with pytest.raises(CredentialError) as refused:
                api_key_authenticate(raw)
            assert refused.value.code == "invalid_api_key"


@hypothesis_settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    prefix=st.text(alphabet="0123456789abcdef_%'\\é", max_size=14),
    secret=st.text(alphabet=st.characters(blacklist_characters="\x00"), max_size=10),
)
def test_any_presented_key_gets_the_same_answer_both_ways(write_agent, prefix, secret):
    def answer(on: bool, raw: str) -> tuple[str, object]:
        with compiled_auth(on):
            try:
                return "ok", api_key_authenticate(raw).pk
            except CredentialError as e:
                return e.code, None

    _, real_prefix, real_secret = write_agent.key.split("_", 2)
    for raw in (f"egk_{prefix}_{secret}", f"egk_{real_prefix}_{secret}", write_agent.key):
        assert answer(True, raw) == answer(False, raw)
    assert answer(True, write_agent.key)[0] == "ok"
    assert real_secret  # the real key's secret is never drawn: only the real key passes


@pytest.mark.parametrize("compiled_on", [True, False])
def test_a_key_that_is_not_ascii_is_malformed(write_agent, compiled_on):
    """Found by the property above in the full suite: a lone surrogate in the secret
    raised UnicodeEncodeError while hashing (a 500, not a refusal)."""
    _, real_prefix, _ = write_agent.key.split("_", 2)
    for raw in (f"egk_{real_prefix}_\ud800", f"egk_{real_prefix}_sécret", "egk_é_x"):
        with compiled_auth(compiled_on), pytest.raises(CredentialError) as refused:
            api_key_authenticate(raw)
        assert refused.value.code == "invalid_api_key"
