"""The speaker gate by the question's words (``named_speaker_terms``, 0: off;
``rank.not_attributable``): a question about one speaker abstains when what it asks about
is told in the words of another speaker's statements and in none of theirs, however close
their unrelated turns come on the vector route. Names say whom, not what: they are left
out of the words compared. English and Chinese."""

from __future__ import annotations

import uuid

import pytest

from memory.models import MemoryRecord
from memory.recall import RecallWeights
from memory.recall.attribution import terms_held
from memory.recall.rank import scope_to_speaker
from memory.recall.signals import Candidate, Signals
from memory.services.user_memory import memory_correct, memory_delete_with_undo
from tests.helpers.conversation import converse
from tests.helpers.retrieval import ids, weighed

ON = RecallWeights(named_speaker_terms=0.5, adjacent_reply=0)
OFF = RecallWeights(adjacent_reply=0)
NAMES = frozenset({"caroline", "melanie", "王芳", "李娜"})


def turn(statement: str, speakers: list[str], fused: float) -> Candidate:
    record = MemoryRecord(id=uuid.uuid4(), statement=statement)
    record.source_speakers = speakers
    return Candidate(id=record.id, record=record, signals=Signals(fused=fused, final=fused))


@pytest.mark.parametrize(
    ("statement", "question", "share"),
    [
        ("Melanie: I ran a charity race last Saturday.", "What did Caroline run for charity?", 0.5),
        ("Caroline: I went for a walk.", "What did Caroline run for charity?", 0.0),
        ("李娜: 我上周六参加了一场慈善赛跑。", "王芳参加了什么慈善赛跑？", 1.0),
        ("王芳: 我昨天去了支持小组。", "王芳参加了什么慈善赛跑？", 0.0),
        ("Caroline: anything", "Caroline?", 0.0),  # a question of names only
    ],
)
def test_terms_held_leaves_names_out(statement, question, share):
    assert terms_held(statement, question, NAMES) == pytest.approx(share)


@pytest.mark.parametrize(
    ("others", "own", "question"),
    [
        (
            "Melanie: I ran a charity race for mental health last Saturday.",
            "Caroline: I'm keen on counseling and mental health as a career.",
            "What did Caroline realize after the charity race?",
        ),
        (
            "李娜: 跑完慈善赛跑后，我意识到照顾自己真的很重要。",
            "王芳: 我昨天去了一个支持小组，感觉很有力量。",
            "王芳跑完慈善赛跑后意识到了什么？",
        ),
    ],
)
def test_the_wrong_speaker_abstains_by_words_not_by_likeness(others, own, question):
    speaker = own.split(":")[0]
    other = turn(others, [others.split(":")[0]], 1.0)
    close = turn(own, [speaker], 0.9)  # close on the vector route: passes the share
    assert scope_to_speaker([other, close], speaker, OFF, question=question, names=NAMES)
    assert scope_to_speaker([other, close], speaker, ON, question=question, names=NAMES) == []


@pytest.mark.parametrize(
    ("others", "own", "question"),
    [
        (
            "Melanie: I ran a charity race last Saturday.",
            "Caroline: I ran a charity race too, my first one.",
            "What did Caroline do at the charity race?",
        ),
        (
            "李娜: 我上周六参加了一场慈善赛跑。",
            "王芳: 我也参加了慈善赛跑，是第一次。",
            "王芳参加慈善赛跑了吗？",
        ),
    ],
)
def test_the_speakers_own_words_answer(others, own, question):
    speaker = own.split(":")[0]
    other = turn(others, [others.split(":")[0]], 1.0)
    said = turn(own, [speaker], 0.9)
    kept = scope_to_speaker([other, said], speaker, ON, question=question, names=NAMES)
    assert kept == [other, said] and said.signals.spoken_by_speaker


def test_no_side_without_a_shared_word_or_another_speaker():
    question = "What did Caroline realize after the charity race?"
    unrelated = turn("Melanie: The weather was lovely.", ["Melanie"], 1.0)
    own = turn("Caroline: I went for a walk.", ["Caroline"], 0.9)
    assert scope_to_speaker([unrelated, own], "Caroline", ON, question=question, names=NAMES)
    fact = turn("Caroline ran a charity race.", [], 1.0)  # no speaker: takes no side
    assert scope_to_speaker([fact, own], "Caroline", ON, question=question, names=NAMES)


def test_off_by_default_and_clamped():
    assert RecallWeights().named_speaker_terms == 0.0
    w = RecallWeights.for_tenant({"recall_weights": {"named_speaker_terms": 4}})
    assert w.named_speaker_terms == 1.0


CHAT = [
    ("Caroline", "I went to a support group yesterday and it was so powerful."),
    ("Melanie", "I ran a charity race for mental health last Saturday."),
    ("Melanie", "After the charity race I realized that self-care really matters."),
    ("Caroline", "I'm keen on counseling and mental health as a career."),
]


@pytest.mark.django_db
def test_a_deleted_statement_no_longer_answers(read_agent, owner_subject, write_agent, owner):
    rids = converse(
        write_agent.agent, owner_subject, CHAT + [("Caroline", "I ran the charity race too.")]
    )
    asked = "What did Caroline do at the charity race?"
    assert rids[4] in ids(weighed(read_agent.agent, owner_subject, asked, ON))
    memory_delete_with_undo(
        user=owner[0], subject=owner_subject, record=MemoryRecord.objects.get(id=rids[4])
    )
    # Her only words about the race are gone: the race is Melanie's.
    assert weighed(read_agent.agent, owner_subject, asked, ON).items == []


@pytest.mark.django_db
def test_a_superseded_statement_answers_by_its_new_words(
    read_agent, owner_subject, write_agent, owner
):
    rids = converse(
        write_agent.agent, owner_subject, CHAT + [("Caroline", "I ran the charity race too.")]
    )
    memory_correct(
        user=owner[0],
        subject=owner_subject,
        record=MemoryRecord.objects.get(id=rids[4]),
        statement="Caroline: I cheered at the finish line.",
    )
    result = weighed(
        read_agent.agent, owner_subject, "What did Caroline do at the charity race?", ON
    )
    assert rids[4] not in ids(result)
