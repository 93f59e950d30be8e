"""The speaker gate's premise test (``named_speaker_outweighed``, 0: off; ``rank.outweighed``):
a question about one speaker abstains when a statement by another speaker beats the
speaker's own best on every reading at once (fused relevance, words held, similarity,
margin). One reading in the speaker's favour, or a tie, keeps the answer; a turn of the
other speaker that asks something does not count. A Hypothesis property: the lever only
ever adds abstentions, and only where every reading favours the other speaker."""

from __future__ import annotations

import uuid

from hypothesis import given
from hypothesis import strategies as st

from memory.models import MemoryRecord
from memory.recall import RecallWeights
from memory.recall.rank import scope_to_speaker
from memory.recall.signals import Candidate, Signals

OFF = RecallWeights(adjacent_reply=0, named_speaker_share=0.6)
ON = RecallWeights(adjacent_reply=0, named_speaker_share=0.6, named_speaker_outweighed=1)


def turn(
    speaker: str,
    fused: float,
    coverage: float | None,
    vector: float | None,
    margin: float | None,
    statement: str = "",
) -> Candidate:
    record = MemoryRecord(id=uuid.uuid4(), statement=statement or f"{speaker}: I did it.")
    record.source_speakers = [speaker]
    signals = Signals(
        fused=fused, final=fused, lexical_coverage=coverage, vector=vector, vector_margin=margin
    )
    return Candidate(id=record.id, record=record, signals=signals)


def test_the_premise_told_by_someone_else_abstains():
    # "What did Ada learn from her charity run?" when Bea ran it: Bea's turn is ahead on
    # every reading; Ada's best turn is close enough on fused rank for the share gate.
    other = turn("Bea", 1.0, 0.75, 0.87, 0.08, "Bea: I ran a charity race last Saturday.")
    own = turn("Ada", 0.8, 0.25, 0.85, 0.05, "Ada: I went to the support group.")
    assert scope_to_speaker([other, own], "Ada", OFF)
    assert scope_to_speaker([other, own], "Ada", ON) == []


def test_one_reading_in_the_speakers_favour_keeps_the_answer():
    for own in (
        turn("Ada", 0.8, 0.8, 0.85, 0.05),  # holds more of the question's words
        turn("Ada", 0.8, 0.25, 0.88, 0.05),  # closer by meaning
        turn("Ada", 0.8, 0.25, 0.85, 0.09),  # a larger margin
        turn("Ada", 1.0, 0.25, 0.85, 0.05),  # a tie on fused relevance
    ):
        other = turn("Bea", 1.0, 0.75, 0.87, 0.08)
        assert scope_to_speaker([other, own], "Ada", ON)


def test_a_question_by_the_other_speaker_states_nothing():
    asking = turn("Bea", 1.0, 0.75, 0.87, 0.08, "Bea: What's your favourite style of dance?")
    own = turn("Ada", 0.8, 0.25, 0.85, 0.05, "Ada: I love contemporary, it's so expressive.")
    assert scope_to_speaker([asking, own], "Ada", ON)


def test_chinese_turns_read_the_same():
    other = turn("李娜", 1.0, 0.75, 0.87, 0.08, "李娜: 我上周六参加了一场慈善赛跑。")
    own = turn("王芳", 0.8, 0.25, 0.85, 0.05, "王芳: 我昨天去了支持小组。")
    assert scope_to_speaker([other, own], "王芳", ON) == []
    asking = turn("李娜", 1.0, 0.75, 0.87, 0.08, "李娜: 你最喜欢哪种舞蹈呢？")
    assert scope_to_speaker([asking, own], "王芳", ON)


def test_the_speakers_own_facts_the_others_never_told_answer():
    own = turn("Ada", 1.0, 0.8, 0.88, 0.09, "Ada: I adopted a second cat, Bailey.")
    other = turn("Bea", 0.5, 0.2, 0.84, 0.04, "Bea: My kids love the beach.")
    assert scope_to_speaker([other, own], "Ada", ON)


reading = st.one_of(st.none(), st.floats(0.0, 1.0))


@given(
    turns=st.lists(
        st.tuples(st.booleans(), st.floats(0.01, 1.0), reading, reading, reading, st.booleans()),
        min_size=1,
        max_size=8,
    )
)
def test_the_lever_only_adds_abstentions_where_every_reading_favours_others(turns):
    def build():
        return [
            turn(
                "Ada" if own else "Bea",
                fused,
                cov,
                vec,
                mar,
                ("Ada" if own else "Bea") + (": What did you do?" if asking else ": I did it."),
            )
            for own, fused, cov, vec, mar, asking in turns
        ]

    off_result = scope_to_speaker(build(), "Ada", OFF)
    on_result = scope_to_speaker(build(), "Ada", ON)
    if on_result:
        assert [c.signals.final for c in on_result] == [c.signals.final for c in off_result]
    elif off_result:

        def best(rows, i):
            return max((row[i] or 0.0 for row in rows), default=0.0)

        own = [t for t in turns if t[0] and not t[5]]
        stating = [t for t in turns if not t[0] and not t[5]]
        assert stating
        assert all(best(own, i) < best(stating, i) for i in (1, 2, 3, 4))
