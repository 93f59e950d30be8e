"""Recall starts embedding the question before it reads its context, as the question was
asked (``QueryVector.speculate``), and keeps that embedding only when it is the one recall
would have made: the same text under the same model. Otherwise it embeds again, so the
answer never depends on the guess."""

from __future__ import annotations

import pytest

from memory.embedders import configured_model_id
from memory.recall import query as recall_query
from memory.recall.query import QueryVector
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
    monkeypatch.setattr(QueryVector, "_last_model_id", configured_model_id())
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
    monkeypatch.setattr(QueryVector, "_last_model_id", None)
    recall(read_agent.agent, owner_subject, "Which seat does the user prefer?")
    assert embedded == ["Which seat does the user prefer?"]
    assert QueryVector._last_model_id == configured_model_id()


def test_a_guess_under_another_model_is_not_used(read_agent, owner_subject, embedded, monkeypatch):
    """The active index changed since the last recall: the early embedding (under the old
    model) is dropped and the question embedded again under the active one."""
    monkeypatch.setattr(QueryVector, "_last_model_id", "retired/model")
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
    """Through the API the early embedding starts before the body is validated: a question
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
