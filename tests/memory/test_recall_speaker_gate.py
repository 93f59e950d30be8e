"""A question about one speaker of the subject's conversations is answered by what that
speaker said: naming the wrong person ("What did Caroline realize after her charity race?"
when Melanie ran it) abstains, naming the right one answers with that person's turns
first. The rule stays out of the way where it does not apply: a subject with one speaker,
a question naming both speakers or the subject themself."""

from __future__ import annotations

import uuid

import pytest

from memory.models import MemoryRecord
from memory.recall import RecallWeights
from memory.recall.query import speaker_asked_about
from memory.recall.rank import scope_to_speaker
from memory.recall.scope import RecallContext
from memory.recall.signals import Candidate, Signals
from tests.helpers.conversation import converse
from tests.helpers.retrieval import ids, recall

CHAT = [
    ("Caroline", "Hey Mel! Good to see you! How have you been?"),
    ("Melanie", "Hey Caroline! I'm swamped with the kids and work."),
    ("Caroline", "I went to a LGBTQ support group yesterday and it was so powerful."),
    ("Melanie", "I ran a charity race for mental health last Saturday."),
    ("Caroline", "Wow, a charity race! What did you realize after the race?"),
    ("Melanie", "After the charity race I realized that self-care really matters."),
    ("Melanie", "I also finished a painting of a sunset over the lake."),
    ("Caroline", "I'm keen on counseling and mental health as a career."),
]
RACE, ASKS_ABOUT_RACE, REALIZED = 3, 4, 5

ZH_CHAT = [
    ("王芳", "我昨天去了一个支持小组，感觉很有力量。"),
    ("李娜", "我上周六参加了一场慈善赛跑。"),
    ("王芳", "哇，慈善赛跑！你跑完以后有什么感悟？"),
    ("李娜", "跑完慈善赛跑后，我意识到照顾自己真的很重要。"),
]


def context(speakers: tuple[str, ...], self_names: tuple[str, ...] = ()) -> RecallContext:
    return RecallContext(
        consent_withdrawn=False,
        tenant_policy={},
        procedures_subject_id=None,
        model_id="m",
        self_names=self_names,
        speakers=speakers,
    )


@pytest.mark.parametrize(
    "query, speakers, self_names, expected",
    [
        ("What did Caroline realize after her race?", ("Caroline", "Melanie"), (), "Caroline"),
        ("What did melanie paint?", ("Caroline", "Melanie"), (), "Melanie"),
        # One speaker or none: nobody to confuse the person with.
        ("What did Melanie paint?", ("Melanie",), (), ""),
        ("What did Melanie paint?", (), (), ""),
        # Both speakers, or no speaker, named.
        ("Did Caroline see Melanie's painting?", ("Caroline", "Melanie"), (), ""),
        ("What did she paint?", ("Caroline", "Melanie"), (), ""),
        # The subject themself: a question about the user, whatever they said.
        ("What did Caroline paint?", ("Caroline", "Melanie"), ("Caroline Smith",), ""),
        ("What did Caroline paint?", ("Caroline", "Melanie"), ("Caroline",), ""),
        # Chinese questions too (more in test_recall_speaker_gate_zh).
        ("王芳画了什么？", ("李娜", "王芳"), (), "王芳"),
    ],
)
def test_which_speaker_a_question_is_about(query, speakers, self_names, expected):
    from memory import lexical

    ctx = context(speakers, self_names)
    searched = lexical.refer_to_user(query, self_names, speakers)
    named = lexical.names_in(searched, speakers)
    assert speaker_asked_about(query, ctx, named) == expected


def turn(statement: str, speakers: list[str], fused: float) -> Candidate:
    record = MemoryRecord(id=uuid.uuid4(), statement=statement)
    record.source_speakers = speakers
    return Candidate(id=record.id, record=record, signals=Signals(fused=fused, final=fused))


def test_the_speakers_questions_are_not_their_statements():
    w = RecallWeights()
    answer = turn("Melanie: After the race I realized self-care matters.", ["Melanie"], 1.0)
    question = turn("Caroline: What did you realize after the race?", ["Caroline"], 0.95)
    assert scope_to_speaker([answer, question], "Caroline", w) == []
    # The same words stated by Caroline would anchor her answer.
    stated = turn("Caroline: I realized after the race that rest matters.", ["Caroline"], 0.95)
    kept = scope_to_speaker([answer, stated], "Caroline", w)
    assert kept == [answer, stated]
    assert stated.signals.spoken_by_speaker and not answer.signals.spoken_by_speaker
    assert stated.signals.final == pytest.approx(0.95 + w.named_speaker)


def test_the_share_decides_how_far_below_the_speaker_may_rank():
    w = RecallWeights()
    other = turn("Melanie: I ran a charity race.", ["Melanie"], 1.0)
    weak = turn("Caroline: I went for a walk.", ["Caroline"], w.named_speaker_share - 0.01)
    assert scope_to_speaker([other, weak], "Caroline", w) == []
    fair = turn("Caroline: I went for a walk.", ["Caroline"], w.named_speaker_share + 0.01)
    assert scope_to_speaker([other, fair], "Caroline", w) == [other, fair]


def test_memories_without_a_speaker_take_no_side():
    w = RecallWeights()
    fact = turn("Caroline ran a charity race.", [], 1.0)
    said = turn("Caroline: I love running.", ["Caroline"], 0.2)
    # Nothing another speaker said: nothing to compare with, nothing is dropped.
    assert scope_to_speaker([fact, said], "Caroline", w) == [fact, said]
    assert scope_to_speaker([fact], "Caroline", w) == [fact]
    assert not fact.signals.spoken_by_speaker


def test_weights_clamp_the_share():
    policy = {"recall_weights": {"named_speaker_share": 3, "named_speaker": 0.5}}
    w = RecallWeights.for_tenant(policy)
    assert (w.named_speaker_share, w.named_speaker) == (1.0, 0.5)


def test_naming_the_wrong_speaker_abstains(read_agent, owner_subject, write_agent):
    converse(write_agent.agent, owner_subject, CHAT)
    result = recall(read_agent.agent, owner_subject, "What did Caroline realize after her race?")
    assert result.items == []
    assert result.empty_reason == "no_relevant_memory"


def test_naming_the_right_speaker_answers_with_their_turns_first(
    read_agent, owner_subject, write_agent
):
    record_ids = converse(write_agent.agent, owner_subject, CHAT)
    result = recall(read_agent.agent, owner_subject, "What did Melanie realize after her race?")
    found = ids(result)
    assert found[0] == record_ids[REALIZED]
    assert record_ids[RACE] in found[:3]
    # Her turns first; Caroline's come along after them.
    flags = ["spoken_by_speaker" in item.scores for item in result.items]
    assert flags == sorted(flags, reverse=True)
    assert not all(flags)


def test_one_speaker_subjects_are_unaffected(read_agent, owner_subject, write_agent):
    melanie_only = [(s, t) for s, t in CHAT if s == "Melanie"]
    record_ids = converse(write_agent.agent, owner_subject, melanie_only)
    result = recall(read_agent.agent, owner_subject, "What did Melanie realize after her race?")
    assert record_ids[2] in ids(result)
    assert all("spoken_by_speaker" not in item.scores for item in result.items)


def test_a_question_naming_both_speakers_is_unaffected(read_agent, owner_subject, write_agent):
    record_ids = converse(write_agent.agent, owner_subject, CHAT)
    result = recall(
        read_agent.agent, owner_subject, "What did Caroline ask Melanie about her race?"
    )
    assert record_ids[ASKS_ABOUT_RACE] in ids(result)
    assert all("spoken_by_speaker" not in item.scores for item in result.items)


def test_a_question_naming_the_subject_is_unaffected(read_agent, owner_subject, write_agent):
    # The subject is Caroline Smith, who speaks as "Caroline": a question about Caroline is
    # about the user, and whatever she heard from Melanie may answer it.
    owner_subject.display_name = "Caroline Smith"
    owner_subject.save(update_fields=["display_name"])
    converse(write_agent.agent, owner_subject, CHAT)
    result = recall(read_agent.agent, owner_subject, "What did Caroline realize after her race?")
    assert result.items
    assert all("spoken_by_speaker" not in item.scores for item in result.items)


def test_chinese_questions_name_the_wrong_speaker_too(read_agent, owner_subject, write_agent):
    converse(write_agent.agent, owner_subject, ZH_CHAT)
    # Names 王芳 though 李娜 ran the race.
    result = recall(read_agent.agent, owner_subject, "王芳跑完慈善赛跑后意识到了什么？")
    assert result.items == []
