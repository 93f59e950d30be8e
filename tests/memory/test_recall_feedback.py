"""Recall feedback: the endpoint's rules (ids of the recall only, once, by the agent that
recalled), the metric, and the importance feedback (bounded, asynchronous, audited,
frozen for benchmarks, off by tenant policy, and never past a permission, validity or
gate check)."""

from __future__ import annotations

import itertools
import uuid
from datetime import timedelta

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.models import Tenant
from core.actor import Actor
from core.models import AuditEvent
from core.tenancy import tenant_context
from governance.audit_groups import group_of
from memory.models import MemoryRecord, MemoryStatus, RecallTrace
from memory.recall import RecallScope, recall_feedback_record
from memory.selectors.utility import utility_by_agent_day
from memory.services.forgetting import records_expire
from memory.services.recall_feedback import (
    FeedbackSteps,
    importance_after,
    recall_feedback_apply,
)
from memory.services.subjects import subject_get_or_create
from tests.helpers.cast import agent_with_key
from tests.helpers.metrics import sample
from tests.helpers.retrieval import PURPOSE, recall, remember

pytestmark = pytest.mark.django_db

URL = "/api/v1/recall"


def _error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"code", "message", "extra"} and body["code"] == code
    return body


@pytest.fixture
def reader(read_agent, owner_subject):
    return read_agent.client(owner_subject)


def _recalled(reader, query: str) -> tuple[str, list[str]]:
    body = reader.post_json(URL, {"query": query, "purpose": PURPOSE}).json()
    return body["trace_id"], [i["id"] for i in body["items"]]


# --- the endpoint -----------------------------------------------------------------------


def test_an_id_the_recall_did_not_return_is_refused_in_the_error_shape(reader, owner_subject):
    fact = remember(owner_subject, "User prefers aisle seats")
    hidden = remember(owner_subject, "用户喜欢喝乌龙茶")
    trace_id, returned = _recalled(reader, "aisle seat")
    assert str(fact.record_id) in returned and str(hidden.record_id) not in returned
    for stranger in (str(uuid.uuid4()), str(hidden.record_id)):
        body = _error(
            reader.post_json(f"{URL}/{trace_id}/feedback", {"used_record_ids": [stranger]}),
            400,
            "unknown_record_ids",
        )
        assert body["extra"]["record_ids"] == [stranger]
    # Nothing was stored by the refused reports.
    assert RecallTrace.objects.get(pk=trace_id).feedback_at is None


def test_the_same_report_again_is_a_no_op_and_a_different_one_a_conflict(reader, owner_subject):
    fact = remember(owner_subject, "User prefers aisle seats")
    trace_id, _ = _recalled(reader, "aisle seat")
    body = {"used_record_ids": [str(fact.record_id)], "helpful": True}
    first = reader.post_json(f"{URL}/{trace_id}/feedback", body)
    assert first.status_code == 200, first.content
    assert first.json() == {"trace_id": trace_id, **body}
    again = reader.post_json(
        f"{URL}/{trace_id}/feedback",
        {"used_record_ids": [str(fact.record_id), str(fact.record_id)], "helpful": True},
    )
    assert again.status_code == 200 and again.json() == first.json()
    assert AuditEvent.objects.filter(action="memory.recall_feedback").count() == 1
    for different in (
        {"used_record_ids": [], "helpful": True},
        {"used_record_ids": [str(fact.record_id)], "helpful": False},
        {"used_record_ids": [str(fact.record_id)]},
    ):
        _error(reader.post_json(f"{URL}/{trace_id}/feedback", different), 409, "feedback_conflict")
    trace = RecallTrace.objects.get(pk=trace_id)
    assert trace.used_record_ids == [fact.record_id] and trace.helpful is True


def test_another_tenants_or_agents_recall_is_not_found(
    reader, tenant, owner_subject, other_tenant_user, other_tenant
):
    remember(owner_subject, "User prefers aisle seats")
    trace_id, _ = _recalled(reader, "aisle seat")
    outsider = agent_with_key(other_tenant, "outsider", ["read"]).client(other_tenant_user[1])
    _error(
        outsider.post_json(f"{URL}/{trace_id}/feedback", {"used_record_ids": []}), 404, "not_found"
    )
    colleague = agent_with_key(tenant, "colleague", ["read"]).client(owner_subject)
    _error(
        colleague.post_json(f"{URL}/{trace_id}/feedback", {"used_record_ids": []}), 404, "not_found"
    )
    assert RecallTrace.objects.get(pk=trace_id).feedback_at is None


@pytest.mark.parametrize(
    "body",
    [[], {"used_record_ids": ["not-a-uuid"]}, {"used_record_ids": "x"}, {"helpful": "maybe"}],
)
def test_malformed_feedback_is_a_400(reader, owner_subject, body):
    trace_id, _ = _recalled(reader, "anything at all")
    response = reader.post_json(f"{URL}/{trace_id}/feedback", body)
    assert response.status_code == 400 and set(response.json()) == {"code", "message", "extra"}


def test_feedback_counts_used_and_unused_items_and_starts_the_job(
    reader, owner_subject, django_capture_on_commit_callbacks
):
    used = remember(owner_subject, "User prefers aisle seats on trains")
    remember(owner_subject, "User prefers aisle seats on planes")
    trace_id, returned = _recalled(reader, "aisle seats")
    assert len(returned) == 2
    before = (
        sample("engram_recall_feedback_items_total", outcome="used"),
        sample("engram_recall_feedback_items_total", outcome="unused"),
    )
    with django_capture_on_commit_callbacks(execute=True):
        response = reader.post_json(
            f"{URL}/{trace_id}/feedback", {"used_record_ids": [str(used.record_id)]}
        )
    assert response.status_code == 200
    assert sample("engram_recall_feedback_items_total", outcome="used") == before[0] + 1
    assert sample("engram_recall_feedback_items_total", outcome="unused") == before[1] + 1
    # The job ran after commit (eagerly, no broker in the tests): importance rose.
    assert MemoryRecord.objects.get(pk=used.record_id).importance == pytest.approx(0.55)


# --- importance feedback ----------------------------------------------------------------


def _report(agent, subject, query: str, used: set) -> list[uuid.UUID]:
    """One recall, its feedback (``used`` ∩ returned) and the job's work on it."""
    result = recall(agent, subject, query)
    returned = [i.id for i in result.items]
    scope = RecallScope(subject.tenant_id, subject.id, agent.id, agent.clearance)
    with tenant_context(subject.tenant_id):
        recall_feedback_record(
            actor=Actor.agent(agent.id, agent.tenant_id),
            scope=scope,
            trace_id=result.trace_id,
            used_record_ids=[i for i in returned if i in used],
            helpful=None,
        )
        recall_feedback_apply(
            actor=Actor.system(subject.tenant_id, "feedback"),
            tenant_id=subject.tenant_id,
            trace_id=result.trace_id,
        )
    return returned


def _importance(outcome) -> float:
    return MemoryRecord.objects.get(pk=outcome.record_id).importance


def test_repeated_use_rises_to_the_cap_and_stops(read_agent, owner_subject):
    fact = remember(owner_subject, "User prefers window seats")
    seen = []
    for _ in range(12):
        assert fact.record_id in _report(
            read_agent.agent, owner_subject, "window seats", {fact.record_id}
        )
        seen.append(_importance(fact))
    assert seen == sorted(seen) and seen[0] == pytest.approx(0.55)
    assert seen[-1] == 0.9 and seen.count(0.9) >= 3
    record = MemoryRecord.objects.get(pk=fact.record_id)
    assert record.feedback_used_count == 12 and record.feedback_unused_streak == 0
    changes = AuditEvent.objects.filter(
        action="memory.importance_feedback", record_id=fact.record_id
    )
    assert changes.count() == 8  # 0.5 → 0.9 in steps of 0.05; none once at the cap
    last = changes.order_by("-occurred_at").first()
    assert last.reason_code == "used" and last.extra["importance_after"] == 0.9
    assert group_of("memory.importance_feedback") == "recalled"


def test_repeated_non_use_decays_after_n_recalls_to_the_floor(read_agent, owner_subject):
    used = remember(owner_subject, "User drinks green tea in the morning")
    ignored = remember(owner_subject, "User drinks green tea at night")
    seen = []
    for _ in range(16):
        returned = _report(read_agent.agent, owner_subject, "green tea", {used.record_id})
        assert ignored.record_id in returned
        seen.append(_importance(ignored))
    # Unchanged for the first UNUSED_AFTER - 1 recalls, then down a step each, to the floor.
    assert seen[:4] == [0.5] * 4 and seen[4] == pytest.approx(0.45)
    assert seen == sorted(seen, reverse=True) and seen[-1] == 0.1 and seen.count(0.1) >= 3
    # A use resets the streak: the next unused recall does not decay it at once.
    _report(read_agent.agent, owner_subject, "green tea", {ignored.record_id})
    assert _importance(ignored) == pytest.approx(0.15)
    _report(read_agent.agent, owner_subject, "green tea", {used.record_id})
    assert _importance(ignored) == pytest.approx(0.15)


def test_importance_written_outside_the_bounds_is_left_there():
    steps = FeedbackSteps(up=0.05, down=0.05, cap=0.9, floor=0.1, unused_after=5)
    assert importance_after(0.97, used=True, unused_streak=0, steps=steps) == 0.97
    assert importance_after(0.05, used=False, unused_streak=9, steps=steps) == 0.05
    assert importance_after(0.88, used=True, unused_streak=0, steps=steps) == 0.9
    assert importance_after(0.12, used=False, unused_streak=5, steps=steps) == 0.1


def test_frozen_runs_change_nothing(
    read_agent, owner_subject, settings, django_capture_on_commit_callbacks
):
    settings.ENGRAM_RETRIEVAL = {**settings.ENGRAM_RETRIEVAL, "FREEZE_ACCESS": True}
    fact = remember(owner_subject, "User prefers window seats")
    for _ in range(3):
        _report(read_agent.agent, owner_subject, "window seats", {fact.record_id})
    assert _importance(fact) == 0.5
    assert not AuditEvent.objects.filter(action="memory.importance_feedback").exists()
    # Nor is the job started: only the metric's callback is queued.
    reader = read_agent.client(owner_subject)
    trace_id, _ = _recalled(reader, "window seats")
    with django_capture_on_commit_callbacks() as callbacks:
        reader.post_json(f"{URL}/{trace_id}/feedback", {"used_record_ids": [str(fact.record_id)]})
    assert len(callbacks) == 1


def test_a_tenant_can_turn_it_off(read_agent, owner_subject, tenant):
    Tenant.objects.filter(pk=tenant.pk).update(
        policy={"recall_feedback": {"adjust_importance": False}}
    )
    fact = remember(owner_subject, "用户喜欢靠窗的座位")
    for _ in range(3):
        _report(read_agent.agent, owner_subject, "靠窗的座位", {fact.record_id})
    assert _importance(fact) == 0.5
    # Nor do the counters move; the utility rate reads the traces, which still count.
    assert MemoryRecord.objects.get(pk=fact.record_id).feedback_used_count == 0


def test_the_utility_rate_per_agent_and_day(read_agent, owner_subject, tenant):
    a = remember(owner_subject, "User prefers aisle seats on trains")
    remember(owner_subject, "User prefers aisle seats on planes")
    _report(read_agent.agent, owner_subject, "aisle seats", {a.record_id})
    _report(read_agent.agent, owner_subject, "aisle seats", set())
    recall(read_agent.agent, owner_subject, "aisle seats")  # no feedback: not counted
    with tenant_context(tenant.id):
        rate = utility_by_agent_day(tenant_id=tenant.id, days=3)
    [agent] = rate["agents"]
    assert agent["name"] == "reader" and agent["recalled"][-1] == 4 and agent["used"][-1] == 1
    assert agent["rate"] == [None, None, 25.0] and agent["total_rate"] == 25.0


# --- never past a permission, validity or gate check ------------------------------------

_ids = itertools.count()

STATES = [
    "forgotten",
    "retracted",
    "validity_ended",
    "ttl_expired",
    "superseded",
    "other_subject",
    "above_clearance",
    "other_purpose",
]
WORDS = {
    "en": ("User's favourite board game is {}", "favourite board game"),
    "zh": ("用户最喜欢的桌游是{}", "最喜欢的桌游"),
}


def _write(owner, statement: str, state: str, *, at_write: bool):
    """A memory of ``owner``; with ``at_write`` it is written in the state where a field
    decides it (sensitivity, purpose)."""
    fields = {"predicate": "board_game", "cardinality": "single"}
    if state == "ttl_expired":
        fields["expires_at"] = timezone.now() + timedelta(minutes=5)
    if at_write and state == "above_clearance":
        fields["sensitivity"] = "restricted"
    if at_write and state == "other_purpose":
        fields["purpose"] = "support"
    return remember(owner, statement, **fields)


def _leave_reach(owner, fact, state: str, statement: str, agent) -> dict:
    """Put a written memory into ``state`` through the write path, the forgetting service
    or the agent's clearance; returns what the reader's recall must say differently."""
    fields = {"predicate": "board_game", "cardinality": "single"}
    intents = {"forgotten": "forget", "retracted": "retract", "validity_ended": "expire"}
    if state in intents:
        remember(owner, statement, intent=intents[state], target_record_id=fact.record_id, **fields)
    elif state == "superseded":
        remember(
            owner,
            statement + " (changed)",
            intent="supersede",
            target_record_id=fact.record_id,
            **fields,
        )
    elif state == "ttl_expired":
        records_expire(
            actor=Actor.system(owner.tenant_id, "test"),
            tenant_id=owner.tenant_id,
            now=timezone.now() + timedelta(hours=1),
        )
    elif state == "above_clearance":
        type(agent).objects.filter(pk=agent.pk).update(clearance="public")
    elif state == "other_purpose":
        return {"purpose": "support"}
    return {}


@pytest.mark.parametrize("state", STATES)
@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    language=st.sampled_from(sorted(WORDS)),
    raised=st.sampled_from(["by_feedback", "written_max"]),
    route=st.sampled_from(["all", "auto", "inject_only"]),
)
def test_no_importance_lifts_a_memory_past_the_checks(tenant, state, language, raised, route):
    """Features (how importance got high, language, route, query wording) × states (erased,
    retracted, ended, expired, superseded, another subject's, above clearance, another
    purpose): the memory is never returned."""
    n = next(_ids)
    cred = agent_with_key(tenant, f"reader-{n}", ["read"])
    subject = subject_get_or_create(tenant_id=tenant.id, kind="user", external_id=f"fb-{n}")
    other = subject_get_or_create(tenant_id=tenant.id, kind="user", external_id=f"fb-o-{n}")
    owner = other if state == "other_subject" else subject
    template, query = WORDS[language]
    statement = template.format(f"Azul {n}")
    if raised == "by_feedback":
        # Used while the reader could recall it, until feedback could raise it no further.
        fact = _write(owner, statement, state, at_write=False)
        for _ in range(10):
            _report(cred.agent, owner, query, {fact.record_id})
        assert _importance(fact) == 0.9
        overrides = _leave_reach(owner, fact, state, statement, cred.agent)
    else:
        fact = _write(owner, statement, state, at_write=True)
        overrides = {} if state in ("above_clearance", "other_purpose") else None
        if overrides is None:
            overrides = _leave_reach(owner, fact, state, statement, cred.agent)
        MemoryRecord.objects.filter(pk=fact.record_id).update(
            importance=1.0, feedback_used_count=1000
        )
    if state in ("above_clearance", "other_purpose", "other_subject"):
        # Only the check keeps it out.
        assert MemoryRecord.objects.get(pk=fact.record_id).status == MemoryStatus.ACTIVE
    reader = cred.client(subject)
    for q in (query, statement):
        body = {"query": q, "purpose": PURPOSE, "route": route, "k": 50, **overrides}
        response = reader.post_json(URL, body)
        assert response.status_code == 200, response.content
        returned = [i["id"] for i in response.json()["items"]]
        assert str(fact.record_id) not in returned, (state, raised, q)
