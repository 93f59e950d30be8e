"""``ENGRAM_DETECTOR_WHOLE_LITERAL_GATE`` (memory/detectors/prefilter_whole.py, issue 39):
the one-pass prefilter, checking a pattern's clauses by their whole literals before it
searches, gives the plain loop's answer on any text and every registered rule list — texts
built from the rules' literals, their pieces and their near misses ("checklist" for
"chest") above all; it searches only patterns the pieces alone would search; a rule from
which no literal is derived (a module that declares nothing) is still searched; and the
detectors' findings on the corpora are equal with it off and on (tests/memory/
test_detector_gates.py runs it with the other gates, and LoCoMo's turns where present)."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, example, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from core import process_state
from memory.detectors import prefilter
from memory.detectors.prefilter import (
    may_match,
    required_literals,
    search_any_one_pass,
    search_any_reference,
)
from memory.detectors.special_categories import CATEGORIES
from tests.memory.test_detector_prefilter import PATTERNS, RULE_LISTS, text_mixed


def _near_misses() -> list[str]:
    """Each derived literal longer than a piece, cut short at either end, and the piece
    the prefilter looks for it by: text holding these passes the pieces, not the whole."""
    out: set[str] = set()
    for pattern in PATTERNS:
        for clause in required_literals(pattern) or ():
            for literal, _icase in clause:
                if len(literal) > 3:
                    out |= {literal[:-1], literal[1:], prefilter._key(literal.lower())}
    return sorted(out)


NEAR = _near_misses()
near_texts = st.lists(
    st.one_of(st.sampled_from(NEAR), st.sampled_from([" ", "\n", "I ", ". ", "?", "我"])),
    max_size=10,
).map("".join)


def _switch(settings, on: bool) -> None:
    settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, "WHOLE_LITERAL_GATE": on}


@hsettings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=near_texts | text_mixed)
@example(text="For deploy windows, the user prefers variant 0 of the checklist")
@example(text="my chest goes tight")
@example(text="MY CHEST GOES TIGHT")
@example(text="my che\u017ft goes tight")  # the long s: searched in full
def test_it_answers_as_the_reference_on_every_rule_list(text):
    process_state.reset("memory.detectors.prefilter.universe")
    for rules in RULE_LISTS:
        assert search_any_one_pass(rules, text) == search_any_reference(rules, text)


@hsettings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=near_texts | text_mixed)
def test_may_match_says_no_only_where_the_pattern_finds_nothing(text):
    process_state.reset("memory.detectors.prefilter.universe")
    for pattern in PATTERNS:
        if not may_match(pattern, text):
            assert pattern.search(text) is None


class _Counting:
    def __init__(self, rx, calls: list) -> None:
        self.rx = self.prefilter_pattern = rx
        self.calls = calls

    def search(self, text: str):
        self.calls.append(self.rx.pattern)
        return self.rx.search(text)


def _searched(settings, on: bool, rules: list, text: str) -> tuple[bool, list[str]]:
    _switch(settings, on)
    process_state.reset("memory.detectors.prefilter.universe")
    calls: list[str] = []
    found = search_any_one_pass([_Counting(p, calls) for p in rules], text)
    return found, calls


@hsettings(
    max_examples=150,
    deadline=None,
    # Each example sets the switch itself before it searches.
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(text=near_texts | text_mixed)
def test_it_searches_a_subset_of_what_the_pieces_let_through(settings, text):
    for rules in RULE_LISTS:
        patterns = [p for p in rules if isinstance(p, re.Pattern)]
        found_off, off = _searched(settings, False, patterns, text)
        found_on, on = _searched(settings, True, patterns, text)
        assert found_on == found_off
        assert set(on) <= set(off)


def test_a_near_miss_of_a_rule_is_not_searched_and_the_rule_itself_is(settings):
    chest = re.compile(r"\bchest\s+(?:hurts|aches)", re.IGNORECASE)
    text = "the checklist hurts"
    assert _searched(settings, False, [chest], text) == (False, [chest.pattern])
    assert _searched(settings, True, [chest], text) == (False, [])
    assert _searched(settings, True, [chest], "My CHEST hurts") == (True, [chest.pattern])


def test_a_rule_without_literals_and_a_wrapper_without_one_are_still_searched(settings):
    # A detector module added later that derives nothing (a class, no literal) or wraps a
    # rule without naming its pattern is searched on every text, gate on or off.
    class Opaque:
        def __init__(self, calls: list) -> None:
            self.calls = calls

        def search(self, text: str):
            self.calls.append("opaque")
            return re.search(r"\d{6}", text)

    for on in (False, True):
        _switch(settings, on)
        process_state.reset("memory.detectors.prefilter.universe")
        calls: list[str] = []
        classes_only = _Counting(re.compile(r"[A-Z]\w+\s+\d+"), calls)
        rules = [Opaque(calls), classes_only]
        assert not search_any_one_pass(rules, "nothing here")
        assert calls == ["opaque", r"[A-Z]\w+\s+\d+"]
        assert search_any_one_pass(rules, "code 123456")


def test_the_special_categories_hold_rules_the_gate_can_skip():
    # Not vacuous: many health rules' clauses hold a literal longer than its piece.
    plan = prefilter._plan(CATEGORIES["health"])
    wholes = [prefilter._clauses_of(p) for p, _keys in plan]
    assert sum(1 for w in wholes if w and any(len(s) > 3 for c in w for s, _ in c)) > 50
