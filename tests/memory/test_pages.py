"""The "Manage my memories" pages: every page and action, normal and htmx, and the
permission matrix (owner / other user of the same tenant / user of another tenant /
anonymous). Real database, real write path."""

from __future__ import annotations

import json
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from memory.models import MemoryRecord
from tests.helpers.memories import agent_memory

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def alice(owner) -> Client:
    return signed_in(owner[0])


@pytest.fixture
def memory(owner, write_agent) -> MemoryRecord:
    return agent_memory(write_agent.agent, owner[1], "I prefer window seats 靠窗座位")


# --- list ------------------------------------------------------------------------------


def test_list_shows_own_memories_with_counts(alice, owner, write_agent, same_tenant_user):
    agent_memory(write_agent.agent, owner[1], "我喜欢喝绿茶")
    agent_memory(
        write_agent.agent,
        owner[1],
        "Booked a hotel in Hangzhou for the conference",
        memory_type="episodic",
    )
    agent_memory(write_agent.agent, same_tenant_user[1], "Bob likes chess")
    response = alice.get(reverse("memory-list"))
    assert response.status_code == 200
    body = response.content.decode()
    assert "我喜欢喝绿茶" in body and "Booked a hotel" in body
    assert "chess" not in body
    assert "2 current memories" in body
    assert 'hx-get="/"' in body and 'action="/"' in body  # search works with and without JS


def test_list_htmx_returns_results_fragment_only(alice, memory):
    response = alice.get(reverse("memory-list"), {"q": "window"}, **HX)
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<section id="results"')
    assert "<html" not in body and "window seats" in body


def test_list_htmx_history_restore_gets_the_whole_page(alice, memory):
    response = alice.get(
        reverse("memory-list"), {"q": "window"}, HTTP_HX_HISTORY_RESTORE_REQUEST="true", **HX
    )
    assert "<html" in response.content.decode()
    assert "HX-Request" in response["Vary"]


@pytest.mark.parametrize("query", ["靠窗", "WINDOW", "window seats"])
def test_search_chinese_and_english(alice, memory, owner, write_agent, query):
    agent_memory(write_agent.agent, owner[1], "I like jazz")
    body = alice.get(reverse("memory-list"), {"q": query}, **HX).content.decode()
    assert "window seats" in body and "jazz" not in body


def test_search_does_not_reach_other_users(alice, write_agent, same_tenant_user):
    agent_memory(write_agent.agent, same_tenant_user[1], "Bob likes chess")
    body = alice.get(reverse("memory-list"), {"q": "chess"}).content.decode()
    assert "Bob likes chess" not in body
    assert "No memory matches" in body


def test_filters_by_type_namespace_and_status(alice, owner, write_agent):
    agent_memory(write_agent.agent, owner[1], "Fact A", namespace="travel")
    agent_memory(write_agent.agent, owner[1], "Trip B", memory_type="episodic", namespace="work")
    old = agent_memory(write_agent.agent, owner[1], "City C", predicate="city", namespace="work")
    from memory.services.user_memory import memory_correct

    memory_correct(user=owner[0], subject=owner[1], record=old, statement="City D")

    def shown(**params):
        body = alice.get(reverse("memory-list"), params, **HX).content.decode()
        return {s for s in ("Fact A", "Trip B", "City C", "City D") if s in body}

    assert shown() == {"Fact A", "Trip B", "City D"}
    assert shown(type="episodic") == {"Trip B"}
    assert shown(namespace="work") == {"Trip B", "City D"}
    assert shown(status="superseded") == {"City C"}
    assert shown(status="nonsense", type="bogus") == {"Fact A", "Trip B", "City D"}


def test_pagination(alice, owner, write_agent):
    for i in range(23):
        agent_memory(write_agent.agent, owner[1], f"Memory number {i:02d}")
    first = alice.get(reverse("memory-list")).content.decode()
    assert "Showing 1–20 of 23" in first and "Page 1 of 2" in first
    second = alice.get(reverse("memory-list"), {"page": 2}, **HX).content.decode()
    assert "Showing 21–23 of 23" in second
    assert "Memory number 00" in second  # oldest last
    assert alice.get(reverse("memory-list"), {"page": "x"}).status_code == 200


def test_user_without_subject_sees_empty_state(db, django_user_model):
    user = django_user_model.objects.create_user("nobody", password="pw")
    response = signed_in(user).get(reverse("memory-list"))
    assert response.status_code == 200
    assert "Nothing is remembered about you yet." in response.content.decode()


# --- detail ------------------------------------------------------------------------------


def test_detail_shows_kind_source_history_and_recall_empty_state(alice, owner, memory):
    from memory.services.user_memory import memory_correct

    result = memory_correct(
        user=owner[0], subject=owner[1], record=memory, statement="I prefer aisle seats"
    )
    body = alice.get(reverse("memory-detail", args=[result.record_id])).content.decode()
    assert "I prefer aisle seats" in body
    assert "you said this" in body.lower()
    assert "100%" in body
    assert "I prefer window seats 靠窗座位" in body  # the old version in history
    assert "by You" in body and "Agent “writer”" in body
    assert "Corrected" in body and "What was true when" in body
    assert "No agent has used this memory yet." in body
    old_body = alice.get(reverse("memory-detail", args=[memory.id])).content.decode()
    assert "This version is superseded" in old_body
    # The source event (the user's own message) is shown on the original version.
    assert "<blockquote>I prefer window seats 靠窗座位</blockquote>" in old_body


def test_detail_of_inference_says_so(alice, owner, write_agent):
    record = agent_memory(
        write_agent.agent,
        owner[1],
        "User may be vegetarian",
        assertion_kind="agent_inference",
        confidence=0.9,
    )
    body = alice.get(reverse("memory-detail", args=[record.id])).content.decode()
    assert "The assistant inferred this" in body and "80%" in body


# --- permission matrix ----------------------------------------------------------------------


PAGES = [
    ("get", "memory-detail"),
    ("get", "memory-correct"),
    ("post", "memory-correct"),
    ("get", "memory-delete"),
    ("post", "memory-delete"),
]


@pytest.mark.parametrize(("method", "name"), PAGES)
@pytest.mark.parametrize(
    "who", ["same_tenant_user", "other_tenant_user", "tenant_admin", "reviewer"]
)
def test_other_users_get_404_and_change_nothing(request, memory, method, name, who):
    intruder = signed_in(request.getfixturevalue(who)[0])
    url = reverse(name, args=[memory.id])
    for extra in ({}, HX):
        if method == "post":
            response = intruder.post(url, {"statement": "hacked"}, **extra)
        else:
            response = intruder.get(url, **extra)
        assert response.status_code == 404
    memory.refresh_from_db()
    assert memory.status == "active" and memory.statement.startswith("I prefer window")
    assert MemoryRecord.objects.filter(lineage_id=memory.lineage_id).count() == 1


@pytest.mark.parametrize(
    ("method", "name", "needs_id"),
    [
        ("get", "memory-list", False),
        ("get", "memory-remember", False),
        ("post", "memory-remember", False),
        ("get", "memory-detail", True),
        ("get", "memory-correct", True),
        ("post", "memory-correct", True),
        ("get", "memory-delete", True),
        ("post", "memory-delete", True),
        ("get", "memory-export-json", False),
        ("get", "memory-export-csv", False),
        ("get", "memory-settings", False),
        ("post", "memory-pause", False),
        ("post", "memory-withdraw", False),
        ("post", "memory-consent", False),
    ],
)
def test_anonymous_is_sent_to_sign_in(client, memory, method, name, needs_id):
    url = reverse(name, args=[memory.id] if needs_id else [])
    response = getattr(client, method)(url)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")
    memory.refresh_from_db()
    assert memory.status == "active"


def test_unknown_id_is_404(alice, memory):
    import uuid

    assert alice.get(reverse("memory-detail", args=[uuid.uuid4()])).status_code == 404


def _undo_time_passes(subject) -> None:
    """The few seconds to undo a delete pass (without waiting for them)."""
    from datetime import timedelta

    from django.utils import timezone

    from memory.models import DeletionRequest

    DeletionRequest.objects.filter(subject_id=subject.id, status="pending").update(
        run_after=timezone.now() - timedelta(seconds=1)
    )


def test_deleted_memory_page_says_it_was_deleted(alice, owner, memory):
    alice.post(reverse("memory-delete", args=[memory.id]))
    waiting = alice.get(reverse("memory-detail", args=[memory.id]))
    assert waiting.status_code == 200 and "You deleted this memory" in waiting.content.decode()
    _undo_time_passes(owner[1])
    alice.get(reverse("memory-list"))  # the user's next page runs the due erasure
    gone = alice.get(reverse("memory-detail", args=[memory.id]))
    assert gone.status_code == 410
    body = gone.content.decode()
    assert "This memory was deleted" in body and "window seats" not in body
    assert alice.get(reverse("memory-detail", args=[uuid.uuid4()])).status_code == 404


# --- remember ------------------------------------------------------------------------------


def test_remember_post_redirect_get(alice, owner):
    page = alice.get(reverse("memory-remember"))
    assert page.status_code == 200 and 'for="id_statement"' in page.content.decode()
    response = alice.post(
        reverse("memory-remember"),
        {
            "statement": "我对花生过敏以外的坚果没问题",
            "topic": "food",
            "purpose": "personalization",
        },
    )
    record = MemoryRecord.objects.get(subject=owner[1])
    assert response.status_code == 302
    assert response["Location"] == reverse("memory-detail", args=[record.id])
    assert record.namespace == "food" and record.assertion_kind == "user_explicit"
    assert "Remembered." in alice.get(response["Location"]).content.decode()


def test_remember_rejection_shows_reason(alice, owner):
    response = alice.post(
        reverse("memory-remember"),
        {
            "statement": "My password is hunter2x!",
            "topic": "personal",
            "purpose": "personalization",
        },
    )
    assert response.status_code == 200
    assert "Secrets are never remembered" in response.content.decode()
    assert not MemoryRecord.objects.filter(subject=owner[1]).exists()


def test_remember_rejection_is_translated(alice, owner):
    alice.cookies["django_language"] = "zh-hans"
    response = alice.post(
        reverse("memory-remember"),
        {
            "statement": "My password is hunter2x!",
            "topic": "personal",
            "purpose": "personalization",
        },
    )
    assert "密码" in response.content.decode()


def test_remember_sensitive_asks_for_confirmation_then_writes(alice, owner):
    data = {
        "statement": "我的手机号是 13800138000",
        "topic": "personal",
        "purpose": "personalization",
    }
    first = alice.post(reverse("memory-remember"), data)
    body = first.content.decode()
    assert first.status_code == 200 and 'name="confirm_sensitive"' in body
    assert not MemoryRecord.objects.filter(subject=owner[1], status="active").exists()
    second = alice.post(reverse("memory-remember"), {**data, "confirm_sensitive": "on"})
    assert second.status_code == 302
    assert MemoryRecord.objects.get(subject=owner[1], status="active").sensitivity == "restricted"


@pytest.mark.parametrize(
    "data",
    [
        {"statement": "   ", "topic": "personal", "purpose": "personalization"},
        {"statement": "x", "topic": "../x y", "purpose": "personalization"},
        {"statement": "x", "topic": "personal", "purpose": "ads"},
        {"statement": "x" * 9000, "topic": "personal", "purpose": "personalization"},
    ],
)
def test_remember_malformed_input_is_a_form_error(alice, owner, data):
    response = alice.post(reverse("memory-remember"), data)
    assert response.status_code == 200
    assert 'class="error"' in response.content.decode()
    assert not MemoryRecord.objects.filter(subject=owner[1]).exists()


# --- correct -------------------------------------------------------------------------------


def test_correct_page_and_post_redirect_get(alice, owner, memory):
    page = alice.get(reverse("memory-correct", args=[memory.id]))
    assert page.status_code == 200 and "<html" in page.content.decode()
    response = alice.post(
        reverse("memory-correct", args=[memory.id]), {"statement": "I prefer aisle seats"}
    )
    new = MemoryRecord.objects.get(lineage_id=memory.lineage_id, status="active")
    assert response.status_code == 302
    assert response["Location"] == reverse("memory-detail", args=[new.id])
    assert new.statement == "I prefer aisle seats" and new.supersedes_id == memory.id
    memory.refresh_from_db()
    assert memory.status == "superseded"


def test_correct_htmx_inline(alice, owner, memory):
    form = alice.get(
        reverse("memory-correct", args=[memory.id]),
        HTTP_HX_CURRENT_URL="http://testserver/?q=seat",
        **HX,
    )
    body = form.content.decode()
    assert "<html" not in body and f'id="memory-{memory.id}"' in body
    assert 'hx-get="/?q=seat"' in body  # cancel returns to the list as the user left it
    response = alice.post(
        reverse("memory-correct", args=[memory.id]), {"statement": "I prefer aisle seats"}, **HX
    )
    body = response.content.decode()
    new = MemoryRecord.objects.get(lineage_id=memory.lineage_id, status="active")
    assert response.status_code == 200
    assert body.lstrip().startswith(f'<article class="memory" id="memory-{new.id}"')
    assert "I prefer aisle seats" in body and "You corrected this" in body


def test_correct_htmx_rejection_rerenders_form(alice, memory):
    response = alice.post(
        reverse("memory-correct", args=[memory.id]), {"statement": "my password is hunter2x!"}, **HX
    )
    body = response.content.decode()
    assert response.status_code == 200 and 'role="alert"' in body and "<form" in body
    memory.refresh_from_db()
    assert memory.status == "active"


def test_correct_superseded_version_acts_on_current(alice, owner, memory):
    alice.post(reverse("memory-correct", args=[memory.id]), {"statement": "Version two"})
    alice.post(reverse("memory-correct", args=[memory.id]), {"statement": "Version three"})
    versions = list(
        MemoryRecord.objects.filter(lineage_id=memory.lineage_id).order_by("recorded_at")
    )
    assert [v.statement for v in versions] == [
        "I prefer window seats 靠窗座位",
        "Version two",
        "Version three",
    ]
    assert [v.status for v in versions] == ["superseded", "superseded", "active"]


def test_correct_empty_statement_is_form_error(alice, memory):
    response = alice.post(reverse("memory-correct", args=[memory.id]), {"statement": "  "})
    assert response.status_code == 200 and 'aria-invalid="true"' in response.content.decode()


# --- delete ------------------------------------------------------------------------------


def test_delete_confirmation_then_gone_from_page_and_agent_api(alice, owner, memory, api):
    assert api.get(f"/api/v1/memories/{memory.id}").status_code == 200
    confirm = alice.get(reverse("memory-delete", args=[memory.id]))
    assert confirm.status_code == 200 and "Yes, delete it" in confirm.content.decode()
    response = alice.post(reverse("memory-delete", args=[memory.id]))
    assert response.status_code == 302 and "/settings/memory/deletions/" in response["Location"]
    receipt = alice.get(response["Location"]).content.decode()
    # The receipt names what is deleted and says it can still be undone.
    assert "Deleted “I prefer window seats 靠窗座位”." in receipt and "undo" in receipt
    # Agents no longer see it at once, though the erasure waits for the undo time.
    gone = api.get(f"/api/v1/memories/{memory.id}")
    assert gone.status_code == 404 and gone.json()["code"] == "not_found"
    page = alice.get(reverse("memory-list")).content.decode()
    assert "Being deleted" in page and "0 current memories" in page
    _undo_time_passes(owner[1])
    receipt = alice.get(response["Location"]).content.decode()
    assert "The memory was deleted." in receipt and "found nothing left" in receipt
    assert "window seats" not in receipt
    assert MemoryRecord.objects.get(pk=memory.id).status == "deleted"


def test_delete_htmx_inline(alice, owner, memory, api):
    confirm = alice.get(reverse("memory-delete", args=[memory.id]), **HX).content.decode()
    assert "<html" not in confirm and "Yes, delete it" in confirm
    response = alice.post(reverse("memory-delete", args=[memory.id]), **HX)
    body = response.content.decode()
    assert response.status_code == 200
    assert f'id="memory-{memory.id}"' in body and 'role="status"' in body
    assert 'hx-swap-oob="true"' in body and "0 current memories" in body
    assert "No memories here." in body  # the "showing x of y" line follows the delete
    assert "Undo" in body
    assert api.get(f"/api/v1/memories/{memory.id}").status_code == 404


# --- export ------------------------------------------------------------------------------


def test_export_json_download_isolated(alice, owner, memory, write_agent, same_tenant_user):
    agent_memory(write_agent.agent, same_tenant_user[1], "Bob likes chess")
    response = alice.get(reverse("memory-export-json"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"].startswith("attachment;")
    data = json.loads(response.content)
    assert [r["statement"] for r in data["records"]] == ["I prefer window seats 靠窗座位"]
    assert "chess" not in response.content.decode()


def test_export_csv_download(alice, memory):
    response = alice.get(reverse("memory-export-csv"))
    text = response.content.decode("utf-8-sig")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    header = text.splitlines()[0]
    # People's columns first, in the pages' words; ids last.
    assert header.startswith("Memory,Kind,Topic,Where it comes from,Status")
    assert header.endswith("Memory id,Lineage id,Replaces version")
    assert "靠窗座位" in text and "the assistant inferred this" not in text.splitlines()[0]


def test_export_for_other_tenant_user_has_only_their_data(memory, other_tenant_user):
    response = signed_in(other_tenant_user[0]).get(reverse("memory-export-json"))
    data = json.loads(response.content)
    assert data["records"] == [] and "window" not in response.content.decode()


# --- settings ----------------------------------------------------------------------------


def test_pause_from_settings_refuses_agent_writes(alice, owner, api):
    from tests.helpers.cast import candidate

    assert "Pause memory" in alice.get(reverse("memory-settings")).content.decode()
    response = alice.post(reverse("memory-pause"), {"paused": "1"})
    assert response.status_code == 302 and response["Location"] == reverse("memory-settings")
    assert "Paused" in alice.get(reverse("memory-settings")).content.decode()
    result = api.post_json("/api/v1/candidates", {"candidates": [candidate()]}).json()
    assert result["results"][0]["operation"] == "REJECT"
    assert result["results"][0]["reason_code"] == "memory_paused"
    alice.post(reverse("memory-pause"), {"paused": "0"})
    result = api.post_json("/api/v1/candidates", {"candidates": [candidate()]}).json()
    assert result["results"][0]["operation"] == "ADD"


def test_withdraw_consent_refuses_agent_writes_and_can_erase(alice, owner, memory, api):
    from tests.helpers.cast import candidate

    # The first post only asks again; nothing changes.
    ask = alice.post(reverse("memory-withdraw"), {"erase_everything": "on"})
    assert ask.status_code == 200 and "Yes, withdraw consent" in ask.content.decode()
    owner[1].refresh_from_db()
    assert owner[1].consent_withdrawn_at is None
    response = alice.post(reverse("memory-withdraw"), {"erase_everything": "on", "confirmed": "on"})
    assert response.status_code == 302
    page = alice.get(reverse("memory-settings")).content.decode()
    assert "Consent withdrawn" in page and "1 memory was deleted." in page
    result = api.post_json("/api/v1/candidates", {"candidates": [candidate()]}).json()
    assert result["results"][0]["reason_code"] == "consent_withdrawn"
    assert api.get(f"/api/v1/memories/{memory.id}").status_code == 404
    alice.post(reverse("memory-consent"))
    # Erasing everything runs the subject-wide deletion workflow (the same as "delete
    # everything" and the operator command), which also pauses memory: resuming is a
    # separate, explicit choice.
    result = api.post_json("/api/v1/candidates", {"candidates": [candidate()]}).json()
    assert result["results"][0]["reason_code"] == "memory_paused"
    alice.post(reverse("memory-pause"), {"paused": "0"})
    result = api.post_json("/api/v1/candidates", {"candidates": [candidate()]}).json()
    assert result["results"][0]["operation"] == "ADD"


def test_withdraw_without_erase_keeps_memories(alice, memory):
    alice.post(reverse("memory-withdraw"), {"confirmed": "on"})
    memory.refresh_from_db()
    assert memory.status == "active"
    assert "withdrawn consent" in alice.get(reverse("memory-list")).content.decode()


def test_settings_get_only_actions_post_only(alice):
    assert alice.get(reverse("memory-pause")).status_code == 405
    assert alice.post(reverse("memory-settings")).status_code == 405


def test_settings_other_users_unaffected(alice, owner, same_tenant_user):
    alice.post(reverse("memory-pause"), {"paused": "1"})
    same_tenant_user[1].refresh_from_db()
    assert same_tenant_user[1].memory_paused is False


# --- language ------------------------------------------------------------------------------


def test_language_switch_to_chinese(alice, memory):
    response = alice.post("/i18n/setlang/", {"language": "zh-hans", "next": reverse("memory-list")})
    assert response.status_code == 302
    body = alice.get(reverse("memory-list")).content.decode()
    assert "我的记忆" in body and 'lang="zh-hans"' in body
    assert "你说过这句话" in alice.get(reverse("memory-detail", args=[memory.id])).content.decode()


def test_login_page_renders(client):
    response = client.get("/accounts/login/")
    assert response.status_code == 200 and 'for="id_username"' in response.content.decode()


def test_list_and_detail_queries_do_not_grow_with_the_number_of_memories(alice, owner, write_agent):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def queries(url: str) -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert alice.get(url).status_code == 200
        return len(ctx.captured_queries)

    first = agent_memory(write_agent.agent, owner[1], "Memory 0")
    few = (queries("/"), queries(f"/memories/{first.id}"))
    for i in range(1, 25):
        agent_memory(write_agent.agent, owner[1], f"Memory {i}", source_uri=f"doc:{i}")
    many = (queries("/"), queries(f"/memories/{first.id}"))
    assert many == few


def test_remember_form_asks_no_memory_type_or_topic_path(alice):
    body = alice.get(reverse("memory-remember")).content.decode()
    assert 'name="memory_type"' not in body and 'name="namespace"' not in body
    assert "procedur" not in body.lower()
    assert 'name="topic"' in body and "<select" in body


def test_remember_without_topic_uses_personal_and_a_fact(alice, owner):
    response = alice.post(
        reverse("memory-remember"),
        {"statement": "I prefer aisle seats", "purpose": "personalization"},
    )
    assert response.status_code == 302
    record = MemoryRecord.objects.get(subject=owner[1])
    assert (record.namespace, record.memory_type) == ("personal", "semantic")


def test_bootstrap_ships_a_reviewed_runbook_with_a_pending_change_and_a_reviewer(
    tenant_admin, tenant
):
    from core.tenancy import tenant_context
    from governance.management.commands.engram_bootstrap import seed_demo_review
    from governance.models import ChangeRequest, ProceduralDocument

    for _ in range(2):  # idempotent
        with tenant_context(tenant.id):
            seed_demo_review(tenant=tenant, admin=tenant_admin[0])
    document = ProceduralDocument.objects.get(slug="refunds")
    assert document.current_version == 1
    [pending] = ChangeRequest.objects.filter(document=document, status="open")
    assert pending.base_version == 1
    reviewer = Client()
    assert reviewer.login(username="reviewer", password="engram-review")
    home = reviewer.get(reverse("governance:home")).content.decode()
    assert "1 open change request" in home
    diff = reviewer.get(reverse("governance:change", args=[pending.id])).content.decode()
    assert "within 7 days" in diff and "Approve" in diff
