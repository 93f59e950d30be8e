"""What the levers that bring memories into a recall share (``expand``, ``entities``,
``timewin``, ``decompose``): reading the records a request may return with their sources,
joining one to the ranked list once, giving it the higher of two scores, and the order
a recall's list is kept in."""

from __future__ import annotations

from django.contrib.postgres.expressions import ArraySubquery
from django.db.models import OuterRef, QuerySet

from memory import relations
from memory.models import MemorySource
from memory.recall.signals import Candidate
from memory.recall.ties import recall_order
from memory.recall.weights import RecallWeights


def with_sources(records: QuerySet) -> QuerySet:
    """``records`` (already the request's eligible ones) with their source event ids, as
    ``signals.load_records`` gives them, in the same query."""
    return records.annotate(
        source_event_ids=ArraySubquery(
            MemorySource.objects.filter(record_id=OuterRef("pk"))
            .order_by("event_id")
            .values("event_id")
        )
    )


def join(out: list[Candidate], by_id: dict, record, *, about_others: bool) -> Candidate:
    """The candidate of ``record``: the one already ranked, or a new one appended to
    ``out`` (flagged when it is about someone else and the question is not)."""
    c = by_id.get(record.id)
    if c is None:
        c = by_id[record.id] = Candidate(record.id, record=record)
        if not about_others and relations.about_someone_else(record.statement):
            c.signals.about_someone_else = True
        out.append(c)
    return c


def raise_to(c: Candidate, score: float, w: RecallWeights) -> None:
    """``c`` keeps the higher of its own score and ``score`` (less ``someone_else`` for a
    fact about someone else, as in ``rank.fuse_and_rerank``)."""
    score -= w.someone_else * float(c.signals.about_someone_else)
    if c.signals.final is None or score > c.signals.final:
        c.signals.final = round(score, 4)


def order(cs: list[Candidate]) -> list[Candidate]:
    """A recall's order: score, then ``ties.record_key`` (the newer first)."""
    return sorted(cs, key=recall_order)
