"""``ENGRAM_RECALL_PACKED_SEARCHABLE``: the searchable record ids read as their bytes one
after another (``uuid_send``) select the kept vectors' rows that the array of uuids selects
(``ScopeVectors.rows_in`` against ``rows_of``), and recall answers the same with it on and
off, before and after memories are deleted."""

from __future__ import annotations

import random
import uuid

import numpy as np
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from memory.recall.accel import vector_cache
from tests.helpers.lifecycle import erase
from tests.helpers.retrieval import recall, remember

POOL = [uuid.UUID(int=(n * 0x9E3779B97F4A7C15) % (1 << 128)) for n in range(1, 40)]


@hsettings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    kept=st.lists(st.sampled_from(POOL), max_size=25),
    searchable=st.lists(st.sampled_from(POOL), max_size=30),
)
def test_rows_in_the_packed_ids_are_rows_of_the_uuids(kept, searchable):
    # A record may hold more than one kept row; a searchable id may repeat, or have no
    # kept vector (not embedded yet).
    vectors = vector_cache.ScopeVectors.build(
        np.arange(len(kept), dtype=np.int64),
        list(kept),
        np.zeros((len(kept), 4), np.float32),
    )
    packed = b"".join(rid.bytes for rid in searchable)
    expected = vectors.rows_of(frozenset(searchable))
    got = vectors.rows_in(packed)
    assert got.dtype == expected.dtype
    assert got.tolist() == expected.tolist()
    assert vectors.rows_in(packed).tolist() == expected.tolist()  # the kept index again


def test_whole_recalls_answer_the_same(read_agent, owner_subject, same_tenant_user, settings):
    rng = random.Random(29)
    written = [
        remember(owner_subject, f"User keeps a {thing} in the cellar").record_id
        for thing in rng.sample(["kayak", "cello", "bonsai", "telescope", "lute", "easel"], 5)
    ]
    for thing in ("大提琴", "望远镜"):
        remember(owner_subject, f"用户的地下室里有一个{thing}")
    remember(owner_subject, "User keeps a harp in the cellar", purpose="billing")
    remember(same_tenant_user[1], "User keeps a drum in the cellar")
    questions = ["What does the user keep in the cellar?", "用户的地下室里有什么？"]

    def answers(packed: bool) -> list:
        settings.ENGRAM_RETRIEVAL = {
            **settings.ENGRAM_RETRIEVAL,
            "FREEZE_ACCESS": True,
            "VECTOR_CACHE": True,
            "ONE_SCOPE_READ": True,
            "SCOPE_COUNTS": False,
            "PACKED_SEARCHABLE": packed,
        }
        return [
            [(i.id, i.scores) for i in recall(read_agent.agent, owner_subject, q).items]
            for q in questions
        ]

    for _ in range(2):  # the cache cold, then holding the scope
        reference = answers(False)
        assert all(reference)
        assert answers(True) == reference
    assert vector_cache.cache.held() > 0
    erase(owner_subject, "memory", written[0])
    reference = answers(False)
    assert answers(True) == reference
    assert written[0] not in {rid for items in reference for rid, _ in items}
