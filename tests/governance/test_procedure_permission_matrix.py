"""Reviewed procedures change only through change requests and review.

The permission matrix: every record route of the agent API, with read, write and admin
keys, aimed at an approved procedure's record — through a token for the tenant's org
subject (refused outright unless ALLOW_ORG_SUBJECT_TOKENS is set; tested both ways) and
through an ordinary user's token. After every attempt the procedure is unchanged: its
record active, /procedures/<slug> and recall still serve it."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest
from django.core import signing
from django.urls import reverse

from accounts.policies import TenantPolicy
from accounts.services.credentials import SUBJECT_TOKEN_SALT, CredentialError
from core.codes import Operation
from governance.models import ChangeRequest
from memory.models import MemoryRecord, MemoryStatus, Subject, SubjectKind
from memory.services.subject_tokens import subject_token_issue
from memory.write_policy import Candidate, ExistingFact, Intent, SubjectState, decide
from tests.helpers.cast import ApiClient, agent_with_key
from tests.helpers.procedures import V1, V2, approve

pytestmark = pytest.mark.django_db

CHANGE_INTENTS = ["retract", "expire", "forget", "supersede", "correct"]


@pytest.fixture
def approved(runbook, write_agent, reviewer):
    response = write_agent.client().post_json(
        reverse("api-procedure-change-requests", args=["refunds"]),
        {"proposed_text": V1, "base_version": 0, "rationale": "first"},
    )
    approve(ChangeRequest.objects.get(pk=response.json()["id"]), reviewer[0])
    record = MemoryRecord.objects.get(status=MemoryStatus.ACTIVE, memory_type="procedural")
    return record


def _org_subject(tenant) -> Subject:
    return Subject.objects.get(tenant_id=tenant.id, kind=SubjectKind.ORG, external_id="tenant")


def _signed_token(cred, subject) -> str:
    """A validly signed token for ``subject`` made without subject_token_issue (as an older
    deployment or a leaked signing path would): the API must still refuse it."""
    payload = {"t": str(cred.agent.tenant_id), "a": str(cred.agent.id), "s": str(subject.id)}
    return signing.dumps(payload, salt=SUBJECT_TOKEN_SALT, compress=False)


def _assert_unchanged(record, agent_cred) -> None:
    record.refresh_from_db()
    assert record.status == MemoryStatus.ACTIVE
    assert MemoryRecord.objects.filter(lineage_id=record.lineage_id).count() == 1
    procedure = agent_cred.client().get(reverse("api-procedure", args=["refunds"])).json()
    assert procedure["record_id"] == str(record.id) and procedure["text"] == V1


def _routes(record_id: uuid.UUID) -> list[tuple[str, str, dict]]:
    base = f"/api/v1/memories/{record_id}"
    change = {
        "statement": "Refunds need no checks",
        "assertion_kind": "user_explicit",
        "confidence": 1.0,
    }
    routes = [
        ("delete", base, {"assertion_kind": "user_explicit"}),
        ("post", f"{base}/supersede", change),
        ("post", f"{base}/supersede", {**change, "correction": True}),
        ("post", f"{base}/retract", {"assertion_kind": "user_explicit"}),
    ]
    for intent in CHANGE_INTENTS:
        for memory_type in ("procedural", "semantic"):
            routes.append(
                (
                    "post",
                    "/api/v1/candidates",
                    {
                        "candidates": [
                            {
                                "memory_type": memory_type,
                                "namespace": "support-agent/refunds",
                                "statement": "Refunds need no checks",
                                "predicate": "procedure:refunds",
                                "assertion_kind": "user_explicit",
                                "confidence": 1.0,
                                "purpose": "agent_procedure",
                                "consent_basis": "legitimate_interest",
                                "intent": intent,
                                "target_record_id": str(record_id),
                            }
                        ]
                    },
                )
            )
    return routes


def _call(client: ApiClient, method: str, path: str, body: dict):
    if method == "delete":
        return client.delete_json(path, body)
    return client.post_json(path, body)


def _refused(response) -> bool:
    """403/404, or a 200 batch whose every result is a REJECT or is held for review
    (QUARANTINE: the review queue is the route a procedure change must take)."""
    if response.status_code in (403, 404):
        assert set(response.json()) == {"code", "message", "extra"}
        return True
    if response.status_code == 200 and "results" in response.json():
        return all(r["operation"] in ("REJECT", "QUARANTINE") for r in response.json()["results"])
    if response.status_code == 200:
        return response.json()["operation"] == "REJECT"
    return response.status_code == 400


# --- subject tokens ---------------------------------------------------------------------


def test_admin_key_cannot_mint_an_org_subject_token(approved, admin_agent, tenant):
    client = admin_agent.client()
    for external_id in ("tenant", "acme-org"):
        response = client.post_json(
            "/api/v1/subject-tokens", {"subject_kind": "org", "external_id": external_id}
        )
        assert response.status_code == 403, response.content
        assert response.json()["code"] == "subject_kind_not_allowed"
    assert not Subject.objects.filter(external_id="acme-org").exists()
    with pytest.raises(CredentialError):
        subject_token_issue(
            tenant_id=tenant.id, agent_id=admin_agent.agent.id, subject_id=_org_subject(tenant).id
        )
    # user, agent and project subjects still work
    for kind in ("user", "agent", "project"):
        ok = client.post_json("/api/v1/subject-tokens", {"subject_kind": kind, "external_id": "x1"})
        assert ok.status_code == 201, (kind, ok.content)


@pytest.mark.parametrize("scopes", [["read"], ["read", "write"], ["read", "write", "admin"]])
def test_a_signed_org_token_is_refused_on_every_route(approved, tenant, scopes):
    cred = agent_with_key(tenant, f"k-{'-'.join(scopes)}", scopes)
    client = ApiClient(cred.key, _signed_token(cred, _org_subject(tenant)))
    get = client.get(f"/api/v1/memories/{approved.id}")
    assert get.status_code == 403 and get.json()["code"] in (
        "subject_kind_not_allowed",
        "permission_denied",
    )
    for method, path, body in _routes(approved.id):
        response = _call(client, method, path, body)
        assert response.status_code == 403, (method, path, response.content)
    _assert_unchanged(approved, cred)


# --- the matrix with org tokens allowed for non-procedural namespaces --------------------


@pytest.mark.parametrize("scopes", [["read"], ["read", "write"], ["read", "write", "admin"]])
def test_matrix_with_org_tokens_allowed(approved, tenant, settings, scopes):
    settings.ENGRAM = {**settings.ENGRAM, "ALLOW_ORG_SUBJECT_TOKENS": True}
    cred = agent_with_key(tenant, f"m-{'-'.join(scopes)}", scopes)
    org = _org_subject(tenant)
    client = cred.client(org)
    # reading the procedure record is allowed to a read scope
    assert client.get(f"/api/v1/memories/{approved.id}").status_code == 200
    for method, path, body in _routes(approved.id):
        response = _call(client, method, path, body)
        assert _refused(response), (scopes, method, path, response.content)
        if response.status_code == 403 and "write" in scopes:
            assert response.json()["code"] == "procedure_change_requires_review"
    _assert_unchanged(approved, cred)
    # a non-procedural note on the org subject is what the setting is for
    if "write" in scopes:
        note = client.post_json(
            "/api/v1/candidates",
            {
                "candidates": [
                    {
                        "memory_type": "semantic",
                        "namespace": "org/profile",
                        "statement": "The support team works from Hangzhou",
                        "assertion_kind": "user_explicit",
                        "confidence": 1.0,
                        "purpose": "personalization",
                        "consent_basis": "legitimate_interest",
                    }
                ]
            },
        )
        assert note.status_code == 200 and note.json()["results"][0]["operation"] == "ADD"


def test_matrix_through_a_user_token(approved, tenant, owner_subject):
    cred = agent_with_key(tenant, "user-runtime", ["read", "write", "admin"])
    client = cred.client(owner_subject)
    assert client.get(f"/api/v1/memories/{approved.id}").status_code == 404
    for method, path, body in _routes(approved.id):
        assert _refused(_call(client, method, path, body)), (method, path)
    _assert_unchanged(approved, cred)


def test_reviewed_change_still_works(approved, write_agent, reviewer):
    """The review route itself is untouched: an approved V2 supersedes V1."""
    response = write_agent.client().post_json(
        reverse("api-procedure-change-requests", args=["refunds"]),
        {"proposed_text": V2, "base_version": 1, "rationale": "7 days"},
    )
    approve(ChangeRequest.objects.get(pk=response.json()["id"]), reviewer[0])
    approved.refresh_from_db()
    assert approved.status == MemoryStatus.SUPERSEDED
    current = write_agent.client().get(reverse("api-procedure", args=["refunds"])).json()
    assert current["version"] == 2 and current["text"] == V2


# --- the engine itself (pure) -------------------------------------------------------------

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
PROC_ID = uuid.UUID("00000000-0000-0000-0000-0000000000bb")


def _proc_fact() -> ExistingFact:
    return ExistingFact(
        id=PROC_ID,
        namespace="support-agent/refunds",
        predicate="procedure:refunds",
        content_key="k",
        cardinality="single",
        assertion_kind="user_confirmed",
        valid_from=datetime(2026, 1, 1, tzinfo=UTC),
        valid_to=None,
        memory_type="procedural",
    )


@pytest.mark.parametrize("intent", CHANGE_INTENTS)
@pytest.mark.parametrize("memory_type", ["procedural", "semantic", "episodic"])
@pytest.mark.parametrize("kind", ["user_explicit", "user_confirmed", "agent_inference"])
def test_engine_refuses_unreviewed_changes_to_a_procedure(intent, memory_type, kind):
    candidate = Candidate(
        memory_type=memory_type,
        namespace="support-agent/refunds",
        statement="退款无需检查 / refunds need no checks",
        predicate="procedure:refunds",
        assertion_kind=kind,
        confidence=1.0,
        purpose="agent_procedure",
        consent_basis="legitimate_interest",
        intent=Intent(intent),
        target_record_id=PROC_ID,
    )
    decision = decide(
        candidate, existing=[_proc_fact()], subject=SubjectState(), tenant=TenantPolicy(), now=NOW
    )
    assert decision.operation in (Operation.REJECT, Operation.QUARANTINE), decision
    assert decision.operation != Operation.REJECT or decision.reason_code in (
        "procedure_change_requires_review",
        "outranked_by_existing",
        "untrusted_procedural",
    )


def test_engine_lets_a_reviewed_change_through():
    candidate = Candidate(
        memory_type="procedural",
        namespace="support-agent/refunds",
        statement="1. Check the order.\n2. Refund within 7 days.",
        predicate="procedure:refunds",
        assertion_kind="user_confirmed",
        confidence=1.0,
        purpose="agent_procedure",
        consent_basis="legitimate_interest",
        intent=Intent.SUPERSEDE,
        target_record_id=PROC_ID,
        review_approved=True,
    )
    decision = decide(
        candidate, existing=[_proc_fact()], subject=SubjectState(), tenant=TenantPolicy(), now=NOW
    )
    assert decision.operation == Operation.SUPERSEDE


def test_engine_leaves_non_procedural_changes_alone():
    fact = ExistingFact(
        id=PROC_ID,
        namespace="assistant/profile",
        predicate="home_city",
        content_key="k",
        cardinality="single",
        assertion_kind="user_explicit",
        valid_from=datetime(2026, 1, 1, tzinfo=UTC),
        valid_to=None,
        memory_type="semantic",
    )
    candidate = Candidate(
        memory_type="semantic",
        namespace="assistant/profile",
        statement="User lives in Hangzhou",
        predicate="home_city",
        assertion_kind="user_explicit",
        confidence=1.0,
        purpose="personalization",
        consent_basis="explicit_consent",
        intent=Intent.RETRACT,
        target_record_id=PROC_ID,
    )
    decision = decide(
        candidate, existing=[fact], subject=SubjectState(), tenant=TenantPolicy(), now=NOW
    )
    assert decision.operation == Operation.RETRACT
