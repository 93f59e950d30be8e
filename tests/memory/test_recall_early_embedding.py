"""Recall starts embedding the question before it reads its context, as the question was
asked (``QueryVector.speculate``), and keeps that embedding only when it is the one recall
would have made: the same text under the same model. Otherwise it embeds again, so the
answer never depends on the guess."""

from __future__ import annotations

import pytest

from memory.embedders import configured_model_id
from memory.recall import query as recall_query
from memory.recall.query import LAST_MODEL_ID, QueryVector
from memory.services.subjects import subject_get_or_create
from tests.helpers.retrieval import PURPOSE, ids, recall, remember


@pytest.fixture
def embedded(monkeypatch) -> list[str]:
    """The texts recall embeds, in order (the real embedder still runs)."""
    texts: list[str] = []
    real = recall_query.embed_question

    def spy(query: str, model_id: str):
        texts.append(query)
        return real(query, model_id)

    monkeypatch.setattr(recall_query, "embed_question", spy)
    LAST_MODEL_ID.set(configured_model_id())
    return texts


def test_a_plain_question_is_embedded_once_before_the_context(
    read_agent, owner_subject, embedded, monkeypatch
):
    fact = remember(owner_subject, "User prefers aisle seats")
    started = []
    real_start = QueryVector.start
    monkeypatch.setattr(
        QueryVector, "start", classmethod(lambda cls, *a: started.append(a) or real_start(*a))
    )
    result = recall(read_agent.agent, owner_subject, "Which seat does the user prefer?")
    assert ids(result)[0] == fact.record_id
    assert embedded == ["Which seat does the user prefer?"]
    assert started == []  # the early embedding served: no second one


def test_a_question_naming_the_subject_is_embedded_as_recall_reads_it(tenant, read_agent, embedded):
    """The guess embeds "Olivia"; recall reads the question as about the user and embeds
    that: the vector route works on the right text."""
    olivia = subject_get_or_create(
        tenant_id=tenant.id, kind="user", external_id="olivia", display_name="Olivia Harris"
    )
    fact = remember(olivia, "User lives in Lisbon")
    result = recall(read_agent.agent, olivia, "Where does Olivia Harris live?")
    assert embedded == ["Where does Olivia Harris live?", "Where does the user live?"]
    assert ids(result)[0] == fact.record_id


def test_a_question_with_a_pronoun_is_not_guessed(read_agent, owner_subject, embedded):
    remember(owner_subject, "User lives in Lisbon")
    recall(read_agent.agent, owner_subject, "Where does she live?")
    assert embedded == ["Where does the user live?"]


def test_no_guess_before_the_process_knows_the_model(
    read_agent, owner_subject, embedded, monkeypatch
):
    LAST_MODEL_ID.set(None)
    recall(read_agent.agent, owner_subject, "Which seat does the user prefer?")
    assert embedded == ["Which seat does the user prefer?"]
    assert LAST_MODEL_ID.peek() == configured_model_id()


def test_a_guess_under_another_model_is_not_used(read_agent, owner_subject, embedded, monkeypatch):
    """The active index changed since the last recall: the early embedding (under the old
    model) is dropped and the question embedded again under the active one."""
    LAST_MODEL_ID.set("retired/model")
    served = []
    real_start = QueryVector.start
    monkeypatch.setattr(
        QueryVector,
        "start",
        classmethod(lambda cls, q, m=None: served.append(m) or real_start(q, m)),
    )
    result = recall(read_agent.agent, owner_subject, "Which seat does the user prefer?")
    assert served == [configured_model_id()] and result.model_id == configured_model_id()


def test_a_recall_trusting_its_callers_tenant_fails_closed_in_another_tenants_transaction(
    read_agent, owner_subject, other_tenant
):
    """The API runs recall in the request's transaction (``in_tenant_transaction``): run
    in a transaction scoped to another tenant, or to none, it finds no subject and
    records nothing, rather than reading across tenants."""
    from core.actor import Actor
    from core.tenancy import tenant_context
    from memory.models import RecallTrace, Subject
    from memory.recall import RecallRequest, RecallScope
    from memory.recall import recall as recall_pipeline

    remember(owner_subject, "User prefers aisle seats")
    scope = RecallScope(
        owner_subject.tenant_id, owner_subject.id, read_agent.agent.id, read_agent.agent.clearance
    )
    for tenant in (other_tenant.id, None):
        with tenant_context(tenant), pytest.raises((Subject.DoesNotExist, RuntimeError)):
            recall_pipeline(
                actor=Actor.agent(read_agent.agent.id, owner_subject.tenant_id),
                scope=scope,
                request=RecallRequest(query="seat", purpose=PURPOSE),
                in_tenant_transaction=True,
            )
    assert not RecallTrace.objects.filter(subject_id=owner_subject.id).exists()


def test_the_api_embeds_a_valid_question_once_and_an_invalid_one_never(
    read_agent, owner_subject, embedded
):
    """Through the API the early embedding starts once the body is validated: a question
    is embedded once; a body the serializer refuses is not embedded at all."""
    fact = remember(owner_subject, "User prefers aisle seats")
    client = read_agent.client(owner_subject)
    ok = client.post_json(
        "/api/v1/recall", {"query": "Which seat does the user prefer?", "purpose": PURPOSE}
    )
    assert ok.status_code == 200 and ok.json()["items"][0]["id"] == str(fact.record_id)
    assert embedded == ["Which seat does the user prefer?"]
    for bad in ({"query": "x" * 2001, "purpose": PURPOSE}, {"query": "   ", "purpose": PURPOSE}):
        assert client.post_json("/api/v1/recall", bad).status_code == 400
    assert embedded == ["Which seat does the user prefer?"]


# --- nothing before the checks: edge, key, subject token, body ---------------------------


@pytest.fixture
def order(monkeypatch) -> list[str]:
    """What the request thread does, in order: "auth" when the API key is checked,
    "embed: <text>" when an embedding is submitted (both still run for real)."""
    from memory.api import auth_one_read, authentication

    events: list[str] = []
    real_auth = authentication.api_key_authenticate
    real_submit = QueryVector._submit.__func__

    def auth(raw, **how):
        events.append("auth")
        return real_auth(raw, **how)

    def submit(cls, query, model_id):
        events.append(f"embed: {query}")
        return real_submit(cls, query, model_id)

    # The key is checked by either path: alone, or with the subject's access in one read
    # (ENGRAM_API_KEY_ACCESS_ONE_READ, memory/api/auth_one_read.py).
    monkeypatch.setattr(authentication, "api_key_authenticate", auth)
    monkeypatch.setattr(auth_one_read, "api_key_authenticate", auth)
    monkeypatch.setattr(QueryVector, "_submit", classmethod(submit))
    LAST_MODEL_ID.set(configured_model_id())
    return events


def _ask(client, query: str, **headers):
    return client.post_json("/api/v1/recall", {"query": query, "purpose": PURPOSE}, **headers)


def test_every_recall_is_checked_before_its_question_is_embedded(read_agent, owner_subject, order):
    """However often a key has recalled, its key is checked before anything is embedded."""
    fact = remember(owner_subject, "User prefers window seats")
    client = read_agent.client(owner_subject)
    for question in (
        "Which seat suits the user?",
        "用户喜欢坐哪里？",
        "Which seat suits the user?",
    ):
        order.clear()
        response = _ask(client, question)
        assert response.status_code == 200
        assert order[0] == "auth" and order[1:] in ([f"embed: {question}"], []), order
    assert response.json()["items"][0]["id"] == str(fact.record_id)


def test_no_embedding_for_a_wrong_revoked_or_subjectless_request(read_agent, owner_subject, order):
    from accounts.models import ApiKey
    from accounts.services.credentials import api_key_revoke
    from core.actor import Actor

    remember(owner_subject, "User prefers window seats")
    good = read_agent.client(owner_subject)
    assert _ask(good, "Which seat suits the user?").status_code == 200
    order.clear()
    prefix = read_agent.key.split("_")[1]  # egk_<prefix>_<secret>; the secret may hold "_"
    for wrong in (f"egk_{prefix}_{'x' * 43}", "egk_nope_nope", read_agent.key + "x"):
        response = _ask(good.__class__(wrong), "Which seat suits the user?")
        assert response.status_code == 401 and response.json()["code"] == "invalid_api_key"
    response = _ask(read_agent.client(), "Which seat suits the user?")  # no subject token
    assert response.status_code == 403 and response.json()["code"] == "subject_required"
    api_key_revoke(
        actor=Actor.system(read_agent.agent.tenant_id),
        api_key=ApiKey.objects.get(agent=read_agent.agent),
    )
    response = _ask(good, "Which seat suits the user?")
    assert response.status_code == 401 and response.json()["code"] == "revoked_api_key"
    assert not [e for e in order if e.startswith("embed")], order


def test_a_request_the_edge_refuses_embeds_nothing(read_agent, owner_subject, order):
    remember(owner_subject, "User prefers window seats")
    client = read_agent.client(owner_subject)
    assert _ask(client, "Which seat suits the user?").status_code == 200
    order.clear()
    for _ in range(2):
        response = _ask(client, "Which seat suits the user?", HTTP_X_PADDING="x" * 9000)
        assert response.status_code == 431 and response.json()["code"] == "header_too_large"
    assert order == []


@pytest.mark.parametrize(
    "query",
    ["\\ud800", "seat \\udfff?", "座位\\udbff"],
    ids=["lone-high", "lone-low-inside", "after-chinese"],
)
def test_a_lone_surrogate_in_a_question_is_a_4xx_every_time(
    read_agent, owner_subject, order, query
):
    """A lone surrogate is valid JSON and invalid text: the edge refuses it, before and
    after the key has made recalls, and the key keeps working."""
    remember(owner_subject, "User prefers window seats")
    client = read_agent.client(owner_subject)
    body = '{"query": "' + query + '", "purpose": "' + PURPOSE + '"}'
    for _ in range(2):
        response = client.post("/api/v1/recall", body, content_type="application/json")
        assert 400 <= response.status_code < 500, response.content
        assert set(response.json()) == {"code", "message", "extra"}
        assert _ask(client, "Which seat suits the user?").status_code == 200
    assert "embed: " + query not in order


@pytest.mark.parametrize(
    "body",
    [
        '{"query": "Which seat?", "purpose": ',
        '{"query": "Which seat\\u0000?", "purpose": "' + PURPOSE + '"}',
        '{"query": "Which seat?", "purpose": "' + PURPOSE + '", "query": 1}',
        '["Which seat?"]',
        '{"query": NaN, "purpose": "' + PURPOSE + '"}',
    ],
    ids=["truncated", "nul", "duplicate-key", "not-an-object", "nan"],
)
def test_a_bad_body_gets_its_error_and_embeds_nothing(read_agent, owner_subject, order, body):
    remember(owner_subject, "User prefers window seats")
    client = read_agent.client(owner_subject)
    before = client.post("/api/v1/recall", body, content_type="application/json")
    assert _ask(client, "Which seat suits the user?").status_code == 200
    order.clear()
    after = client.post("/api/v1/recall", body, content_type="application/json")
    assert before.status_code == after.status_code == 400
    assert set(after.json()) == {"code", "message", "extra"}
    assert after.json() == before.json()
    assert not [e for e in order if e.startswith("embed")], order


def test_a_failing_shortcut_never_fails_the_recall(read_agent, owner_subject, monkeypatch):
    """The early embedding is a speed-up: when it cannot start, recall embeds the question
    itself and answers the same."""
    fact = remember(owner_subject, "User prefers window seats")
    client = read_agent.client(owner_subject)
    reference = _ask(client, "Which seat suits the user?").json()["items"]

    def broken(cls, query):
        raise RuntimeError("the pool is gone")

    monkeypatch.setattr(QueryVector, "_guess", classmethod(broken))
    response = _ask(client, "Which seat suits the user?")
    assert response.status_code == 200
    assert response.json()["items"] == reference
    assert reference[0]["id"] == str(fact.record_id)


def test_a_question_naming_a_time_is_guessed_without_it(read_agent, owner_subject, embedded):
    # The default weights leave the named time out of what is embedded (drop_named_time):
    # the guess does too, so it serves; a tenant that turns it off embeds again.
    from memory.recall import RecallWeights

    remember(owner_subject, "User prefers aisle seats")
    recall(read_agent.agent, owner_subject, "Which seat did the user prefer in May 2024?")
    assert embedded == ["Which seat did the user prefer?"]
    embedded.clear()
    recall(
        read_agent.agent,
        owner_subject,
        "Which seat did the user prefer in May 2024?",
        weights=RecallWeights(drop_named_time=0),
    )
    assert embedded == [
        "Which seat did the user prefer?",
        "Which seat did the user prefer in May 2024?",
    ]
