"""POST /api/v1/recall and /recall/{id}/feedback: status, error shape, permissions."""

from __future__ import annotations

import uuid

import pytest
from django.core import signing

from accounts.services.credentials import SUBJECT_TOKEN_SALT, api_key_revoke
from core.actor import Actor
from core.models import AuditEvent
from memory.models import RecallTrace, SubjectKind
from memory.services.subject_tokens import subject_token_issue
from memory.services.subjects import subject_get_or_create
from tests.helpers.cast import ApiClient
from tests.helpers.retrieval import PURPOSE, remember

URL = "/api/v1/recall"


def _is_error(response, status: int, code: str | None = None) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"code", "message", "extra"}
    if code:
        assert body["code"] == code
    return body


@pytest.fixture
def reader(read_agent, owner_subject) -> ApiClient:
    return read_agent.client(owner_subject)


def test_recall_returns_ranked_items_with_sources_scores_and_a_pack(reader, owner_subject):
    fact = remember(owner_subject, "User wants answers conclusion-first, then evidence")
    response = reader.post_json(
        URL, {"query": "Should answers put the conclusion first?", "purpose": PURPOSE, "k": 5}
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["empty"] is False and body["empty_reason"] == ""
    [item] = body["items"]
    assert item["id"] == str(fact.record_id)
    assert item["assertion_kind"] == "user_explicit"
    assert item["statement"].startswith("User wants answers")
    assert set(item["source"]) == {"event_ids", "uri"}
    assert "final" in item["scores"] and "vector" in item["scores"]
    assert item["valid_from"] and "valid_to" in item
    assert "untrusted DATA" in body["context_pack"]
    assert uuid.UUID(body["trace_id"])
    # Never a raw vector anywhere in the response: no list of numbers at any depth.
    assert not _number_lists(body)


def _number_lists(node) -> list:
    if isinstance(node, dict):
        return [x for v in node.values() for x in _number_lists(v)]
    if isinstance(node, list):
        if node and all(isinstance(v, int | float) for v in node):
            return [node]
        return [x for v in node for x in _number_lists(v)]
    return []


def test_empty_result_is_explicit(reader, owner_subject):
    response = reader.post_json(URL, {"query": "favourite movie?", "purpose": PURPOSE})
    assert response.status_code == 200
    body = response.json()
    assert body["empty"] is True and body["items"] == []
    assert body["empty_reason"] == "no_relevant_memory"
    assert "no relevant memories" in body["context_pack"]


def test_time_travel_fields_are_accepted(reader, owner_subject):
    remember(owner_subject, "User lives in Shanghai", predicate="home_city", value="Shanghai")
    response = reader.post_json(
        URL,
        {
            "query": "home city",
            "purpose": PURPOSE,
            "as_of": "2020-01-01T00:00:00Z",
            "known_at": "2020-01-01T00:00:00Z",
            "memory_types": ["semantic"],
            "namespaces": ["assistant"],
            "predicates": ["home_city"],
        },
    )
    assert response.status_code == 200
    assert response.json()["items"] == []


@pytest.mark.parametrize(
    "body,field",
    [
        ({"purpose": PURPOSE}, "query"),
        ({"query": "   ", "purpose": PURPOSE}, "query"),
        ({"query": "x"}, "purpose"),
        ({"query": "x", "purpose": PURPOSE, "k": 0}, "k"),
        ({"query": "x", "purpose": PURPOSE, "k": 10_000}, "k"),
        ({"query": "x", "purpose": PURPOSE, "token_budget": 10}, "token_budget"),
        ({"query": "x", "purpose": PURPOSE, "token_budget": 10**7}, "token_budget"),
        ({"query": "x", "purpose": PURPOSE, "memory_types": ["dream"]}, "memory_types"),
        ({"query": "x", "purpose": PURPOSE, "as_of": "yesterday"}, "as_of"),
        ({"query": "x", "purpose": PURPOSE, "namespaces": ["not a namespace!"]}, "namespaces"),
        ({"query": "x", "purpose": PURPOSE, "tenant": "globex"}, "tenant"),
        ({"query": "x", "purpose": PURPOSE, "subject_id": str(uuid.uuid4())}, "subject_id"),
        ({"query": "x" * 2001, "purpose": PURPOSE}, "query"),
        (
            {
                "query": "x",
                "purpose": PURPOSE,
                "valid_during_start": "2025-01-01T00:00:00Z",
                "valid_during_end": "2024-01-01T00:00:00Z",
            },
            "valid_during_end",
        ),
    ],
)
def test_bad_input_is_a_400_in_the_error_shape(reader, body, field):
    error = _is_error(reader.post_json(URL, body), 400, "invalid_input")
    assert field in error["extra"]["fields"]


def test_malformed_json_and_non_object_bodies(reader):
    _is_error(reader.post(URL, "{nope", content_type="application/json"), 400, "malformed_json")
    _is_error(reader.post_json(URL, ["query"]), 400, "invalid_input")


def test_missing_subject_token_is_refused(read_agent):
    client = ApiClient(read_agent.key)
    _is_error(client.post_json(URL, {"query": "x", "purpose": PURPOSE}), 403, "subject_required")


def _signed_token(cred, subject_id) -> str:
    """A validly signed token naming ``subject_id`` in the key's own tenant, made without
    subject_token_issue (which checks the subject first): the API must still check it."""
    payload = {"t": str(cred.agent.tenant_id), "a": str(cred.agent.id), "s": str(subject_id)}
    return signing.dumps(payload, salt=SUBJECT_TOKEN_SALT, compress=False)


def _nothing_recorded(tenant_id) -> None:
    assert not RecallTrace.objects.filter(tenant_id=tenant_id).exists()
    assert not AuditEvent.objects.filter(tenant_id=tenant_id, operation="RECALL").exists()


def test_a_token_for_a_subject_that_is_not_there_is_refused(
    read_agent, other_tenant_user, owner_subject
):
    """The subject is looked up with recall's context: a token naming no subject of the
    key's tenant (none at all, or another tenant's) is a 403, and nothing is recorded."""
    remember(owner_subject, "User prefers tea")
    for subject_id in (uuid.uuid4(), other_tenant_user[1].id):
        client = ApiClient(read_agent.key, _signed_token(read_agent, subject_id))
        body = _is_error(
            client.post_json(URL, {"query": "tea", "purpose": PURPOSE}), 403, "subject_required"
        )
        assert "no longer exists" in body["message"]
    _nothing_recorded(read_agent.agent.tenant_id)


def test_an_org_subject_token_is_refused_unless_allowed(read_agent, tenant, settings):
    org = subject_get_or_create(tenant_id=tenant.id, kind=SubjectKind.ORG, external_id="acme-org")
    client = ApiClient(read_agent.key, _signed_token(read_agent, org.id))
    body = {"query": "how do we deploy", "purpose": PURPOSE}
    _is_error(client.post_json(URL, body), 403, "subject_kind_not_allowed")
    _nothing_recorded(tenant.id)
    settings.ENGRAM = {**settings.ENGRAM, "ALLOW_ORG_SUBJECT_TOKENS": True}
    allowed = client.post_json(URL, body)
    assert allowed.status_code == 200, allowed.content
    assert RecallTrace.objects.filter(tenant_id=tenant.id, subject_id=org.id).count() == 1


def test_missing_or_revoked_key_is_refused(read_agent, owner_subject, reader):
    _is_error(ApiClient().post_json(URL, {"query": "x", "purpose": PURPOSE}), 401)
    api_key_revoke(
        actor=Actor.system(read_agent.agent.tenant_id), api_key=read_agent.agent.api_keys.get()
    )
    _is_error(reader.post_json(URL, {"query": "x", "purpose": PURPOSE}), 401)


def test_other_tenants_key_cannot_use_our_subject(other_tenant_agent, owner_subject, read_agent):
    remember(owner_subject, "User prefers tea")
    token = subject_token_issue(
        tenant_id=read_agent.agent.tenant_id,
        agent_id=read_agent.agent.id,
        subject_id=owner_subject.id,
    )
    intruder = ApiClient(other_tenant_agent.key, token)
    _is_error(intruder.post_json(URL, {"query": "tea", "purpose": PURPOSE}), 401)


def test_other_tenants_agent_sees_only_its_own_subjects(
    other_tenant_agent, other_tenant_user, owner_subject
):
    remember(owner_subject, "User prefers jasmine tea")
    client = other_tenant_agent.client(other_tenant_user[1])
    response = client.post_json(URL, {"query": "jasmine tea", "purpose": PURPOSE})
    assert response.status_code == 200
    assert response.json()["items"] == []


def test_feedback_names_only_returned_ids(reader, owner_subject):
    fact = remember(owner_subject, "User prefers aisle seats")
    body = reader.post_json(URL, {"query": "aisle seat", "purpose": PURPOSE}).json()
    trace_id = body["trace_id"]
    stranger = str(uuid.uuid4())
    refused = reader.post_json(
        f"{URL}/{trace_id}/feedback",
        {"used_record_ids": [str(fact.record_id), stranger], "helpful": True},
    )
    assert _is_error(refused, 400, "unknown_record_ids")["extra"]["record_ids"] == [stranger]
    response = reader.post_json(
        f"{URL}/{trace_id}/feedback", {"used_record_ids": [str(fact.record_id)], "helpful": True}
    )
    assert response.status_code == 200, response.content
    assert response.json()["used_record_ids"] == [str(fact.record_id)]
    trace = RecallTrace.objects.get(pk=trace_id)
    assert trace.used_record_ids == [fact.record_id] and trace.helpful is True


def test_feedback_on_someone_elses_trace_is_a_404(
    reader, read_agent, owner_subject, same_tenant_user
):
    body = reader.post_json(URL, {"query": "anything", "purpose": PURPOSE}).json()
    bob = read_agent.client(same_tenant_user[1])
    _is_error(
        bob.post_json(f"{URL}/{body['trace_id']}/feedback", {"used_record_ids": []}),
        404,
        "not_found",
    )
    _is_error(
        reader.post_json(f"{URL}/{uuid.uuid4()}/feedback", {"used_record_ids": []}),
        404,
        "not_found",
    )
    _is_error(reader.post_json(f"{URL}/{body['trace_id']}/feedback", {"bogus": 1}), 400)


def test_recall_records_its_latency_on_the_trace(reader, owner_subject):
    remember(owner_subject, "User prefers window seats")
    for query in ("window seat", "something never said"):
        body = reader.post_json(URL, {"query": query, "purpose": PURPOSE}).json()
        latency = RecallTrace.objects.get(pk=body["trace_id"]).latency_ms
        assert latency is not None and latency > 0


def test_the_request_id_reaches_the_read_audit_event(reader, owner_subject):
    body = reader.post_json(
        URL, {"query": "window seat", "purpose": PURPOSE}, HTTP_X_REQUEST_ID="req-7f3a"
    ).json()
    audit = AuditEvent.objects.get(action="memory.read", subject_id=owner_subject.id)
    assert audit.request_id == "req-7f3a"
    assert audit.extra["trace_id"] == body["trace_id"]


def test_the_answer_renders_values_times_sources_and_emptiness(read_agent, owner_subject):
    """The answer comes from its output serializer: structured values stay structured,
    closed validity and known_at are ISO times, sources are ids, and an empty answer says
    so with a pack that says so."""
    from datetime import UTC, datetime

    remember(owner_subject, "User prefers aisle seats", predicate="seat", value={"side": "aisle"})
    remember(
        owner_subject,
        "User lived in Porto",
        valid_from=datetime(2020, 1, 1, tzinfo=UTC),
        valid_to=datetime(2022, 6, 1, 12, 30, tzinfo=UTC),
    )
    client = read_agent.client(owner_subject)

    def ask(query: str, **extra) -> dict:
        response = client.post_json("/api/v1/recall", {"query": query, "purpose": PURPOSE, **extra})
        assert response.status_code == 200, response.content
        return response.json()

    seat = ask("aisle seat preference")
    [item] = [i for i in seat["items"] if i["predicate"] == "seat"]
    assert item["value"] == {"side": "aisle"}
    assert item["valid_to"] is None and item["valid_from"].endswith("Z")
    assert isinstance(item["source"]["event_ids"], list) and item["source"]["uri"] == ""
    assert set(item["scores"]) >= {"final"} and isinstance(item["flags"], list)
    assert seat["known_at"] is None and seat["empty"] is False and seat["trace_id"]

    porto = ask(
        "where did the user live",
        as_of="2021-03-04T05:06:07.890123Z",
        known_at="2030-01-01T00:00:00Z",
    )
    [lived] = [i for i in porto["items"] if "Porto" in i["statement"]]
    assert lived["valid_to"] == "2022-06-01T12:30:00Z"
    assert porto["as_of"] == "2021-03-04T05:06:07.890123Z"
    assert porto["known_at"] == "2030-01-01T00:00:00Z"

    nothing = ask("something never said about volcanoes")
    assert nothing["empty"] is True and nothing["items"] == []
    assert nothing["empty_reason"] == "no_relevant_memory"
    assert "no relevant memories" in nothing["context_pack"]
