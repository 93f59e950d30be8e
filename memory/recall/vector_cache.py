"""A scope's vectors kept in process memory, so the vector route ranks them without a
scan after the question is embedded.

The exact scan of a subject's vectors has to wait for the question's embedding, and at
5,000 memories it took ~8 ms after it (reading ~1,000 pages of 1.5 KB vectors); reading
them ahead costs more than the embedding leaves (~30 ms for 5,000 in binary). A web
worker that recalls for a subject again within minutes can keep them instead.

What makes it exact — a cached vector is used only where the database says it is the
scope's vector at that moment:

- an embedding row never changes its vector or its record (a database trigger refuses
  it, ``MemoryEmbedding.Meta.triggers``); a changed vector is a new row with a new id
  (ids come from a sequence and are never reused);
- every recall reads the ids of the scope's embedding rows in its own transaction (one
  index-only scan, ~0.3 ms at 5,000) while the question is embedded. The cached rows are
  used only when their ids are exactly those; otherwise the missing rows are fetched
  (``FETCH_MAX`` per recall, so a cold 20,000-vector scope fills over several recalls and
  is scanned by SQL until then) and rows the database no longer holds are dropped;
- which of those records this request may return is still decided by the database, as
  for the scan: the searchable ids read ahead (small scopes) or a probe of the ranked
  records after ranking (``routes.route_vector``).

So a deleted or re-embedded memory's vector is never ranked after its deletion commits,
and it leaves this process's memory at the latest ``VECTOR_CACHE_SECONDS`` after its
scope was last used here (a sweeper thread drops idle scopes), or at the next recall for
that scope. Only vectors and ids are kept: no text. The cache is per process, bounded by
``VECTOR_CACHE_SIZE`` vectors in all (least recently used scopes go first), created
after a fork and emptied in a forked child."""

from __future__ import annotations

import os
import threading
import uuid
from collections import OrderedDict
from dataclasses import dataclass
from time import monotonic

import numpy as np
from django.conf import settings

# pgvector's binary form of a vector (``vector_send``): int16 dimensions, int16 unused,
# then the floats, big-endian.
_VECTOR_HEADER = 4
# A float32 dot product of 384 terms of unit vectors errs by well under this: every row
# whose rough margin is within it of the cut is ranked again in float64.
_ROUGH_ERROR = 1e-4


@dataclass(frozen=True)
class ScopeVectors:
    """The vectors of one scope's embedding rows: ``embedding_ids`` ascending, one row of
    ``vectors`` (float32) each, its ``record_ids`` and ``tie`` (its place in record id
    order: the scan's tie-break, ``ORDER BY margin DESC, record_id``)."""

    embedding_ids: np.ndarray
    record_ids: tuple[uuid.UUID, ...]
    tie: np.ndarray
    vectors: np.ndarray
    norms: np.ndarray
    # The record ids as text, for the statement that looks the ranked ones up.
    record_keys: tuple[str, ...] = ()

    @classmethod
    def empty(cls, dimensions: int = 0) -> ScopeVectors:
        return cls(
            np.zeros(0, np.int64),
            (),
            np.zeros(0, np.int64),
            np.zeros((0, dimensions), np.float32),
            np.zeros(0),
        )

    @classmethod
    def build(
        cls, embedding_ids: np.ndarray, record_ids: list[uuid.UUID], vectors: np.ndarray
    ) -> ScopeVectors:
        order = np.argsort(embedding_ids, kind="stable")
        ids = np.asarray(embedding_ids, np.int64)[order]
        records = tuple(record_ids[i] for i in order)
        matrix = np.ascontiguousarray(np.asarray(vectors, np.float32)[order])
        # Python's uuid order is PostgreSQL's (both compare the 16 bytes in order).
        by_record = sorted(range(len(records)), key=records.__getitem__)
        tie = np.empty(len(records), np.int64)
        tie[by_record] = np.arange(len(records))
        return cls(
            ids,
            records,
            tie,
            matrix,
            np.linalg.norm(matrix.astype(np.float64), axis=1),
            tuple(str(r) for r in records),
        )

    def __len__(self) -> int:
        return len(self.record_ids)

    def kept(self, embedding_ids: np.ndarray) -> tuple[np.ndarray, list[uuid.UUID], np.ndarray]:
        """The rows whose ids are among ``embedding_ids``: (ids, record ids, vectors)."""
        keep = np.flatnonzero(np.isin(self.embedding_ids, embedding_ids, assume_unique=True))
        return (
            self.embedding_ids[keep],
            [self.record_ids[i] for i in keep],
            self.vectors[keep],
        )

    def ranking(
        self, shifted: np.ndarray, rows: np.ndarray | None = None, first: int | None = None
    ) -> np.ndarray:
        """Row positions by margin (``vector · shifted``) best first, ties by record id —
        among ``rows`` (default: all), the first ``first`` (default: all).

        The margin is computed in float64 and rounded to float32, as pgvector computes
        it, so equal vectors tie exactly and the order is the scan's. A rough float32
        product picks the candidates first: only rows within its error of the
        ``first``-th are computed again."""
        candidates = np.arange(len(self)) if rows is None else np.asarray(rows, np.int64)
        if not len(candidates):
            return candidates
        if first is not None and first < len(candidates):
            rough = (self.vectors @ shifted.astype(np.float32))[candidates]
            cut = np.partition(rough, len(rough) - first)[len(rough) - first]
            candidates = candidates[rough >= cut - _ROUGH_ERROR]
        margins = self.margins(shifted, candidates)
        order = np.lexsort((self.tie[candidates], -margins))
        return candidates[order][:first]

    def margins(self, shifted: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """The rows' margins, float32 as pgvector returns them."""
        return (self.vectors[rows].astype(np.float64) @ shifted.astype(np.float64)).astype(
            np.float32
        )

    def hits(
        self, vector: np.ndarray, shifted: np.ndarray, rows: np.ndarray
    ) -> list[tuple[uuid.UUID, float, float]]:
        """``(record id, cosine similarity to the query, margin)`` of ``rows``, in order."""
        if not len(rows):
            return []
        query = vector.astype(np.float64)
        dots = self.vectors[rows].astype(np.float64) @ query
        lengths = self.norms[rows] * float(np.linalg.norm(query))
        similarity = np.clip(
            np.divide(dots, lengths, out=np.zeros_like(dots), where=lengths > 0), -1.0, 1.0
        )
        margins = self.margins(shifted, rows)
        return [
            (self.record_ids[i], float(s), float(m))
            for i, s, m in zip(rows.tolist(), similarity.tolist(), margins.tolist(), strict=True)
        ]


def decode_vectors(blobs: list[bytes]) -> np.ndarray | None:
    """pgvector's binary send forms as a float32 matrix; None if their dimensions differ."""
    if not blobs:
        return np.zeros((0, 0), np.float32)
    width = len(blobs[0])
    if any(len(blob) != width for blob in blobs):
        return None
    raw = np.frombuffer(b"".join(blobs), dtype=np.uint8).reshape(len(blobs), width)
    return raw[:, _VECTOR_HEADER:].copy().view(">f4").astype(np.float32)


def decode_ids(packed: bytes) -> np.ndarray:
    """Big-endian int8 values one after another (``string_agg(int8send(id), '')``)."""
    return np.frombuffer(packed or b"", dtype=">i8").astype(np.int64)


ScopeKey = tuple[uuid.UUID, tuple[uuid.UUID, ...], str]


class VectorCache:
    """Process memory for ``ScopeVectors``, by scope (tenant, subjects, model): at most
    ``size`` vectors in all, least recently used scopes dropped first, a scope unused for
    ``seconds`` dropped by a sweeper thread (started with the first scope kept)."""

    def __init__(self) -> None:
        self._items: OrderedDict[ScopeKey, tuple[float, ScopeVectors]] = OrderedDict()
        self._held = 0
        self._lock = threading.Lock()
        self._sweeper: threading.Thread | None = None
        self._wake = threading.Event()

    @staticmethod
    def size() -> int:
        return int(settings.ENGRAM_RETRIEVAL["VECTOR_CACHE_SIZE"])

    @staticmethod
    def seconds() -> float:
        return float(settings.ENGRAM_RETRIEVAL["VECTOR_CACHE_SECONDS"])

    def get(self, key: ScopeKey) -> ScopeVectors | None:
        with self._lock:
            item = self._items.get(key)
            if item is None:
                return None
            self._items[key] = (monotonic(), item[1])
            self._items.move_to_end(key)
            return item[1]

    def put(self, key: ScopeKey, vectors: ScopeVectors) -> None:
        size = self.size()
        with self._lock:
            self._drop(key)
            if not 0 < len(vectors) <= size:
                return
            while self._items and self._held + len(vectors) > size:
                self._drop(next(iter(self._items)))
            self._items[key] = (monotonic(), vectors)
            self._held += len(vectors)
            if self._sweeper is None:
                self._sweeper = threading.Thread(
                    target=self._sweep_forever, name="engram-vector-cache", daemon=True
                )
                self._sweeper.start()

    def discard(self, key: ScopeKey) -> None:
        with self._lock:
            self._drop(key)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._held = 0

    def drop_subject(self, tenant_id: uuid.UUID, subject_id: uuid.UUID) -> int:
        """Drop every scope of ``subject_id`` (in ``tenant_id``); returns how many vectors
        went. The deletion workflow's store for this process (``derived_stores``)."""
        with self._lock:
            keys = [k for k in self._items if k[0] == tenant_id and subject_id in k[1]]
            dropped = sum(len(self._items[k][1]) for k in keys)
            for key in keys:
                self._drop(key)
            return dropped

    def holding(
        self, tenant_id: uuid.UUID, subject_id: uuid.UUID, record_ids: set[uuid.UUID] | None
    ) -> int:
        """How many vectors of ``record_ids`` (None: of any record) of ``subject_id``'s
        scopes this process holds."""
        with self._lock:
            return sum(
                len(v) if record_ids is None else sum(r in record_ids for r in v.record_ids)
                for (tenant, subjects, _), (_, v) in self._items.items()
                if tenant == tenant_id and subject_id in subjects
            )

    def held(self) -> int:
        """How many vectors are kept now."""
        with self._lock:
            return self._held

    def sweep(self, now: float | None = None) -> int:
        """Drop the scopes unused for ``seconds``; returns how many."""
        now = monotonic() if now is None else now
        limit = self.seconds()
        with self._lock:
            idle = [key for key, (used, _) in self._items.items() if now - used >= limit]
            for key in idle:
                self._drop(key)
            return len(idle)

    def _drop(self, key: ScopeKey) -> None:
        item = self._items.pop(key, None)
        if item is not None:
            self._held -= len(item[1])

    def _sweep_forever(self) -> None:
        while True:
            self._wake.wait(max(1.0, self.seconds() / 4))
            self.sweep()

    def _after_fork_in_child(self) -> None:
        # The parent's sweeper thread does not exist in the child, nor should its vectors.
        self._items = OrderedDict()
        self._held = 0
        self._lock = threading.Lock()
        self._sweeper = None
        self._wake = threading.Event()


cache = VectorCache()
os.register_at_fork(after_in_child=cache._after_fork_in_child)
