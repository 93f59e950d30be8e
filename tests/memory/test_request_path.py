"""What every API request pays before its work (config/settings/request_path.py): the API
key and the subject's access in one statement (``ENGRAM_API_KEY_ACCESS_ONE_READ``,
memory/api/auth_one_read.py) and the key's tenant set as the request's transaction begins
(``ENGRAM_API_KEY_TENANT_AT_ENTRY``, accounts/middleware.py). Each, on, answers every
request as the reference (off) does:
the same status, body, the headers a client reads and the same audit rows, for accepted
requests and for each refusal — a revoked, expired, unknown or malformed key, an inactive
agent, a token of another tenant or agent, an expired or forged token, a malformed
header, a paused or revoked access — and a revocation holds from the next request."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import Agent, ApiKey
from accounts.services.credentials import api_key_revoke, subject_token_sign
from core.actor import Actor
from core.models import AuditEvent
from memory.services.user_memory import subject_agent_access_set
from tests.helpers.api import assert_error, event
from tests.helpers.cast import ApiClient

pytestmark = pytest.mark.django_db

HEADERS = ("Content-Type", "WWW-Authenticate", "Vary", "Content-Language")


SETTINGS = pytest.mark.parametrize("name", ["KEY_ACCESS_ONE_READ", "KEY_TENANT_AT_ENTRY"])


def switched(name: str, on: bool):
    return override_settings(ENGRAM={**settings.ENGRAM, name: on})


def answer(client: ApiClient, method: str, path: str, body=None) -> dict:
    """What a client sees of one request, and the audit rows it left (by action)."""
    before = set(AuditEvent.objects.values_list("id", flat=True))
    if method == "get":
        response = client.get(path)
    else:
        response = client.post_json(path, body)
    added = AuditEvent.objects.exclude(id__in=before)
    seen = {
        "status": response.status_code,
        "headers": {h: response.headers.get(h) for h in HEADERS},
        "audit": sorted((a.action, a.operation) for a in added),
    }
    if response.status_code >= 400 or method == "get":
        seen["body"] = response.json()
    else:
        seen["body_keys"] = sorted(response.json())
    return seen


def both(name: str, client: ApiClient, method: str, path: str, body_of=lambda i: None) -> dict:
    """The answer with setting ``name`` off, then on; asserted equal; the answer."""
    seen = {}
    for i, on in enumerate((False, True)):
        with switched(name, on):
            seen[on] = answer(client, method, path, body_of(i))
    assert seen[True] == seen[False]
    return seen[True]


def events_body(i: int) -> dict:
    return {"events": [event(i, client_event_id=f"one-read-{uuid.uuid4()}")]}


@SETTINGS
def test_accepted_requests_answer_the_same(name, write_agent, read_agent, owner_subject):
    client = write_agent.client(owner_subject)
    assert both(name, client, "post", "/api/v1/events", events_body)["status"] == 200
    assert both(name, client, "get", "/api/v1/memories")["status"] == 200
    assert both(name, read_agent.client(owner_subject), "get", "/api/v1/memories")["status"] == 200
    # A read key asking to write: refused by scope, after authentication, both ways.
    assert (
        both(name, read_agent.client(owner_subject), "post", "/api/v1/events", events_body)[
            "status"
        ]
        == 403
    )


@SETTINGS
def test_key_refusals_answer_the_same(name, write_agent, owner_subject):
    client = write_agent.client(owner_subject)
    key = ApiKey.objects.get(agent=write_agent.agent)
    ApiKey.objects.filter(pk=key.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert (
        both(name, client, "post", "/api/v1/events", events_body)["body"]["code"]
        == "expired_api_key"
    )
    ApiKey.objects.filter(pk=key.pk).update(expires_at=None)
    Agent.objects.filter(pk=write_agent.agent.pk).update(is_active=False)
    assert (
        both(name, client, "post", "/api/v1/events", events_body)["body"]["code"]
        == "revoked_api_key"
    )
    Agent.objects.filter(pk=write_agent.agent.pk).update(is_active=True)
    token = client.defaults["HTTP_X_ENGRAM_SUBJECT_TOKEN"]
    _, prefix, _ = write_agent.key.split("_", 2)
    for raw in ("egk_nothere_secret", f"egk_{prefix}_wrong", "garbage", "egk__x", "egk_é_x"):
        seen = both(name, ApiClient(raw, token), "get", "/api/v1/memories")
        assert seen["status"] == 401 and seen["body"]["code"] == "invalid_api_key", raw
    # A malformed Authorization header: another scheme, or nothing after it.
    for header in ("Token abc", "Bearer ", "Basic dXNlcjpwdw=="):
        malformed = ApiClient(None, token, HTTP_AUTHORIZATION=header)
        seen = both(name, malformed, "get", "/api/v1/memories")
        assert seen["status"] == 401, header


@SETTINGS
def test_a_revocation_holds_from_the_next_request(name, write_agent, owner_subject):
    client = write_agent.client(owner_subject)
    key = ApiKey.objects.get(agent=write_agent.agent)
    with switched(name, True):
        assert client.get("/api/v1/memories").status_code == 200
        api_key_revoke(actor=Actor.system(key.tenant_id), api_key=key)
        assert_error(client.get("/api/v1/memories"), 401, "revoked_api_key")


@SETTINGS
def test_token_refusals_answer_the_same(
    name, write_agent, read_agent, other_tenant_agent, owner_subject, tenant
):
    token = write_agent.client(owner_subject).defaults["HTTP_X_ENGRAM_SUBJECT_TOKEN"]
    expired = subject_token_sign(
        tenant_id=tenant.id,
        agent_id=write_agent.agent.id,
        subject_id=owner_subject.id,
        lifetime_seconds=-1,
    )
    cases = [
        (ApiClient(other_tenant_agent.key, token), "invalid_subject_token"),  # another tenant
        (ApiClient(read_agent.key, token), "invalid_subject_token"),  # another agent
        (ApiClient(write_agent.key, token + "x"), "invalid_subject_token"),  # forged
        (ApiClient(write_agent.key, "not-a-token"), "invalid_subject_token"),
        (ApiClient(write_agent.key, expired), "expired_subject_token"),
        # A key's refusal comes before its token's, both ways.
        (ApiClient("egk_nothere_secret", token + "x"), "invalid_api_key"),
        (ApiClient("egk_nothere_secret", expired), "invalid_api_key"),
    ]
    for client, code in cases:
        seen = both(name, client, "get", "/api/v1/memories")
        assert seen["status"] == 401 and seen["body"]["code"] == code, code


@SETTINGS
def test_paused_or_revoked_access_answers_the_same(
    name, write_agent, read_agent, owner, owner_subject
):
    user, _ = owner
    client = write_agent.client(owner_subject)
    for state in ("paused", "revoked", None):
        subject_agent_access_set(
            user=user, subject=owner_subject, agent_id=write_agent.agent.id, state=state
        )
        seen = both(name, client, "post", "/api/v1/events", events_body)
        if state is None:
            assert seen["status"] == 200
        else:
            assert seen["status"] == 403 and seen["body"]["code"] == f"agent_access_{state}"
        # Another agent of the same tenant keeps its access.
        assert (
            both(name, read_agent.client(owner_subject), "get", "/api/v1/memories")["status"] == 200
        )


@SETTINGS
def test_one_statement_fewer(name, write_agent, owner_subject):
    client = write_agent.client(owner_subject)
    counts = {}
    for on in (False, True, False, True):
        with switched(name, on), CaptureQueriesContext(connection) as queries:
            assert client.get("/api/v1/memories").status_code == 200
        counts[on] = len(queries.captured_queries)
    assert counts[True] == counts[False] - 1


@SETTINGS
def test_a_signed_in_users_tenant_does_not_scope_a_key(name, write_agent, other_tenant_user):
    """A browser signed in to another tenant that also presents a key: the middleware
    scopes the transaction to the user's tenant, and authentication asks for the key's."""
    user, _ = other_tenant_user
    client = write_agent.client(None)
    client.force_login(user)
    seen = both(name, client, "get", "/api/v1/memories")
    assert seen["status"] == 403 and seen["body"]["code"] == "subject_required"
    _, prefix, _ = write_agent.key.split("_", 2)
    forged = ApiClient(f"egk_{prefix}_wrong")
    forged.force_login(user)
    assert both(name, forged, "get", "/api/v1/memories")["body"]["code"] == "invalid_api_key"


def _api_views(patterns, prefix: str = ""):
    """(route, view callable) of every URL pattern, routes as written."""
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if hasattr(pattern, "url_patterns"):
            yield from _api_views(pattern.url_patterns, route)
        else:
            yield route, pattern.callback


# Views under /api/ that do not authenticate by API key, and why that is safe with the
# key's tenant set before authentication: they read no tenant's rows.
UNAUTHENTICATED_API_VIEWS = {"api/v1/schema": "the OpenAPI document, built from the code"}


def test_every_api_view_authenticates_by_key_before_its_work():
    """ENGRAM_API_KEY_TENANT_AT_ENTRY scopes an API request's transaction to the presented
    key's tenant before the key is checked (as the reference's authentication does first
    thing); that is safe only because every API view checks the key before its work, and a
    refused key ends the request. A new view under /api/ without API-key authentication
    must read no tenant's rows, and be listed here with why."""
    from django.urls import get_resolver

    from memory.api.authentication import ApiKeyAuthentication

    unauthenticated = set()
    for route, view in _api_views(get_resolver().url_patterns):
        if not route.startswith("api/"):
            continue
        cls = getattr(view, "cls", None)
        classes = getattr(view, "initkwargs", {}).get(
            "authentication_classes", getattr(cls, "authentication_classes", ())
        )
        if cls is None or ApiKeyAuthentication not in classes:
            unauthenticated.add(route.rstrip("/"))
    assert unauthenticated == set(UNAUTHENTICATED_API_VIEWS)
