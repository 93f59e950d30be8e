"""The pages people use, finished: a new member can start, a delete can be undone for a few
seconds, one agent's access can be paused or revoked (and every API route obeys), memories
can be archived, ticked in bulk, imported, dated, sorted and filtered, the page search uses
the retrieval pipeline, counts agree everywhere, history says what each change did, and the
downloads are for people. Real database, real write path, real recall; no mocks."""

from __future__ import annotations

import csv
import io
import json
import uuid
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.actor import Actor
from core.models import AuditEvent
from memory.models import DeletionRequest, MemoryRecord, SubjectAgentAccess
from memory.selectors import (
    SHOW_BUCKETS,
    memory_counts_for_user,
    memory_list_for_user,
    subject_erasure_preview,
)
from memory.services import user_memory
from memory.services.indexing import index_pending_records
from tests.helpers.cast import candidate
from tests.helpers.memories import agent_memory, home_city

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def alice(owner) -> Client:
    return signed_in(owner[0])


def _undo_time_passes(subject) -> None:
    DeletionRequest.objects.filter(subject_id=subject.id, status="pending").update(
        run_after=timezone.now() - timedelta(seconds=1)
    )


def _embed(subject) -> None:
    index_pending_records(MemoryRecord.objects.filter(subject=subject).values_list("id", flat=True))


# --- a new member can start --------------------------------------------------------------


def test_a_member_created_in_the_console_can_use_every_page(tenant_admin, write_agent):
    admin = signed_in(tenant_admin[0])
    response = admin.post(
        reverse("governance:admin-members"),
        {
            "action": "create_user",
            "username": "newcomer",
            "password": "a-long-first-password-42",
            "role": "member",
        },
    )
    assert response.status_code == 302
    newcomer = signed_in(User.objects.get(username="newcomer"))
    for name in ("memory-list", "memory-remember", "memory-settings", "memory-import"):
        assert newcomer.get(reverse(name)).status_code == 200, name
    for name in ("memory-export-json", "memory-export-csv"):
        assert newcomer.get(reverse(name)).status_code == 200, name
    added = newcomer.post(
        reverse("memory-remember"),
        {"statement": "I prefer tea to coffee", "topic": "food", "purpose": "personalization"},
    )
    assert added.status_code == 302
    assert "I prefer tea to coffee" in newcomer.get(reverse("memory-list")).content.decode()
    # Agents reach the same person by the id the admin gave (default: the username).
    from memory.models import Subject

    subject = Subject.objects.get(user__username="newcomer")
    assert subject.external_id == "newcomer"
    assert newcomer.post(reverse("memory-pause"), {"paused": "1"}).status_code == 302
    assert newcomer.post(reverse("memory-withdraw"), {"confirmed": "on"}).status_code == 302
    assert newcomer.get(reverse("memory-erase-all")).status_code == 200


def test_console_user_gets_the_agents_id_and_an_unowned_subject_is_linked(tenant_admin, tenant):
    from memory.services.subjects import subject_get_or_create

    orphan = subject_get_or_create(tenant_id=tenant.id, kind="user", external_id="crm-7781")
    admin = signed_in(tenant_admin[0])
    url = reverse("governance:admin-members")
    form = {"action": "create_user", "password": "a-long-first-password-42", "role": "member"}
    assert (
        admin.post(url, {**form, "username": "carol", "external_id": "crm-7781"}).status_code == 302
    )
    orphan.refresh_from_db()
    assert orphan.user.username == "carol"
    # An id that already belongs to someone else is refused, and nothing is created.
    taken = admin.post(url, {**form, "username": "dave", "external_id": "crm-7781"})
    assert taken.status_code == 409 and not User.objects.filter(username="dave").exists()
    page = admin.get(url).content.decode()
    assert "crm-7781" in page


def test_a_member_without_a_subject_gets_one_that_never_takes_over_an_agents_subject(
    tenant, write_agent
):
    from accounts.models import Role
    from accounts.services.tenants import membership_set
    from memory.services.subjects import subject_get_or_create

    # An agent already remembers someone else under the id "erin".
    stranger = subject_get_or_create(tenant_id=tenant.id, kind="user", external_id="erin")
    agent_memory(write_agent.agent, stranger, "Erin's secret plan")
    erin = User.objects.create_user("erin", password="pw")
    membership_set(actor=Actor.system(tenant.id), tenant=tenant, user=erin, role=Role.MEMBER)
    page = signed_in(erin).get(reverse("memory-list"))
    assert page.status_code == 200 and "secret plan" not in page.content.decode()
    stranger.refresh_from_db()
    assert stranger.user_id is None
    assert erin.subjects.get().external_id == f"account-{erin.pk}"


def test_reviewer_and_admin_land_on_the_console_members_on_their_memories(
    owner, reviewer, tenant_admin
):
    for user, target in (
        (owner[0], "/"),
        (reviewer[0], "/console/"),
        (tenant_admin[0], "/console/"),
    ):
        response = signed_in(user).get(reverse("landing"))
        assert response.status_code == 302 and response["Location"] == target


# --- delete with undo ------------------------------------------------------------------


def test_delete_hides_at_once_then_undo_restores_exactly(alice, owner, write_agent, api):
    old = agent_memory(write_agent.agent, owner[1], "Lives in Shanghai", predicate="home_city")
    user_memory.memory_correct(
        user=owner[0], subject=owner[1], record=old, statement="Lives in Hangzhou"
    )
    current = MemoryRecord.objects.get(subject=owner[1], statement="Lives in Hangzhou")
    before = {
        r.id: (r.status, r.status_reason)
        for r in MemoryRecord.objects.filter(lineage_id=current.lineage_id)
    }
    response = alice.post(reverse("memory-delete", args=[current.id]))
    deletion = DeletionRequest.objects.get(subject_id=owner[1].id)
    assert response["Location"] == reverse("memory-erase-receipt", args=[deletion.id])
    # Hidden from every agent route at once, though not yet erased.
    assert api.get(f"/api/v1/memories/{current.id}").status_code == 404
    assert api.get(f"/api/v1/memories/{current.id}/history").status_code == 404
    listed = api.get("/api/v1/memories").json()
    assert all(item["id"] != str(current.id) for item in listed["results"])
    recalled = api.post_json(
        "/api/v1/recall", {"query": "Where does the user live?", "purpose": "personalization"}
    ).json()
    assert all("Hangzhou" not in item["statement"] for item in recalled["items"])
    assert MemoryRecord.objects.filter(lineage_id=current.lineage_id, statement="").count() == 0
    # Undo: every version back as it was (status and reason), the request cancelled.
    undo = alice.post(reverse("memory-delete-undo", args=[deletion.id]))
    assert undo.status_code == 302
    after = {
        r.id: (r.status, r.status_reason)
        for r in MemoryRecord.objects.filter(lineage_id=current.lineage_id)
    }
    assert after == before
    deletion.refresh_from_db()
    assert deletion.status == "cancelled"
    assert api.get(f"/api/v1/memories/{current.id}").status_code == 200
    # A cancelled request never runs, even when its time comes.
    _undo_time_passes(owner[1])
    alice.get(reverse("memory-list"))
    assert MemoryRecord.objects.get(pk=current.id).status == "active"
    assert AuditEvent.objects.filter(action="deletion.cancel", subject_id=owner[1].id).exists()


def test_undo_after_the_erasure_ran_is_too_late(alice, owner, write_agent):
    record = agent_memory(write_agent.agent, owner[1], "I like jazz")
    alice.post(reverse("memory-delete", args=[record.id]))
    deletion = DeletionRequest.objects.get(subject_id=owner[1].id)
    _undo_time_passes(owner[1])
    receipt = alice.get(reverse("memory-erase-receipt", args=[deletion.id])).content.decode()
    assert "The memory was deleted." in receipt and "jazz" not in receipt
    late = alice.post(reverse("memory-delete-undo", args=[deletion.id]), follow=True)
    assert "Too late to undo" in late.content.decode()
    assert MemoryRecord.objects.get(pk=record.id).status == "deleted"
    assert MemoryRecord.objects.get(pk=record.id).statement == ""


def test_deleting_again_while_it_waits_is_the_same_delete(alice, owner, write_agent):
    record = agent_memory(write_agent.agent, owner[1], "I like jazz")
    first = alice.post(reverse("memory-delete", args=[record.id]))
    second = alice.post(reverse("memory-delete", args=[record.id]))
    assert first["Location"] == second["Location"]
    assert DeletionRequest.objects.filter(subject_id=owner[1].id).count() == 1
    receipt = alice.get(second["Location"]).content.decode()
    assert "Deleted “I like jazz”." in receipt


def test_the_job_does_nothing_before_its_time(owner, write_agent):
    from memory.services.deletion import deletion_request_run

    record = agent_memory(write_agent.agent, owner[1], "I like jazz")
    deletion = user_memory.memory_delete_with_undo(user=owner[0], subject=owner[1], record=record)
    assert deletion.run_after > timezone.now()
    ran = deletion_request_run(tenant_id=owner[1].tenant_id, request_id=deletion.id)
    assert ran.status == "pending"
    assert MemoryRecord.objects.get(pk=record.id).status == "archived"


def test_another_users_deletion_cannot_be_undone_or_read(alice, same_tenant_user, write_agent):
    record = agent_memory(write_agent.agent, same_tenant_user[1], "Bob likes chess")
    deletion = user_memory.memory_delete_with_undo(
        user=same_tenant_user[0], subject=same_tenant_user[1], record=record
    )
    assert alice.post(reverse("memory-delete-undo", args=[deletion.id])).status_code == 404
    assert alice.get(reverse("memory-erase-receipt", args=[deletion.id])).status_code == 404
    assert MemoryRecord.objects.get(pk=record.id).status == "archived"


def test_htmx_delete_row_offers_undo_and_undo_brings_the_row_back(alice, owner, write_agent):
    record = agent_memory(write_agent.agent, owner[1], "I prefer window seats")
    deleted = alice.post(
        reverse("memory-delete", args=[record.id]),
        HTTP_HX_CURRENT_URL="http://testserver/?q=",
        **HX,
    ).content.decode()
    assert "Deleted “I prefer window seats”." in deleted and "Undo" in deleted
    assert "0 current memories" in deleted and "No memories here." in deleted
    deletion = DeletionRequest.objects.get(subject_id=owner[1].id)
    restored = alice.post(
        reverse("memory-delete-undo", args=[deletion.id]),
        HTTP_HX_CURRENT_URL="http://testserver/",
        **HX,
    ).content.decode()
    assert f'id="memory-{record.id}"' in restored and "Undone: the memory is back." in restored
    assert "1 current memory" in restored and "Showing 1–1 of 1" in restored


# --- per-agent access ------------------------------------------------------------------


def _api_routes(client):
    """One request of each kind an agent makes for the subject."""
    return {
        "recall": client.post_json(
            "/api/v1/recall", {"query": "tea", "purpose": "personalization"}
        ),
        "list": client.get("/api/v1/memories"),
        "write": client.post_json("/api/v1/candidates", {"candidates": [candidate()]}),
        "events": client.post_json(
            "/api/v1/events",
            {
                "events": [
                    {
                        "client_event_id": uuid.uuid4().hex,
                        "kind": "message",
                        "role": "user",
                        "content": "hi",
                    }
                ]
            },
        ),
        "export": client.get("/api/v1/subject/export"),
    }


@pytest.mark.parametrize("state", ["paused", "revoked"])
def test_paused_or_revoked_agent_is_refused_on_every_route_for_that_user_only(
    alice, owner, same_tenant_user, write_agent, read_agent, admin_agent, state
):
    agent_memory(write_agent.agent, owner[1], "I prefer tea")
    url = reverse("memory-agent-access")
    form = {"agent": write_agent.agent.id, "access": state, "confirmed": "on"}
    assert alice.post(url, form).status_code == 302
    refused = _api_routes(write_agent.client(owner[1]))
    for route, response in refused.items():
        if route == "export":
            continue  # the write key has no admin scope: refused before anything else
        assert response.status_code == 403, route
        assert response.json()["code"] == f"agent_access_{state}", route
        assert "settings page" in response.json()["message"]
    # Another agent, and the same agent for another user, are not affected.
    assert read_agent.client(owner[1]).get("/api/v1/memories").status_code == 200
    assert write_agent.client(same_tenant_user[1]).get("/api/v1/memories").status_code == 200
    assert AuditEvent.objects.filter(
        action="subject.agent_access", subject_id=owner[1].id, extra__access=state
    ).exists()
    # Given back: every route works again.
    alice.post(url, {"agent": write_agent.agent.id, "access": "allowed"})
    assert not SubjectAgentAccess.objects.exists()
    assert write_agent.client(owner[1]).get("/api/v1/memories").status_code == 200


def test_revoking_asks_first_pausing_does_not(alice, owner, write_agent):
    agent_memory(write_agent.agent, owner[1], "I prefer tea")
    url = reverse("memory-agent-access")
    ask = alice.post(url, {"agent": write_agent.agent.id, "access": "revoked"})
    assert ask.status_code == 200 and "Yes, revoke its access" in ask.content.decode()
    assert not SubjectAgentAccess.objects.exists()
    alice.post(url, {"agent": write_agent.agent.id, "access": "paused"})
    assert SubjectAgentAccess.objects.get().state == "paused"
    settings_page = alice.get(reverse("memory-settings")).content.decode()
    assert "Resume" in settings_page and "writer" in settings_page


def test_agent_of_another_tenant_cannot_be_named(alice, other_tenant_agent):
    response = alice.post(
        reverse("memory-agent-access"), {"agent": other_tenant_agent.agent.id, "access": "paused"}
    )
    assert response.status_code == 404 and not SubjectAgentAccess.objects.exists()


# --- archive, bulk -----------------------------------------------------------------------


def test_archive_hides_from_agents_and_bring_back_restores(alice, owner, write_agent, api):
    record = agent_memory(write_agent.agent, owner[1], "I prefer tea")
    alice.post(reverse("memory-archive", args=[record.id]))
    record.refresh_from_db()
    assert record.status == "archived" and record.status_reason == "archived_by_user"
    assert all(i["id"] != str(record.id) for i in api.get("/api/v1/memories").json()["results"])
    assert (
        "I prefer tea" in alice.get(reverse("memory-list"), {"status": "archived"}).content.decode()
    )
    alice.post(reverse("memory-archive", args=[record.id]), {"restore": "1"})
    record.refresh_from_db()
    assert record.status == "active"


def test_bring_back_is_refused_when_a_newer_value_took_the_slot(alice, owner):
    now = timezone.now()
    [first] = _submit(owner, home_city("Shanghai", now - timedelta(days=10)))
    first_record = MemoryRecord.objects.get(pk=first.record_id)
    user_memory.memory_archive(user=owner[0], subject=owner[1], record=first_record)
    _submit(owner, home_city("Hangzhou", now - timedelta(days=10)))
    result = user_memory.memory_unarchive(user=owner[0], subject=owner[1], record=first_record)
    assert not result.ok and result.reason_code == "outranked_by_existing"
    first_record.refresh_from_db()
    assert first_record.status == "archived"


def _submit(owner, *candidates):
    from memory.services.writes import candidates_submit

    return candidates_submit(
        actor=Actor.user(owner[0].pk, owner[1].tenant_id),
        subject=owner[1],
        candidates=list(candidates),
        user_id=owner[0].pk,
    )


def test_bulk_delete_asks_then_each_can_be_undone_and_others_ids_are_ignored(
    alice, owner, same_tenant_user, write_agent
):
    mine = [agent_memory(write_agent.agent, owner[1], f"Fact number {i}") for i in range(3)]
    theirs = agent_memory(write_agent.agent, same_tenant_user[1], "Bob likes chess")
    ids = [str(r.id) for r in mine[:2]] + [str(theirs.id), "not-a-uuid"]
    ask = alice.post(reverse("memory-bulk"), {"action": "delete", "ids": ids})
    assert ask.status_code == 200 and "Delete 2 memories?" in ask.content.decode()
    assert not DeletionRequest.objects.exists()
    done = alice.post(reverse("memory-bulk"), {"action": "delete", "ids": ids, "confirmed": "on"})
    assert done.status_code == 302
    assert DeletionRequest.objects.filter(subject_id=owner[1].id).count() == 2
    assert MemoryRecord.objects.get(pk=theirs.id).status == "active"
    page = alice.get(reverse("memory-list")).content.decode()
    assert page.count("erased for good at") == 2 and "1 current memory" in page
    archive = alice.post(reverse("memory-bulk"), {"action": "archive", "ids": [str(mine[2].id)]})
    assert archive.status_code == 302
    assert MemoryRecord.objects.get(pk=mine[2].id).status == "archived"
    nothing = alice.post(reverse("memory-bulk"), {"action": "archive"}, follow=True)
    assert "Tick at least one memory first." in nothing.content.decode()


# --- sort, filter, dates --------------------------------------------------------------------


def test_filters_by_agent_origin_dates_and_order(alice, owner, write_agent, read_agent):
    agent_memory(write_agent.agent, owner[1], "I said this myself")
    inferred = agent_memory(
        read_agent.agent,
        owner[1],
        "Seems to like hiking",
        assertion_kind="agent_inference",
        confidence=0.6,
    )
    today = timezone.localdate()

    def shown(**params):
        body = alice.get(reverse("memory-list"), params, **HX).content.decode()
        return [s for s in ("I said this myself", "Seems to like hiking") if s in body]

    assert shown(origin="me") == ["I said this myself"]
    assert shown(origin="agents") == ["Seems to like hiking"]
    assert shown(agent=str(read_agent.agent.id)) == ["Seems to like hiking"]
    assert shown(since=today.isoformat(), until=today.isoformat()) == [
        "I said this myself",
        "Seems to like hiking",
    ]
    assert shown(since=(today + timedelta(days=1)).isoformat()) == []
    assert shown(until=(today - timedelta(days=1)).isoformat()) == []
    newest = alice.get(reverse("memory-list"), {"sort": "newest"}, **HX).content.decode()
    oldest = alice.get(reverse("memory-list"), {"sort": "oldest"}, **HX).content.decode()
    assert newest.index("hiking") < newest.index("myself")
    assert oldest.index("myself") < oldest.index("hiking")
    assert inferred.assertion_kind == "agent_inference"


def test_remember_and_correct_take_since_and_until(alice, owner):
    response = alice.post(
        reverse("memory-remember"),
        {
            "statement": "I work at Acme",
            "topic": "work",
            "purpose": "personalization",
            "valid_from": "2023-05-01",
            "valid_to": "2025-01-01",
        },
    )
    record = MemoryRecord.objects.get(subject=owner[1], statement="I work at Acme")
    assert response.status_code == 302
    assert timezone.localtime(record.valid_from).date().isoformat() == "2023-05-01"
    assert timezone.localtime(record.valid_to).date().isoformat() == "2025-01-01"
    bad = alice.post(
        reverse("memory-remember"),
        {
            "statement": "x y z",
            "purpose": "personalization",
            "valid_from": "2025-01-01",
            "valid_to": "2024-01-01",
        },
    )
    assert bad.status_code == 200 and "The end must be after the start." in bad.content.decode()
    current = MemoryRecord.objects.get(subject=owner[1], statement="I work at Acme")
    # A correction says the old value was wrong all along: it covers at least the old
    # period (the write policy's rule), from an earlier start if the user gives one.
    fixed = alice.post(
        reverse("memory-correct", args=[current.id]),
        {"statement": "I worked at Acme", "valid_from": "2023-01-01", "valid_to": "2025-02-01"},
    )
    assert fixed.status_code == 302
    new = MemoryRecord.objects.get(subject=owner[1], statement="I worked at Acme")
    assert timezone.localtime(new.valid_from).date().isoformat() == "2023-01-01"
    assert timezone.localtime(new.valid_to).date().isoformat() == "2025-02-01"


# --- search through the retrieval pipeline -------------------------------------------------


@pytest.mark.parametrize(
    "query,expected",
    [
        ("猫", "Has a cat named Niangao"),
        ("where do I live", "Lives in Hangzhou"),
        ("咖啡", "Prefers flat white coffee"),
        ("Niangao", "Has a cat named Niangao"),  # the substring match still works
    ],
)
def test_page_search_finds_what_people_type(
    alice, owner, same_tenant_user, write_agent, query, expected
):
    for statement in (
        "Has a cat named Niangao",
        "Lives in Hangzhou",
        "Prefers flat white coffee",
        "Works mostly with Python",
        "Runs five kilometres every morning",
    ):
        agent_memory(write_agent.agent, owner[1], statement)
    agent_memory(write_agent.agent, same_tenant_user[1], "Bob has a cat too")
    _embed(owner[1])
    _embed(same_tenant_user[1])
    body = alice.get(reverse("memory-list"), {"q": query}, **HX).content.decode()
    assert expected in body
    assert "Bob has a cat" not in body
    # The best match comes first.
    first = body.index('class="statement"')
    assert expected in body[first : first + 400]


def test_page_search_records_no_recall_trace(alice, owner, write_agent):
    from memory.models import RecallTrace

    agent_memory(write_agent.agent, owner[1], "Has a cat named Niangao")
    _embed(owner[1])
    alice.get(reverse("memory-list"), {"q": "猫"})
    assert not RecallTrace.objects.filter(subject=owner[1]).exists()
    assert not AuditEvent.objects.filter(action="memory.read", subject_id=owner[1].id).exists()


# --- counts agree -------------------------------------------------------------------------


OPERATIONS = st.lists(
    st.sampled_from(["add", "correct", "supersede", "pending", "archive", "delete", "future"]),
    min_size=1,
    max_size=7,
)


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(operations=OPERATIONS)
def test_every_count_agrees_with_the_list_whatever_happened(owner, write_agent, operations):
    """Whatever mix of adds, corrections, supersedes, held items, archives and deletes a
    user's memories went through, the list's numbers (each "Show" bucket), the filter's
    counts and the "delete everything" preview are the same counts of the same rows."""
    user, subject = owner
    now = timezone.now()
    for i, operation in enumerate(operations):
        tag = uuid.uuid4().hex[:6]
        if operation == "add":
            agent_memory(write_agent.agent, subject, f"Likes topic {tag}")
        elif operation == "correct":
            record = agent_memory(
                write_agent.agent, subject, f"Team is {tag}", predicate=f"team_{tag}"
            )
            user_memory.memory_correct(
                user=user, subject=subject, record=record, statement=f"Team is {tag}x"
            )
        elif operation == "supersede":
            _submit(owner, home_city(f"C{tag}", now - timedelta(days=100 - i)))
        elif operation == "future":
            _submit(owner, home_city(f"F{tag}", now + timedelta(days=30 + i)))
        elif operation == "pending":
            _pending(write_agent, subject, tag)
        elif operation == "archive":
            record = agent_memory(write_agent.agent, subject, f"Old hobby {tag}")
            user_memory.memory_archive(user=user, subject=subject, record=record)
        elif operation == "delete":
            record = agent_memory(write_agent.agent, subject, f"Temporary {tag}")
            user_memory.memory_delete_with_undo(user=user, subject=subject, record=record)
    counts = memory_counts_for_user(subject=subject)
    not_deleted = MemoryRecord.objects.filter(subject=subject).exclude(status="deleted").count()
    assert sum(counts["show"][b] for b in SHOW_BUCKETS) == not_deleted == counts["total"]
    for bucket in SHOW_BUCKETS:
        assert (
            memory_list_for_user(subject=subject, status=bucket).count() == counts["show"][bucket]
        )
    preview = subject_erasure_preview(subject=subject)
    assert preview["memories"] == counts["active"] == sum(counts["type"].values())
    assert preview["versions"] == counts["earlier"] and preview["held"] == counts["waiting"]
    assert (
        preview["memories"] + preview["versions"] + preview["held"] + preview["archived"]
        == counts["total"]
    )


def _pending(write_agent, subject, tag) -> None:
    """An agent proposes a sensitive detail: held for the user's confirmation."""
    from memory.services.writes import candidates_submit
    from memory.write_policy import Candidate

    candidates_submit(
        actor=Actor.agent(write_agent.agent.id, subject.tenant_id),
        subject=subject,
        agent_id=write_agent.agent.id,
        candidates=[
            Candidate(
                memory_type="semantic",
                namespace="personal",
                statement=f"User was diagnosed with diabetes ({tag})",
                assertion_kind="user_explicit",
                confidence=1.0,
                purpose="personalization",
                consent_basis="explicit_consent",
            )
        ],
    )


def test_pending_confirmation_is_announced_and_confirmable_from_the_list(alice, owner, write_agent):
    _pending(write_agent, owner[1], "x")
    held = MemoryRecord.objects.get(subject=owner[1], status="pending_confirmation")
    page = alice.get(reverse("memory-list")).content.decode()
    assert "Waiting for you" in page and "diabetes" in page and "Yes, remember this" in page
    detail = alice.get(reverse("memory-detail", args=[held.id])).content.decode()
    assert "Nothing about this is believed to be true any more" not in detail
    assert "it becomes true for Engram only when you confirm it" in detail
    confirmed = alice.post(reverse("memory-confirm", args=[held.id]), {"next": "/"}, **HX)
    assert confirmed.status_code == 200
    assert MemoryRecord.objects.filter(
        subject=owner[1], status="active", statement__contains="diabetes"
    ).exists()


# --- history labels -----------------------------------------------------------------------


def test_history_names_each_change_even_after_later_changes(alice, owner):
    now = timezone.now()
    _submit(owner, home_city("Shanghai", now - timedelta(days=400)))
    _submit(owner, home_city("Hangzhou", now - timedelta(days=200)))
    [last] = _submit(owner, home_city("Shenzhen", now - timedelta(days=10)))
    body = alice.get(reverse("memory-detail", args=[last.record_id])).content.decode()
    history = body[body.index('id="history"') :]
    # Two supersedes and the first write: the Hangzhou change is not "first remembered",
    # although its own version was closed by the Shenzhen change since.
    assert history.count("A new value took over") == 2
    assert history.count("First remembered") == 1


# --- import -----------------------------------------------------------------------------------


def test_import_a_pasted_chatgpt_list_through_the_write_policy(alice, owner):
    pasted = "\n".join(
        [
            "- Prefers concise answers",
            "2. Lives in Hangzhou",
            "• My password is hunter2-Secret!",
            "",
            "- Prefers concise answers",
        ]
    )
    response = alice.post(reverse("memory-import"), {"text": pasted, "purpose": "personalization"})
    body = response.content.decode()
    assert response.status_code == 200
    summary = body[body.index('id="import-summary"') :]
    assert "2 memories kept" in summary and "refused" in summary
    assert "Secrets are never remembered" in summary
    kept = MemoryRecord.objects.filter(subject=owner[1], status="active")
    assert {r.statement for r in kept} == {"Prefers concise answers", "Lives in Hangzhou"}
    assert {r.assertion_kind for r in kept} == {"user_confirmed"}
    assert {r.source_uri for r in kept} == {"import:chatgpt"}
    assert not MemoryRecord.objects.filter(statement__contains="hunter2").exists()
    assert AuditEvent.objects.filter(action="subject.import", extra__kept=2).exists()


def test_import_a_mem0_export_and_an_engram_export_round_trip(alice, owner, same_tenant_user):
    mem0 = {
        "results": [
            {"id": "a", "memory": "Likes green tea", "created_at": "2025-01-02T03:04:05Z"},
            {"id": "b", "memory": "Old paused thing", "state": "paused"},
        ]
    }
    upload = SimpleUploadedFile("mem0.json", json.dumps(mem0).encode(), "application/json")
    alice.post(reverse("memory-import"), {"file": upload, "purpose": "personalization"})
    assert MemoryRecord.objects.filter(subject=owner[1], statement="Likes green tea").exists()
    assert not MemoryRecord.objects.filter(statement="Old paused thing").exists()
    # Alice's own export, imported by Bob: the current memories, with topic and kind.
    exported = alice.get(reverse("memory-export-json")).content
    bob = signed_in(same_tenant_user[0])
    upload = SimpleUploadedFile("engram.json", exported, "application/json")
    page = bob.post(reverse("memory-import"), {"file": upload, "purpose": "personalization"})
    assert "1 memory kept" in page.content.decode()
    copy = MemoryRecord.objects.get(subject=same_tenant_user[1], statement="Likes green tea")
    assert copy.source_uri == "import:engram" and copy.namespace == "imported"


@pytest.mark.parametrize(
    "payload,message",
    [
        (b"not json at all", "The file is not JSON"),
        (json.dumps({"format": "something else"}).encode(), "This is not a Mem0 export"),
        (json.dumps({"results": [{"memory": "  "}]}).encode(), "Nothing to import was found."),
        (json.dumps([{"memory": f"m{i}"} for i in range(501)]).encode(), "At most 500 memories"),
    ],
)
def test_a_bad_import_file_says_what_to_do_and_writes_nothing(alice, owner, payload, message):
    upload = SimpleUploadedFile("x.json", payload, "application/json")
    response = alice.post(reverse("memory-import"), {"file": upload, "purpose": "personalization"})
    assert response.status_code == 400 and message in response.content.decode()
    assert not MemoryRecord.objects.filter(subject=owner[1]).exists()


# --- downloads for people ------------------------------------------------------------------


def test_csv_is_in_words_newest_first_without_deleted_rows(alice, owner, write_agent):
    agent_memory(write_agent.agent, owner[1], "An older memory", namespace="travel/flights")
    second = agent_memory(write_agent.agent, owner[1], "A newer memory")
    gone = agent_memory(write_agent.agent, owner[1], "A deleted memory")
    user_memory.memory_forget(user=owner[0], subject=owner[1], record=gone)
    text = alice.get(reverse("memory-export-csv")).content.decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["Memory"] for r in rows] == ["A newer memory", "An older memory"]
    assert rows[1]["Topic"] == "Travel › Flights" and rows[0]["Kind"] == "fact or preference"
    assert rows[0]["Where it comes from"] == "you said this" and rows[0]["Status"] == "active"
    assert rows[0]["Memory id"] == str(second.id)
    assert all(r["Memory"] for r in rows)
    # The JSON stays the machine format (codes, every version), in the order recorded.
    data = json.loads(alice.get(reverse("memory-export-json")).content)
    recorded = [r["recorded_at"] for r in data["records"]]
    assert recorded == sorted(recorded)


def test_csv_speaks_the_pages_language(alice, owner, write_agent):
    agent_memory(write_agent.agent, owner[1], "我喜欢绿茶", namespace="food")
    alice.post("/i18n/setlang/", {"language": "zh-hans", "next": "/"})
    text = alice.get(reverse("memory-export-csv")).content.decode("utf-8-sig")
    header, row = list(csv.reader(io.StringIO(text)))[:2]
    assert not header[0].isascii()
    assert "Food" not in row


# --- receipts in each language's own order ---------------------------------------------------


def test_receipt_sentence_word_order_in_both_languages():
    from django.utils import translation

    from memory.labels import receipt_sentence

    receipt = {"record_versions": 3, "source_events": 77, "embeddings": 0, "a": 0, "b": 0}
    with translation.override("en"):
        assert receipt_sentence(receipt) == "80 items removed from 2 places."
    with translation.override("zh-hans"):
        assert receipt_sentence(receipt) == "已从 2 个位置删除 80 项。"
