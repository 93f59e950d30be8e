"""A scope's vectors kept in process memory, so the vector route ranks them without a
scan after the question is embedded (``cached_scan``; ``ENGRAM_RECALL_VECTOR_CACHE``).

The exact scan of a subject's vectors has to wait for the question's embedding, and at a
few thousand memories it reads more pages than anything else recall does; reading them
ahead costs more than the embedding leaves. A web worker that recalls for a subject
again within minutes can keep them instead.

What makes it exact — a cached vector is used only where the database says it is the
scope's vector at that moment:

- an embedding row never changes its vector or its record (a database trigger refuses
  it, ``MemoryEmbedding.Meta.triggers``); a changed vector is a new row with a new id
  (ids come from a sequence and are never reused);
- every recall reads the ids of the scope's embedding rows in its own transaction (one
  index-only scan) while the question is embedded. The cached rows are used only when
  their ids are exactly those; otherwise rows the database no longer holds are dropped
  and the missing ones fetched (``cached_scan.VECTOR_FETCH_MAX`` per recall, so a cold
  large scope fills over several recalls and is scanned by SQL until then);
- which of those records this request may return is still decided by the database, as
  for the scan: the searchable ids read ahead (small scopes) or a probe of the ranked
  records after ranking.

So a deleted or re-embedded memory's vector is never ranked after its deletion commits.
It leaves a process's memory at that process's next recall for the scope, at once in
the process that ran the deletion workflow (``derived_stores``), and in every process at
the latest 1¼ × ``ENGRAM_RECALL_VECTOR_CACHE_SECONDS`` after the deletion: a scope is
kept only as long as recalls keep checking it, and a sweeper thread drops one unchecked
for that long (tests/memory/test_vector_cache_bound.py watches it leave another
process). Only vectors and ids are kept: no text. The cache is per process,
bounded by ``ENGRAM_RECALL_VECTOR_CACHE_SIZE`` vectors in all (least recently used
scopes go first; a growing scope's storage holds up to a quarter more), registered in
``core.process_state``, and emptied in a forked child."""

from __future__ import annotations

import threading
import time
import uuid
from collections import OrderedDict
from dataclasses import dataclass
from functools import cached_property
from time import monotonic

import numpy as np
from django.conf import settings

from core.process_state import register

# pgvector's binary form of a vector (``vector_send``): int16 dimensions, int16 unused,
# then the floats, big-endian.
_VECTOR_HEADER = 4
# A float32 dot product of 384 terms of unit vectors errs by well under this: every row
# whose rough margin is within it of the cut is ranked again in float64.
_ROUGH_ERROR = 1e-4


class _Rows:
    """Storage shared by the successive ``ScopeVectors`` of one scope as it grows: rows are
    only ever written past ``used``, so an earlier ``ScopeVectors`` (which sees its first
    ``n``) never sees them change. Room for a quarter more is kept."""

    def __init__(self, capacity: int, dimensions: int) -> None:
        self.ids = np.empty(capacity, np.int64)
        self.keys = np.empty((capacity, 2), np.uint64)  # the record ids' 16 bytes
        self.vectors = np.empty((capacity, dimensions), np.float32)
        self.used = 0
        self.lock = threading.Lock()

    @classmethod
    def holding(cls, n: int, dimensions: int) -> _Rows:
        return cls(n + n // 4 + 16, dimensions)

    def __len__(self) -> int:
        return len(self.ids)


def _keys(record_ids: list[uuid.UUID]) -> np.ndarray:
    raw = b"".join(r.bytes for r in record_ids)
    return np.frombuffer(raw, dtype=">u8").reshape(-1, 2).astype(np.uint64)


def _tie(keys: np.ndarray) -> np.ndarray:
    """Each row's place in record id order: PostgreSQL compares uuids byte by byte, as the
    two big-endian halves compare here."""
    order = np.lexsort((keys[:, 1], keys[:, 0]))
    tie = np.empty(len(keys), np.int64)
    tie[order] = np.arange(len(keys))
    return tie


@dataclass(frozen=True)
class ScopeVectors:
    """The vectors of one scope's embedding rows: ``embedding_ids`` ascending, one row of
    ``vectors`` (float32) each, its ``record_ids`` and ``tie`` (its place in record id
    order: the scan's tie-break, ``ORDER BY margin DESC, record_id``)."""

    _rows: _Rows
    n: int
    record_ids: tuple[uuid.UUID, ...]
    tie: np.ndarray

    @property
    def embedding_ids(self) -> np.ndarray:
        return self._rows.ids[: self.n]

    @property
    def vectors(self) -> np.ndarray:
        return self._rows.vectors[: self.n]

    @classmethod
    def build(
        cls, embedding_ids: np.ndarray, record_ids: list[uuid.UUID], vectors: np.ndarray
    ) -> ScopeVectors:
        matrix = np.asarray(vectors, np.float32)
        order = np.argsort(np.asarray(embedding_ids, np.int64), kind="stable")
        records = tuple(record_ids[i] for i in order.tolist())
        n = len(records)
        rows = _Rows.holding(n, matrix.shape[1] if matrix.ndim == 2 else 0)
        rows.ids[:n] = np.asarray(embedding_ids, np.int64)[order]
        rows.keys[:n] = _keys(list(records)) if n else rows.keys[:0]
        rows.vectors[:n] = matrix[order] if n else rows.vectors[:0]
        rows.used = n
        return cls(rows, n, records, _tie(rows.keys[:n]))

    def extended(
        self, embedding_ids: np.ndarray, record_ids: list[uuid.UUID], vectors: np.ndarray
    ) -> ScopeVectors:
        """These rows added: written past this one's rows when their ids all come after
        its last and nothing was written there since (the usual case: new memories of a
        conversation), else everything copied into new storage."""
        order = np.argsort(np.asarray(embedding_ids, np.int64), kind="stable")
        ids = np.asarray(embedding_ids, np.int64)[order]
        added = [record_ids[i] for i in order.tolist()]
        matrix = np.asarray(vectors, np.float32)[order]
        total = self.n + len(added)
        rows = self._rows
        with rows.lock:
            in_place = (
                (self.n == 0 or ids[0] > rows.ids[self.n - 1])
                and rows.used == self.n
                and total <= len(rows)
                and matrix.shape[1] == rows.vectors.shape[1]
            )
            if in_place:
                rows.ids[self.n : total] = ids
                rows.keys[self.n : total] = _keys(added)
                rows.vectors[self.n : total] = matrix
                rows.used = total
        if not in_place:
            return ScopeVectors.build(
                np.concatenate([self.embedding_ids, ids]),
                [*self.record_ids, *added],
                np.vstack([self.vectors, matrix]),
            )
        return ScopeVectors(rows, total, self.record_ids + tuple(added), _tie(rows.keys[:total]))

    def __len__(self) -> int:
        return self.n

    def rows_of(self, record_ids: frozenset[uuid.UUID] | set[uuid.UUID]) -> np.ndarray:
        """The rows whose records are among ``record_ids``."""
        return np.array([i for i, rid in enumerate(self.record_ids) if rid in record_ids], np.int64)

    def rows_in(self, packed: bytes) -> np.ndarray:
        """``rows_of`` the record ids ``packed`` holds, 16 bytes each one after another
        (``uuid_send``), in any order, any repeated."""
        rows_of_key = self._rows_of_key
        found: set[int] = set()
        for start in range(0, len(packed), 16):
            found.update(rows_of_key.get(packed[start : start + 16], ()))
        return np.array(sorted(found), np.int64)

    @cached_property
    def _rows_of_key(self) -> dict[bytes, tuple[int, ...]]:
        """Each record id's 16 bytes -> its rows; built once per ``ScopeVectors`` (a
        kept scope's, at the first recall that reads it packed), which never changes."""
        rows: dict[bytes, tuple[int, ...]] = {}
        for i, rid in enumerate(self.record_ids):
            key = rid.bytes
            rows[key] = (*rows.get(key, ()), i)
        return rows

    def kept(self, embedding_ids: np.ndarray) -> tuple[np.ndarray, list[uuid.UUID], np.ndarray]:
        """The rows whose ids are among ``embedding_ids``: (ids, record ids, vectors)."""
        keep = np.flatnonzero(np.isin(self.embedding_ids, embedding_ids, assume_unique=True))
        return (
            self.embedding_ids[keep],
            [self.record_ids[i] for i in keep.tolist()],
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
        found = self.vectors[rows].astype(np.float64)
        dots = found @ query
        lengths = np.linalg.norm(found, axis=1) * float(np.linalg.norm(query))
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
# The longest ENGRAM_RECALL_VECTOR_CACHE_SECONDS honoured.
MAX_SECONDS = 90.0


class VectorCache:
    """Process memory for ``ScopeVectors``, by scope (tenant, subjects, model): at most
    ``size`` vectors in all, least recently used scopes dropped first, a scope unused for
    ``seconds`` dropped by a sweeper thread (started with the first scope kept)."""

    def __init__(self) -> None:
        self._items: OrderedDict[ScopeKey, tuple[float, ScopeVectors]] = OrderedDict()
        self._held = 0
        self._lock = threading.Lock()
        self._sweeper: threading.Thread | None = None

    @staticmethod
    def size() -> int:
        return int(settings.ENGRAM_RETRIEVAL["VECTOR_CACHE_SIZE"])

    @staticmethod
    def seconds() -> float:
        # Capped so that the bound stays within what the deletion receipt promises
        # ("within two minutes", memory/labels.py).
        return min(float(settings.ENGRAM_RETRIEVAL["VECTOR_CACHE_SECONDS"]), MAX_SECONDS)

    def sweep_every(self) -> float:
        return max(0.1, self.seconds() / 4)

    def bound(self) -> float:
        """How long after a deletion commits a deleted memory's vector can still sit in
        this process's memory, at most (never ranked meanwhile): a scope not checked for
        ``seconds`` is dropped at the next sweep."""
        return self.seconds() + self.sweep_every()

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

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._held = 0

    def discard(self, key: ScopeKey) -> None:
        with self._lock:
            self._drop(key)

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
            time.sleep(self.sweep_every())
            self.sweep()

    def _after_fork_in_child(self) -> None:
        # The parent's sweeper thread does not exist in the child, nor should its vectors.
        self._items = OrderedDict()
        self._held = 0
        self._lock = threading.Lock()
        self._sweeper = None


cache = VectorCache()
register(
    "recall.vector_cache",
    cache.clear,
    lambda: (
        f"{cache.held()} of at most {cache.size()} vectors, a scope idle {cache.seconds():g} s dropped"
    ),
    cache._after_fork_in_child,
)
