"""Credential detection and redaction (issue 14, class 1), and its precision (class 9).

Pure: no database. Every positive must be found and redacted out of the text; every
negative (credential words without a secret, "otp" inside "footprint", codes that are not
credentials) must pass untouched. The same detector redacts raw events before storage
(tests/security/test_secret_redaction.py)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from accounts.policies import TenantPolicy
from memory.content_rules import find_secrets, redact_secrets
from memory.detectors.secrets import looks_like_secret, secret_spans
from memory.text_normalize import detection_form
from memory.write_policy import Candidate, SubjectState, decide
from tests.security.detector_corpus import SECRET_NEGATIVE, SECRET_POSITIVE

NOW = datetime(2026, 12, 1, tzinfo=UTC)


def _decide(statement: str):
    candidate = Candidate(
        memory_type="semantic",
        namespace="assistant/profile",
        statement=statement,
        assertion_kind="user_explicit",
        confidence=1.0,
        purpose="personalization",
        consent_basis="explicit_consent",
    )
    return decide(candidate, existing=[], subject=SubjectState(), tenant=TenantPolicy(), now=NOW)


def _has_cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def test_corpus_is_bilingual_with_negatives():
    assert sum(1 for t, _ in SECRET_POSITIVE if _has_cjk(t)) >= 12
    assert sum(1 for t, _ in SECRET_POSITIVE if not _has_cjk(t)) >= 12
    assert sum(1 for t in SECRET_NEGATIVE if _has_cjk(t)) >= 8
    assert len(SECRET_NEGATIVE) >= 30


@pytest.mark.parametrize(("text", "secret"), SECRET_POSITIVE, ids=[t for t, _ in SECRET_POSITIVE])
def test_secret_found_and_redacted(text, secret):
    assert find_secrets(text), text
    redacted, count = redact_secrets(text)
    assert count >= 1
    assert secret not in redacted, redacted
    assert "[REDACTED]" in redacted


@pytest.mark.parametrize("text", [t for t, _ in SECRET_POSITIVE])
def test_secret_refused_by_policy(text):
    decision = _decide(text)
    assert (decision.operation, decision.reason_code) == ("REJECT", "secret_detected")


@pytest.mark.parametrize("text", SECRET_NEGATIVE)
def test_no_secret_in_ordinary_text(text):
    assert find_secrets(text) == [], text
    assert redact_secrets(text) == (text, 0)
    assert _decide(text).reason_code != "secret_detected"


def test_redaction_keeps_the_rest_of_the_sentence():
    redacted, count = redact_secrets("备份库 postgresql://ops:Zq!9@db/main 每晚两点跑")
    assert redacted == "备份库 postgresql://ops:[REDACTED]@db/main 每晚两点跑"
    assert count == 1


def test_spans_point_into_the_original_text_after_normalisation():
    text = "ｐａｓｓｗｏｒｄ: Kx7\u200bq2Lm9"
    spans = secret_spans(text)
    assert len(spans) == 1
    assert text[spans[0].start : spans[0].end] == "Kx7\u200bq2Lm9"


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("hunter2", True),
        ("Pa!ss", True),
        ("482913", True),
        ("blue-otter-77", True),
        ("2023", False),  # a year
        ("10:30", False),
        ("$1,200", False),
        ("3rd", False),
        ("well-known", False),
        ("alice@example.com", False),
        ("v2.3.1", False),
        ("#723", False),
    ],
)
def test_token_shape(token, expected):
    assert looks_like_secret(token) is expected


def test_credential_word_needs_token_boundaries():
    # "otp" in "footprint", "pin" in "hoping"/"spinning", "pw" in "upward"
    for text in (
        "footprints 123456 in the sand",
        "hoping 482913 works",
        "spinning 7781 plates",
        "upward 99182 trend",
    ):
        assert find_secrets(text) == [], text


def test_detection_form_undoes_obfuscation_and_maps_back():
    form = detection_form("раss\u200bwоrd　是")
    assert form.text == "password 是"  # Cyrillic р/а/о, zero-width space, ideographic space
    start, end = form.original_span(0, 8)
    assert (start, end) == (0, 9)
