"""``ENGRAM_WRITE_COMPILED_LOOKUPS``: the request's subject and the tenant's policy from
SQL compiled once give what the ORM's querysets give — the same instance, None for
another tenant's or a deleted subject, the same policy, ``DoesNotExist`` for no tenant —
and through the API the same answers, a deleted subject's 4xx included."""

from __future__ import annotations

import uuid

import pytest

from accounts.models import Tenant
from memory.models import Subject
from memory.selectors.write_lookups import subject_of_tenant, tenant_policy_json
from tests.helpers.api import assert_error
from tests.helpers.cast import candidate

pytestmark = pytest.mark.django_db


def _conf(settings, compiled: bool) -> None:
    settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, "COMPILED_LOOKUPS": compiled}


def _fields(subject: Subject | None):
    if subject is None:
        return None
    return {f.attname: getattr(subject, f.attname) for f in Subject._meta.concrete_fields}


def test_the_subject_is_the_orms(settings, tenant, other_tenant, owner_subject):
    answers = []
    for compiled in (True, False):
        _conf(settings, compiled)
        answers.append(
            [
                _fields(subject_of_tenant(tenant.id, owner_subject.id)),
                _fields(subject_of_tenant(other_tenant.id, owner_subject.id)),
                _fields(subject_of_tenant(tenant.id, uuid.uuid4())),
            ]
        )
    assert answers[0] == answers[1]
    mine, foreign, missing = answers[0]
    assert mine["id"] == owner_subject.id and foreign is None and missing is None
    _conf(settings, True)
    found = subject_of_tenant(tenant.id, owner_subject.id)
    found.display_name = "Renamed"
    found.save()  # an instance the ORM can save, as its own
    assert Subject.objects.get(pk=owner_subject.id).display_name == "Renamed"


@pytest.mark.parametrize(
    "policy", [{}, {"allowed_purposes": ["support"], "nested": {"a": [1, None, "二", 2.5]}}]
)
def test_the_policy_is_the_orms(settings, tenant, policy):
    Tenant.objects.filter(pk=tenant.id).update(policy=policy)
    answers = []
    for compiled in (True, False):
        _conf(settings, compiled)
        answers.append(tenant_policy_json(tenant.id))
        with pytest.raises(Tenant.DoesNotExist):
            tenant_policy_json(uuid.uuid4())
    assert answers[0] == answers[1] == Tenant.objects.get(pk=tenant.id).policy


def test_the_api_answers_the_same_either_way(
    settings, api, write_agent, owner_subject, same_tenant_user
):
    Subject.objects.filter(pk=owner_subject.pk).delete()  # the token's subject is gone
    errors = []
    for compiled in (True, False):
        _conf(settings, compiled)
        body = {"candidates": [candidate()]}
        errors.append(assert_error(api.post_json("/api/v1/candidates", body), 403))
    assert errors[0] == errors[1] and errors[0]["code"] == "subject_required"
    other = write_agent.client(same_tenant_user[1])
    for compiled in (True, False):
        _conf(settings, compiled)
        body = {"candidates": [candidate(namespace=f"n{compiled}")]}
        r = other.post_json("/api/v1/candidates", body)
        assert r.status_code == 200 and r.json()["results"][0]["operation"] == "ADD"
