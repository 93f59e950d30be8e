"""Issue 39's exact cuts of this round, each against its reference:

- ``ENGRAM_DETECTOR_BRANCH_GATE`` (memory/detectors/prefilter_branches.py): a top-level
  alternation searched by its live branches finds something exactly where the whole
  pattern does;
- ``ENGRAM_DETECTOR_STATED_ONCE`` (``life_frames.StatedText``): a sentence-by-sentence
  rule reads the same sentences, and returns the same match, from the shared split;
- ``ENGRAM_DETECTOR_TIME_PAST_GATE`` (``prefilter_any.literal_gate``): the English past
  readings are skipped only where none of them can match.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.conf import settings as django_settings
from django.test import override_settings
from hypothesis import HealthCheck, example, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from memory.detectors.life_frames import _SUPPOSED, StatedText, _Stated
from memory.detectors.prefilter import _split_of, required_literals, search_any
from memory.detectors.prefilter_any import literal_gate, may_any_match
from memory.detectors.prefilter_branches import branches, live_pattern, split_top_level
from memory.detectors.special_categories import CATEGORIES
from memory.temporal import en, valid_time_hint
from memory.temporal.common import fold_traditional
from tests.memory.test_detector_plumbing import _corpus_sentences
from tests.memory.test_detector_prefilter import PATTERNS, text_mixed

NOW = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)

# Every plain rule (or sentence-by-sentence rule's inner rule) the branch gate splits.
_RULES = list(
    {
        id(split[0]): split
        for rule in [*PATTERNS, *(p for ps in CATEGORIES.values() for p in ps)]
        if (split := _split_of(rule)) is not None
    }.values()
)
_STATED = [p for ps in CATEGORIES.values() for p in ps if isinstance(p, _Stated) and p.live_rule]


def _words(rules) -> list[str]:
    out = set()
    for _rule, parts in rules:
        for _source, clauses in parts:
            for clause in clauses:
                out.update(clause)
    return sorted(out)


_WORD = st.sampled_from(
    _words(_RULES)
    + ["I ", "I'm ", "my ", "the user ", "我", " ", ". ", "? ", "if ", "\n", "2", "Berlin"]
)
branch_texts = st.lists(_WORD, max_size=16).map("".join)


def _live_finds(rule, parts, text: str) -> bool:
    live = live_pattern(rule, parts, text.lower())
    return live is not None and live.search(text) is not None


def test_the_cut_keeps_escapes_classes_and_groups_whole():
    assert split_top_level(r"a\|b|[|\]]c|(?:d|e)|f") == [r"a\|b", r"[|\]]c", "(?:d|e)", "f"]
    assert split_top_level(r"[]|]x|[^]|]y") == ["[]|]x", "[^]|]y"]
    assert split_top_level("abc") == ["abc"]


def test_patterns_the_cut_cannot_serve_are_searched_whole():
    derive = required_literals
    assert branches(re.compile(r"(a)x\1|b"), derive) is None  # a back-reference
    assert branches(re.compile(r"(a)?(?(1)b|c)"), derive) is None  # a conditional group
    assert branches(re.compile(r"a # x|y\n|b", re.VERBOSE), derive) is None
    assert branches(re.compile(r"(?:ab|cd)e"), derive) is None  # no top-level alternation
    shared = branches(re.compile(r"\bheart\s+races|\bchest\s+tight", re.I), derive)
    assert shared is not None and [s for s, _ in shared] == [r"\bheart\s+races", r"\bchest\s+tight"]


def test_the_gate_splits_the_long_alternations():
    assert len(_RULES) > 60
    assert max(len(parts) for _rule, parts in _RULES) >= 6


@hsettings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=branch_texts | text_mixed, at=st.integers(min_value=0, max_value=len(_RULES) - 1))
@example(text="my heart races when I'm on the stage", at=0)
def test_the_live_branches_find_something_exactly_where_the_pattern_does(text, at):
    rule, parts = _RULES[at]
    if not text.isascii() and any(c in text for c in "\u0130\u0131\u017f\u212a\u03a3"):
        return  # the prefilter searches such a text in full before the gate is asked
    assert _live_finds(rule, parts, text) == (rule.search(text) is not None)


@hsettings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=branch_texts, at=st.integers(min_value=0, max_value=len(_STATED) - 1))
def test_a_stated_rule_by_its_live_branches_finds_where_it_does(text, at):
    stated = _STATED[at]
    split = _split_of(stated)
    if split is None:
        return
    rule, parts = split
    live = live_pattern(rule, parts, text.lower())
    found = live is not None and stated.search_with(live, text) is not None
    assert found == (stated.search(text) is not None)


def test_ordinary_text_with_a_weak_word_of_every_branch_is_not_searched(settings):
    bench = "For deploy windows, the user prefers variant 0 of the checklist (a3f09b12)"
    religion = [s for s in (_split_of(p) for p in CATEGORIES["religion"]) if s]
    assert any(live_pattern(r, parts, bench.lower()) is None for r, parts in religion)
    assert not search_any(CATEGORIES["religion"], bench)
    halal = "I only eat halal meat, the user said."
    assert search_any(CATEGORIES["religion"], halal)
    settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, "BRANCH_GATE": False}
    assert search_any(CATEGORIES["religion"], halal)
    assert not search_any(CATEGORIES["religion"], bench)


_SENTENCES = st.lists(
    st.sampled_from(
        [
            "I'm on crutches",
            "my blood pressure was 165 over 100",
            "if I ever needed IVF",
            "would I wear hearing aids",
            "我左耳戴助听器",
            "要是我以后得戴助听器",
            "the weather is fine",
            "I go to the mosque every Friday",
            ". ",
            "? ",
            "！",
            "\n",
            " ",
        ]
    ),
    max_size=8,
).map("".join)


@hsettings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=_SENTENCES | st.text(max_size=80), at=st.integers(min_value=0, max_value=400))
@example(text="If I'm on crutches? I'm on crutches.", at=0)
def test_a_stated_rule_reads_the_shared_sentences_as_its_own(text, at):
    rules = [p for ps in CATEGORIES.values() for p in ps if isinstance(p, _Stated)]
    stated = rules[at % len(rules)]
    mine, shared = stated.search(text), stated.search(StatedText(text))
    assert (mine is None) == (shared is None)
    if mine is not None:
        assert (mine.span(), mine.string) == (shared.span(), shared.string)


def test_the_shared_sentences_skip_a_supposition_and_keep_a_statement():
    text = StatedText("If I'm on crutches next year. I'm on crutches now? I use a wheelchair.")
    assert text.stated == (" I use a wheelchair.",)
    assert all(not _SUPPOSED.search(s) for s in text.stated)
    assert text == "If I'm on crutches next year. I'm on crutches now? I use a wheelchair."


_TIME_WORDS = st.sampled_from(
    [
        "three weeks ago", "a year and a half ago", "since 2019", "since March", "yesterday",
        "the day before yesterday", "last month", "last May", "LAST Summer", "this past Friday",
        "on Monday", "in the spring", "this week", "earlier this year", "a fortnight ago",
        "the week before last", "at the end of last year", "back in June", "I moved", "I will move",
        "to Berlin", "agog", "lastly", "Septic", "pastry", "thistle", " ", ", ", ". ", "K", "İ",
    ]
)  # fmt: skip
time_texts = st.lists(_TIME_WORDS, max_size=8).map("".join)


@hsettings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=time_texts | st.text(max_size=60))
@example(text="I moved to Berlin three weeks ago")
@example(text="lastly, the pastry")
def test_the_past_gate_says_no_only_where_no_reading_matches(text):
    if not may_any_match(en._EN_PAST_GATE, text):
        for p in en._EN_PAST_READINGS:
            assert p.search(text) is None and p.search(text.lower()) is None


@hsettings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=time_texts)
def test_the_past_reading_is_the_same_with_the_gate_off_and_on(text):
    batch = django_settings.ENGRAM_WRITE_BATCH
    with override_settings(ENGRAM_WRITE_BATCH={**batch, "TIME_PAST_GATE": False}):
        reference = en._en_past(text, NOW)
    with override_settings(ENGRAM_WRITE_BATCH={**batch, "TIME_PAST_GATE": True}):
        assert en._en_past(text, NOW) == reference


def test_the_past_gate_turns_away_ordinary_text_and_keeps_a_past_one():
    assert not may_any_match(en._EN_PAST_GATE, "the user prefers variant 0 of the report")
    assert may_any_match(en._EN_PAST_GATE, "I moved to Berlin three weeks ago")
    assert en._en_past("I moved to Berlin three weeks ago", NOW) is not None
    assert literal_gate([re.compile(r"\w+")]) is None  # a reading without literals: no gate


@pytest.mark.parametrize("key", ["TIME_PAST_GATE"])
def test_the_corpora_get_the_same_time_hints_with_the_gate_off_and_on(settings, key):
    texts = _corpus_sentences()
    settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, key: False}
    reference = [valid_time_hint(t, NOW, slot=s) for t in texts for s in (True, False)]
    settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, key: True}
    assert [valid_time_hint(t, NOW, slot=s) for t in texts for s in (True, False)] == reference


_HANT_TEXTS = st.text(alphabet="個會下月週藥黨來の가ab 1。", max_size=20)


@hsettings(max_examples=400, deadline=None)
@given(text=_HANT_TEXTS | st.text(max_size=40))
@example(text="下個月")
@example(text="来週の個")
@example(text="plain ascii")
def test_the_fold_is_the_same_with_its_gate_off_and_on(text):
    batch = django_settings.ENGRAM_WRITE_BATCH
    with override_settings(ENGRAM_WRITE_BATCH={**batch, "FOLD_GATE": False}):
        reference = fold_traditional(text)
    with override_settings(ENGRAM_WRITE_BATCH={**batch, "FOLD_GATE": True}):
        assert fold_traditional(text) == reference


def test_the_fold_still_folds_with_its_gate_on():
    assert fold_traditional("下個月吃藥") == "下个月吃药"
    assert fold_traditional("来週の個") == "来週の個"  # kana: Japanese, left as it is
