"""A purpose is checked at write (issue 31, class 8): recall finds a memory only under its
exact purpose, so a near-miss of a purpose in use would be stored and never found. It is
refused with the purpose meant; a genuinely new purpose is kept; with a tenant's list, a
purpose off the list is refused with the closest one on it."""

from __future__ import annotations

import pytest

from accounts.models import Tenant
from accounts.policies import TenantPolicy

pytestmark = pytest.mark.django_db


def _write(api, purpose: str, statement: str = "User collects vintage maps") -> dict:
    response = api.post_json(
        "/api/v1/candidates",
        {
            "candidates": [
                {
                    "memory_type": "semantic",
                    "namespace": "assistant/profile",
                    "statement": statement,
                    "assertion_kind": "user_explicit",
                    "confidence": 1.0,
                    "purpose": purpose,
                    "consent_basis": "explicit_consent",
                }
            ]
        },
    )
    assert response.status_code == 200, response.content
    return response.json()["results"][0]


@pytest.mark.parametrize(
    "near_miss", ["personalisation", "Personalization", "personalizaton", "personal-ization"]
)
def test_a_near_miss_of_a_known_purpose_is_refused_with_the_one_meant(api, near_miss):
    result = _write(api, near_miss)
    assert (result["operation"], result["reason_code"]) == ("REJECT", "purpose_misspelled")
    assert "personalization" in result["message"]


def test_a_near_miss_of_a_purpose_the_subject_uses_is_refused(api):
    assert _write(api, "tutoring", "User studies organic chemistry")["operation"] == "ADD"
    result = _write(api, "tutorng", "User studies inorganic chemistry too")
    assert (result["operation"], result["reason_code"]) == ("REJECT", "purpose_misspelled")
    assert "'tutoring'" in result["message"]
    assert _write(api, "学习辅导", "用户在学有机化学")["operation"] == "ADD"
    typo = _write(api, "学习辅道", "用户也在学无机化学")
    assert typo["reason_code"] == "purpose_misspelled" and "学习辅导" in typo["message"]


@pytest.mark.parametrize("purpose", ["personalization", "billing", "travel_planning", "售后服务"])
def test_a_known_or_new_purpose_is_kept(api, purpose):
    assert _write(api, purpose)["operation"] == "ADD"


def test_a_purpose_off_the_tenants_list_is_refused_with_the_closest_on_it(api, tenant):
    Tenant.objects.filter(pk=tenant.pk).update(
        policy={"allowed_purposes": ["support", "personalization"]}
    )
    result = _write(api, "suport")
    assert (result["operation"], result["reason_code"]) == ("REJECT", "purpose_not_allowed")
    assert "'support'" in result["message"]
    assert _write(api, "support")["operation"] == "ADD"


def test_the_suggestion_is_a_pure_decision():
    free = TenantPolicy(known_purposes=("onboarding",))
    assert free.purpose_suggestion("onboarding") is None
    assert free.purpose_suggestion("on-boarding") == "onboarding"
    assert free.purpose_suggestion("Onboardng") == "onboarding"
    assert free.purpose_suggestion("fraud_review") is None  # new, not a near-miss
    listed = TenantPolicy(allowed_purposes=("support",))
    assert listed.purpose_suggestion("marketing") == "support"  # off the list: the list's
    assert listed.purpose_suggestion("support") is None
