"""What the routes found about one candidate, typed: each route's score and rank, the
gate's evidence (lexical coverage, vector margin, slot match), and the rerank's parts
(Engram's own and, when one is configured, the cross-encoder's).

``Signals`` reads as a mapping of the signals present (``"trigram" in signals``,
``signals["vector"]``): that mapping is the per-signal breakdown an item reports as its
``scores``."""

from __future__ import annotations

import math
import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields

from django.conf import settings
from django.contrib.postgres.expressions import ArraySubquery
from django.db.models import Exists, OuterRef, QuerySet
from django.db.models.expressions import RawSQL

from core.sqltemplate import (
    ModelColumns,
    Placeholders,
    QueryTemplate,
    pk_in_array,
    read_connection,
    uuid_array,
)
from memory.models import MemoryEmbedding, MemoryRecord, MemorySource, SourceEvent
from memory.recall.accel import prepared

# The rankings fused (step 4), by route name. The slot route's hits join the key lookup's
# ranking (``exact``), after the hits it found by name: see ``routes.run_routes``.
RANKINGS = ("exact", "lexical", "trigram", "vector", "recency")
# Signals that keep the best value seen, not a rank.
VALUE_SIGNALS = ("lexical_coverage", "vector_margin", "slot_match")
_VIA = "_via_other_version"


@dataclass(eq=False)
class Signals(Mapping[str, float]):
    # Route scores (present when the route found the memory).
    exact: float | None = None
    lexical: float | None = None
    trigram: float | None = None
    recency: float | None = None
    vector: float | None = None
    # Gate evidence: the share of the question's words the memory contains, how much
    # more it matches the question than a typical question, how well the question
    # matches its slot's name.
    lexical_coverage: float | None = None
    vector_margin: float | None = None
    slot_match: float | None = None
    # A fact about another person, for a question about the user.
    about_someone_else: bool = False
    # Derived from a turn of the speaker the question is about (``rank.scope_to_speaker``).
    spoken_by_speaker: bool = False
    # Rerank parts, set for the candidates that pass the gate.
    fused: float | None = None
    freshness: float | None = None
    confidence: float | None = None
    importance: float | None = None
    final: float | None = None
    # The configured cross-encoder's score (step 5b, ``crossrank``), on its own scale; set
    # for the top candidates it scored.
    model_rerank: float | None = None
    # Signals whose counted value came through another version of the fact.
    via_other_version: set[str] = field(default_factory=set)

    def as_scores(self) -> dict[str, float]:
        out: dict[str, float] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "via_other_version":
                continue
            if isinstance(value, bool):
                if value:
                    out[f.name] = 1.0
            elif value is not None:
                out[f.name] = value
                if f.name in self.via_other_version:
                    out[f.name + _VIA] = 1.0
        return out

    def __getitem__(self, key: str) -> float:
        return self.as_scores()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.as_scores())

    def __len__(self) -> int:
        return len(self.as_scores())

    def __repr__(self) -> str:
        return f"Signals({self.as_scores()!r})"


@dataclass
class Candidate:
    id: uuid.UUID
    # Loaded with what the word routes found (``run_routes``), and for the vector route's
    # own finds once they pass the relevance gate (``fuse_and_rerank``).
    record: MemoryRecord = None  # type: ignore[assignment]
    # Rank in each ranking that found it (``RANKINGS``).
    ranks: dict[str, int] = field(default_factory=dict)
    signals: Signals = field(default_factory=Signals)


class Candidates(dict[uuid.UUID, Candidate]):
    """The candidates of one recall, by record id, as the routes credit them."""

    def __init__(self, answers_of: dict[uuid.UUID, list[uuid.UUID]]) -> None:
        super().__init__()
        # Other versions of single-valued facts -> the slot's eligible value(s).
        self._answers_of = answers_of

    def credit(self, rid: uuid.UUID, signal: str, value: float, rank: int | None = None) -> None:
        """Record a hit: a rank in ``signal``'s ranking (the best rank counts) or a
        value signal (the best value counts). A hit on another version of a fact counts
        for the slot's eligible value(s)."""
        assert signal in (RANKINGS if rank is not None else VALUE_SIGNALS), signal
        via_other_version = rid in self._answers_of
        for target in self._answers_of.get(rid, [rid]):
            # Not ``setdefault(target, Candidate(target))``: that builds a candidate (and
            # its signals) on every credit, most of them for one already held.
            c = self.get(target)
            if c is None:
                c = self[target] = Candidate(target)
            s = c.signals
            if rank is not None:
                if signal in c.ranks and c.ranks[signal] <= rank:
                    continue
                c.ranks[signal] = rank
            else:
                held = getattr(s, signal)
                if (held if held is not None else -math.inf) >= value:
                    continue
            setattr(s, signal, round(float(value), 4))
            if via_other_version:
                s.via_other_version.add(signal)
            else:
                s.via_other_version.discard(signal)


def load_records(
    ids: list[uuid.UUID], *, with_speakers: bool, model_id: str = ""
) -> dict[uuid.UUID, MemoryRecord]:
    """The candidates' records, in one query, each with ``source_event_ids`` (the events
    it was derived from, for its item's source), ``with_speakers``, ``source_speakers``
    (who said them) and, with a ``model_id``, ``has_vector`` (whether it is embedded
    under that model yet): a subquery per row, not a query per candidate. With
    ``ENGRAM_RECALL_COMPILED_QUERIES`` the query runs from its SQL compiled once per
    shape, and the records are built from its rows as the ORM builds them."""
    if not ids:
        return {}
    if not settings.ENGRAM_RETRIEVAL["COMPILED_QUERIES"]:
        return {record.id: record for record in _records(ids, with_speakers, model_id)}
    shape = (with_speakers, bool(model_id))
    rows = prepared.rows(_RECORDS, shape, {"ids": uuid_array(ids), "model_id": model_id})
    connection = read_connection()
    annotations = _annotations(*shape)
    width = len(_RECORD)
    loaded = {}
    for row in rows:
        record = _RECORD.instance(row[:width], connection)
        for name, value in zip(annotations, row[width:], strict=True):
            setattr(record, name, value)
        loaded[record.id] = record
    return loaded


_RECORD = ModelColumns(MemoryRecord)


def _annotations(with_speakers: bool, with_model: bool) -> tuple[str, ...]:
    return (
        "source_event_ids",
        *(("has_vector",) if with_model else ()),
        *(("source_speakers",) if with_speakers else ()),
    )


def _records(ids: list[uuid.UUID], with_speakers: bool, model_id: str) -> QuerySet[MemoryRecord]:
    """The reference: the records as the ORM loads them."""
    records = MemoryRecord.objects.filter(
        pk__in=RawSQL("SELECT unnest(%s::uuid[])", [uuid_array(ids)])
    )
    return _annotated(records, with_speakers, model_id).using(read_connection().alias)


def _annotated(records: QuerySet, with_speakers: bool, model_id: str) -> QuerySet[MemoryRecord]:
    sources = MemorySource.objects.filter(record_id=OuterRef("pk")).order_by("event_id")
    records = records.annotate(source_event_ids=ArraySubquery(sources.values("event_id")))
    if model_id:
        records = records.annotate(
            has_vector=Exists(
                MemoryEmbedding.objects.filter(record_id=OuterRef("pk"), model_id=model_id)
            )
        )
    if with_speakers:
        spoken = SourceEvent.objects.filter(memorysource__record_id=OuterRef("pk")).values(
            "speaker"
        )
        records = records.annotate(source_speakers=ArraySubquery(spoken))
    return records


def _records_query(p: Placeholders, with_speakers: bool, with_model: bool) -> QuerySet:
    records = MemoryRecord.objects.filter(pk_in_array(p, "ids"))
    model_id = p.text("model_id") if with_model else ""
    return _annotated(records, with_speakers, model_id).values_list(
        *_RECORD.names, *_annotations(with_speakers, with_model)
    )


_RECORDS = QueryTemplate(_records_query)
