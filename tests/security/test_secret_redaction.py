"""Secrets never stored (issue 14, class 1): through the real events and candidates API,
a credential in a raw event — its content, its URI or its metadata — is redacted before
the row is written, the candidate citing it is refused, and neither the export, the
audit log nor any memory row holds it afterwards."""

from __future__ import annotations

import json

import pytest

from core.models import AuditEvent
from memory.models import MemoryRecord, SourceEvent
from memory.services.user_memory import subject_export, subject_export_csv
from tests.helpers.cast import candidate
from tests.security.detector_corpus import SECRET_NEGATIVE, SECRET_POSITIVE

pytestmark = pytest.mark.django_db


def _append(api, events):
    for start in range(0, len(events), 50):
        r = api.post_json("/api/v1/events", {"events": events[start : start + 50]})
        assert r.status_code == 200, r.content


def test_secrets_in_events_are_redacted_before_storage_and_refused_as_memories(api, owner):
    user, subject = owner
    events = [
        {"client_event_id": f"s{i}", "kind": "message", "role": "user", "content": text}
        for i, (text, _) in enumerate(SECRET_POSITIVE)
    ]
    _append(api, events)
    for i, (text, secret) in enumerate(SECRET_POSITIVE):
        stored = SourceEvent.objects.get(subject=subject, client_event_id=f"s{i}").content
        assert secret not in stored, (text, stored)
        assert "[REDACTED]" in stored
    body = {
        "candidates": [
            candidate(statement=text, source_client_event_ids=[f"s{i}"])
            for i, (text, _) in enumerate(SECRET_POSITIVE)
        ]
    }
    r = api.post_json("/api/v1/candidates", body)
    assert r.status_code == 200, r.content
    assert [
        x["reason_code"] for x in r.json()["results"] if x["reason_code"] != "secret_detected"
    ] == []
    assert not MemoryRecord.objects.filter(subject=subject).exists()

    export = json.dumps(subject_export(user=user, subject=subject), ensure_ascii=False)
    csv_text = subject_export_csv(user=user, subject=subject)
    audits = json.dumps(
        [a.extra for a in AuditEvent.objects.filter(subject_id=subject.pk)], ensure_ascii=False
    )
    # (short codes like a 3-digit CVV could occur inside ids and timestamps by chance; they
    # were checked on the event rows above)
    for secret in (s for _, s in SECRET_POSITIVE if len(s) >= 6):
        assert secret not in export
        assert secret not in csv_text
        assert secret not in audits


def test_uri_and_metadata_are_redacted_too(api, owner_subject):
    _append(
        api,
        [
            {
                "client_event_id": "m1",
                "kind": "tool_result",
                "role": "tool",
                "content": "connected",
                "uri": "postgresql://svc:Wq9!x@db.internal/app",
                "metadata": {"wifi_password": "k7Lm9pQ2", "notes": ["验证码 448812"]},
            }
        ],
    )
    event = SourceEvent.objects.get(subject=owner_subject, client_event_id="m1")
    stored = json.dumps({"uri": event.uri, "metadata": event.metadata}, ensure_ascii=False)
    for secret in ("Wq9!x", "k7Lm9pQ2", "448812"):
        assert secret not in stored


def test_ordinary_events_are_stored_verbatim(api, owner_subject):
    events = [
        {"client_event_id": f"n{i}", "kind": "message", "role": "user", "content": text}
        for i, text in enumerate(SECRET_NEGATIVE)
    ]
    _append(api, events)
    for i, text in enumerate(SECRET_NEGATIVE):
        assert (
            SourceEvent.objects.get(subject=owner_subject, client_event_id=f"n{i}").content == text
        )
