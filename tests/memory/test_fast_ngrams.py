"""The n-gram heads' per-token feature cache (``learned.hashed_fast``, issue 39) gives the
reference's vector (``learned.hashed``) exactly, and so the same logits: English, Chinese,
Japanese and Korean, mixed scripts, dates and clock times (left out), long words (cut at
24 and 40 characters), digits, symbols, obfuscation the normalisation undoes."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from memory.detectors import learned

WORDS = [
    "Caroline",
    "I",
    "went",
    "to",
    "the",
    "LGBTQ",
    "support",
    "group",
    "yesterday",
    "password",
    "Qv7!plumtree88",
    "2026-12-05",
    "22:38",
    "我",
    "下个月",
    "要搬到青岛",
    "來週",
    "私は",
    "薬を飲んでいます",
    "병원에",
    "supercalifragilisticexpialidociousnessandthensome",
    "ＡＢＣ１２３",
    "p a s s w o r d",
    "раssword",
    "!",
    "?",
    "🤖",
    "...",
    "x" * 45,
]
text = st.one_of(
    st.lists(st.sampled_from(WORDS), max_size=30).map(" ".join),
    st.text(max_size=120),
)


def _same(a, b) -> None:
    assert np.array_equal(a[0], b[0]) and a[0].dtype == b[0].dtype
    assert np.array_equal(a[1], b[1]) and a[1].dtype == b[1].dtype


@hsettings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=text)
@example(text="")
@example(text="the the the the")
@example(
    text="Melanie: I ran a charity race for mental health last Saturday – 2023-05-20 at 9:30 am"
)
@example(text="用户下个月要搬到青岛，我很期待 2026年3月5日")
def test_fast_vector_equals_the_reference(text):
    bits = learned.model().bits
    _same(learned.hashed_fast(text, bits), learned.hashed(text, bits))
    # A second time, from the cache, the same again.
    _same(learned.hashed_fast(text, bits), learned.hashed(text, bits))


@pytest.mark.parametrize("bits", [10, 18])
def test_the_cache_keeps_bucket_widths_apart(bits):
    text = "Caroline went to the support group 我下个月要搬到青岛"
    _same(learned.hashed_fast(text, bits), learned.hashed(text, bits))


def test_logits_are_the_same_with_the_setting_on_and_off(settings):
    model = learned.model()
    for text in ["Caroline: I went to the LGBTQ support group yesterday", "我现在很累", ""]:
        out = []
        for fast in (False, True):
            settings.ENGRAM_WRITE_BATCH = {
                **settings.ENGRAM_WRITE_BATCH,
                "FAST_DETECTION_TEXT": fast,
            }
            out.append(model.ngram_logits(text))
        assert np.array_equal(out[0], out[1])


# ``ENGRAM_LEARNED_PAIR_STATES``: the pair's bucket continued from the previous word's
# cached checksum gives the same buckets, in the same order, as the pair's string hashed.
@hsettings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=text)
@example(text="")
@example(text="Caroline 我 went went 我的 Caroline ! went")
@example(text="x" * 45 + " " + "y" * 45 + " " + "x" * 45)
def test_pair_states_give_the_same_buckets_and_vector(text):
    bits = learned.model().bits
    assert learned.feature_buckets_states(text, bits) == learned.feature_buckets(text, bits)
    _same(learned.hashed_states(text, bits), learned.hashed(text, bits))


@pytest.mark.parametrize("bits", [10, 18])
def test_the_pair_states_keep_bucket_widths_apart(bits):
    text = "Caroline went to the support group 我下个月要搬到青岛 went to"
    assert learned.feature_buckets_states(text, bits) == learned.feature_buckets(text, bits)


@pytest.mark.parametrize(
    ("fast", "pairs", "expected"),
    [
        (False, True, "hashed"),
        (False, False, "hashed"),
        (True, False, "hashed_fast"),
        (True, True, "hashed_states"),
    ],
)
def test_the_settings_select_the_vector(settings, fast, pairs, expected):
    settings.ENGRAM_WRITE_BATCH = {
        **settings.ENGRAM_WRITE_BATCH,
        "FAST_DETECTION_TEXT": fast,
        "LEARNED_PAIR_STATES": pairs,
    }
    assert learned._hashing() is getattr(learned, expected)


def test_logits_are_the_same_with_the_pair_states_on_and_off(settings):
    model = learned.model()
    texts = [
        "Caroline: I went to the LGBTQ support group yesterday, then the group went home",
        "For deploy windows, the user prefers variant 51234 of the checklist (3f09b)",
        "我现在很累 but I went 下个月 to Qingdao",
        "",
    ]
    for text in texts:
        out = []
        for pairs in (False, True):
            settings.ENGRAM_WRITE_BATCH = {
                **settings.ENGRAM_WRITE_BATCH,
                "FAST_DETECTION_TEXT": True,
                "LEARNED_PAIR_STATES": pairs,
            }
            out.append(model.ngram_logits(text))
        assert np.array_equal(out[0], out[1])


def test_every_date_or_time_match_starts_with_a_digit():
    """The premise of the digit gate in ``feature_buckets_states``: after the look-behind,
    each branch of ``_DATE_OR_TIME`` opens with a repeat (at least once) of ``\\d``, so a
    text without a decimal digit holds no match."""
    from re import _constants as sc
    from re import _parser as sp

    pattern = learned._DATE_OR_TIME
    items = list(sp.parse(pattern.pattern, pattern.flags))
    assert items[0][0] is sc.ASSERT_NOT  # (?<!\d): zero width
    op, (_none, branches) = items[1]
    assert op is sc.BRANCH
    digit = (sc.IN, [(sc.CATEGORY, sc.CATEGORY_DIGIT)])
    for branch in branches:
        first_op, (low, _high, body) = branch[0]
        assert first_op is sc.MAX_REPEAT and low >= 1 and list(body) == [digit]
    assert pattern.pattern.startswith("(?<!") and not pattern.flags & re.ASCII


@hsettings(max_examples=300, deadline=None)
# no lone surrogate: the API's edge refuses one before any detector reads it (core/edge.py)
@given(text=st.text(alphabet=st.characters(exclude_categories=("Nd", "Cs")), max_size=80))
def test_text_without_a_digit_has_no_date_or_time(text):
    assert learned._DATE_OR_TIME.search(text) is None
    bits = learned.model().bits
    assert learned.feature_buckets_states(text, bits) == learned.feature_buckets(text, bits)


@pytest.mark.parametrize(
    "text",
    [
        "We met on 2023-05-07 at 9:30 am and again 12月3日",
        "no digits here at all, 下个月见",
        "Arabic-Indic ٢٠٢٣-٠٥-٠٧ and full-width ２０２３年５月",
    ],
)
def test_the_digit_gate_gives_the_same_buckets(text):
    bits = learned.model().bits
    assert learned.feature_buckets_states(text, bits) == learned.feature_buckets(text, bits)
