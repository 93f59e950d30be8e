"""Every erasure route runs the same workflow, with the same receipt and verification
(issue 14, class 5): the settings page's "delete everything", withdrawing consent with
erasure, and the operator command. Each removes the user's raw events too — including a
message that never became a memory — and the export is empty afterwards.

And after consent is withdrawn, the events API refuses new messages (403
``consent_withdrawn``), or — under the tenant policy ``events_after_consent_withdrawn:
keep_short`` — keeps them briefly and never turns them into memories; the settings page
says which."""

from __future__ import annotations

import json

import pytest
from django.conf import settings as django_settings
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation

from memory.models import DeletionRequest, DeletionStatus, MemoryRecord, MemoryStatus, SourceEvent
from memory.services import user_memory
from tests.helpers.lifecycle import append, extract

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _default_language_afterwards():
    # A page request in Chinese activates it for this thread; later tests expect English.
    yield
    translation.activate(django_settings.LANGUAGE_CODE)


NEVER_A_MEMORY = {
    "en": "Ugh, the weather is grey again, whatever.",
    "zh": "唉，今天天气又阴了，随便吧。",
}
BECOMES_A_MEMORY = {"en": "I live in Hangzhou", "zh": "我住在杭州"}


def _seed(write_agent, subject, lang):
    kept = append(write_agent, subject, BECOMES_A_MEMORY[lang])
    chatter = append(write_agent, subject, NEVER_A_MEMORY[lang])
    extract(kept, chatter)
    assert MemoryRecord.objects.filter(subject=subject, status=MemoryStatus.ACTIVE).exists()
    assert not MemoryRecord.objects.filter(subject=subject, source_events=chatter).exists()
    return chatter


def _erase_by_page(client, user, subject, django_capture_on_commit_callbacks):
    client.force_login(user)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("memory-erase-all"), {"understood": "on"})
    assert response.status_code == 302


def _erase_by_withdrawal(client, user, subject, django_capture_on_commit_callbacks):
    client.force_login(user)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("memory-withdraw"), {"erase_everything": "on", "confirmed": "on"}
        )
    assert response.status_code == 302


def _erase_by_service(client, user, subject, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        user_memory.subject_consent_withdraw(user=user, subject=subject, erase_everything=True)


def _erase_by_command(client, user, subject, django_capture_on_commit_callbacks):
    call_command("engram_delete_subject", "--tenant", "acme", "--subject", f"user:{user.username}")


def _erase_by_api(client, user, subject, django_capture_on_commit_callbacks):
    from tests.helpers.cast import agent_with_key

    gateway = agent_with_key(subject.tenant, "erasure-gateway", ["read", "write", "admin"])
    api = gateway.client(subject)
    refused = api.post_json("/api/v1/subject/erase", {"confirm": False})
    assert refused.status_code == 400 and refused.json()["code"] == "invalid_input"
    response = api.post_json("/api/v1/subject/erase", {"confirm": True})
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "done" and not any(body["verification"].values())


ROUTES = {
    "settings_page": _erase_by_page,
    "consent_withdrawal_page": _erase_by_withdrawal,
    "consent_withdrawal_service": _erase_by_service,
    "operator_command": _erase_by_command,
    "api": _erase_by_api,
}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("route", list(ROUTES))
def test_every_route_erases_raw_events_with_the_same_receipt(
    client, owner, write_agent, django_capture_on_commit_callbacks, route, lang
):
    user, subject = owner
    chatter = _seed(write_agent, subject, lang)
    ROUTES[route](client, user, subject, django_capture_on_commit_callbacks)

    assert not SourceEvent.objects.filter(pk=chatter.pk).exists()
    assert not SourceEvent.objects.filter(subject=subject).exists()
    assert (
        not MemoryRecord.objects.filter(subject=subject)
        .exclude(status=MemoryStatus.DELETED)
        .exists()
    )
    [request] = DeletionRequest.objects.filter(subject_id=subject.id, scope="subject")
    assert request.status == DeletionStatus.DONE
    assert request.receipt["source_events"] >= 2, request.receipt
    assert not any(request.verification.values()), request.verification
    # the same stores and verification routes, whichever way the user asked
    assert set(request.receipt) == set(_reference_receipt_keys())
    exported = json.dumps(
        user_memory.subject_export(user=user, subject=subject), ensure_ascii=False
    )
    assert NEVER_A_MEMORY[lang] not in exported and BECOMES_A_MEMORY[lang] not in exported


def _reference_receipt_keys():
    from memory.services.deletion import registered_stores

    return [s.name for s in registered_stores()]


# --- consent withdrawn: the events API ---------------------------------------------------


def _post_event(api, content="I moved to Shanghai", client_id="after-1"):
    return api.post_json(
        "/api/v1/events",
        {
            "events": [
                {
                    "client_event_id": client_id,
                    "kind": "message",
                    "role": "user",
                    "content": content,
                }
            ]
        },
    )


@pytest.mark.parametrize("content", ["I moved to Shanghai", "我搬到上海了"])
def test_events_are_refused_after_consent_is_withdrawn(api, owner, content):
    user, subject = owner
    assert _post_event(api, content, "before").status_code == 200
    user_memory.subject_consent_withdraw(user=user, subject=subject, erase_everything=False)
    response = _post_event(api, content)
    assert response.status_code == 403
    body = response.json()
    assert set(body) == {"code", "message", "extra"} and body["code"] == "consent_withdrawn"
    assert not SourceEvent.objects.filter(subject=subject, client_event_id="after-1").exists()
    # consent given again: stored again
    user_memory.subject_consent_give(user=user, subject=subject)
    assert _post_event(api, content, "after-2").status_code == 200


def test_tenant_policy_keep_short_stores_briefly_and_never_remembers(api, owner, tenant):
    tenant.policy = {**(tenant.policy or {}), "events_after_consent_withdrawn": "keep_short"}
    tenant.save()
    user, subject = owner
    user_memory.subject_consent_withdraw(user=user, subject=subject, erase_everything=False)
    response = _post_event(api, "I moved to Shanghai")
    assert response.status_code == 200, response.content
    event = SourceEvent.objects.get(subject=subject, client_event_id="after-1")
    assert event.retention_class == "short"
    extract(event)
    assert not MemoryRecord.objects.filter(subject=subject, status=MemoryStatus.ACTIVE).exists()


@pytest.mark.parametrize(
    ("policy", "lang", "text"),
    [
        ({}, "en", "Your new messages are not stored either"),
        ({"events_after_consent_withdrawn": "keep_short"}, "en", "kept for a few days"),
        ({}, "zh-hans", "你的新消息也不会被保存"),
        ({"events_after_consent_withdrawn": "keep_short"}, "zh-hans", "保留几天"),
    ],
)
def test_settings_page_states_the_policy(client, owner, tenant, policy, lang, text):
    tenant.policy = policy
    tenant.save()
    user, subject = owner
    client.force_login(user)
    page = client.get(reverse("memory-settings"), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert text in page
    user_memory.subject_consent_withdraw(user=user, subject=subject, erase_everything=False)
    page = client.get(reverse("memory-settings"), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert 'id="consent-events-policy"' in page and text in page


def test_api_erasure_needs_an_admin_key(api, owner):
    response = api.post_json("/api/v1/subject/erase", {"confirm": True})
    assert response.status_code == 403
    assert SourceEvent.objects.filter(subject=owner[1]).count() == 0  # nothing was touched
