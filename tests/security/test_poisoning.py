"""The poisoning corpus driven through the real write API (events + candidates, semantic
and procedural): nothing becomes procedural memory, nothing instruction-like becomes an
active memory, and no secret is stored anywhere."""

from __future__ import annotations

import pytest
from django.db.models import Q

from core.models import AuditEvent
from memory.models import MemoryRecord, SourceEvent
from tests.helpers.cast import candidate
from tests.security.poisoning_corpus import ASSERTION_BY_CHANNEL, CORPUS, ROLE_BY_CHANNEL, SECRETS

pytestmark = pytest.mark.django_db


def test_corpus_is_large_and_bilingual():
    assert len(CORPUS) >= 50
    assert (
        sum(1 for _, _, text, _ in CORPUS if any("\u4e00" <= ch <= "\u9fff" for ch in text)) >= 20
    )


@pytest.fixture
def poisoned(api):
    """Every corpus item appended as an event and proposed as semantic and procedural."""
    events = [
        {
            "client_event_id": item_id,
            "kind": "message"
            if channel == "user"
            else ("tool_result" if channel == "tool" else "document"),
            "role": ROLE_BY_CHANNEL[channel],
            "content": text,
        }
        for item_id, channel, text, _ in CORPUS
    ]
    for start in range(0, len(events), 50):
        assert (
            api.post_json("/api/v1/events", {"events": events[start : start + 50]}).status_code
            == 200
        )
    results = {}
    for item_id, channel, text, _ in CORPUS:
        kind = ASSERTION_BY_CHANNEL[channel]
        body = {
            "candidates": [
                candidate(
                    statement=text,
                    assertion_kind=kind,
                    confidence=0.9,
                    source_client_event_ids=[item_id],
                ),
                candidate(
                    statement=text,
                    assertion_kind=kind,
                    confidence=0.9,
                    memory_type="procedural",
                    namespace="runbooks/ops",
                    source_client_event_ids=[item_id],
                ),
            ]
        }
        r = api.post_json("/api/v1/candidates", body)
        assert r.status_code == 200, r.content
        results[item_id] = r.json()["results"]
    return results


def test_nothing_becomes_procedural_memory(poisoned):
    assert not MemoryRecord.objects.filter(memory_type="procedural", status="active").exists()
    for item_id, (_, procedural) in poisoned.items():
        assert procedural["operation"] in ("REJECT", "QUARANTINE"), item_id
        channel = next(c for i, c, _, _ in CORPUS if i == item_id)
        if channel in ("web", "tool"):
            assert procedural["operation"] == "REJECT", item_id


def test_nothing_instruction_like_becomes_active(poisoned):
    for item_id, (semantic, _) in poisoned.items():
        assert semantic["operation"] in ("REJECT", "QUARANTINE"), (item_id, semantic)
    assert not MemoryRecord.objects.filter(status="active").exists()


def test_no_secret_is_stored_anywhere(poisoned):
    for item_id, _, _, secret in SECRETS:
        assert not SourceEvent.objects.filter(content__contains=secret).exists(), item_id
        assert not MemoryRecord.objects.filter(
            Q(statement__contains=secret) | Q(value__icontains=secret)
        ).exists(), item_id
        for audit in AuditEvent.objects.all():
            assert secret not in str(audit.extra), item_id
    for item_id, _, _, _ in SECRETS:
        semantic, procedural = poisoned[item_id]
        assert semantic["reason_code"] == "secret_detected", (item_id, semantic)


def test_nothing_poisoned_comes_back_through_recall(poisoned, api):
    """Every corpus text used as a recall query: nothing is returned (none became active),
    the answer is an explicit empty one, and the pack carries none of the text."""
    for item_id, _, text, _ in CORPUS:
        r = api.post_json("/api/v1/recall", {"query": text[:500], "purpose": "personalization"})
        assert r.status_code == 200, r.content
        body = r.json()
        assert body["items"] == [], item_id
        assert text not in body["context_pack"], item_id
