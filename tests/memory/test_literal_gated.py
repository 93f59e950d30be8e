"""The secret scan's readings' patterns behind their literals (memory/detectors/literal_gated.py,
``ENGRAM_DETECTOR_READING_LITERAL_GATE``, issue 39): a wrapped pattern answers "nothing"
only where it finds nothing, so every call, and the secret scan's spans, are the same with
the gate off and on — on texts built from the wrapped patterns' own literals (Hypothesis),
on every probe and corpus sentence, and on the LoCoMo dev turns
(tests/memory/test_detector_gates.py runs the corpora for every gate)."""

from __future__ import annotations

import re

import pytest
from django.conf import settings as django_settings
from django.test import override_settings
from hypothesis import HealthCheck, example, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from core import process_state
from memory.detectors import (
    access_forms,
    asked_values,
    described_secrets,
    labelled,
    literal_gated,
    secrets,
)
from memory.detectors.literal_gated import LiteralGated
from memory.detectors.prefilter import required_literals
from tests.memory.test_detector_plumbing import _corpus_sentences

WRAPPED = list(literal_gated._GATED)
# Every literal a wrapped pattern requires, as written and with its case flipped, and the
# values the readings take after them: texts of them reach the patterns' searches.
FRAGMENTS = sorted(
    {
        form
        for p in WRAPPED
        for clause in required_literals(p) or ()
        for literal, _icase in clause
        for form in (literal, literal.upper(), literal.title())
    }
    | {" is ", ": ", " 4417", " 8-5-1", " #2741", "?", "\n", "。", "是", " Tr0ub4dor&3 "}
)
texts = st.lists(
    st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=4)),
    max_size=12,
).map("".join)


def _gate(on: bool):
    return override_settings(
        ENGRAM_WRITE_BATCH={**django_settings.ENGRAM_WRITE_BATCH, "READING_LITERAL_GATE": on}
    )


def test_the_readings_patterns_are_wrapped_and_each_has_literals():
    # A wrapped pattern without a derived literal would be searched on every text: the
    # wrapper would cost without gating. Every one here is a compiled str pattern.
    assert len(WRAPPED) >= 30
    assert all(isinstance(p, re.Pattern) for p in WRAPPED)
    assert [p.pattern for p in WRAPPED if required_literals(p) is None] == []
    for wrapper in (
        described_secrets._DIAL,
        access_forms._CARD_CODE,
        *access_forms._ACCESS_EN,
        *labelled._ACCESS_VERB,
        asked_values._KEYED_GATE,
    ):
        assert isinstance(wrapper, LiteralGated)
    # The rule that tells the entry verbs apart still finds its own wrapper in the list.
    assert labelled._ENTER in labelled._ACCESS_VERB


@hsettings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts, at=st.integers(min_value=0, max_value=len(WRAPPED) - 1))
@example(text="the lock on my duffel is set to 8-5-1", at=0)
@example(text="\u0130", at=0)
def test_a_wrapped_pattern_answers_as_the_pattern_does(text, at):
    raw = WRAPPED[at]
    wrapper = LiteralGated.__new__(LiteralGated)  # the same index, not a new registration
    wrapper.prefilter_pattern = raw
    wrapper._at = at
    process_state.reset("memory.detectors.literal_gated.possible")
    with _gate(True):
        assert [m.span() for m in wrapper.finditer(text)] == [m.span() for m in raw.finditer(text)]
        assert wrapper.findall(text) == raw.findall(text)
        assert wrapper.sub("#", text) == raw.sub("#", text)
        for pos in (0, len(text) // 2):
            found, expected = wrapper.match(text, pos), raw.match(text, pos)
            assert (found and found.span()) == (expected and expected.span())
            found, expected = wrapper.search(text, pos), raw.search(text, pos)
            assert (found and found.span()) == (expected and expected.span())
        fm, em = wrapper.fullmatch(text), raw.fullmatch(text)
        assert (fm and fm.span()) == (em and em.span())


@hsettings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts)
@example(text="the lock on my duffel is set to 8-5-1")
@example(text="門禁密碼：4417，开门按 #2741")
@example(text="What was your first pet? I wrote Tr0ub4dor&3 as the answer.")
def test_the_secret_scan_finds_the_same_spans_with_the_gate_off_and_on(text):
    with _gate(False):
        reference = secrets.secret_spans(text)
    with _gate(True):
        assert secrets.secret_spans(text) == reference


def test_every_corpus_sentence_gets_the_same_spans_with_the_gate_off_and_on():
    sentences = _corpus_sentences()
    assert len(sentences) > 2000
    with _gate(False):
        reference = [secrets.secret_spans(t) for t in sentences]
    with _gate(True):
        assert [secrets.secret_spans(t) for t in sentences] == reference


def test_the_gate_turns_away_text_without_a_patterns_words_and_keeps_text_with_them(settings):
    # Positive and negative, with the pattern's own answer beside the wrapper's.
    settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, "READING_LITERAL_GATE": True}
    dial = described_secrets._DIAL
    plain = "For deploy windows, the user prefers variant 0 of the checklist (a3f09b12)"
    assert not literal_gated._may_match(dial._at, plain)
    assert dial.search(plain) is None and dial.prefilter_pattern.search(plain) is None
    lock = "the lock on my duffel is set to 8-5-1"
    assert literal_gated._may_match(dial._at, lock)
    assert dial.search(lock) is not None
    assert described_secrets.described_secret_spans(lock) == [(32, 37)]
    settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, "READING_LITERAL_GATE": False}
    assert literal_gated._may_match(dial._at, plain)
    assert described_secrets.described_secret_spans(lock) == [(32, 37)]


def test_a_wrapper_reads_as_its_pattern():
    # Other patterns are built from a wrapped one's source; tests read its flags.
    tail = asked_values._QUESTION_TAIL
    assert isinstance(tail, LiteralGated)
    assert tail.pattern == tail.prefilter_pattern.pattern
    assert tail.flags == tail.prefilter_pattern.flags
    assert tail.groupindex == tail.prefilter_pattern.groupindex
    assert "literal_gated(" in repr(tail)


@pytest.mark.parametrize("on", [False, True])
def test_a_text_the_prefilter_cannot_speak_for_is_searched(settings, on):
    # "\u212a" (the Kelvin sign) matches "k" case-insensitively: the text is searched in full.
    settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, "READING_LITERAL_GATE": on}
    text = "the loc\u212a on my duffel is set to 8-5-1"
    assert literal_gated._may_match(described_secrets._DIAL._at, text)
    found = described_secrets.described_secret_spans(text)
    with _gate(not on):
        assert described_secrets.described_secret_spans(text) == found
