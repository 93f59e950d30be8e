"""An optional cross-encoder reranker behind the common ``POST /rerank`` shape.

Text Embeddings Inference (TEI), Infinity, vLLM and Jina/Cohere-compatible servers all take
``{"model", "query", "documents", ...}`` and answer with one relevance score per document,
either as a bare list (TEI: ``[{"index", "score"}]``) or under ``results`` (Infinity, vLLM,
Jina, Cohere: ``{"results": [{"index", "relevance_score"}]}``). Both are read here.

Configured by ``ENGRAM_RERANKER_URL`` (the server's base URL; ``/rerank`` is appended unless
the URL already ends in it), ``ENGRAM_RERANKER_API`` (``cohere``, the default, sends
``documents`` as Infinity, vLLM, Jina and Cohere expect; ``tei`` sends TEI's ``texts``),
``ENGRAM_RERANKER_MODEL``, ``ENGRAM_RERANKER_API_KEY`` and ``ENGRAM_RERANKER_TIMEOUT``. Unset URL: no reranker, and recall ranks as it always has.

Only the question and the candidates' statements leave the process, and only candidates
that already passed every governance filter (tenant, subject, validity, sensitivity,
consent): a reranker can reorder what recall may return, never widen it. When the server
fails, recall keeps its own order and says so in the trace (``rerank_error``) instead of
failing the request.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings


class RerankerError(RuntimeError):
    """The rerank endpoint could not score the documents."""


@dataclass(frozen=True)
class RerankerConfig:
    url: str
    model: str
    api_key: str = ""
    timeout: float = 5.0
    api: str = "cohere"

    @property
    def model_id(self) -> str:
        """The id calibrated weights are keyed by (``recall_weights_by_model``)."""
        return f"rerank/{self.model or 'default'}"


def configured() -> RerankerConfig | None:
    conf = settings.ENGRAM_RETRIEVAL
    url = (conf.get("RERANKER_URL") or "").strip()
    if not url:
        return None
    return RerankerConfig(
        url=url,
        model=conf.get("RERANKER_MODEL") or "",
        api_key=conf.get("RERANKER_API_KEY") or "",
        timeout=float(conf.get("RERANKER_TIMEOUT") or 5.0),
        api=(conf.get("RERANKER_API") or "cohere").lower(),
    )


def _endpoint(url: str) -> str:
    url = url.rstrip("/")
    return url if url.endswith("/rerank") else url + "/rerank"


def _scores(payload: object, n: int) -> list[float]:
    rows = payload.get("results") if isinstance(payload, dict) else payload
    if not isinstance(rows, list):
        raise RerankerError("rerank endpoint answered without a list of results")
    scores: list[float | None] = [None] * n
    for row in rows:
        if not isinstance(row, dict):
            raise RerankerError("rerank endpoint answered with a malformed result")
        index = row.get("index")
        score = row.get("relevance_score", row.get("score"))
        if not isinstance(index, int) or not 0 <= index < n or not isinstance(score, int | float):
            raise RerankerError("rerank endpoint answered with a malformed result")
        scores[index] = float(score)
    if any(s is None for s in scores):
        raise RerankerError(f"rerank endpoint scored {sum(s is not None for s in scores)} of {n}")
    return scores  # type: ignore[return-value]


def rerank(config: RerankerConfig, query: str, documents: Sequence[str]) -> list[float]:
    """One relevance score per document, in the documents' order."""
    if not documents:
        return []
    if config.api == "tei":
        body: dict = {"query": query, "texts": list(documents), "return_text": False}
    else:
        body = {
            "query": query,
            "documents": list(documents),
            "return_documents": False,
            "top_n": len(documents),
        }
        if config.model:
            body["model"] = config.model
    request = urllib.request.Request(
        _endpoint(config.url), data=json.dumps(body).encode(), method="POST"
    )
    request.add_header("Content-Type", "application/json")
    if config.api_key:
        request.add_header("Authorization", f"Bearer {config.api_key}")
    try:
        with urllib.request.urlopen(request, timeout=config.timeout) as response:  # noqa: S310
            payload = json.loads(response.read())
    except (OSError, ValueError) as e:
        raise RerankerError(f"rerank endpoint failed: {type(e).__name__}") from None
    return _scores(payload, len(documents))
