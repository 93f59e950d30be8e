"""Recall with a cross-encoder reranker (step 5b, memory/recall/crossrank.py) against a
real /rerank server started by the test, in both wire shapes (TEI's ``texts`` and bare
list; Cohere/Infinity/vLLM/Jina's ``documents`` and ``results``): the order follows the
reranker, the reranker only ever sees what recall may return, and a failing reranker
leaves Engram's order and says so. Nothing of Engram is mocked."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import Sensitivity
from memory.models import MemoryRecord, Subject
from memory.recall import RecallWeights
from memory.services.indexing import index_pending_records
from memory.write_policy import Intent
from tests.helpers.cast import person
from tests.helpers.rerank_stub import _Rerank
from tests.helpers.rerank_stub import rerank_server as serve_rerank
from tests.helpers.retrieval import BACKGROUND, PURPOSE, recall, remember, remember_many

QUERY = "What does ERR-4012 on the payment page mean?"
# Each matches the question well enough to pass the relevance gate (the id ERR-4012).
ANSWERS = [
    "Checkout fails with error ERR-4012 on the payment page",
    "ERR-4012 on the payment page was traced to an expired TLS certificate",
    "The payment page shows ERR-4012 when a card is declined twice",
]
MODEL = "bge-reranker-v2-m3"


@pytest.fixture
def rerank_server():
    with serve_rerank() as url:
        yield url


def _use_reranker(settings, url: str, api: str = "cohere", **extra) -> None:
    settings.ENGRAM_RETRIEVAL = {
        **settings.ENGRAM_RETRIEVAL,
        "RERANKER_URL": url,
        "RERANKER_API": api,
        "RERANKER_MODEL": MODEL,
        "RERANKER_TIMEOUT": 0.3,
        **extra,
    }


def _no_reranker(settings) -> None:
    settings.ENGRAM_RETRIEVAL = {**settings.ENGRAM_RETRIEVAL, "RERANKER_URL": ""}


def _write(subject: Subject, statements: list[str]) -> None:
    remember_many(subject, statements)
    index_pending_records(MemoryRecord.objects.filter(subject=subject).values_list("id", flat=True))


def _statements(result) -> list[str]:
    return [i.statement for i in result.items]


def _sent_documents() -> list[str]:
    return [d for r in _Rerank.seen for d in r["body"].get("documents") or r["body"]["texts"]]


@pytest.fixture
def answers(settings, read_agent, owner_subject) -> list[str]:
    """The owner's memories, and Engram's own order of the answers (no reranker)."""
    _no_reranker(settings)
    _write(owner_subject, BACKGROUND + ANSWERS)
    engram_order = _statements(recall(read_agent.agent, owner_subject, QUERY))
    assert set(ANSWERS) <= set(engram_order), engram_order
    return engram_order


@pytest.mark.parametrize("api", ["cohere", "tei"])
def test_the_order_follows_the_reranker(
    settings, rerank_server, read_agent, owner_subject, answers, api
):
    last = answers[-1]
    _use_reranker(settings, rerank_server, api)
    _Rerank.mode, _Rerank.favourite = api, last

    result = recall(read_agent.agent, owner_subject, QUERY)

    assert _statements(result)[0] == last
    assert set(_statements(result)) == set(answers)  # reordered, never widened
    assert result.reranker == f"rerank/{MODEL}" and result.rerank_error == ""
    assert result.items[0].scores["model_rerank"] == 0.9
    assert all(i.scores["model_rerank"] == 0.1 for i in result.items[1:])
    [sent] = _Rerank.seen
    assert sent["path"] == "/rerank"
    assert sent["body"]["query"] == QUERY
    field = "texts" if api == "tei" else "documents"
    assert sorted(sent["body"][field]) == sorted(answers)
    assert sent["body"].get("model") == (None if api == "tei" else MODEL)


def test_the_api_reports_the_reranker(settings, rerank_server, read_agent, owner_subject, answers):
    _use_reranker(settings, rerank_server)
    _Rerank.favourite = answers[-1]
    response = read_agent.client(owner_subject).post_json(
        "/api/v1/recall", {"query": QUERY, "purpose": PURPOSE}
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["reranker"] == f"rerank/{MODEL}" and body["rerank_error"] == ""
    assert body["items"][0]["statement"] == answers[-1]
    assert body["items"][0]["scores"]["model_rerank"] == 0.9


def test_only_the_top_n_are_sent_and_the_rest_keep_their_order(
    settings, rerank_server, read_agent, owner_subject, answers
):
    _use_reranker(settings, rerank_server, RERANKER_TOP_N=2)
    _Rerank.favourite = answers[1]
    result = recall(read_agent.agent, owner_subject, QUERY)
    assert _sent_documents() == answers[:2]
    assert _statements(result) == [answers[1], answers[0], *answers[2:]]
    assert "model_rerank" not in result.items[2].scores


def test_the_blend_is_per_tenant_and_per_reranker_model(
    settings, tenant, rerank_server, read_agent, owner_subject, answers
):
    _use_reranker(settings, rerank_server)
    _Rerank.favourite = answers[-1]
    # Calibrated for this reranker: it gets no share of the order.
    tenant.policy = {"recall_weights_by_model": {f"rerank/{MODEL}": {"rerank_blend": 0.0}}}
    tenant.save(update_fields=["policy"])
    assert RecallWeights.for_tenant(tenant.policy, "", f"rerank/{MODEL}").rerank_blend == 0.0
    assert RecallWeights.for_tenant(tenant.policy, "", "rerank/other").rerank_blend == 0.7

    result = recall(read_agent.agent, owner_subject, QUERY)
    assert _statements(result) == answers and result.reranker == f"rerank/{MODEL}"
    assert len(_Rerank.seen) == 1


@pytest.mark.parametrize("api", ["cohere", "tei"])
def test_the_reranker_sees_only_what_recall_may_return(
    settings, tenant, other_tenant, rerank_server, read_agent, owner_subject, same_tenant_user, api
):
    _use_reranker(settings, rerank_server, api)
    _Rerank.mode = api
    forbidden: dict[str, uuid.UUID | None] = {}

    def target(subject, marker: str, **kw):
        statement = f"Checkout fails with error ERR-4012 on the payment page ({marker})"
        outcome = remember(subject, statement, predicate="checkout_error", **kw)
        forbidden[marker] = outcome.record_id
        return outcome

    target(same_tenant_user[1], "bob's")
    _, mallory = person(other_tenant, "mallory")
    target(mallory, "mallory's")
    deleted = target(owner_subject, "deleted", namespace="support/a")
    forget = remember(
        owner_subject,
        "Checkout fails with error ERR-4012 on the payment page (deleted)",
        namespace="support/a",
        predicate="checkout_error",
        intent=Intent.FORGET,
        target_record_id=deleted.record_id,
    )
    assert forget.operation == "DELETE"
    expired = target(owner_subject, "expired", namespace="support/b")
    MemoryRecord.objects.filter(pk=expired.record_id).update(
        expires_at=timezone.now() - timedelta(minutes=1)
    )
    target(owner_subject, "superseded", namespace="support/c")
    current = remember(
        owner_subject,
        "Checkout works again; ERR-4012 on the payment page was fixed",
        namespace="support/c",
        predicate="checkout_error",
    )
    assert current.operation == "SUPERSEDE"
    target(
        owner_subject, "confidential", namespace="support/e", sensitivity=Sensitivity.CONFIDENTIAL
    )
    target(owner_subject, "for billing", namespace="support/f", purpose="billing")
    secret = remember(
        owner_subject,
        "ERR-4012 on the payment page: my password is hunter2!",
        namespace="support/g",
    )
    assert secret.record_id is None  # refused at the write
    _write(owner_subject, BACKGROUND)

    result = recall(read_agent.agent, owner_subject, QUERY)

    sent = _sent_documents()
    assert sent, "the reranker was not asked"
    eligible = set(
        MemoryRecord.objects.filter(
            subject=owner_subject, status="active", sensitivity=Sensitivity.INTERNAL
        )
        .exclude(pk__in=[i for i in forbidden.values() if i])
        .values_list("statement", flat=True)
    )
    assert set(sent) <= eligible
    for marker in forbidden:
        assert not any(marker in d for d in sent), marker
    assert not any("hunter2" in d for d in sent)
    assert set(_statements(result)) <= set(sent)
    assert "Checkout works again; ERR-4012 on the payment page was fixed" in sent


@pytest.mark.parametrize("mode", ["error", "slow", "malformed"])
def test_a_failing_reranker_keeps_engrams_order(
    settings, rerank_server, read_agent, owner_subject, answers, mode
):
    _use_reranker(settings, rerank_server)
    _Rerank.mode, _Rerank.favourite = mode, answers[-1]

    result = recall(read_agent.agent, owner_subject, QUERY)
    assert _statements(result) == answers
    assert result.reranker == f"rerank/{MODEL}"
    assert result.rerank_error.startswith("rerank endpoint")
    assert all("model_rerank" not in i.scores for i in result.items)

    response = read_agent.client(owner_subject).post_json(
        "/api/v1/recall", {"query": QUERY, "purpose": PURPOSE}
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert [i["statement"] for i in body["items"]] == answers
    assert body["rerank_error"].startswith("rerank endpoint")


def test_a_reranker_that_is_down_keeps_engrams_order(settings, read_agent, owner_subject, answers):
    _use_reranker(settings, "http://127.0.0.1:9")  # nothing listens on the discard port
    result = recall(read_agent.agent, owner_subject, QUERY)
    assert _statements(result) == answers
    assert result.rerank_error == "rerank endpoint failed: URLError"  # connection refused


def test_without_a_reranker_nothing_is_called(
    settings, rerank_server, read_agent, owner_subject, answers
):
    _no_reranker(settings)
    _Rerank.favourite = answers[-1]
    result = recall(read_agent.agent, owner_subject, QUERY)
    assert _statements(result) == answers
    assert result.reranker == "" and result.rerank_error == ""
    assert all("model_rerank" not in i.scores for i in result.items)
    assert _Rerank.seen == []


def test_nothing_to_rerank_calls_nothing(settings, rerank_server, read_agent, owner_subject):
    _use_reranker(settings, rerank_server)
    _write(owner_subject, BACKGROUND)
    result = recall(read_agent.agent, owner_subject, "What is the user's blood type?")
    assert result.items == [] and result.empty_reason == "no_relevant_memory"
    assert result.reranker == "" and _Rerank.seen == []
