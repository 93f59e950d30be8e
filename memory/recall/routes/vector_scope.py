"""Whose vectors the vector route reads, and how many (``VectorScope``)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.conf import settings

from core.sqltemplate import read_connection, uuid_array
from memory.recall.routes.common import kept_a_while
from memory.recall.scope import RecallScope


@dataclass(frozen=True)
class VectorScope:
    """Whose vectors the vector route reads (the tenant, the scope's subjects, the model)
    and whether so many that it goes through the HNSW index instead of an exact scan."""

    tenant_id: uuid.UUID
    subject_ids: tuple[uuid.UUID, ...]
    model_id: str
    approximate: bool
    # How many vectors the scope holds, counted up to VECTOR_EXACT_MAX + 1.
    size: int = 0

    @classmethod
    def of(cls, scope: RecallScope, subject_ids: list[uuid.UUID], model_id: str) -> VectorScope:
        """Counted up to the threshold only, while the question is still being embedded;
        a large scope's count is kept a while (``kept_a_while``): near the threshold
        either path returns the right memories."""
        exact_max = settings.ENGRAM_RETRIEVAL["VECTOR_EXACT_MAX"]
        size = kept_a_while(
            ("vectors", scope.tenant_id, model_id, exact_max, *sorted(subject_ids)),
            lambda: _count_vectors(scope.tenant_id, subject_ids, model_id, exact_max + 1),
            lambda v: v,
        )
        return cls(scope.tenant_id, tuple(subject_ids), model_id, size > exact_max, size)


def _count_vectors(
    tenant_id: uuid.UUID, subject_ids: list[uuid.UUID], model_id: str, up_to: int
) -> int:
    """How many vectors of ``model_id`` the subjects hold, counted up to ``up_to``."""
    with read_connection().cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM (SELECT 1 FROM memory_memoryembedding"
            " WHERE tenant_id = %s AND subject_id = ANY(%s::uuid[]) AND model_id = %s"
            " LIMIT %s) AS scope",
            [tenant_id, uuid_array(subject_ids), model_id, up_to],
        )
        return cursor.fetchone()[0]
