"""Where the hits sit in the conversations (``memory.recall.expand``). The turns next to
a hit (weight ``adjacent_turns``): off by default; when on, the memory of the turn before or after a recalled turn in its thread
comes along below the hit — and only if it is eligible for the request itself: another
subject's, a deleted, a superseded or a too-sensitive one never comes back this way. The spread over threads
(``thread_spread``): off by default; reorders, never adds or drops."""

from __future__ import annotations

import pytest

from core.actor import Actor
from memory.models import MemoryRecord, MemoryStatus
from memory.recall import RecallRequest, RecallScope
from memory.recall import recall as recall_pipeline
from memory.recall.expand import SEEDS, neighbour_events, spread_threads, threads_of
from memory.recall.signals import Candidate
from memory.recall.weights import RecallWeights
from memory.services.user_memory import memory_correct, memory_delete_with_undo
from tests.helpers.conversation import converse
from tests.helpers.retrieval import PURPOSE, ids, remember

pytestmark = pytest.mark.django_db

ON = RecallWeights(adjacent_turns=0.5)

# The hit is the middle turn: its words answer; the turns around it share none of them.
EN = [
    ("Ada", "Any big news since we last talked?"),
    ("Bea", "I moved to Lisbon in March for the new job."),
    ("Ada", "Wow, congratulations! Is the neighbourhood nice?"),
    ("Bea", "Unrelated: my sister runs a bakery."),
]
EN_Q = "Where did Bea move to?"
ZH = [
    ("小林", "最近有什么大事吗？"),
    ("小周", "我三月搬到了里斯本，因为新工作。"),
    ("小林", "哇，恭喜！那边环境好吗？"),
    ("小周", "另外，我姐姐开了一家面包店。"),
]
ZH_Q = "小周搬到了哪里？"


def _recall(agent, subject, query, weights=None):
    return recall_pipeline(
        actor=Actor.agent(agent.id, agent.tenant_id),
        scope=RecallScope(
            tenant_id=subject.tenant_id,
            subject_id=subject.id,
            agent_id=agent.id,
            clearance=agent.clearance,
        ),
        request=RecallRequest(query=query, purpose=PURPOSE, k=10),
        weights=weights,
        record_trace=False,
    )


def _final(result, rid) -> float:
    return next(i.scores["final"] for i in result.items if i.id == rid)


@pytest.mark.parametrize(("turns", "question"), [(EN, EN_Q), (ZH, ZH_Q)], ids=["en", "zh"])
def test_the_turns_around_a_hit_come_along_below_it(
    write_agent, read_agent, owner_subject, turns, question
):
    rids = converse(write_agent.agent, owner_subject, turns)
    off = _recall(read_agent.agent, owner_subject, question, RecallWeights())
    assert rids[1] in ids(off)
    assert rids[0] not in ids(off)  # nothing of it answers by itself
    on = _recall(read_agent.agent, owner_subject, question, ON)
    assert rids[1] in ids(on) and rids[0] in ids(on)
    # At a share of the hit's score: never above the hit.
    assert _final(on, rids[0]) <= ON.adjacent_turns * _final(on, rids[1]) + 1e-4
    assert ids(on).index(rids[1]) < ids(on).index(rids[0])


def test_off_by_default_and_set_per_tenant():
    assert RecallWeights().adjacent_turns == 0.0
    on = RecallWeights.for_tenant({"recall_weights": {"adjacent_turns": 0.4}})
    assert on.adjacent_turns == 0.4
    # A share: clamped to [0, 1]; junk is ignored.
    assert RecallWeights.for_tenant({"recall_weights": {"adjacent_turns": 7}}).adjacent_turns == 1
    for junk in ("a lot", True, float("nan"), None):
        weights = RecallWeights.for_tenant({"recall_weights": {"adjacent_turns": junk}})
        assert weights.adjacent_turns == 0.0


def test_only_the_same_thread_and_only_next_to_the_hit(write_agent, read_agent, owner_subject):
    rids = converse(write_agent.agent, owner_subject, EN)
    other = converse(write_agent.agent, owner_subject, [("Ada", "Tell me more.")], thread="s2")
    events = neighbour_events([rids[1]])
    cited = set(
        MemoryRecord.objects.filter(memorysource__event_id__in=list(events)).values_list(
            "id", flat=True
        )
    )
    # One turn each side, in the hit's own thread; not two turns away, not another thread.
    assert cited == {rids[0], rids[2]}
    assert other[0] not in cited and rids[3] not in cited
    assert neighbour_events([]) == {}
    assert SEEDS >= 1


def test_another_subjects_turns_never_come_back(
    write_agent, read_agent, owner_subject, same_tenant_user
):
    """Another user's identical conversation, in a thread of the same name."""
    _, bob = same_tenant_user
    mine = converse(write_agent.agent, owner_subject, EN[1:2])
    theirs = converse(write_agent.agent, bob, EN)
    assert neighbour_events([mine[0]]) == {}  # no neighbour in my own thread
    on = _recall(read_agent.agent, owner_subject, EN_Q, ON)
    assert ids(on) == [mine[0]]
    assert not set(ids(on)) & set(theirs)


def test_a_deleted_neighbour_never_comes_back(write_agent, read_agent, owner_subject, owner):
    rids = converse(write_agent.agent, owner_subject, EN)
    user, _ = owner
    # Deleted with undo: out of reach at once, its event still there until the erasure.
    memory_delete_with_undo(
        user=user, subject=owner_subject, record=MemoryRecord.objects.get(id=rids[0])
    )
    assert neighbour_events([rids[1]])  # the turn is still next to the hit
    on = _recall(read_agent.agent, owner_subject, EN_Q, ON)
    assert rids[1] in ids(on)
    assert rids[0] not in ids(on)


def test_a_superseded_neighbour_never_comes_back(write_agent, read_agent, owner_subject, owner):
    rids = converse(write_agent.agent, owner_subject, ZH)
    user, _ = owner
    result = memory_correct(
        user=user,
        subject=owner_subject,
        record=MemoryRecord.objects.get(id=rids[0]),
        statement="小林：最近怎么样？",
    )
    assert result.ok
    old = MemoryRecord.objects.get(id=rids[0])
    assert old.status == MemoryStatus.SUPERSEDED or old.superseded_at is not None
    on = _recall(read_agent.agent, owner_subject, ZH_Q, ON)
    assert rids[1] in ids(on)
    assert rids[0] not in ids(on)


def test_a_too_sensitive_neighbour_never_comes_back(write_agent, read_agent, owner_subject):
    rids = converse(write_agent.agent, owner_subject, EN, sensitivity={0: "restricted"})
    assert MemoryRecord.objects.get(id=rids[0]).sensitivity == "restricted"
    assert read_agent.agent.clearance != "restricted"
    on = _recall(read_agent.agent, owner_subject, EN_Q, ON)
    assert rids[1] in ids(on)
    assert rids[0] not in ids(on)
    # The turn after the hit, which the agent may read, does come along.
    assert rids[2] in ids(on)


def _ranked(rids, finals):
    records = MemoryRecord.objects.in_bulk(rids)
    out = []
    for rid, final in zip(rids, finals, strict=True):
        c = Candidate(rid, record=records[rid])
        c.signals.final = final
        out.append(c)
    return out


@pytest.mark.parametrize("turns", [EN, ZH], ids=["en", "zh"])
def test_spread_lowers_repeats_from_one_thread(write_agent, owner_subject, turns):
    one = converse(write_agent.agent, owner_subject, turns[:3], thread="t1")
    two = converse(write_agent.agent, owner_subject, turns[3:], thread="t2")
    fact = remember(owner_subject, "Bea works as an architect.", embed=False).record_id
    ranked = _ranked([*one, *two, fact], [0.9, 0.85, 0.8, 0.78, 0.7])
    # Off: unchanged.
    assert spread_threads(ranked, RecallWeights()) is ranked
    spread = spread_threads(ranked, RecallWeights(thread_spread=0.1))
    order = [c.id for c in spread]
    # The second thread's turn passes the second and third of the first thread (0.85 -
    # 0.1 < 0.78); a memory from no thread is never lowered (0.7 passes 0.8 - 0.2).
    assert order == [one[0], two[0], one[1], fact, one[2]]
    assert [c.signals.final for c in spread] == [0.9, 0.78, 0.75, 0.7, 0.6]
    # Reorders only: the same memories, none added or dropped.
    assert set(order) == {c.id for c in ranked}
    assert threads_of([fact]) == {} and threads_of([]) == {}


def test_spread_in_recall_keeps_the_same_memories(write_agent, read_agent, owner_subject):
    converse(write_agent.agent, owner_subject, EN, thread="t1")
    converse(write_agent.agent, owner_subject, EN[1:2], thread="t2")
    off = _recall(read_agent.agent, owner_subject, EN_Q, RecallWeights())
    on = _recall(read_agent.agent, owner_subject, EN_Q, RecallWeights(thread_spread=0.1))
    assert set(ids(on)) == set(ids(off)) and ids(on)
