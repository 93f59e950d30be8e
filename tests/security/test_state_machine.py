"""A hypothesis state machine over the agent API for two tenants and several subjects:
create, correct, retract, delete and inference attempts in any order, checking after every
step that nobody reads across tenants or subjects, that nothing deleted is visible by any
route, and that an agent inference never supersedes an explicit user statement."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth.models import User
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    consumes,
    invariant,
    rule,
    run_state_machine_as_test,
)

from accounts.services.credentials import api_key_issue
from accounts.services.tenants import agent_create, tenant_create
from core.actor import Actor
from core.tenancy import tenant_context
from memory.models import DeletionScope, MemoryRecord, Subject
from memory.selectors import memory_get_for_user
from memory.services.deletion import deletion_request_create, deletion_request_run
from memory.services.subject_tokens import subject_token_issue
from memory.services.subjects import subject_get_or_create
from memory.services.user_memory import subject_export
from tests.helpers.cast import ApiClient, candidate

pytestmark = pytest.mark.django_db

TOPICS = ["city", "team", "editor", "语言", "时区"]
VALUES = ["Berlin", "Paris", "platform", "search", "vim", "中文", "UTC+8"]


class MemoryMachine(RuleBasedStateMachine):
    records = Bundle("records")

    def __init__(self) -> None:
        super().__init__()
        run = uuid.uuid4().hex[:8]
        self.clients: dict[tuple[int, int], ApiClient] = {}
        self.people: dict[tuple[int, int], tuple[User, Subject]] = {}
        for t in range(2):
            tenant = tenant_create(slug=f"sm-{run}-{t}", name=f"SM {t}")
            agent = agent_create(actor=Actor.system(tenant.id), tenant=tenant, name="agent")
            _, key = api_key_issue(
                actor=Actor.system(tenant.id), agent=agent, scopes=["read", "write"]
            )
            for s in range(2):
                user = User.objects.create_user(f"sm-{run}-{t}-{s}")
                subject = subject_get_or_create(
                    tenant_id=tenant.id, kind="user", external_id=f"u{s}", user=user
                )
                self.people[(t, s)] = (user, subject)
                token = subject_token_issue(
                    tenant_id=tenant.id, agent_id=agent.id, subject_id=subject.id
                )
                self.clients[(t, s)] = ApiClient(key, token)
        self.owner_of: dict[str, tuple[int, int]] = {}
        self.deleted: set[str] = set()

    @rule(
        target=records,
        who=st.sampled_from([(0, 0), (0, 1), (1, 0), (1, 1)]),
        topic=st.sampled_from(TOPICS),
        value=st.sampled_from(VALUES),
    )
    def create(self, who, topic, value):
        body = candidate(statement=f"{topic}: {value}", predicate=topic, value=value)
        result = (
            self.clients[who]
            .post_json("/api/v1/candidates", {"candidates": [body]})
            .json()["results"][0]
        )
        assert result["operation"] in ("ADD", "CONFIRM", "SUPERSEDE"), result
        rid = result["record_id"]
        self.owner_of[rid] = who
        return rid

    @rule(target=records, rid=records, value=st.sampled_from(VALUES))
    def correct(self, rid, value):
        who = self.owner_of[rid]
        r = self.clients[who].post_json(
            f"/api/v1/memories/{rid}/supersede",
            {
                "statement": f"corrected: {value}",
                "value": value,
                "assertion_kind": "user_explicit",
                "confidence": 1.0,
                "correction": True,
            },
        )
        if rid in self.deleted:
            assert r.status_code == 404
            return rid
        assert r.status_code in (200, 404), r.content  # 404: already superseded or retracted
        if r.status_code == 200 and r.json()["record_id"]:
            new = r.json()["record_id"]
            self.owner_of[new] = who
            return new
        return rid

    @rule(rid=records)
    def retract(self, rid):
        who = self.owner_of[rid]
        r = self.clients[who].post_json(
            f"/api/v1/memories/{rid}/retract", {"assertion_kind": "user_explicit"}
        )
        assert r.status_code in (200, 404)
        if rid in self.deleted:
            assert r.status_code == 404

    @rule(rid=consumes(records))
    def delete(self, rid):
        who = self.owner_of[rid]
        r = self.clients[who].delete_json(f"/api/v1/memories/{rid}")
        if r.status_code == 200 and r.json()["operation"] == "DELETE":
            lineage = MemoryRecord.objects.get(pk=rid).lineage_id
            self.deleted |= {
                str(i)
                for i in MemoryRecord.objects.filter(lineage_id=lineage).values_list(
                    "id", flat=True
                )
            }
        else:
            assert r.status_code == 404 or rid in self.deleted

    @rule(rid=records, value=st.sampled_from(VALUES))
    def inference_tries_to_override(self, rid, value):
        who = self.owner_of[rid]
        record = MemoryRecord.objects.get(pk=rid)
        body = candidate(
            statement=f"inferred {value}",
            predicate=record.predicate,
            value=value,
            assertion_kind="agent_inference",
            confidence=0.7,
        )
        result = (
            self.clients[who]
            .post_json("/api/v1/candidates", {"candidates": [body]})
            .json()["results"][0]
        )
        assert result["operation"] != "SUPERSEDE", result

    @rule(who=st.sampled_from([(0, 0), (0, 1), (1, 0), (1, 1)]))
    def erase_subject(self, who):
        """The right to erasure: the whole subject, through the deletion workflow."""
        user, subject = self.people[who]
        others_before = {
            w: MemoryRecord.objects.filter(subject=s).exclude(status="deleted").count()
            for w, (_, s) in self.people.items()
            if w != who
        }
        with tenant_context(subject.tenant_id):
            request = deletion_request_create(
                actor=Actor.user(user.pk, subject.tenant_id),
                subject=subject,
                scope=DeletionScope.SUBJECT,
                target_id=subject.id,
                enqueue=False,
            )
            request = deletion_request_run(tenant_id=subject.tenant_id, request_id=request.id)
        assert request.status == "done", (request.status, request.verification)
        mine = {rid for rid, owner in self.owner_of.items() if owner == who}
        self.deleted |= mine
        assert not MemoryRecord.objects.filter(subject=subject).exclude(status="deleted").exists()
        for w, count in others_before.items():
            _, s = self.people[w]
            assert MemoryRecord.objects.filter(subject=s).exclude(status="deleted").count() == count
        # Erasure pauses the subject; the user turns memory back on so the machine goes on.
        Subject.objects.filter(pk=subject.pk).update(memory_paused=False)

    @rule(who=st.sampled_from([(0, 0), (0, 1), (1, 0), (1, 1)]))
    def export_equals_what_the_user_sees(self, who):
        user, subject = self.people[who]
        exported = subject_export(user=user, subject=subject)
        mine = {rid for rid, owner in self.owner_of.items() if owner == who}
        others = set(self.owner_of) - mine
        records = {r["id"]: r for r in exported["records"]}
        assert not (set(records) & others), "export holds another subject's records"
        visible = {
            str(r.id)
            for r in MemoryRecord.objects.filter(subject=subject)
            if memory_get_for_user(subject=subject, record_id=r.id)
        }
        assert {rid for rid, r in records.items() if r["status"] != "deleted"} == visible
        for rid in self.deleted & set(records):
            assert records[rid]["status"] == "deleted" and not records[rid].get("statement")

    @invariant()
    def nobody_reads_across_tenants_or_subjects_and_deleted_stays_gone(self):
        for rid, who in list(self.owner_of.items())[-6:]:
            for other, client in self.clients.items():
                status = client.get(f"/api/v1/memories/{rid}").status_code
                if other != who or rid in self.deleted:
                    assert status == 404, (rid, who, other)
                else:
                    assert status == 200, (rid, who)

    @invariant()
    def inference_never_supersedes_explicit(self):
        assert not MemoryRecord.objects.filter(
            assertion_kind="agent_inference", supersedes__assertion_kind="user_explicit"
        ).exists()


def test_memory_state_machine(db):
    run_state_machine_as_test(
        MemoryMachine,
        settings=settings(
            max_examples=12,
            stateful_step_count=10,
            deadline=None,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
        ),
    )
