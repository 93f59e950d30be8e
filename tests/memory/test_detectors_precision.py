"""Precision and recall of the transient, system-of-record and injection detectors (issue
14, class 9): a state that expires is transient, an episode with a time word is not; a
balance is a system-of-record fact only with money; "where you are now" is not an
instruction. Ordinary Chinese conversation is stored whole."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from accounts.policies import TenantPolicy
from memory.content_rules import find_injection, find_system_of_record, find_transient
from memory.write_policy import Candidate, SubjectState, decide
from tests.security.detector_corpus import (
    INJECTION_NEGATIVE,
    INJECTION_POSITIVE,
    SOR_NEGATIVE,
    SOR_POSITIVE,
    TRANSIENT_NEGATIVE,
    TRANSIENT_POSITIVE,
)
from tests.security.ordinary_zh import ORDINARY_ZH

NOW = datetime(2026, 12, 1, tzinfo=UTC)


@pytest.mark.parametrize("text", TRANSIENT_POSITIVE)
def test_transient_found(text):
    assert find_transient(text) == ["transient_state"]


@pytest.mark.parametrize("text", TRANSIENT_NEGATIVE)
def test_episode_with_time_word_is_not_transient(text):
    assert find_transient(text) == []


@pytest.mark.parametrize("text", SOR_POSITIVE)
def test_system_of_record_found(text):
    assert find_system_of_record(text)


@pytest.mark.parametrize("text", SOR_NEGATIVE)
def test_not_system_of_record(text):
    assert find_system_of_record(text) == []


@pytest.mark.parametrize("text", INJECTION_POSITIVE)
def test_injection_found(text):
    assert find_injection(text) == ["instruction_like_text"]


@pytest.mark.parametrize("text", INJECTION_NEGATIVE)
def test_ordinary_text_is_not_injection(text):
    assert find_injection(text) == []


def test_ordinary_chinese_conversation_is_stored():
    assert len(ORDINARY_ZH) >= 150
    refused = []
    for text in ORDINARY_ZH:
        candidate = Candidate(
            memory_type="episodic",
            namespace="chat",
            statement=text,
            assertion_kind="user_explicit",
            confidence=1.0,
            purpose="personalization",
            consent_basis="explicit_consent",
        )
        decision = decide(
            candidate, existing=[], subject=SubjectState(), tenant=TenantPolicy(), now=NOW
        )
        if decision.operation != "ADD":
            refused.append((decision.reason_code, text))
    assert refused == []
