"""More like the best hits (``memory.recall.feedback``, pseudo-relevance feedback): the
memory nearest the question moved towards the best hits comes along, graded, only when
the lever is on, and only if the request may see it. Vectors are set by hand (a stub
model) so what is near what is known, in both languages."""

from __future__ import annotations

import numpy as np
import pytest
from django.utils import timezone

from core.tenancy import tenant_context
from memory.models import MemoryEmbedding, MemoryRecord
from memory.recall.feedback import FEEDBACK_BETA, HITS, SEEDS, feedback_vector, like_hits
from memory.recall.scope import Eligible, RecallRequest, RecallScope
from memory.recall.signals import Candidate
from memory.recall.weights import RecallWeights
from tests.helpers.retrieval import PURPOSE, remember

MODEL = "stub-feedback"
DIM = 384


def _unit(*axes: tuple[int, float]) -> np.ndarray:
    v = np.zeros(DIM)
    for axis, value in axes:
        v[axis] = value
    return v / np.linalg.norm(v)


class _Stub:
    """What ``like_hits`` reads of a ``QueryVector``."""

    def __init__(self, query, typical) -> None:
        self.model_id = MODEL
        self._got = (query, typical)

    def result(self):
        return self._got


def test_the_moved_question_is_the_margin_to_question_and_centroid():
    q, t = _unit((0, 1.0)), _unit((9, 1.0))
    seeds = [_unit((1, 1.0)), _unit((2, 1.0))]
    moved = feedback_vector(q, t, seeds)
    expected = q + FEEDBACK_BETA * (seeds[0] + seeds[1]) / 2 - (1 + FEEDBACK_BETA) * t
    assert np.allclose(moved, expected)
    # A memory on the seeds' common axis gains; one on the typical question's loses.
    assert moved @ _unit((1, 1.0), (2, 1.0)) > moved @ _unit((3, 1.0)) > moved @ t


def test_the_seeds_order_does_not_matter():
    q, t = _unit((0, 1.0)), _unit((0, 0.2), (DIM - 1, 1.0))
    seeds = [_unit((a, 1.0), (a + 1, 0.5)) for a in (1, 5, 17, 200)]
    assert np.allclose(feedback_vector(q, t, seeds), feedback_vector(q, t, seeds[::-1]))
    assert not np.allclose(feedback_vector(q, t, seeds), feedback_vector(q, t, seeds[:1]))


def _memory(subject, text, vector, final=None):
    rid = remember(subject, text, embed=False).record_id
    record = MemoryRecord.objects.get(id=rid)
    MemoryEmbedding.objects.create(
        tenant_id=subject.tenant_id, subject=subject, record=record, model_id=MODEL, vector=vector
    )
    if final is None:
        return rid
    c = Candidate(rid, record=record)
    c.signals.final = final
    return c


def _eligible(subject, agent):
    now = timezone.now()
    scope = RecallScope(subject.tenant_id, subject.id, agent.id, agent.clearance)
    return Eligible.of(scope, RecallRequest(query="q", purpose=PURPOSE), as_of=now, now=now)


def _fixture(subject):
    """Three hits about hobbies (axis 1 shared, each its own too), one unranked memory on
    their shared axis only (it shares nothing with the question), and unrelated ones."""
    ranked = [
        _memory(subject, "User paints watercolours to relax", _unit((0, 1), (1, 1)), 0.9),
        _memory(subject, "用户周末去划皮划艇放松", _unit((0, 0.8), (1, 1), (2, 0.5)), 0.8),
        _memory(subject, "User plays the cello in the evenings", _unit((0, 0.7), (1, 1)), 0.7),
    ]
    liked = _memory(subject, "用户每周日在公园里画鸟", _unit((1, 1.0), (4, 0.3)))
    for i, text in enumerate(["User's laptop is a ThinkPad", "用户住在杭州", "User flies aisle"]):
        _memory(subject, text, _unit((10 + i, 1.0)))
    return ranked, liked


Q, T = _unit((0, 1.0)), _unit((9, 1.0))


@pytest.mark.django_db
def test_the_memory_like_the_best_hits_comes_along_only_when_on(read_agent, owner_subject):
    with tenant_context(owner_subject.tenant_id):
        ranked, liked = _fixture(owner_subject)
        eligible = _eligible(owner_subject, read_agent.agent)
        stub = _Stub(Q, T)
        off = like_hits(list(ranked), eligible, RecallWeights(), query_vector=stub)
        assert [c.id for c in off] == [c.id for c in ranked]  # off by default
        on = like_hits(
            list(ranked), eligible, RecallWeights(vector_feedback=0.5), query_vector=stub
        )
        by_id = {c.id: c for c in on}
        assert liked in by_id and SEEDS == 3 and HITS == 5
        # The first hit that is not a seed joins at the full share of the best score.
        assert by_id[liked].signals.final == pytest.approx(0.5 * 0.9)
        # The seeds keep their own scores and order; nothing unrelated outranks them.
        assert [c.id for c in on[:3]] == [c.id for c in ranked]
        # No vector for the question, or nothing ranked: unchanged.
        assert (
            like_hits(list(ranked), eligible, RecallWeights(vector_feedback=0.5), query_vector=None)
            == ranked
        )
        assert like_hits([], eligible, RecallWeights(vector_feedback=0.5), query_vector=stub) == []


@pytest.mark.django_db
def test_a_deleted_or_another_subjects_memory_never_comes(
    read_agent, owner_subject, owner, same_tenant_user
):
    from memory.services.user_memory import memory_delete_with_undo

    with tenant_context(owner_subject.tenant_id):
        ranked, liked = _fixture(owner_subject)
        theirs = _memory(same_tenant_user[1], "用户每周日在公园里画鸟", _unit((1, 1.0)))
        memory_delete_with_undo(
            user=owner[0], subject=owner_subject, record=MemoryRecord.objects.get(id=liked)
        )
        on = like_hits(
            list(ranked),
            _eligible(owner_subject, read_agent.agent),
            RecallWeights(vector_feedback=0.9),
            query_vector=_Stub(Q, T),
        )
        returned = {c.id for c in on}
        assert liked not in returned and theirs not in returned
        assert {c.id for c in ranked} <= returned
