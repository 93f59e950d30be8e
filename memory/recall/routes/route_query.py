"""The one typed query every route takes (``RouteQuery``)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from functools import cached_property

from django.db.models import Q, QuerySet

from memory.models import MemoryRecord
from memory.recall.query import QueryVector
from memory.recall.routes import common
from memory.recall.routes.slots import SlotKeys
from memory.recall.routes.vector_scope import VectorScope
from memory.recall.scope import Eligible, RecallRequest, RecallScope
from memory.recall.weights import RecallWeights

Hits = list[tuple[uuid.UUID, float]]


@dataclass
class RouteQuery:
    """What every route searches for, and where: the eligible records (steps 1–2), the
    question as searched (``request.query``), the weights, the scope's subjects (the
    request's, and the procedures subject when in reach), the question's embedding (on
    another thread), the other versions of single-valued facts, the subject's predicates,
    the names of its conversations' speakers and whether a speaker is asked about."""

    eligible: Eligible
    scope: RecallScope
    request: RecallRequest
    weights: RecallWeights
    subject_ids: list[uuid.UUID]
    query_vector: QueryVector
    slot_keys: SlotKeys = field(default_factory=SlotKeys)
    predicates: tuple[str, ...] = ()
    scope_names: frozenset[str] = frozenset()
    with_speakers: bool = False

    @property
    def n(self) -> int:
        return self.weights.candidates_per_route

    @cached_property
    def records(self) -> QuerySet[MemoryRecord]:
        """The eligible records as a queryset, built only if a route queries it: most
        questions name no key, identifier or recent event."""
        return self.eligible.queryset

    @property
    def doc_scope(self) -> Q:
        """The lexical docs of the scope's subjects, named directly (not only through the
        join to ``eligible``) so PostgreSQL narrows to them by index before matching any
        text."""
        return Q(tenant_id=self.scope.tenant_id, subject_id__in=self.subject_ids)

    @cached_property
    def statistics(self) -> tuple[int, float]:
        """The scope's lexical statistics (BM25's, and whether the word routes search
        through their indexes), counted once, when a route asks."""
        return common.scope_statistics(self.scope.tenant_id, self.subject_ids)

    def statistics_known(self) -> bool:
        """Whether ``statistics`` has been read for this query."""
        return "statistics" in self.__dict__

    def know_statistics(self, value: tuple[int, float]) -> None:
        """``statistics`` as read together with another statement
        (``accel.lexemes_read``)."""
        self.__dict__["statistics"] = value

    def large_scope(self) -> bool:
        return self.statistics[0] >= common.LEXICAL_INDEX_FROM

    @cached_property
    def vector_scope(self) -> VectorScope:
        return VectorScope.of(self.scope, self.subject_ids, self.query_vector.model_id)
