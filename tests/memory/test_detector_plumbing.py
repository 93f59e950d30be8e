"""Three exact shortcuts in the detectors' plumbing (issue 39, write throughput), each
against its reference:

- ``ENGRAM_DETECTOR_PHONE_RUNS`` (memory/detectors/phone_runs.py): phonenumbers' matcher
  is skipped on text where no run of a superset of the characters its pattern consumes
  (written in our code; checked here against the installed pattern) holds enough digits. No
  text it turns away holds a number the matcher finds; every example number of every
  region passes it, alone and inside a sentence.
- ``ENGRAM_DETECTOR_PREFILTER_INDEX`` (memory/detectors/prefilter.py): the literal
  prefilter through an index from literal to rule answers as the rule-by-rule prefilter
  and as the plain loop, on any text.
- ``ENGRAM_DETECTOR_SWITCHES_ONCE`` (memory/detectors/switches.py): the switches read
  once per change of the settings; a change is seen at once.

And the detectors' findings on every sentence of the labelled corpora (bench/detectors/
corpus, tests/security, tests/data's probes; never the held-out set) are the same with
each setting off and on."""

from __future__ import annotations

import json
import re
from pathlib import Path

import phonenumbers
import pytest
from hypothesis import HealthCheck, example, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from phonenumbers import phonenumbermatcher

from memory import content_rules
from memory.detectors import instructions, phone_runs, prefilter
from memory.detectors.phone_runs import phone_shaped_runs_hold
from memory.detectors.prefilter import (
    search_any_fast,
    search_any_indexed,
    search_any_reference,
)
from memory.detectors.switches import detection_switch
from tests.memory.test_detector_prefilter import FRAGMENTS, RULE_LISTS, text_mixed
from tests.security import (
    detector_corpus,
    obfuscated_corpus,
    ordinary_zh,
    poisoning_corpus,
    special_category_corpus,
)

ROOT = Path(__file__).resolve().parents[2]
LEAST = content_rules._min_phone_digits()


def matcher_finds(text: str) -> bool:
    for region in ("CN", "ZZ"):
        try:
            found = phonenumbers.PhoneNumberMatcher(
                text, region, leniency=phonenumbers.Leniency.VALID
            )
            if any(True for _ in found):
                return True
        except Exception:  # as the detector: a matcher error is no finding
            continue
    return False


def _consumed_by(items, out: list[str]) -> bool:
    """The class items of every character-consuming node of a parsed pattern; False for a
    node this cannot bound. Test only: it reads Python's regex parser and phonenumbers'
    candidate pattern, both private, to check the product's own superset against them."""
    from re import _constants as sc

    for op, av in items:
        if op is sc.LITERAL:
            out.append(re.escape(chr(av)))
        elif op is sc.IN:
            for inner_op, inner_av in av:
                if inner_op is sc.LITERAL:
                    out.append(re.escape(chr(inner_av)))
                elif inner_op is sc.RANGE:
                    out.append(f"{re.escape(chr(inner_av[0]))}-{re.escape(chr(inner_av[1]))}")
                elif inner_op is sc.CATEGORY and inner_av is sc.CATEGORY_DIGIT:
                    out.append(r"\d")
                elif inner_op is sc.CATEGORY and inner_av is sc.CATEGORY_SPACE:
                    out.append(r"\s")
                else:
                    return False
        elif op is sc.SUBPATTERN:
            if av[1] or av[2] or not _consumed_by(av[3], out):
                return False
        elif op is sc.BRANCH:
            if not all(_consumed_by(alt, out) for alt in av[1]):
                return False
        elif op in (sc.MAX_REPEAT, sc.MIN_REPEAT):
            if not _consumed_by(av[2], out):
                return False
        elif op is not sc.AT:
            return False
    return True


def test_the_phone_characters_hold_every_character_phonenumbers_pattern_consumes():
    """Guards a phonenumbers upgrade: every code point the installed candidate pattern's
    nodes accept (with its flags) is in ``PHONE_CHARS``' runs."""
    from re import _parser

    installed = getattr(phonenumbermatcher, "_PATTERN", None)
    # Renamed or gone in an upgrade: the comparison must be redone, not skipped.
    assert isinstance(installed, re.Pattern), "phonenumbers' candidate pattern moved"
    items: list[str] = []
    assert _consumed_by(_parser.parse(installed.pattern, installed.flags), items), (
        "phonenumbers' candidate pattern has a node the comparison cannot bound: "
        "check memory/detectors/phone_runs.PHONE_CHARS by hand"
    )
    theirs = re.compile("[" + "".join(items) + "]", installed.flags)
    missing = [
        hex(cp)
        for cp in range(0x110000)
        if not 0xD800 <= cp < 0xE000
        and theirs.fullmatch(chr(cp))
        and not phone_runs._RUNS.fullmatch(chr(cp))
    ]
    assert missing == []


def test_the_phone_characters():
    for ch in "0123456789０٣+(（-. /~x#;:,extEXTдоб":
        assert phone_runs._RUNS.fullmatch(ch), ch
    for ch in "bfgkqzw我":  # a letter outside the extension labels ends a run
        assert not phone_runs._RUNS.fullmatch(ch), ch
    assert not phone_shaped_runs_hold("variant 1234 of the checklist (3f09b12)", 5)
    assert phone_shaped_runs_hold("call +86 138-0013 ext. 8000", 5)


def test_every_example_number_passes_the_filter():
    """phonenumbers' example number of every region and type, as written nationally and
    internationally, alone and inside a sentence."""
    checked = 0
    for region in phonenumbers.SUPPORTED_REGIONS:
        for kind in range(12):
            number = phonenumbers.example_number_for_type(region, kind)
            if number is None:
                continue
            for fmt in (
                phonenumbers.PhoneNumberFormat.NATIONAL,
                phonenumbers.PhoneNumberFormat.INTERNATIONAL,
                phonenumbers.PhoneNumberFormat.E164,
            ):
                written = phonenumbers.format_number(number, fmt)
                for text in (written, f"call me at {written} after 6, ok?"):
                    if matcher_finds(text):
                        assert phone_shaped_runs_hold(text, LEAST), text
                        checked += 1
    assert checked > 500


_DIGITS = "0123456789０１２３４５６７８９٠١٢٣٤٥٦٧٨٩"
_JOINERS = list(" -.()/+x#~（）［］　\u00a0\u2010－") + [
    " ext ",
    " ext. ",
    ";ext=",
    " x",
    " доб ",
    " anexo ",
    " int ",
    ", ",
    " and ",
    "# ",
]
_WORDS = ["call", "me", "at", "variant", "of", "the", "id", "电话", "号码", "是", "tel", "a"]
phone_like = st.lists(
    st.one_of(
        st.text(alphabet=_DIGITS[:10], min_size=1, max_size=5),
        st.text(alphabet=_DIGITS, min_size=1, max_size=4),
        st.sampled_from(_JOINERS),
        st.sampled_from(_WORDS),
        st.text(max_size=3),
    ),
    max_size=14,
).map("".join)


@hsettings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=phone_like)
@example(text="variant 1234 of the checklist (3f09b12)")
@example(text="13800138000")
@example(text="+86 138 0013 8000 ext 12")
@example(text="tel 010-1234 5678")
@example(text="555 1234 x 5")
def test_no_text_the_filter_turns_away_holds_a_number(text):
    if not phone_shaped_runs_hold(text, LEAST):
        assert not matcher_finds(text)


@hsettings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=text_mixed)
@example(text="")
@example(text="I'M ON SERTRALINE")
@example(text="\u0130'm on sertraline")
def test_the_indexed_search_answers_as_the_fast_one_and_the_reference(text):
    for rules in RULE_LISTS:
        expected = search_any_reference(rules, text)
        assert search_any_fast(rules, text) == expected
        assert search_any_indexed(rules, text) == expected


def test_the_joined_pieces_are_the_pieces():
    for text in ["", "a", "ab", "abc", "Hello, World", "我的病历 ok", *FRAGMENTS[:200]]:
        assert prefilter._text_pieces_joined(text) == prefilter._text_pieces(text)
    assert prefilter._text_pieces_joined("\u0130stanbul") is None


def test_the_indexed_search_searches_only_the_rules_the_text_may_match():
    calls = []
    pattern = re.compile(r"\bi(?:'m| am) (?:diagnosed|treated) with (?:asthma|gout)\b", re.I)

    class Counting:
        def __init__(self, rx):
            self.rx = rx

        def search(self, text):
            calls.append(self.rx.pattern)
            return self.rx.search(text)

    assert not search_any_indexed([pattern], "we walked to the harbour")
    assert search_any_indexed([pattern], "Yesterday I'M DIAGNOSED WITH Gout")
    other = re.compile(r"never")
    assert not search_any_indexed([Counting(other), pattern], "we walked")
    assert calls == ["never"]  # an object that is not a compiled pattern is always searched


def _corpus_sentences() -> list[str]:
    texts: list[str] = []
    for folder in (ROOT / "bench" / "detectors" / "corpus", ROOT / "tests" / "data"):
        for path in sorted(folder.glob("*.jsonl")):
            if "heldout" in path.name:
                continue  # never read here
            for line in path.read_text().splitlines():
                if line.strip():
                    texts.append(json.loads(line)["text"])
    for module in (
        detector_corpus,
        obfuscated_corpus,
        poisoning_corpus,
        ordinary_zh,
        special_category_corpus,
    ):
        for name, value in vars(module).items():
            if name.isupper() and isinstance(value, list):
                for item in value:
                    text = item if isinstance(item, str) else item[0]
                    if isinstance(text, str):
                        texts.append(text)
    return list(dict.fromkeys(texts))


def _findings(text: str) -> tuple:
    return (
        content_rules.find_secrets(text),
        content_rules.find_sensitive_personal_data(text),
        content_rules.find_transient(text),
        content_rules.find_system_of_record(text, ""),
        instructions.find_injection(text),
    )


@pytest.mark.parametrize("key", ["PHONE_RUNS", "PREFILTER_INDEX", "SWITCHES_ONCE"])
def test_the_corpora_get_the_same_findings_with_the_setting_off_and_on(settings, key):
    texts = _corpus_sentences()
    assert len(texts) > 2000
    settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, key: False}
    reference = [_findings(t) for t in texts]
    settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, key: True}
    assert [_findings(t) for t in texts] == reference


@pytest.mark.parametrize("once", [False, True])
def test_a_change_of_the_switches_is_seen_at_once(settings, once):
    settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, "SWITCHES_ONCE": once}
    for on in (False, True, False):
        settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, "PREFILTER_INDEX": on}
        assert detection_switch("PREFILTER_INDEX") is on
        assert detection_switch("SWITCHES_ONCE") is once
    settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, "FAST_DETECTION_TEXT": False}
    assert content_rules.normalize_text("A-b") == content_rules.normalize_text_reference("A-b")
    assert not detection_switch("FAST_DETECTION_TEXT")


_statements = st.one_of(
    st.sampled_from(
        ["I prefer green tea", "User prefers green tea", "我喜欢绿茶", "用户喜欢绿茶",
         "Dana's favourite city is Lyon", "The user is vegetarian", "my cat is called Tom"]
    ),
    st.text(max_size=40),
)  # fmt: skip


@hsettings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    statement=_statements,
    value=st.one_of(
        st.none(),
        st.text(max_size=20),
        st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
    ),
    names=st.lists(st.sampled_from(["Dana", "Dana Whitfield", "Tom", "小明"]), max_size=2).map(
        tuple
    ),
)
def test_content_keys_kept_equal_the_plain_ones(settings, statement, value, names):
    from memory.write_policy import Candidate
    from memory.write_policy.decision import content_key, content_keys

    candidate = Candidate(
        memory_type="semantic",
        namespace="assistant/profile",
        statement=statement,
        value=value,
        assertion_kind="user_explicit",
        confidence=1.0,
        purpose="personalization",
        consent_basis="explicit_consent",
        subject_names=names,
    )
    settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, "CONTENT_KEYS_ONCE": False}
    plain = (content_key(candidate), content_keys(candidate))
    settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, "CONTENT_KEYS_ONCE": True}
    assert (content_key(candidate), content_keys(candidate)) == plain
    assert (content_key(candidate), content_keys(candidate)) == plain  # from the cache


def test_the_shortest_national_number_is_at_most_phonenumbers_own():
    """Our constant against the installed library's (private, read in the test only): a
    larger one could turn away a number the matcher finds."""
    installed = getattr(phonenumbers.phonenumberutil, "_MIN_LENGTH_FOR_NSN", None)
    assert installed is not None, "phonenumbers' shortest national number moved"
    assert content_rules.MIN_NATIONAL_NUMBER_LENGTH <= installed
