"""The recovery-phrase readings' word-run gate (``ENGRAM_DETECTOR_WORD_RUN_GATE``, issue
39): ``recovery_phrase_spans`` and ``bip39_spans`` walk a text word by word only where
twelve words of their shape stand in a row, a necessary condition of any phrase they
find, so their spans are the same with the gate off and on (Hypothesis over texts of
list words, function words, gaps and separators; the corpora in
tests/memory/test_detector_gates.py)."""

from __future__ import annotations

from django.conf import settings as django_settings
from django.test import override_settings
from hypothesis import HealthCheck, example, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from memory.detectors.formats import _TWELVE_WORDS, recovery_phrase_spans
from memory.detectors.labelled import _bip39, _twelve_words, bip39_spans

_LIST = sorted(_bip39())
PHRASE = "abandon ability able about above absent absorb abstract absurd abuse access accident"

_PIECES = st.one_of(
    st.sampled_from(_LIST[:40] + _LIST[-10:]),
    st.sampled_from(
        ["the", "of", "and", "Zoo", "ABLE", "ábaco", "écureuil", "x", "abstracts", "mnemonic"]
    ),
    st.sampled_from(
        [" ", "  ", ", ", "\n", ": ", "：", "; ", "1. ", "12) ", "3:", " - ", "、", "，", " | ",
         ".", "!", "?", " is ", " seed: ", "/", "é", "2a", "7"]
    ),
)  # fmt: skip
word_texts = st.lists(_PIECES, max_size=40).map("".join)


def _gate(on: bool):
    return override_settings(
        ENGRAM_WRITE_BATCH={**django_settings.ENGRAM_WRITE_BATCH, "WORD_RUN_GATE": on}
    )


@hsettings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=word_texts | st.text(max_size=80))
@example(text=f"my seed phrase is {PHRASE}")
@example(text=f"seed: {PHRASE.replace(' ', ', ')}")
@example(text="words: " + " ".join(f"{i}. {w}" for i, w in enumerate(PHRASE.split(), 1)))
@example(text=f"the recovery phrase is {PHRASE.upper()}")
def test_the_phrase_readings_find_the_same_with_the_gate_off_and_on(text):
    with _gate(False):
        reference = (recovery_phrase_spans(text), bip39_spans(text))
    with _gate(True):
        assert (recovery_phrase_spans(text), bip39_spans(text)) == reference
    # The necessary conditions themselves: no run, no phrase.
    if _TWELVE_WORDS.search(text) is None:  # only a CJK or kana word list is left
        assert not any(c.isascii() and c.isalpha() for s, e in reference[0] for c in text[s:e])
    if _twelve_words().search(text) is None:
        assert reference[1] == []


def test_a_phrase_passes_the_gate_and_a_sentence_does_not(settings):
    settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, "WORD_RUN_GATE": True}
    text = f"my seed phrase is {PHRASE}"
    assert _TWELVE_WORDS.search(text) and _twelve_words().search(text)
    assert bip39_spans(text) == [(18, len(text))]
    words = "my backup words are apple river stone cloud tiger lemon ocean piano forest candle"
    words += " mirror garden"
    assert _TWELVE_WORDS.search(words) and recovery_phrase_spans(words) == [(20, len(words))]
    plain = "For deploy windows, the user prefers variant 0 of the checklist (a3f09b12)"
    assert _TWELVE_WORDS.search(plain) is None and _twelve_words().search(plain) is None
    assert recovery_phrase_spans(plain) == [] and bip39_spans(plain) == []
    # Eleven list words are one short of a phrase, and of the gate.
    eleven = "my seed phrase is " + " ".join(PHRASE.split()[:11])
    assert _twelve_words().search(eleven) is None and bip39_spans(eleven) == []


def test_the_list_gate_reads_the_lengths_of_the_list():
    lengths = {len(w) for w in _bip39()}
    assert f"{{{min(lengths)},{max(lengths)}}}" in _twelve_words().pattern
