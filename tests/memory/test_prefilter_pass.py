"""``ENGRAM_DETECTOR_PREFILTER_ONE_PASS`` (memory/detectors/prefilter.py, search_any_one_pass, issue 39):
the prefilter's questions answered from a text's pieces narrowed once to every rule
list's keys give the plain loop's answer on any text and any rule list, whatever order
the lists are first asked about in; it searches what the indexed search searches; and the
detectors' findings on the labelled corpora are the same with it off and on."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, example, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from core import process_state
from memory.detectors import prefilter
from memory.detectors.prefilter import search_any_indexed, search_any_one_pass, search_any_reference
from tests.memory.test_detector_plumbing import _corpus_sentences, _findings
from tests.memory.test_detector_prefilter import RULE_LISTS, text_mixed


@hsettings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=text_mixed, order=st.permutations(range(len(RULE_LISTS))))
@example(text="", order=list(range(len(RULE_LISTS))))
@example(text="I'M ON SERTRALINE", order=list(range(len(RULE_LISTS))))
@example(text="\u0130'm on sertraline", order=list(range(len(RULE_LISTS))))
def test_the_one_pass_search_answers_as_the_reference(text, order):
    # A fresh universe, the lists joining it in the drawn order, each asked about the
    # same text (whose narrowed pieces must follow the universe as it grows).
    process_state.reset("memory.detectors.prefilter.universe")
    for at in order:
        rules = RULE_LISTS[at]
        assert search_any_one_pass(rules, text) == search_any_reference(rules, text)
    for rules in RULE_LISTS:  # and again, every list in the universe
        assert search_any_one_pass(rules, text) == search_any_reference(rules, text)


def test_a_list_joining_later_sees_the_text_again():
    process_state.reset("memory.detectors.prefilter.universe")
    first = [re.compile(r"harbour")]
    later = [re.compile(r"\bsertraline\b", re.I)]
    text = "we walked to the harbour; I'm on Sertraline"
    assert search_any_one_pass(first, text)
    assert search_any_one_pass(later, text)  # "sertraline" was no key when first narrowed
    assert not search_any_one_pass([re.compile(r"\bgout\b")], text)


def test_a_full_universe_answers_by_the_index(monkeypatch):
    process_state.reset("memory.detectors.prefilter.universe")
    monkeypatch.setattr(prefilter, "_MAX_LISTS", 0)
    rules = [re.compile(r"\bgout\b", re.I)]
    assert search_any_one_pass(rules, "my GOUT again")
    assert not search_any_one_pass(rules, "we walked")


def test_a_changed_list_is_indexed_again():
    process_state.reset("memory.detectors.prefilter.universe")
    rules = [re.compile(r"\bgout\b")]
    assert not search_any_one_pass(rules, "asthma again")
    rules.append(re.compile(r"\basthma\b"))
    assert search_any_one_pass(rules, "asthma again")


@hsettings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(text=text_mixed)
def test_it_searches_what_the_indexed_search_searches(settings, text):
    # With the whole-literal gate off (tests/memory/test_prefilter_whole.py: on, a subset).
    settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, "WHOLE_LITERAL_GATE": False}

    def counted(calls):
        class Counting:
            def __init__(self, rx):
                self.rx = rx
                self.prefilter_pattern = rx

            def search(self, t):
                calls.append(self.rx.pattern)
                return self.rx.search(t)

        return Counting

    process_state.reset("memory.detectors.prefilter.universe")  # room for these lists
    for rules in RULE_LISTS:
        patterns = [p for p in rules if isinstance(p, re.Pattern)]
        indexed: list[str] = []
        one_pass: list[str] = []
        wrapped_indexed = [counted(indexed)(p) for p in patterns]
        wrapped_pass = [counted(one_pass)(p) for p in patterns]
        assert search_any_one_pass(wrapped_pass, text) == search_any_indexed(wrapped_indexed, text)
        assert one_pass == indexed


@pytest.mark.parametrize("key", ["PREFILTER_ONE_PASS", "WHOLE_LITERAL_GATE"])
def test_the_corpora_get_the_same_findings_with_the_setting_off_and_on(settings, key):
    texts = _corpus_sentences()
    assert len(texts) > 2000
    settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, key: False}
    reference = [_findings(t) for t in texts]
    settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, key: True}
    assert [_findings(t) for t in texts] == reference
