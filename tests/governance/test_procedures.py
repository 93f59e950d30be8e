"""Change-request lifecycle: propose, review, approve into governed memory, reject,
stale approvals, rollback, and what recall can see."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections
from django.db.utils import ProgrammingError

from core.actor import Actor
from core.tenancy import tenant_context
from governance.models import (
    ChangeRequest,
    ChangeRequestStatus,
    ProceduralDocument,
    ProceduralVersion,
    ProposalSource,
)
from governance.services.errors import GovernanceError
from governance.services.procedures import (
    change_request_rebase,
    change_request_reject,
    change_request_rollback_propose,
    procedure_subject,
)
from memory.models import MemoryRecord, MemoryStatus
from tests.helpers.procedures import V1, V2, approve, propose


def recallable_procedures(tenant_id):
    """What a recall over procedural memory may return: active, currently valid records."""
    from django.db.models import Q
    from django.utils import timezone

    now = timezone.now()
    with tenant_context(tenant_id):
        return list(
            MemoryRecord.objects.filter(
                tenant_id=tenant_id, memory_type="procedural", status=MemoryStatus.ACTIVE
            )
            .filter(Q(valid_to__isnull=True) | Q(valid_to__gt=now))
            .values_list("statement", "value")
        )


def test_proposal_is_invisible_until_approved(runbook, owner, reviewer):
    cr = propose(runbook, owner[0], V1, rationale="first version")
    assert cr.status == ChangeRequestStatus.OPEN and cr.warnings == []
    assert recallable_procedures(runbook.tenant_id) == []
    assert not MemoryRecord.objects.filter(statement=V1).exists()

    approval = approve(cr, reviewer[0], comment="ok")

    assert approval.version.number == 1
    runbook.refresh_from_db()
    assert runbook.current_version == 1 and runbook.current_record_id == approval.record_id
    record = MemoryRecord.objects.get(pk=approval.record_id)
    assert record.memory_type == "procedural" and record.status == MemoryStatus.ACTIVE
    assert record.subject == procedure_subject(tenant_id=runbook.tenant_id)
    assert record.subject.kind == "org" and record.created_by_user_id == reviewer[0].pk
    assert recallable_procedures(runbook.tenant_id) == [
        (
            V1,
            {
                "procedure": "refunds",
                "document_id": str(runbook.id),
                "kind": "runbook",
                "title": "Refund handling",
                "version": 1,
            },
        )
    ]
    cr.refresh_from_db()
    assert cr.status == ChangeRequestStatus.APPROVED and cr.decided_by == reviewer[0]


def test_second_version_supersedes_first_in_memory(runbook, owner, reviewer):
    approve(propose(runbook, owner[0], V1), reviewer[0])
    second = approve(propose(runbook, owner[0], V2), reviewer[0])

    assert second.version.number == 2
    recalled = recallable_procedures(runbook.tenant_id)
    assert [(s, v["version"]) for s, v in recalled] == [(V2, 2)]
    first_record = ProceduralVersion.objects.get(document=runbook, number=1).memory_record_id
    assert MemoryRecord.objects.get(pk=first_record).status == MemoryStatus.SUPERSEDED


def test_proposer_can_never_approve_own_change(runbook, reviewer):
    cr = propose(runbook, reviewer[0], V1)
    with pytest.raises(GovernanceError) as err:
        approve(cr, reviewer[0])
    assert err.value.code == "own_proposal" and err.value.status == 403
    cr.refresh_from_db()
    assert cr.status == ChangeRequestStatus.OPEN
    assert recallable_procedures(runbook.tenant_id) == []


@pytest.mark.parametrize("source", [ProposalSource.TOOL, ProposalSource.EXTERNAL])
def test_untrusted_source_is_flagged_and_never_approvable(runbook, owner, reviewer, source):
    cr = propose(runbook, owner[0], V1, source=source, source_uri="https://example.com/x")
    assert "untrusted_source" in cr.warnings
    with pytest.raises(GovernanceError) as err:
        approve(cr, reviewer[0], acknowledge_warnings=True)
    assert err.value.code == "untrusted_source"
    assert recallable_procedures(runbook.tenant_id) == []


def test_secret_is_redacted_before_storage_and_blocks_approval(runbook, owner, reviewer):
    secret = "sk-live-9fQ2xLm7Tz4Rb8Wk1Yp3Nc6Vd0"
    cr = propose(runbook, owner[0], f"Use the key {secret} to call the refunds API.")
    assert secret not in cr.proposed_text and "[REDACTED]" in cr.proposed_text
    assert "secret_redacted" in cr.warnings
    with pytest.raises(GovernanceError) as err:
        approve(cr, reviewer[0], acknowledge_warnings=True)
    assert err.value.code == "secret_redacted"
    assert not ChangeRequest.objects.filter(proposed_text__contains=secret).exists()


def test_instruction_like_text_needs_acknowledgement(runbook, owner, reviewer):
    text = "Always send the monthly refund report to finance@example.com before closing."
    cr = propose(runbook, owner[0], text)
    assert cr.warnings == ["instruction_like_text"]
    with pytest.raises(GovernanceError) as err:
        approve(cr, reviewer[0])
    assert err.value.code == "warnings_not_acknowledged"
    assert approve(cr, reviewer[0], acknowledge_warnings=True).version.number == 1


def test_reject_keeps_text_out_of_memory(runbook, owner, reviewer):
    cr = propose(runbook, owner[0], V1)
    with tenant_context(runbook.tenant_id):
        change_request_reject(
            actor=Actor.user(reviewer[0].pk, runbook.tenant_id),
            user=reviewer[0],
            change_request_id=cr.id,
            comment="no",
        )
    cr.refresh_from_db()
    assert cr.status == ChangeRequestStatus.REJECTED
    with pytest.raises(GovernanceError) as err:
        approve(cr, reviewer[0])
    assert err.value.code == "not_open" and err.value.status == 409
    assert recallable_procedures(runbook.tenant_id) == []


def test_second_approval_on_same_base_is_stale_then_rebased(
    runbook, owner, same_tenant_user, reviewer
):
    a = propose(runbook, owner[0], V1)
    b = propose(runbook, same_tenant_user[0], V2)
    approve(a, reviewer[0])
    outcome = approve(b, reviewer[0])
    assert outcome.status == "stale" and outcome.version is None and outcome.current_version == 1
    b.refresh_from_db()
    assert b.status == ChangeRequestStatus.STALE
    assert [v["version"] for _, v in recallable_procedures(runbook.tenant_id)] == [1]

    with tenant_context(runbook.tenant_id):
        rebased = change_request_rebase(
            actor=Actor.user(reviewer[0].pk, runbook.tenant_id),
            user=reviewer[0],
            change_request_id=b.id,
        )
    assert rebased.base_version == 1 and rebased.proposer_user == same_tenant_user[0]
    assert approve(rebased, reviewer[0]).version.number == 2


def test_proposal_against_old_base_is_refused(runbook, owner, reviewer):
    approve(propose(runbook, owner[0], V1), reviewer[0])
    with pytest.raises(GovernanceError) as err:
        propose(runbook, owner[0], V2, base=0)
    assert err.value.code == "stale_base_version"


def test_rollback_is_a_change_request_with_the_old_text(runbook, owner, reviewer, same_tenant_user):
    approve(propose(runbook, owner[0], V1), reviewer[0])
    approve(propose(runbook, owner[0], V2), reviewer[0])
    with tenant_context(runbook.tenant_id):
        cr = change_request_rollback_propose(
            actor=Actor.user(same_tenant_user[0].pk, runbook.tenant_id),
            document=runbook,
            to_version=1,
            user=same_tenant_user[0],
            rationale="7-day rule was wrong",
        )
    assert cr.rollback_of_version == 1 and cr.proposed_text == V1 and cr.base_version == 2
    assert recallable_procedures(runbook.tenant_id)[0][1]["version"] == 2
    approve(cr, reviewer[0])
    [(text, value)] = recallable_procedures(runbook.tenant_id)
    assert text == V1 and value["version"] == 3


def test_versions_are_append_only(runbook, owner, reviewer):
    approve(propose(runbook, owner[0], V1), reviewer[0])
    version = ProceduralVersion.objects.get(document=runbook)
    with pytest.raises(ProgrammingError):
        ProceduralVersion.objects.filter(pk=version.pk).update(text="tampered")


def test_change_request_text_is_immutable_and_decided_once(runbook, owner, reviewer):
    cr = propose(runbook, owner[0], V1)
    with pytest.raises(ProgrammingError):
        ChangeRequest.objects.filter(pk=cr.pk).update(proposed_text="tampered")


def test_decided_request_cannot_be_reopened(runbook, owner, reviewer):
    cr = propose(runbook, owner[0], V1)
    approve(cr, reviewer[0])
    with pytest.raises(ProgrammingError):
        ChangeRequest.objects.filter(pk=cr.pk).update(status="open")


@pytest.mark.django_db(transaction=True)
def test_concurrent_approvals_on_same_base_one_wins_one_is_stale(
    runbook, owner, same_tenant_user, reviewer, tenant_admin
):
    """Two reviewers approve two requests against base 0 at the same time, each on its own
    database connection. Exactly one becomes version 1; the other is stale, never v1 again
    and never silently overwriting."""
    a = propose(runbook, owner[0], V1)
    b = propose(runbook, same_tenant_user[0], V2)
    barrier = threading.Barrier(2)
    results: dict[str, object] = {}

    def run(name, cr, user):
        try:
            barrier.wait()
            outcome = approve(cr, user)
            results[name] = outcome.version.number if outcome.version else outcome.status
        except GovernanceError as e:  # would fail the assertion below
            results[name] = e.code
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=run, args=("a", a, reviewer[0])),
        threading.Thread(target=run, args=("b", b, tenant_admin[0])),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    assert sorted(map(str, results.values())) == ["1", "stale"]
    runbook.refresh_from_db()
    assert runbook.current_version == 1
    assert ProceduralVersion.objects.filter(document=runbook).count() == 1
    statuses = sorted(
        ChangeRequest.objects.filter(document=runbook).values_list("status", flat=True)
    )
    assert statuses == ["approved", "stale"]
    assert len(recallable_procedures(runbook.tenant_id)) == 1
    assert connection.vendor == "postgresql"


def test_document_of_other_tenant_cannot_be_proposed_to(runbook, other_tenant_user):
    with tenant_context(runbook.tenant_id):
        with pytest.raises(GovernanceError) as err:
            from governance.services.procedures import change_request_propose

            change_request_propose(
                actor=Actor.user(other_tenant_user[0].pk, other_tenant_user[1].tenant_id),
                document=runbook,
                proposed_text=V1,
                base_version=0,
                source="user",
                proposer_user=other_tenant_user[0],
            )
    assert err.value.status == 404


def test_only_admins_create_documents(tenant, reviewer):
    from governance.services.procedures import procedure_document_create

    with tenant_context(tenant.id), pytest.raises(GovernanceError) as err:
        procedure_document_create(
            actor=Actor.user(reviewer[0].pk, tenant.id),
            user=reviewer[0],
            slug="x",
            title="x",
            kind="rule",
            namespace="x",
        )
    assert err.value.status == 403
    assert not ProceduralDocument.objects.filter(slug="x").exists()


def test_approval_after_the_current_record_was_erased_starts_a_new_lineage(
    runbook, owner, reviewer
):
    from memory.services.erasure import memory_lineage_erase

    first = approve(propose(runbook, owner[0], V1), reviewer[0])
    record = MemoryRecord.objects.get(pk=first.record_id)
    with tenant_context(runbook.tenant_id):
        memory_lineage_erase(
            actor=Actor.system(runbook.tenant_id),
            tenant_id=runbook.tenant_id,
            lineage_id=record.lineage_id,
            reason_code="test",
        )
    second = approve(propose(runbook, owner[0], V2), reviewer[0])
    assert second.version.number == 2
    assert [v["version"] for _, v in recallable_procedures(runbook.tenant_id)] == [2]


@pytest.mark.parametrize(
    "slug,namespace", [("Bad Slug", "a/b"), ("ok", "a//b"), ("ok", ""), ("", "a")]
)
def test_document_fields_are_validated(tenant, tenant_admin, slug, namespace):
    from governance.services.procedures import procedure_document_create

    with tenant_context(tenant.id), pytest.raises(GovernanceError) as err:
        procedure_document_create(
            actor=Actor.user(tenant_admin[0].pk, tenant.id),
            user=tenant_admin[0],
            slug=slug,
            title="t",
            kind="rule",
            namespace=namespace,
        )
    assert err.value.code == "invalid_input"
