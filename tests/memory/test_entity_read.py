"""The entity levers' two reads (``ENGRAM_RECALL_ONE_ENTITY_READ``,
``memory.recall.accel.entity_read``) give the reference's answers (``entities.entity_expand``
with its three reads): the same items with the same scores, in the same order.

On real data: the first six sessions of a LoCoMo dev conversation (where it is on the
machine: the data is not in the repository) through the write path as ``locomo.py``
ingests it, asked its questions about those sessions. On a generated conversation of our
own: more memories tie at the cut than may come along, so the cut between equal scores
(``ties.record_key``) is made on the fast form's rows; memories of another purpose and a
deleted one are there so that eligibility is read alike."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from memory.models import MemoryRecord
from memory.recall.entities import MAX_ADDED
from memory.recall.weights import RecallWeights
from memory.services.user_memory import memory_delete_with_undo
from tests.helpers.conversation import converse
from tests.helpers.retrieval import remember, weighed

pytestmark = pytest.mark.django_db

LOCOMO = Path(__file__).resolve().parents[3] / "shared" / "data" / "locomo-dev"
ON = RecallWeights(entity_mention=0.8, entity_hop=0.6)
OFF = RecallWeights(entity_mention=0, entity_hop=0)


def _one_read(settings, on: bool) -> None:
    settings.ENGRAM_RETRIEVAL = {**settings.ENGRAM_RETRIEVAL, "ONE_ENTITY_READ": on}


def _answers(settings, agent, subject, question: str, on: bool) -> list[tuple]:
    _one_read(settings, on)
    result = weighed(agent, subject, question, ON)
    return [(i.id, i.scores["final"]) for i in result.items]


def _locomo_sessions(name: str, sessions: int) -> tuple[list[list[tuple[str, str]]], list]:
    conv = json.loads((LOCOMO / f"{name}.json").read_text())
    talk = conv.get("conversation", conv)
    turns = []
    for n in range(1, sessions + 1):
        turns.append(
            [
                (
                    t["speaker"],
                    t["text"]
                    + (f" [shares a photo: {t['blip_caption']}]" if t.get("blip_caption") else ""),
                )
                for t in talk[f"session_{n}"]
            ]
        )
    asked = [
        q["question"]
        for q in conv["qa"]
        if q.get("evidence")
        and q["category"] in (1, 2, 4)
        and all(int(e.split(":")[0][1:]) <= sessions for e in q["evidence"])
    ]
    return turns, asked


def test_a_locomo_conversation_gets_the_same_answers_with_one_entity_read(
    settings, write_agent, owner_subject
):
    assert LOCOMO.is_dir(), f"the LoCoMo dev conversations are expected at {LOCOMO}"
    sessions, questions = _locomo_sessions("30", 6)
    for n, turns in enumerate(sessions, start=1):
        converse(write_agent.agent, owner_subject, turns, thread=f"session_{n}")
    assert len(questions) >= 20
    moved = 0
    for question in questions:
        reference = _answers(settings, write_agent.agent, owner_subject, question, False)
        assert _answers(settings, write_agent.agent, owner_subject, question, True) == reference
        off = weighed(write_agent.agent, owner_subject, question, OFF)
        moved += [(i.id, i.scores["final"]) for i in off.items] != reference
    assert moved >= 5  # the levers changed these answers: the reads were exercised


def test_ties_at_the_cut_eligibility_and_deletion_read_alike(
    settings, owner, write_agent, owner_subject
):
    agent = write_agent.agent
    converse(agent, owner_subject, [("Ada", "My cousin Leopold Marchetti builds kayaks.")])
    # 2 x 12 memories name the two people the question names, each as often: 24 equal
    # scores for MAX_ADDED places.
    for person in ("Ottilie Brandvold", "Casimir Oyelaran"):
        converse(
            agent,
            owner_subject,
            [("Bea", f"{person} talked about week {i} of the regatta.") for i in range(12)],
            thread=person,
        )
    # Named in the index, out of this request's reach: another purpose, deleted.
    remember(owner_subject, "Leopold Marchetti sells boats to Casimir Oyelaran", purpose="billing")
    [gone] = converse(
        agent, owner_subject, [("Bea", "Leopold Marchetti moved to Ravenna.")], thread="gone"
    )
    memory_delete_with_undo(
        user=owner[0], subject=owner_subject, record=MemoryRecord.objects.get(id=gone)
    )
    questions = [
        "What did Ottilie Brandvold and Casimir Oyelaran talk about?",
        "What does Ada's cousin build?",
        "Where does Leopold Marchetti live?",
        "莱奥波尔多住在哪里？",
    ]
    for question in questions:
        reference = _answers(settings, agent, owner_subject, question, False)
        assert _answers(settings, agent, owner_subject, question, True) == reference
        assert gone not in [i for i, _ in reference]
    _one_read(settings, True)
    assert 24 > MAX_ADDED and len(weighed(agent, owner_subject, questions[0], ON).items) == 10


def test_the_fast_form_reads_twice_where_the_reference_reads_three_times(
    settings, write_agent, owner_subject
):
    agent = write_agent.agent
    converse(agent, owner_subject, [("Ada", "My cousin Leopold Marchetti builds kayaks.")])
    converse(
        agent,
        owner_subject,
        [("Bea", "Leopold Marchetti opened a boat shop in Ravenna.")],
        thread="s2",
    )
    counts = []
    for on in (False, True):
        _one_read(settings, on)
        with CaptureQueriesContext(connection) as queries:
            weighed(agent, owner_subject, "What does Leopold Marchetti build?", ON)
        counts.append(sum("memory_memorymention" in q["sql"] for q in queries.captured_queries))
    assert counts == [2, 1]
