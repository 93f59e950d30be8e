"""Property-based fuzzing of the whole API from its OpenAPI schema (schemathesis), in
process against the real middleware stack, database and policy engine. A fixed example
budget keeps CI time bounded.

Checks: no 5xx; responses (status codes, headers, bodies) conform to the schema; negative
(schema-violating) data is rejected; a request that drops its credentials is refused
(``ignored_auth``); and every operation is also replayed with another tenant's credentials,
which must never succeed on this tenant's objects."""

from __future__ import annotations

import json
import re
import uuid
from urllib.parse import urlencode

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import checks

from core.actor import Actor
from memory.services.subject_tokens import subject_token_issue
from memory.services.writes import candidates_submit
from memory.write_policy import Candidate

pytestmark = pytest.mark.django_db

EXAMPLES_PER_OPERATION = 25
HYPOTHESIS_JSON_EXAMPLES = 25


def _load_schema():
    """The schema drf-spectacular serves at /api/v1/schema, bound to the in-process app."""
    from drf_spectacular.generators import SchemaGenerator

    loaded = schemathesis.openapi.from_dict(SchemaGenerator().get_schema(request=None, public=True))
    loaded.app = get_wsgi_application()
    return loaded


@pytest.fixture(autouse=True)
def _keep_test_connection():
    # Like Django's test client: keep the test's connection (and its transaction) open
    # across the in-process WSGI calls.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


schema = _load_schema()


def _headers(cred, subject) -> dict[str, str]:
    token = subject_token_issue(
        tenant_id=cred.agent.tenant_id, agent_id=cred.agent.id, subject_id=subject.id
    )
    return {"Authorization": f"Bearer {cred.key}", "X-Engram-Subject-Token": token}


@schema.parametrize()
@settings(
    max_examples=EXAMPLES_PER_OPERATION,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_api_conforms_and_never_fails(case, admin_agent, owner_subject):
    case.call_and_validate(
        headers=_headers(admin_agent, owner_subject),
        checks=[
            checks.not_a_server_error,
            checks.status_code_conformance,
            checks.content_type_conformance,
            checks.response_schema_conformance,
            checks.negative_data_rejection,
            checks.ignored_auth,
        ],
    )


@schema.parametrize()
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_other_tenant_never_succeeds_on_our_objects(
    case, owner_subject, other_tenant_agent, other_tenant_user
):
    """Object-level authorisation: create a memory as tenant A, then aim every generated
    request at it with tenant B's admin credentials."""
    [outcome] = candidates_submit(
        actor=Actor.system(owner_subject.tenant_id),
        subject=owner_subject,
        candidates=[
            Candidate(
                memory_type="semantic",
                namespace="fuzz",
                statement="User likes tea",
                assertion_kind="user_explicit",
                confidence=1.0,
                purpose="personalization",
                consent_basis="explicit_consent",
            )
        ],
    )
    created = str(outcome.record_id)
    if case.path_parameters and "record_id" in case.path_parameters:
        case.path_parameters["record_id"] = created
    response = case.call(headers=_headers(other_tenant_agent, other_tenant_user[1]))
    assert response.status_code < 500
    if "record_id" in (case.path_parameters or {}):
        assert response.status_code in (400, 401, 403, 404, 405, 413, 415, 429), response.text


def test_use_after_free_every_route_is_gone(api):
    """After DELETE, no operation on the record succeeds (schemathesis' use_after_free,
    made explicit for every record route)."""
    from tests.helpers.cast import candidate

    rid = api.post_json("/api/v1/candidates", {"candidates": [candidate()]}).json()["results"][0][
        "record_id"
    ]
    assert api.delete_json(f"/api/v1/memories/{rid}").json()["operation"] == "DELETE"
    body = {"statement": "x", "assertion_kind": "user_explicit", "confidence": 1.0}
    assert api.get(f"/api/v1/memories/{rid}").status_code == 404
    assert api.post_json(f"/api/v1/memories/{rid}/supersede", body).status_code == 404
    assert (
        api.post_json(
            f"/api/v1/memories/{rid}/retract", {"assertion_kind": "user_explicit"}
        ).status_code
        == 404
    )
    assert api.delete_json(f"/api/v1/memories/{rid}").status_code == 404


# --- Hypothesis-generated JSON at every endpoint (issue 14, class 6) ----------------------
# Schemathesis generates bodies from the schema; these are arbitrary JSON documents that
# ignore it: any Unicode (NUL, lone surrogates, zero-width, BOM), deep nesting, big
# numbers, long strings, raw bytes that are not UTF-8. Every answer is < 500 and every
# refusal is in the API's error shape.

_ODD_CHARS = st.sampled_from(["\x00", "\ud800", "\udfff", "\u200b", "\ufeff", "\u202e", "杭"])
_TEXT = st.text(alphabet=st.one_of(st.characters(), _ODD_CHARS), max_size=60)
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False, allow_infinity=False),
    _TEXT,
    st.text(max_size=12_000).filter(lambda t: len(t) > 9_000),
)
_JSON = st.recursive(
    _SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=6), st.dictionaries(_TEXT, children, max_size=6)
    ),
    max_leaves=40,
)


@st.composite
def _raw_bodies(draw) -> bytes:
    kind = draw(st.sampled_from(["json", "deep", "wrapped", "bytes"]))
    if kind == "bytes":
        return draw(st.binary(max_size=200))
    if kind == "deep":
        depth = draw(st.integers(min_value=1, max_value=20_000))
        opener, closer = draw(st.sampled_from([("[", "]"), ('{"a":', "}")]))
        return (opener * depth + "0" + closer * depth).encode()
    value = draw(_JSON)
    if kind == "wrapped":  # plausible top-level keys, arbitrary content
        key = draw(st.sampled_from(["events", "candidates", "query", "statement", "value"]))
        value = {key: value}
    return json.dumps(value, ensure_ascii=draw(st.booleans())).encode("utf-8", "surrogatepass")


def _operations() -> list[tuple[str, str]]:
    ops = []
    for path, item in schema.raw_schema["paths"].items():
        for method in item:
            if method in ("get", "post", "put", "patch", "delete"):
                ops.append((method, path))
    return ops


def _concrete(path: str, record_id: str) -> str:
    """Path parameters: an existing record (so record routes reach their validation), a
    slug, otherwise a random id."""
    names = {"record_id": record_id, "slug": "procedure-1"}
    return re.sub(r"\{([^}]+)\}", lambda m: names.get(m.group(1), str(uuid.uuid4())), path)


@pytest.mark.parametrize(("method", "path"), _operations())
def test_arbitrary_json_never_fails(method, path, tenant, owner_subject):
    from tests.helpers.cast import agent_with_key

    cred = agent_with_key(tenant, f"fuzz-{method}", ["read", "write", "admin"])
    client = cred.client(owner_subject)
    [created] = candidates_submit(
        actor=Actor.system(tenant.id),
        subject=owner_subject,
        candidates=[
            Candidate(
                memory_type="semantic",
                namespace="fuzz",
                statement="User likes green tea",
                assertion_kind="user_explicit",
                confidence=1.0,
                purpose="personalization",
                consent_basis="explicit_consent",
            )
        ],
    )
    url = _concrete(path, str(created.record_id))

    @settings(
        max_examples=HYPOTHESIS_JSON_EXAMPLES,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
    )
    @given(body=_raw_bodies(), query=st.dictionaries(_TEXT, _TEXT, max_size=3))
    def check(body: bytes, query: dict[str, str]) -> None:
        query_string = urlencode(
            {
                k.encode("utf-8", "surrogatepass"): v.encode("utf-8", "surrogatepass")
                for k, v in query.items()
            }
        )
        response = client.generic(
            method.upper(),
            f"{url}?{query_string}" if query_string else url,
            data=body,
            content_type="application/json",
        )
        assert response.status_code < 500, (method, path, response.content[:300])
        if response.status_code >= 400 and response.get("Content-Type", "").startswith(
            "application/json"
        ):
            assert set(response.json()) == {"code", "message", "extra"}, response.content[:300]

    check()
