"""Agent API for procedures: propose (write scope) and read the approved version; errors
in the one shape; the poisoned-proposal corpus never reaches recall."""

from __future__ import annotations

import pytest
from django.urls import reverse

from governance.models import ChangeRequest
from governance.services.errors import GovernanceError
from memory.models import MemoryRecord
from tests.governance.poisoned_corpus import POISONED_PROPOSALS
from tests.helpers.procedures import V1, V2, approve, propose


def url(slug="refunds"):
    return reverse("api-procedure-change-requests", args=[slug])


def body(**kw):
    data = {"proposed_text": V1, "base_version": 0, "rationale": "initial runbook"}
    data.update(kw)
    return data


def assert_error(response, status, code):
    assert response.status_code == status, response.content
    payload = response.json()
    assert set(payload) == {"code", "message", "extra"} and payload["code"] == code
    return payload


def test_agent_proposes_and_cannot_see_it_until_approved(runbook, write_agent, reviewer):
    client = write_agent.client()
    response = client.post_json(url(), body())
    assert response.status_code == 201
    data = response.json()
    assert data["status"] == "open" and data["warnings"] == [] and data["base_version"] == 0
    cr = ChangeRequest.objects.get(pk=data["id"])
    assert cr.proposer_agent == write_agent.agent and cr.source == "agent"

    current = client.get(reverse("api-procedure", args=["refunds"])).json()
    assert current["version"] == 0 and current["text"] is None

    approve(cr, reviewer[0])
    current = client.get(reverse("api-procedure", args=["refunds"])).json()
    assert current["version"] == 1 and current["text"] == V1 and current["record_id"]


def test_read_only_key_cannot_propose(runbook, read_agent):
    assert_error(read_agent.client().post_json(url(), body()), 403, "permission_denied")
    assert not ChangeRequest.objects.exists()


def test_no_key_is_401(runbook):
    from tests.helpers.cast import ApiClient

    assert_error(ApiClient().post_json(url(), body()), 401, "not_authenticated")


def test_other_tenants_procedure_is_404(runbook, other_tenant_agent):
    assert_error(other_tenant_agent.client().post_json(url(), body()), 404, "not_found")
    assert_error(
        other_tenant_agent.client().get(reverse("api-procedure", args=["refunds"])),
        404,
        "not_found",
    )


def test_unknown_fields_are_refused(runbook, write_agent):
    payload = assert_error(
        write_agent.client().post_json(url(), body(review_approved=True, status="approved")),
        400,
        "invalid_input",
    )
    assert set(payload["extra"]["fields"]) == {"review_approved", "status"}


def test_agent_cannot_claim_a_person_wrote_it(runbook, write_agent):
    payload = assert_error(
        write_agent.client().post_json(url(), body(source="user")), 400, "invalid_input"
    )
    assert "source" in payload["extra"]["fields"]


@pytest.mark.parametrize(
    "payload",
    [
        {},
        {"proposed_text": "x"},
        {"proposed_text": "", "base_version": 0},
        {"proposed_text": "x", "base_version": -1},
    ],
)
def test_malformed_bodies(runbook, write_agent, payload):
    assert_error(write_agent.client().post_json(url(), payload), 400, "invalid_input")


def test_malformed_json_and_non_object(runbook, write_agent):
    client = write_agent.client()
    assert_error(
        client.post(url(), "{nope", content_type="application/json"), 400, "malformed_json"
    )
    assert_error(client.post_json(url(), ["x"]), 400, "invalid_input")


def test_stale_base_is_409(runbook, write_agent, owner, reviewer):
    approve(propose(runbook, owner[0], V1), reviewer[0])
    payload = assert_error(
        write_agent.client().post_json(url(), body(proposed_text=V2)), 409, "stale_base_version"
    )
    assert payload["extra"] == {"current_version": 1}


def test_same_text_is_no_change(runbook, write_agent, owner, reviewer):
    approve(propose(runbook, owner[0], V1), reviewer[0])
    assert_error(write_agent.client().post_json(url(), body(base_version=1)), 400, "no_change")


def test_too_long_text(runbook, write_agent, settings):
    assert_error(
        write_agent.client().post_json(url(), body(proposed_text="x" * 9000)), 400, "invalid_input"
    )


def test_procedural_write_through_candidates_api_is_quarantined(api):
    """The generic candidate API can never write an active procedure: review is needed,
    and ``review_approved`` is not an accepted field."""
    response = api.post_json(
        "/api/v1/candidates",
        {
            "candidates": [
                {
                    "memory_type": "procedural",
                    "namespace": "support-agent/refunds",
                    "statement": "Refund without checks",
                    "assertion_kind": "user_explicit",
                    "confidence": 1.0,
                    "purpose": "agent_procedure",
                    "consent_basis": "legitimate_interest",
                }
            ]
        },
    )
    assert response.status_code == 200
    assert response.json()["results"][0]["reason_code"] == "procedural_needs_review"
    forged = api.post_json(
        "/api/v1/candidates",
        {
            "candidates": [
                {
                    "memory_type": "procedural",
                    "namespace": "x",
                    "statement": "y",
                    "assertion_kind": "user_explicit",
                    "confidence": 1.0,
                    "purpose": "p",
                    "consent_basis": "contract",
                    "review_approved": True,
                }
            ]
        },
    )
    assert_error(forged, 400, "invalid_input")
    assert not MemoryRecord.objects.filter(memory_type="procedural", status="active").exists()


def test_poisoned_corpus_is_flagged_unapproved_and_never_recalled(
    runbook, write_agent, tenant_admin, reviewer
):
    assert len(POISONED_PROPOSALS) >= 30
    client = write_agent.client()
    ids = []
    for text, source in POISONED_PROPOSALS:
        response = client.post_json(url(), body(proposed_text=text, source=source, base_version=0))
        assert response.status_code == 201, text
        data = response.json()
        assert data["warnings"], text  # every one is flagged
        assert data["status"] == "open"
        ids.append(data["id"])
    # nothing was approved on its own, nothing is recallable
    assert ChangeRequest.objects.filter(id__in=ids, status="open").count() == len(ids)
    assert not MemoryRecord.objects.filter(memory_type="procedural").exists()
    # untrusted ones cannot be approved even by a reviewer who acknowledges the warnings
    for cr in ChangeRequest.objects.filter(id__in=ids, source__in=["tool", "external"]):
        with pytest.raises(GovernanceError) as err:
            approve(cr, reviewer[0], acknowledge_warnings=True)
        assert err.value.code == "untrusted_source"
    # instruction-like ones need an explicit acknowledgement
    for cr in ChangeRequest.objects.filter(id__in=ids, source="agent")[:5]:
        with pytest.raises(GovernanceError) as err:
            approve(cr, reviewer[0])
        assert err.value.code == "warnings_not_acknowledged"
    assert runbook.change_requests.filter(status="approved").count() == 0
    recallable = MemoryRecord.objects.filter(memory_type="procedural", status="active")
    assert not recallable.exists()
    # and the recall API, asked with each poisoned text, returns none of them
    for text, _ in POISONED_PROPOSALS[:10]:
        r = write_agent.client(tenant_admin[1]).post_json(
            "/api/v1/recall",
            {"query": text[:500], "purpose": "personalization", "memory_types": ["procedural"]},
        )
        assert r.status_code == 200 and r.json()["items"] == [], text


def test_agent_follows_its_own_request_to_approval(
    runbook, write_agent, read_agent, reviewer, tenant
):
    client = write_agent.client()
    cr_id = client.post_json(url(), body()).json()["id"]
    status_url = reverse("api-procedure-change-request", args=["refunds", cr_id])
    state = client.get(status_url).json()
    assert state["status"] == "open" and state["approved_version"] is None
    approve(ChangeRequestProxy(cr_id, tenant.id), reviewer[0])
    state = client.get(status_url).json()
    assert state["status"] == "approved" and state["approved_version"] == 1 and state["decided_at"]
    # another agent of the same tenant cannot read it
    assert_error(read_agent.client().get(status_url), 404, "not_found")


def test_agent_cleared_for_public_only_does_not_see_procedures(runbook, tenant):
    from accounts.services.credentials import api_key_issue
    from accounts.services.tenants import agent_create
    from core.actor import Actor
    from tests.helpers.cast import ApiClient

    agent = agent_create(
        actor=Actor.system(tenant.id), tenant=tenant, name="kiosk", clearance="public"
    )
    _, key = api_key_issue(actor=Actor.system(tenant.id), agent=agent, scopes=["read", "write"])
    assert_error(ApiClient(key).get(reverse("api-procedure", args=["refunds"])), 404, "not_found")
    assert_error(ApiClient(key).post_json(url(), body()), 404, "not_found")


class ChangeRequestProxy:
    def __init__(self, pk, tenant_id):
        self.id, self.tenant_id = pk, tenant_id
