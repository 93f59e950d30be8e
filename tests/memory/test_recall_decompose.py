"""A question of several parts, recalled part by part (``memory.recall.decompose``): how
questions split in both languages, that a one-part question and the lever at 0 are the
reference's answer, and that no part ever reaches what the request may not return."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st

from core.actor import Actor
from core.tenancy import tenant_context
from memory.models import MemoryRecord, MemoryStatus
from memory.recall import decompose
from memory.recall import pipeline as recall_module
from memory.recall.decompose import MAX_PARTS, parts
from memory.recall.weights import RecallWeights
from memory.services.forgetting import records_expire
from memory.services.user_memory import memory_correct, memory_delete_with_undo
from tests.helpers.retrieval import BACKGROUND, final, ids, remember, weighed

ON = RecallWeights(decompose=1.0, adjacent_reply=0)
OFF = RecallWeights(decompose=0.0, adjacent_reply=0)

QUESTION = "Which instrument does the user play in Tromsø or Cartagena?"
IN_A = "User plays the cello in a quartet in Tromsø"
IN_B = "User plays the marimba at a street festival in Cartagena"


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        (
            "What do Ingrid and Tomasz both collect?",
            ["What do Ingrid collect?", "What do Tomasz collect?"],
        ),
        (
            "Where did Ingrid travel, and when did Tomasz start his job?",
            ["Where did Ingrid travel", "when did Tomasz start his job?"],
        ),
        (
            "What did Ingrid, Tomasz and Olu cook in March?",
            [
                "What did Ingrid cook in March?",
                "What did Tomasz cook in March?",
                "What did Olu cook in March?",
            ],
        ),
        ("孙晓雯和周建国都养了什么宠物？", ["孙晓雯养了什么宠物？", "周建国养了什么宠物？"]),
        ("用户搬到了哪座城市，然后找了什么工作？", ["用户搬到了哪座城市", "找了什么工作？"]),
    ],
)
def test_splits_on_entities_and_clauses(question, expected):
    assert parts(question) == expected


@pytest.mark.parametrize(
    "question",
    [
        "What did she and her kids bake?",
        "Does the user like salt and pepper on eggs?",
        "According to Ingrid, what is the best route?",
        "Where does Ingrid live?",
        "用户喜欢吃什么水果？",
        "我和他什么时候见过面？",
    ],
)
def test_a_question_of_one_part_is_untouched(question):
    assert parts(question) == [question]


def test_at_most_three_parts():
    q = "Where did you go, what did you eat, who did you meet, and when did you come back?"
    assert len(parts(q)) == MAX_PARTS
    assert parts(q)[-1].endswith("when did you come back?")


WORDS = ["Ada", "Bea", "Oslo", "and", "or", "both", ",", "，", ";", "和", "与", "还是", "然后"]
WORDS += ["what", "did", "where", "the", "user", "go", "用户", "去了", "哪里", "孙晓雯", "x"]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(WORDS), max_size=14).map(" ".join)
    | st.lists(st.sampled_from(WORDS), max_size=14).map("".join)
)
def test_parts_are_bounded_and_one_part_is_the_question(text):
    split = parts(text)
    assert 1 <= len(split) <= MAX_PARTS
    if len(split) == 1:
        assert split == [text]
    else:
        assert all(p.strip() for p in split)
        assert len(set(split)) == len(split)


def _answer(result) -> list[tuple]:
    return [(i.id, i.scores["final"]) for i in result.items]


@pytest.mark.django_db
def test_each_part_brings_its_best_answer(read_agent, owner_subject):
    for text in BACKGROUND:
        remember(owner_subject, text, embed=False)
    a = remember(owner_subject, IN_A).record_id
    b = remember(owner_subject, IN_B).record_id
    off = weighed(read_agent.agent, owner_subject, QUESTION, OFF)
    on = weighed(read_agent.agent, owner_subject, QUESTION, ON)
    # The whole question favours one part; each part's best reaches the top with the lever.
    top_off = max(i.scores["final"] for i in off.items)
    assert min(final(off, a), final(off, b)) < top_off - 0.01
    assert a in ids(on) and b in ids(on)
    top = max(i.scores["final"] for i in on.items)
    assert final(on, a) >= ON.decompose * top - 1e-3
    assert final(on, b) >= ON.decompose * top - 1e-3


@pytest.mark.django_db
def test_at_zero_and_for_one_part_the_reference_answer(read_agent, owner_subject, monkeypatch):
    for text in BACKGROUND:
        remember(owner_subject, text, embed=False)
    remember(owner_subject, IN_A)
    remember(owner_subject, IN_B)
    off = weighed(read_agent.agent, owner_subject, QUESTION, OFF)
    one_part = weighed(read_agent.agent, owner_subject, "Which instrument does the user play?", ON)
    monkeypatch.setattr(recall_module, "by_parts", lambda ranked, *a, **k: ranked)
    assert _answer(off) == _answer(weighed(read_agent.agent, owner_subject, QUESTION, OFF))
    reference = weighed(read_agent.agent, owner_subject, "Which instrument does the user play?", ON)
    assert _answer(one_part) == _answer(reference)
    assert off.items  # the comparison is not of two empty answers
    assert RecallWeights.for_tenant({"recall_weights": {"decompose": 4}}).decompose == 1.0
    assert RecallWeights().decompose == 0.0


def _never_brings(read_agent, owner_subject, theirs, monkeypatch):
    asked: list[str] = []
    real = decompose.parts
    monkeypatch.setattr(decompose, "parts", lambda q: asked.extend(real(q)) or real(q))
    on = weighed(read_agent.agent, owner_subject, QUESTION, ON)
    assert len(asked) == 2  # the lever ran, over two parts
    assert on.items  # the user's own part is found
    assert theirs not in ids(on)


@pytest.fixture
def mine(owner_subject):
    for text in BACKGROUND:
        remember(owner_subject, text, embed=False)
    return remember(owner_subject, IN_A).record_id


@pytest.mark.django_db
def test_another_subjects_memory_never_comes_back(
    mine, read_agent, owner_subject, same_tenant_user, monkeypatch
):
    _, bob = same_tenant_user
    theirs = remember(bob, IN_B).record_id
    _never_brings(read_agent, owner_subject, theirs, monkeypatch)


@pytest.mark.django_db
def test_another_tenants_memory_never_comes_back(
    mine, read_agent, owner_subject, other_tenant_user, monkeypatch
):
    _, mallory = other_tenant_user
    with tenant_context(mallory.tenant_id):
        theirs = remember(mallory, IN_B).record_id
    _never_brings(read_agent, owner_subject, theirs, monkeypatch)


@pytest.mark.django_db
def test_a_deleted_memory_never_comes_back(mine, read_agent, owner_subject, owner, monkeypatch):
    gone = remember(owner_subject, IN_B).record_id
    memory_delete_with_undo(
        user=owner[0], subject=owner_subject, record=MemoryRecord.objects.get(id=gone)
    )
    _never_brings(read_agent, owner_subject, gone, monkeypatch)


@pytest.mark.django_db
def test_an_expired_memory_never_comes_back(mine, read_agent, owner_subject, monkeypatch):
    gone = remember(owner_subject, IN_B).record_id
    MemoryRecord.objects.filter(id=gone).update(expires_at=timezone.now() + timedelta(hours=1))
    records_expire(
        actor=Actor.system(owner_subject.tenant_id, "test"),
        tenant_id=owner_subject.tenant_id,
        now=timezone.now() + timedelta(hours=2),
    )
    assert MemoryRecord.objects.get(id=gone).status == MemoryStatus.EXPIRED
    _never_brings(read_agent, owner_subject, gone, monkeypatch)


@pytest.mark.django_db
def test_a_superseded_memory_never_comes_back(mine, read_agent, owner_subject, owner, monkeypatch):
    old = remember(owner_subject, IN_B).record_id
    result = memory_correct(
        user=owner[0],
        subject=owner_subject,
        record=MemoryRecord.objects.get(id=old),
        statement="User plays the marimba in a brass band in Cartagena",
    )
    assert result.ok
    _never_brings(read_agent, owner_subject, old, monkeypatch)
