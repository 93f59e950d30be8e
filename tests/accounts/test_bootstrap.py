"""The demo seed (governance's engram_bootstrap command): a living page for a newcomer, written
through the real write path."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client

from memory.models import MemoryRecord, MemorySource, Subject

pytestmark = pytest.mark.django_db


def test_bootstrap_seeds_demo_memories_once():
    call_command("engram_bootstrap", "--no-migrate", stdout=open("/dev/null", "w"))
    subject = Subject.objects.get(external_id="demo-user")
    records = MemoryRecord.objects.filter(subject=subject)
    active = records.filter(status="active")
    assert active.count() >= 12
    # Every seeded memory came from an event.
    assert (
        not records.exclude(id__in=MemorySource.objects.values_list("record_id", flat=True))
        .filter(created_by_user__isnull=True)
        .exists()
    )
    # The move to Hangzhou superseded Shanghai; the user corrected a wrong inference.
    assert records.filter(predicate="home_city", status="superseded").exists()
    corrected = records.get(predicate="main_language", status="active")
    assert corrected.created_by_user_id == subject.user_id and corrected.supersedes_id
    assert {"semantic", "episodic"} <= set(active.values_list("memory_type", flat=True))
    assert set(active.values_list("assertion_kind", flat=True)) >= {
        "user_explicit",
        "agent_inference",
        "tool_confirmed",
    }
    before = records.count()
    call_command("engram_bootstrap", "--no-migrate", stdout=open("/dev/null", "w"))
    assert MemoryRecord.objects.filter(subject=subject).count() == before

    client = Client()
    assert client.login(username="demo", password="engram-demo")
    body = client.get("/", {"q": "杭州"}).content.decode()
    assert "Lives in Hangzhou" in body and "PyCon" in body


def test_the_demo_key_is_kept_across_runs_until_asked_for_a_new_one(tmp_path):
    from accounts.models import ApiKey
    from accounts.services.credentials import api_key_authenticate

    key_file = tmp_path / "demo-agent-key"
    run = ["engram_bootstrap", "--no-migrate", "--key-file", str(key_file)]
    call_command(*run, stdout=open("/dev/null", "w"))
    first = key_file.read_text().strip()
    assert key_file.stat().st_mode & 0o777 == 0o600
    call_command(*run, stdout=open("/dev/null", "w"))
    assert key_file.read_text().strip() == first
    assert api_key_authenticate(first).label == "bootstrap"  # still valid

    call_command(*run, "--new-key", stdout=open("/dev/null", "w"))
    second = key_file.read_text().strip()
    assert second != first and api_key_authenticate(second)
    assert ApiKey.objects.get(prefix=first.split("_")[1]).revoked_at is not None

    key_file.write_text("egk_nosuch_key\n")  # a stale or foreign file: a new key, kept
    call_command(*run, stdout=open("/dev/null", "w"))
    third = key_file.read_text().strip()
    assert third not in (second, "egk_nosuch_key") and api_key_authenticate(third)
