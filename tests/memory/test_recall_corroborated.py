"""The relevance gate's corroborated anchor (``corroborated``, a share, 0: off;
``rank.corroborated``): a memory that nearly passes both the lexical bar and the vector
route's margin bar anchors an answer, where either reading alone still does not. A
Hypothesis property: the lever only ever adds anchors, and only memories that both routes
found near their bars."""

from __future__ import annotations

import uuid

from hypothesis import given
from hypothesis import strategies as st

from memory.recall import RecallWeights
from memory.recall.rank import is_anchor
from memory.recall.signals import Candidate, Signals

OFF = RecallWeights()
ON = RecallWeights(corroborated=0.8)


def candidate(coverage: float | None, vector: float | None, margin: float | None) -> Candidate:
    signals = Signals(lexical_coverage=coverage, vector=vector, vector_margin=margin)
    return Candidate(id=uuid.uuid4(), record=None, signals=signals)


def test_two_routes_near_their_bars_anchor_together():
    # half of "What book is Ada reading now?"'s words, a margin just under the bar
    near = candidate(0.5, 0.85, 0.036)
    assert not is_anchor(near, OFF)
    assert is_anchor(near, ON)


def test_one_route_alone_does_not():
    assert not is_anchor(candidate(0.5, None, None), ON)  # words only
    assert not is_anchor(candidate(None, 0.85, 0.036), ON)  # meaning only
    assert not is_anchor(candidate(0.5, 0.85, 0.02), ON)  # the margin too far under
    assert not is_anchor(candidate(0.25, 0.85, 0.036), ON)  # too few of the words
    assert not is_anchor(candidate(0.5, 0.70, 0.036), ON)  # under the similarity floor


def test_chinese_and_english_read_alike():
    # the gate reads only signals, whatever the language; a clear hit anchors either way
    assert is_anchor(candidate(0.6, None, None), OFF)
    assert is_anchor(candidate(None, 0.8, 0.04), ON)


share = st.floats(0.0, 1.0)
reading = st.one_of(st.none(), st.floats(0.0, 1.0))


@given(coverage=reading, vector=reading, margin=st.one_of(st.none(), st.floats(-0.1, 0.2)), s=share)
def test_only_adds_anchors_near_both_bars(coverage, vector, margin, s):
    c = candidate(coverage, vector, margin)
    on = RecallWeights(corroborated=s)
    if is_anchor(c, OFF):
        assert is_anchor(c, on)
    elif is_anchor(c, on):
        assert s > 0
        assert (coverage or 0.0) >= s * on.min_lexical_coverage
        assert (vector or 0.0) >= on.vector_min_similarity
        assert margin is not None and margin >= s * on.vector_min_margin
