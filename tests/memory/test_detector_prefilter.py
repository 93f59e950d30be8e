"""The detectors' literal prefilter (``memory.detectors.prefilter``, issue 39) skips a
pattern only where it cannot match (special categories, instructions, addressing, systems
of record, credentials named by their use): the required literals derived from every registered
rule are in every string that rule matches, the fast search answers as the plain loop
does on any text, and the case assumptions it rests on hold for every code point."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, example, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from memory import content_rules
from memory.detectors import addressing, instructions, prefilter, used_secrets
from memory.detectors.prefilter import (
    ASCII_CASE_TWINS,
    UNEVEN_LOWER,
    required_literals,
    search_any_fast,
    search_any_reference,
)
from memory.detectors.special_categories import CATEGORIES, find_special_categories

# Every rule list searched through ``search_any``: a rule added to one is covered here.
RULE_LISTS = [
    *CATEGORIES.values(),
    instructions._INJECTION_PATTERNS,
    instructions._PROCEDURE_PATTERNS,
    instructions._TO_AGENT_PATTERNS,
    addressing._ADDRESS,
    addressing._INTERNALS,
    content_rules._SOR_PATTERNS,
    used_secrets._RULES,
]
PATTERNS = list(
    {
        id(q): q
        for rules in RULE_LISTS
        for p in rules
        # A wrapper's own pattern (its ``prefilter_pattern``) is checked as a rule is.
        for q in (p, getattr(p, "prefilter_pattern", None))
        if isinstance(q, re.Pattern)
    }.values()
)
# Every literal any rule requires, as written and with its case flipped: texts made of
# them reach the patterns' searches rather than being skipped at once.
FRAGMENTS = sorted(
    {
        form
        for p in PATTERNS
        for clause in required_literals(p) or ()
        for literal, _ in clause
        for form in (literal, literal.upper(), literal.title())
    }
)
ODD = "\u0130\u0131\u017f\u212a\u03a3\u03c2KkSsIi \n'’-。，我的 "
text_mixed = st.lists(
    st.one_of(
        st.sampled_from(FRAGMENTS),
        st.text(alphabet=st.one_of(st.characters(), st.sampled_from(ODD)), max_size=6),
    ),
    max_size=12,
).map("".join)
ALL_CODE_POINTS = "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF)


def test_every_registered_rule_has_a_prefilter():
    """A rule for which nothing is derived is searched on every text: still correct, but
    a rule added later should be noticed if it loses the prefilter."""
    assert PATTERNS
    assert [p.pattern for p in PATTERNS if required_literals(p) is None] == []


def test_the_case_twins_are_every_non_ascii_character_matching_an_ascii_one():
    found = set()
    for code in range(128):
        found |= set(re.findall(re.escape(chr(code)), ALL_CODE_POINTS[128:], re.IGNORECASE))
    assert found == ASCII_CASE_TWINS


def test_caseless_letters_in_case_insensitive_literals_match_only_themselves():
    """The letters without case (Lo) the derived literals hold: under ``re.IGNORECASE``
    each matches itself and no other code point."""
    caseless = sorted(
        {
            ch
            for p in PATTERNS
            for clause in required_literals(p) or ()
            for literal, icase in clause
            if icase
            for ch in literal
            if not ch.isascii()
        }
    )
    assert caseless
    klass = re.compile("[" + "".join(re.escape(c) for c in caseless) + "]", re.IGNORECASE)
    assert sorted(set(klass.findall(ALL_CODE_POINTS))) == caseless
    assert len(klass.findall(ALL_CODE_POINTS)) == len(caseless)


def test_lowercasing_is_one_character_for_one_outside_the_uneven_ones():
    uneven = {c for c in ALL_CODE_POINTS if len(c.lower()) != 1}
    assert uneven <= UNEVEN_LOWER
    # Context: only the final sigma lowercases differently by its neighbours.
    contextual = {
        c
        for c in ALL_CODE_POINTS
        if c not in uneven and ("a" + c).lower() != "a" + c.lower() or (c + "a").lower()[-1] != "a"
    }
    assert contextual <= UNEVEN_LOWER


@pytest.mark.parametrize("index", range(len(PATTERNS)))
@hsettings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_every_string_a_rule_matches_passes_its_prefilter(index, data):
    pattern = PATTERNS[index]
    # Every registered rule must be one Hypothesis can write matches for: a rule it cannot
    # fails here rather than going unchecked.
    text = data.draw(st.from_regex(pattern))
    if pattern.search(text):
        assert search_any_fast([pattern], text)


@hsettings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=text_mixed)
@example(text="I'M ON SERTRALINE")
@example(text="\u0130'm on sertraline")
@example(text="i'm on \u017fertraline")
@example(text="我的病历")
@example(text="")
def test_the_fast_search_answers_as_the_reference(text):
    for rules in RULE_LISTS:
        assert search_any_fast(rules, text) == search_any_reference(rules, text)


@hsettings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(text=text_mixed)
def test_special_categories_are_the_same_with_the_prefilter_on_and_off(settings, text):
    settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, "FAST_DETECTION_TEXT": False}
    reference = find_special_categories(text)
    settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, "FAST_DETECTION_TEXT": True}
    assert find_special_categories(text) == reference


def test_a_text_with_none_of_a_rules_literals_is_not_searched(monkeypatch):
    calls = []
    pattern = re.compile(r"\bi(?:'m| am) (?:diagnosed|treated) with (?:asthma|gout)\b", re.I)

    class Counting:
        def search(self, text):
            calls.append(text)
            return pattern.search(text)

    assert required_literals(pattern)
    assert not search_any_fast([pattern], "we walked to the harbour")
    assert search_any_fast([pattern], "Yesterday I'M DIAGNOSED WITH Gout")
    # An object that is not a compiled pattern is always searched.
    assert not search_any_fast([Counting()], "we walked")
    assert calls == ["we walked"]
    # Unless it names the pattern it cannot match without (``prefilter_pattern``).
    wrapper = Counting()
    wrapper.prefilter_pattern = pattern
    assert not search_any_fast([wrapper], "we walked again")
    assert calls == ["we walked"]
    assert search_any_fast([wrapper], "I am treated with gout")
    # A case twin in the text: every pattern is searched (K is a case form of k).
    kelvin = re.compile("kelp", re.I)
    assert search_any_fast([kelvin], "\u212aelp") == bool(kelvin.search("\u212aelp"))
    assert prefilter._text_pieces("\u212aelp") is None
