"""Special categories of personal data (issue 14, class 2): recall on the positives, and
precision on sentences where the special-category word is a topic, a course, an event or
somebody else (class 9). Then the tenant policy decides: hold for the user's confirmation
(default) or reject."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime

import pytest

from accounts.policies import TenantPolicy
from memory.content_rules import find_sensitive_personal_data
from memory.detectors.special_categories import CATEGORIES, find_special_categories
from memory.write_policy import Candidate, SubjectState, decide
from tests.security.special_category_corpus import NEGATIVE, POSITIVE

NOW = datetime(2026, 12, 1, tzinfo=UTC)


def _decide(statement: str, tenant: TenantPolicy | None = None, **kw):
    candidate = Candidate(
        memory_type="semantic",
        namespace="assistant/profile",
        statement=statement,
        assertion_kind="user_explicit",
        confidence=1.0,
        purpose="personalization",
        consent_basis="explicit_consent",
        **kw,
    )
    return decide(
        candidate, existing=[], subject=SubjectState(), tenant=tenant or TenantPolicy(), now=NOW
    )


def _has_cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def test_corpus_size_and_balance():
    assert len(POSITIVE) + len(NEGATIVE) >= 150
    assert sum(1 for t, _ in POSITIVE if _has_cjk(t)) >= 30
    assert sum(1 for t in NEGATIVE if _has_cjk(t)) >= 25
    # every category has positives
    assert set(Counter(c for _, c in POSITIVE)) == set(CATEGORIES)


@pytest.mark.parametrize(("text", "category"), POSITIVE, ids=[t for t, _ in POSITIVE])
def test_positive_found_with_its_category(text, category):
    assert category in find_special_categories(text)
    assert f"special_category_{category}" in find_sensitive_personal_data(text)


@pytest.mark.parametrize("text", NEGATIVE)
def test_negative_passes(text):
    assert find_special_categories(text) == []
    # Stored, or held for another reason than a special category (a learned head may hold
    # "I'm in a meeting" as a passing state).
    decision = _decide(text)
    assert decision.operation == "ADD" or (
        decision.operation == "QUARANTINE"
        and not any(f.startswith("special_category") for f in decision.findings)
    ), text


@pytest.mark.parametrize(
    "text",
    ["I was diagnosed with asthma as a child", "用户在服用氟西汀", "I'm a practising Hindu"],
)
def test_default_tenant_holds_for_confirmation(text):
    decision = _decide(text)
    assert (decision.operation, decision.reason_code) == (
        "QUARANTINE",
        "sensitive_needs_confirmation",
    )
    assert decision.status == "pending_confirmation"
    assert decision.candidate.sensitivity == "restricted"


@pytest.mark.parametrize("text", ["I take sertraline every day", "我是穆斯林"])
def test_rejecting_tenant_rejects(text):
    decision = _decide(text, TenantPolicy(sensitive_personal_data="reject"))
    assert (decision.operation, decision.reason_code) == ("REJECT", "sensitive_personal_data")


def test_user_confirmation_stores_it_restricted():
    decision = _decide("I have asthma", user_confirmed_sensitive=True)
    assert decision.operation == "ADD"
    assert decision.candidate.sensitivity == "restricted"


def test_obfuscated_special_category_is_still_found():
    assert "health" in find_special_categories("I’m оn sеrtrаlinе")  # Cyrillic о, е, а
    assert "religion" in find_special_categories("我 是 虔 诚 的 基 督 徒")
