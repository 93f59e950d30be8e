"""The rerank client against real HTTP servers started by the test, in both wire shapes
(TEI's bare list; the ``results`` list of Infinity, vLLM, Jina and Cohere), and its
failures: down, slow, malformed, partial."""

from __future__ import annotations

import json
import time
from http.server import BaseHTTPRequestHandler

import pytest

from memory.rerankers import RerankerConfig, RerankerError, configured, rerank
from tests.helpers.http_stub import serve
from tests.helpers.rerank_stub import send_json


def _overlap(query: str, doc: str) -> float:
    q = set(query.lower().split())
    return len(q & set(doc.lower().split())) / max(len(q), 1)


class _Handler(BaseHTTPRequestHandler):
    mode = "cohere"
    seen: list[dict] = []

    def do_POST(self):  # noqa: N802 (http.server's naming)
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).seen.append(
            {"path": self.path, "body": body, "auth": self.headers.get("Authorization")}
        )
        mode = type(self).mode
        if mode == "slow":
            time.sleep(1.0)
        docs = body.get("documents") or body.get("texts") or []
        scored = [{"index": i, "score": _overlap(body["query"], d)} for i, d in enumerate(docs)]
        scored.sort(key=lambda r: -r["score"])
        if mode == "tei":
            payload: object = scored
        elif mode == "malformed":
            payload = {"results": [{"index": "0", "relevance_score": "high"}]}
        elif mode == "partial":
            payload = {"results": [{"index": 0, "relevance_score": 0.5}]}
        elif mode == "error":
            self.send_response(503)
            self.end_headers()
            return
        else:
            payload = {
                "results": [{"index": r["index"], "relevance_score": r["score"]} for r in scored]
            }
        send_json(self, json.dumps(payload).encode())

    def log_message(self, *args):
        pass


@pytest.fixture
def server():
    _Handler.seen = []
    _Handler.mode = "cohere"
    with serve(_Handler) as url:
        yield url


DOCS = ["Caroline went hiking in May", "Melanie paints sunsets", "Caroline adopted a dog"]


def test_cohere_shape_scores_come_back_in_document_order(server):
    config = RerankerConfig(url=server + "/v1", model="bge-reranker-v2-m3", api_key="k")
    scores = rerank(config, "did caroline adopt a dog", DOCS)
    assert len(scores) == 3
    assert scores[2] > scores[0] > scores[1]  # the server answered sorted by score
    sent = _Handler.seen[-1]
    assert sent["path"] == "/v1/rerank"
    assert sent["body"]["documents"] == DOCS and sent["body"]["model"] == "bge-reranker-v2-m3"
    assert "texts" not in sent["body"]
    assert sent["auth"] == "Bearer k"


def test_tei_shape(server):
    _Handler.mode = "tei"
    config = RerankerConfig(url=server + "/rerank", model="", api="tei")
    scores = rerank(config, "melanie paints", DOCS)
    assert scores.index(max(scores)) == 1
    sent = _Handler.seen[-1]
    assert sent["path"] == "/rerank"  # not /rerank/rerank
    assert sent["body"]["texts"] == DOCS and "documents" not in sent["body"]
    assert sent["auth"] is None


def test_nothing_to_rerank_sends_nothing(server):
    assert rerank(RerankerConfig(url=server, model="m"), "q", []) == []
    assert _Handler.seen == []


@pytest.mark.parametrize("mode", ["malformed", "partial", "error"])
def test_a_bad_answer_is_a_reranker_error(server, mode):
    _Handler.mode = mode
    with pytest.raises(RerankerError):
        rerank(RerankerConfig(url=server, model="m"), "caroline", DOCS)


def test_a_slow_server_times_out(server):
    _Handler.mode = "slow"
    with pytest.raises(RerankerError, match="failed"):
        rerank(RerankerConfig(url=server, model="m", timeout=0.2), "caroline", DOCS)


def test_a_server_that_is_down_is_a_reranker_error():
    with pytest.raises(RerankerError, match="failed"):
        rerank(RerankerConfig(url="http://127.0.0.1:9", model="m", timeout=1), "q", DOCS)


def test_configured_from_settings(settings):
    settings.ENGRAM_RETRIEVAL = {**settings.ENGRAM_RETRIEVAL, "RERANKER_URL": ""}
    assert configured() is None
    settings.ENGRAM_RETRIEVAL = {
        **settings.ENGRAM_RETRIEVAL,
        "RERANKER_URL": "http://rerank:8080",
        "RERANKER_MODEL": "jina-reranker-v2-base-multilingual",
        "RERANKER_API": "TEI",
    }
    config = configured()
    assert config is not None and config.api == "tei"
    assert config.model_id == "rerank/jina-reranker-v2-base-multilingual"
