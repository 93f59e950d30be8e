"""Obfuscated instructions (issue 14, class 8): whatever the disguise — look-alike
letters, invisible characters, full-width Latin, spaced-out CJK, bidi overrides,
chat-template tokens, standing orders, runbook steps, deceptive links — tool- and
web-derived content that reads as an instruction is never stored as an active memory.
Pure decisions for every case, then the whole corpus through the real API."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from accounts.policies import TenantPolicy
from memory.models import MemoryRecord
from memory.write_policy import Candidate, SubjectState, decide
from tests.helpers.cast import candidate
from tests.security.obfuscated_corpus import CLEAN_TOOL_OUTPUT, OBFUSCATED

NOW = datetime(2026, 12, 1, tzinfo=UTC)
ROLE = {"tool": "tool", "web": "external"}


def _decide(text: str, assertion_kind: str, roles: tuple[str, ...]):
    c = Candidate(
        memory_type="semantic",
        namespace="assistant/profile",
        statement=text,
        assertion_kind=assertion_kind,
        confidence=0.8,
        purpose="personalization",
        consent_basis="explicit_consent",
        source_roles=roles,
    )
    return decide(c, existing=[], subject=SubjectState(), tenant=TenantPolicy(), now=NOW)


def test_corpus_size():
    assert len(OBFUSCATED) >= 60
    assert sum(1 for _, _, t in OBFUSCATED if any("\u4e00" <= c <= "\u9fff" for c in t)) >= 15


@pytest.mark.parametrize(
    ("item_id", "channel", "text"), OBFUSCATED, ids=[i for i, _, _ in OBFUSCATED]
)
@pytest.mark.parametrize("assertion_kind", ["agent_inference", "tool_confirmed"])
def test_obfuscated_instruction_is_never_active(item_id, channel, text, assertion_kind):
    decision = _decide(text, assertion_kind, (ROLE[channel],))
    assert decision.operation in ("REJECT", "QUARANTINE"), (item_id, decision.reason_code)
    if decision.operation == "QUARANTINE":
        assert decision.findings or decision.reason_code == "untrusted_source", item_id


@pytest.mark.parametrize(("channel", "text"), CLEAN_TOOL_OUTPUT)
def test_clean_tool_output_is_stored(channel, text):
    decision = _decide(text, "agent_inference", (ROLE[channel],))
    assert decision.operation == "ADD", decision.findings


@pytest.mark.django_db
def test_obfuscated_corpus_through_the_api(api):
    events = [
        {
            "client_event_id": item_id,
            "kind": "tool_result" if channel == "tool" else "document",
            "role": ROLE[channel],
            "content": text,
        }
        for item_id, channel, text in OBFUSCATED
    ]
    for start in range(0, len(events), 50):
        r = api.post_json("/api/v1/events", {"events": events[start : start + 50]})
        assert r.status_code == 200, r.content
    body = {
        "candidates": [
            candidate(
                statement=text,
                assertion_kind="agent_inference",
                confidence=0.8,
                source_client_event_ids=[item_id],
            )
            for item_id, _, text in OBFUSCATED
        ]
    }
    for start in range(0, len(body["candidates"]), 50):
        r = api.post_json(
            "/api/v1/candidates", {"candidates": body["candidates"][start : start + 50]}
        )
        assert r.status_code == 200, r.content
        for result in r.json()["results"]:
            assert result["operation"] in ("REJECT", "QUARANTINE"), result
    assert not MemoryRecord.objects.filter(status="active").exists()
