"""The speaker gate's wider band (``named_speaker_cover``, 0: off; ``rank.told_by_others``):
a question about one speaker abstains when their best statement is under that share of
the best other speaker's turn and that turn holds more of the question's words (lexical
coverage) than any of their own statements. Below ``named_speaker_share`` it abstains as
before; at or above the band it answers as before. A Hypothesis property: the band only
ever adds abstentions, and never where the speaker's own words cover the question as
well."""

from __future__ import annotations

import uuid

from hypothesis import given
from hypothesis import strategies as st

from memory.models import MemoryRecord
from memory.recall import RecallWeights
from memory.recall.rank import scope_to_speaker
from memory.recall.signals import Candidate, Signals

OFF = RecallWeights(adjacent_reply=0)
ON = RecallWeights(named_speaker_cover=0.8, adjacent_reply=0)


def turn(speaker: str, fused: float, coverage: float | None, statement: str = "") -> Candidate:
    record = MemoryRecord(id=uuid.uuid4(), statement=statement or f"{speaker}: I did it.")
    record.source_speakers = [speaker]
    signals = Signals(fused=fused, final=fused, lexical_coverage=coverage)
    return Candidate(id=record.id, record=record, signals=signals)


def test_the_others_words_in_the_band_abstain():
    other = turn("Melanie", 1.0, 1.0)
    own = turn("Caroline", 0.7, 0.33)
    assert scope_to_speaker([other, own], "Caroline", OFF)
    assert scope_to_speaker([other, own], "Caroline", ON) == []


def test_the_speakers_own_words_or_a_ratio_above_the_band_answer():
    assert scope_to_speaker([turn("Melanie", 1.0, 1.0), turn("Caroline", 0.7, 1.0)], "Caroline", ON)
    assert scope_to_speaker(
        [turn("Melanie", 1.0, 1.0), turn("Caroline", 0.85, 0.2)], "Caroline", ON
    )


def test_chinese_turns_read_the_same():
    other = turn("李娜", 1.0, 0.75, "李娜: 我上周六参加了一场慈善赛跑。")
    own = turn("王芳", 0.7, 0.25, "王芳: 我昨天去了支持小组。")
    assert scope_to_speaker([other, own], "王芳", ON) == []
    assert scope_to_speaker([other, own], "王芳", OFF)


@given(
    turns=st.lists(
        st.tuples(
            st.booleans(),
            st.floats(0.01, 1.0),
            st.one_of(st.none(), st.floats(0.0, 1.0)),
        ),
        min_size=1,
        max_size=8,
    ),
    band=st.floats(0.0, 1.0),
)
def test_the_band_only_adds_abstentions_where_others_cover_more(turns, band):
    def build():
        return [turn("Caroline" if own else "Melanie", f, cov) for own, f, cov in turns]

    on = RecallWeights(named_speaker_cover=band, adjacent_reply=0)
    off_result = scope_to_speaker(build(), "Caroline", OFF)
    on_result = scope_to_speaker(build(), "Caroline", on)
    if on_result:
        assert [c.signals.final for c in on_result] == [c.signals.final for c in off_result]
    elif off_result:
        own_cov = max((cov or 0.0 for o, _, cov in turns if o), default=0.0)
        other_cov = max(cov or 0.0 for o, _, cov in turns if not o)
        assert own_cov < other_cov
