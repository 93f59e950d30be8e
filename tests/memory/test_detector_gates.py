"""The detectors' exact gates (config/settings/detector_gates.py, issue 39): a gate is a
necessary condition of the rule it stands before, so the findings are the same with it
off and on — on any text built from the rules' own words (Hypothesis), on every probe
set and labelled corpus, and on the LoCoMo dev turns when they are present."""

from __future__ import annotations

import json
from pathlib import Path

import phonenumbers
import pytest
from django.conf import settings as django_settings
from django.test import override_settings
from hypothesis import HealthCheck, example, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from core import process_state
from memory import content_rules
from memory.detectors import asked_values, secrets
from memory.detectors.asked_values import _QUESTION, _QUESTION_TAIL, answered_value_spans
from memory.detectors.prefilter import may_match
from memory.detectors.secrets import looks_like_secret
from tests.memory.test_detector_plumbing import _corpus_sentences, _findings
from tests.memory.test_detector_prefilter import PATTERNS, text_mixed

# The LoCoMo dev conversations sit beside the project (../shared/data), not in it: where a
# checkout has none, the repository's own corpora above hold the gates to the same test.
LOCOMO = Path(__file__).resolve().parents[3] / "shared" / "data" / "locomo-dev"
GATES = [
    "QUESTION_TAIL_GATE",
    "CUE_LITERAL_GATE",
    "PHONE_PLUS_GATE",
    "WHOLE_LITERAL_GATE",
    "BRANCH_GATE",
    "STATED_ONCE",
    "READING_LITERAL_GATE",
    "WORD_RUN_GATE",
    "ASCII_BRANCH_GATE",
    "TIED_DIGIT_GATE",
    "NFKC_STABLE_GATE",
]

# Pieces of questions and answers: the credential and network words, their near misses
# ("pinned", "monkeys", "shopping"), question marks, the separators ``_QUESTION`` stops at,
# answer leads and values.
_PIECES = st.sampled_from(
    [
        "what's the ", "which ", "code", "codes", "PIN", "pins", "password", "passphrase",
        "key", "combo", "wifi", "Wi-Fi", "ssid", "hotspot", "密码", "验证码", "暗証番号",
        "パスワード", "비밀번호", "无线", "ワイファイ", "opinion", "shopping", "monkeys",
        "?", "？", "\n", "A: ", "答：", "「", "」", "“", "”", '"', " ", "  ", "for the shed",
        "x" * 31, "y" * 29, "4417", "hunter2-Q", "Tr0ub4dor&3", " minutes", ".", ",",
        "って聞かれたから", "he asked, so I said ",
    ]
)  # fmt: skip
questions = st.lists(_PIECES, max_size=14).map("".join)


def _gate(key: str, on: bool):
    return override_settings(ENGRAM_WRITE_BATCH={**django_settings.ENGRAM_WRITE_BATCH, key: on})


def _on(settings, key: str, on: bool) -> None:
    settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, key: on}


@hsettings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=questions | st.text(max_size=120))
@example(text="which code opens the shed?\n4417")
@example(text="what's the wifi password?\nA: hunter2-Q")
@example(text="I love shopping? yes")
@example(text="pin" + "x" * 31 + "?")
@example(text="pin" + "x" * 30 + "?")
def test_a_question_the_tail_turns_away_is_no_question(text):
    # The necessary condition itself: no tail, no question pattern match (anywhere).
    if _QUESTION_TAIL.search(text) is None:
        assert _QUESTION.search(text) is None


@hsettings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=questions)
@example(text="which code opens the shed?\n4417")
@example(text="開機密碼？\n答：Tr0ub4dor&3")
def test_answered_values_are_the_same_with_the_gate_off_and_on(text):
    with _gate("QUESTION_TAIL_GATE", False):
        reference = answered_value_spans(text, looks_like_secret)
    with _gate("QUESTION_TAIL_GATE", True):
        assert answered_value_spans(text, looks_like_secret) == reference


def test_the_gate_turns_away_a_question_without_its_word_and_keeps_one_with_it(
    settings, monkeypatch
):
    # Positive and negative: with the gate on, the question pattern is not run on a
    # question that names no credential; it is on one that does, and finds the answer.
    calls = []
    real = asked_values._QUESTION

    class Counting:
        def finditer(self, text):
            calls.append(text)
            return real.finditer(text)

    monkeypatch.setattr(asked_values, "_QUESTION", Counting())
    _on(settings, "QUESTION_TAIL_GATE", True)
    assert answered_value_spans("when's the dentist?\n14:30", looks_like_secret) == []
    assert calls == []
    text = "which code opens the shed?\n4417"
    assert answered_value_spans(text, looks_like_secret) == [(27, 31)]
    assert calls == [text]
    _on(settings, "QUESTION_TAIL_GATE", False)
    calls.clear()
    assert answered_value_spans("when's the dentist?\n14:30", looks_like_secret) == []
    assert calls == ["when's the dentist?\n14:30"]


def test_the_question_pattern_still_ends_as_its_tail_does():
    # The gate is ``_QUESTION``'s end; should the question pattern's end change, the gate
    # must change with it (this fails first).
    recall = asked_values._RECALL  # a question put to oneself (round 20: 뭐더라, 来着)
    assert _QUESTION.pattern.endswith(
        r"[^?？\n「」“”\"]{0,30}?)(?:\?|？|" + recall + r"[?？,，、]?)"
    )
    assert _QUESTION_TAIL.pattern.endswith(r"[^?？\n「」“”\"]{0,30}?(?:\?|？|" + recall + ")")
    assert f"(?P<code>{asked_values._ASKED_CODE})|(?P<net>{asked_values._ASKED_NETWORK}))" in (
        _QUESTION.pattern
    )
    assert _QUESTION.flags == _QUESTION_TAIL.flags


CUE_TEXTS = st.lists(
    st.sampled_from(
        ["my ", "PIN", "Passcode", "passWORD", "pass", "pin", "token", "2FA", "shopping",
         "code", " is ", "密码", "密碼", "口令", "验证码", "\u0130", "\u212a", "ſ", "K", " ",
         "\n", "hunter2", "4417", "the", "Key", "keys", "answer", "log in", "login"]
    ),
    max_size=10,
).map("".join)  # fmt: skip


@hsettings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=CUE_TEXTS | text_mixed, at=st.integers(min_value=0, max_value=len(PATTERNS) - 1))
@example(text="my PIN is 4417", at=0)
@example(text="my \u0130n is", at=0)
def test_a_pattern_may_match_wherever_it_matches(text, at):
    # The necessary condition: ``may_match`` says no only where the pattern finds nothing
    # (the credential words, and every registered rule's pattern).
    process_state.reset("memory.detectors.prefilter.universe")
    for pattern in (secrets._CUE, PATTERNS[at]):
        if not may_match(pattern, text):
            assert pattern.search(text) is None
            assert list(pattern.finditer(text)) == []


def test_may_match_turns_away_text_without_a_credential_word_and_not_with_one(settings):
    _on(settings, "CUE_LITERAL_GATE", True)
    assert not may_match(secrets._CUE, "for coffee, the user prefers variant 12")
    assert may_match(secrets._CUE, "my PIN is 4417")
    assert secrets._CUE.search("my PIN is 4417")
    assert may_match(secrets._CUE, "I love shopping")  # a literal, but no word: searched
    assert not secrets._CUE.search("I love shopping")
    _on(settings, "CUE_LITERAL_GATE", False)
    assert may_match(secrets._CUE, "for coffee, the user prefers variant 12")


PHONE_TEXTS = st.lists(
    st.sampled_from(
        ["+", "\uff0b", "00", "011", "86", "44", "1", "138 0013 8000", "20 7946 0958",
         "(555) 010-4477", "tel:", ";phone-context=", "ext. 12", " call ", "-", ".", " ",
         "０１２３", "٣٤٥", "\u2212", "x", "1-800-FLOWERS", "+1 650 253 0000"]
    ),
    max_size=8,
).map("".join)  # fmt: skip


def _international(text: str) -> bool:
    matcher = phonenumbers.PhoneNumberMatcher(text, "ZZ", leniency=phonenumbers.Leniency.VALID)
    return any(True for _ in matcher)


@hsettings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=PHONE_TEXTS | st.text(alphabet="0123456789 +-()\uff0b.x", max_size=30))
@example(text="+1 650 253 0000")
@example(text="\uff0b44 20 7946 0958")
@example(text="1 650 253 0000")
def test_no_number_is_read_internationally_without_a_plus_sign(text):
    # The necessary condition, against phonenumbers itself.
    with _gate("PHONE_PLUS_GATE", True):
        if content_rules._no_plus_for_unknown_region(text):
            assert not _international(text)


def test_the_plus_gate_keeps_an_international_number(settings):
    _on(settings, "PHONE_PLUS_GATE", True)
    assert _international("call +1 650 253 0000")
    assert not content_rules._no_plus_for_unknown_region("call +1 650 253 0000")
    assert "phone_number" in content_rules.find_sensitive_personal_data("call +1 650 253 0000")
    assert content_rules._no_plus_for_unknown_region("variant 12345 of the list")
    assert "phone_number" not in content_rules.find_sensitive_personal_data("variant 12345 of")
    _on(settings, "PHONE_PLUS_GATE", False)
    assert not content_rules._no_plus_for_unknown_region("variant 12345 of the list")


def _locomo_turns() -> list[str]:
    turns = []
    for path in sorted(LOCOMO.glob("*.json")):
        convo = json.loads(path.read_text())
        convo = convo.get("conversation", convo)
        for key, value in convo.items():
            if key.startswith("session_") and isinstance(value, list):
                turns += [f"{t['speaker']}: {t['text']}" for t in value]
    return turns


@pytest.mark.parametrize("key", GATES)
def test_the_corpora_get_the_same_findings_with_the_gate_off_and_on(settings, key):
    texts = _corpus_sentences()
    assert len(texts) > 2000
    assert any("?" in t for t in texts)
    _on(settings, key, False)
    reference = [_findings(t) for t in texts]
    _on(settings, key, True)
    assert [_findings(t) for t in texts] == reference


@pytest.mark.skipif(not LOCOMO.is_dir(), reason="the LoCoMo dev turns are not on this machine")
@pytest.mark.parametrize("key", GATES)
def test_the_locomo_turns_get_the_same_findings_with_the_gate_off_and_on(settings, key):
    texts = _locomo_turns()
    assert len(texts) > 1000
    _on(settings, key, False)
    reference = [_findings(t) for t in texts]
    _on(settings, key, True)
    assert [_findings(t) for t in texts] == reference
