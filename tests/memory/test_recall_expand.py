"""Where the hits sit in the conversations (``memory.recall.expand``). The reply to a
recalled turn that asks something (weight ``adjacent_reply``): when on, the memory of the
turn after it in its thread comes along below the hit — and only if it is eligible for
the request itself: another subject's, a deleted, a superseded or a too-sensitive one
never comes back this way. The spread over threads (``thread_spread``): reorders, never
adds or drops."""

from __future__ import annotations

from dataclasses import replace

import pytest

from memory.models import MemoryRecord, MemoryStatus, SourceEvent
from memory.recall.expand import SEEDS, next_events, spread_threads, threads_of
from memory.recall.signals import Candidate
from memory.recall.weights import RecallWeights
from memory.services.user_memory import memory_correct, memory_delete_with_undo
from tests.helpers.conversation import converse
from tests.helpers.retrieval import final, ids, remember, weighed

pytestmark = pytest.mark.django_db

ON = RecallWeights(adjacent_reply=0.9)
OFF = RecallWeights(adjacent_reply=0.0)

# The hit asks; the reply after it shares none of the question's words.
EN = [
    ("Ada", "How did the job interview in Lisbon go?"),
    ("Bea", "Great, they offered me the position!"),
    ("Ada", "Congratulations! Let's celebrate on Friday."),
    ("Bea", "Unrelated: my sister runs a bakery."),
]
EN_Q = "How was the job interview in Lisbon?"
ZH = [
    ("小林", "你在里斯本的工作面试怎么样？"),
    ("小周", "很顺利，他们给了我那个职位！"),
    ("小林", "恭喜！周五一起庆祝吧。"),
    ("小周", "另外，我姐姐开了一家面包店。"),
]
ZH_Q = "里斯本的工作面试怎么样？"
# The hit states; nothing asks.
STATED = [
    ("Bea", "I moved to Lisbon in March for the new job."),
    ("Ada", "Good for you. The weather there is lovely."),
]
STATED_Q = "Where did Bea move to?"


@pytest.mark.parametrize(("turns", "question"), [(EN, EN_Q), (ZH, ZH_Q)], ids=["en", "zh"])
def test_the_reply_to_a_recalled_question_comes_along_below_it(
    write_agent, read_agent, owner_subject, turns, question
):
    rids = converse(write_agent.agent, owner_subject, turns)
    off = weighed(read_agent.agent, owner_subject, question, OFF)
    assert ids(off)[0] == rids[0]  # the turn that asks holds the question's words
    on = weighed(read_agent.agent, owner_subject, question, ON)
    assert ids(on)[:2] == [rids[0], rids[1]]
    # At a share of the hit's score: above what it scored alone, never above the hit.
    assert final(on, rids[1]) == pytest.approx(ON.adjacent_reply * final(on, rids[0]), abs=1e-3)
    assert final(on, rids[1]) > final(off, rids[1])
    # Only the turn right after: not the one after that, through this lever.
    assert next_events([rids[0]]).keys() == {
        SourceEvent.objects.get(subject=owner_subject, client_event_id="s1:1").id
    }


def test_on_by_default_through_the_tenants_weights(write_agent, read_agent, owner_subject):
    rids = converse(write_agent.agent, owner_subject, ZH)
    assert ids(weighed(read_agent.agent, owner_subject, ZH_Q))[:2] == rids[:2]


def test_a_hit_that_asks_nothing_brings_nothing(write_agent, read_agent, owner_subject):
    converse(write_agent.agent, owner_subject, STATED)
    off = weighed(read_agent.agent, owner_subject, STATED_Q, OFF)
    on = weighed(read_agent.agent, owner_subject, STATED_Q, ON)
    assert ids(off) and [(i.id, i.scores["final"]) for i in on.items] == [
        (i.id, i.scores["final"]) for i in off.items
    ]


def test_defaults_and_set_per_tenant():
    # The reply is on by default (kept by leave one conversation out), the spread off.
    assert RecallWeights().adjacent_reply == 0.9 and RecallWeights().thread_spread == 0.0
    on = RecallWeights.for_tenant({"recall_weights": {"adjacent_reply": 0.4}})
    assert on.adjacent_reply == 0.4
    assert RecallWeights.for_tenant({"recall_weights": {"adjacent_reply": 0}}).adjacent_reply == 0
    # A share: clamped to [0, 1]; junk is ignored.
    assert RecallWeights.for_tenant({"recall_weights": {"adjacent_reply": 7}}).adjacent_reply == 1
    for junk in ("a lot", True, float("nan"), None):
        weights = RecallWeights.for_tenant({"recall_weights": {"adjacent_reply": junk}})
        assert weights.adjacent_reply == 0.9


def test_only_the_same_thread(write_agent, read_agent, owner_subject):
    asked = converse(write_agent.agent, owner_subject, EN[:1], thread="t1")
    converse(write_agent.agent, owner_subject, EN[1:2], thread="t2")
    assert next_events(asked) == {} and next_events([]) == {}
    on = weighed(read_agent.agent, owner_subject, EN_Q, ON)
    assert ids(on)[0] == asked[0]
    assert SEEDS >= 1


def test_another_subjects_reply_never_comes_back(
    write_agent, read_agent, owner_subject, same_tenant_user
):
    """Another user's identical conversation, in a thread of the same name."""
    _, bob = same_tenant_user
    mine = converse(write_agent.agent, owner_subject, EN[:1])
    theirs = converse(write_agent.agent, bob, EN)
    assert next_events(mine) == {}  # no turn after mine in my own thread
    on = weighed(read_agent.agent, owner_subject, EN_Q, ON)
    assert ids(on)[0] == mine[0]
    assert not set(ids(on)) & set(theirs)


def test_a_deleted_reply_never_comes_back(write_agent, read_agent, owner_subject, owner):
    rids = converse(write_agent.agent, owner_subject, EN)
    user, _ = owner
    # Deleted with undo: out of reach at once, its event still there until the erasure.
    memory_delete_with_undo(
        user=user, subject=owner_subject, record=MemoryRecord.objects.get(id=rids[1])
    )
    assert next_events([rids[0]])  # the turn is still the one after the hit
    on = weighed(read_agent.agent, owner_subject, EN_Q, ON)
    assert rids[0] in ids(on)
    assert rids[1] not in ids(on)


def test_a_superseded_reply_never_comes_back(write_agent, read_agent, owner_subject, owner):
    rids = converse(write_agent.agent, owner_subject, ZH)
    user, _ = owner
    result = memory_correct(
        user=user,
        subject=owner_subject,
        record=MemoryRecord.objects.get(id=rids[1]),
        statement="小周：还在等结果。",
    )
    assert result.ok
    old = MemoryRecord.objects.get(id=rids[1])
    assert old.status == MemoryStatus.SUPERSEDED or old.superseded_at is not None
    on = weighed(read_agent.agent, owner_subject, ZH_Q, ON)
    assert rids[0] in ids(on)
    assert rids[1] not in ids(on)


def test_a_too_sensitive_reply_never_comes_back(write_agent, read_agent, owner_subject):
    rids = converse(write_agent.agent, owner_subject, EN, sensitivity={1: "restricted"})
    assert MemoryRecord.objects.get(id=rids[1]).sensitivity == "restricted"
    assert read_agent.agent.clearance != "restricted"
    assert next_events([rids[0]])
    on = weighed(read_agent.agent, owner_subject, EN_Q, ON)
    assert rids[0] in ids(on)
    assert rids[1] not in ids(on)


def _ranked(rids, finals):
    records = MemoryRecord.objects.in_bulk(rids)
    out = []
    for rid, score in zip(rids, finals, strict=True):
        c = Candidate(rid, record=records[rid])
        c.signals.final = score
        out.append(c)
    return out


@pytest.mark.parametrize("turns", [EN, ZH], ids=["en", "zh"])
def test_spread_lowers_repeats_from_one_thread(write_agent, owner_subject, turns):
    one = converse(write_agent.agent, owner_subject, turns[:3], thread="t1")
    two = converse(write_agent.agent, owner_subject, turns[3:], thread="t2")
    fact = remember(owner_subject, "Bea works as an architect.", embed=False).record_id
    ranked = _ranked([*one, *two, fact], [0.9, 0.85, 0.8, 0.78, 0.7])
    # Off: unchanged.
    assert spread_threads(ranked, OFF) is ranked
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
    off = weighed(read_agent.agent, owner_subject, EN_Q, OFF)
    on = weighed(read_agent.agent, owner_subject, EN_Q, replace(OFF, thread_spread=0.1))
    assert set(ids(on)) == set(ids(off)) and ids(on)
