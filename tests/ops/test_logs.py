"""Structured JSON logs: one object per line with request, tenant and agent ids, and never
memory text, a query or a secret (recall and write paths, exceptions, extra fields)."""

from __future__ import annotations

import io
import json
import logging
import re

import pytest
from django.conf import settings

from core.observability.logs import logging_config
from tests.helpers.cast import candidate
from tests.helpers.retrieval import PURPOSE

pytestmark = pytest.mark.django_db


@pytest.fixture
def log_lines():
    """Every log line of the test, rendered by the production formatter."""
    stream = io.StringIO()
    conf = dict(logging_config()["formatters"]["structured"])
    handler = logging.StreamHandler(stream)
    handler.setFormatter(conf.pop("()")(**conf))
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)

    def lines() -> list[dict]:
        return [json.loads(line) for line in stream.getvalue().splitlines() if line.strip()]

    yield lines
    root.removeHandler(handler)
    root.setLevel(old_level)


def test_settings_use_the_structured_json_formatter():
    formatter = settings.LOGGING["handlers"]["console"]["formatter"]
    assert formatter == "structured"


def test_request_lines_carry_request_tenant_and_agent_ids(log_lines, read_agent, owner_subject):
    client = read_agent.client(owner_subject)
    r = client.post_json(
        "/api/v1/recall",
        {"query": "tea", "purpose": PURPOSE},
        HTTP_X_REQUEST_ID="req-abc-123",
    )
    assert r.status_code == 200
    assert r["X-Request-ID"] == "req-abc-123"
    [line] = [x for x in log_lines() if x["event"] == "request"]
    assert line["request_id"] == "req-abc-123"
    assert line["agent_id"] == str(read_agent.agent.id)
    assert line["tenant_id"] == str(owner_subject.tenant_id)
    assert line["route"] == "api-recall" and line["status"] == 200
    assert line["level"] == "info" and "timestamp" in line


def test_a_malformed_request_id_is_replaced(log_lines, read_agent, owner_subject):
    client = read_agent.client(owner_subject)
    r = client.post_json(
        "/api/v1/recall", {"query": "tea", "purpose": PURPOSE}, HTTP_X_REQUEST_ID="a b <script>"
    )
    assert re.fullmatch(r"[0-9a-f]{32}", r["X-Request-ID"])


SECRET = "hunter2-Zq8vK3mP"
TEXTS = [
    "User keeps a bonsai juniper named Kuro on the balcony",
    "用户在阳台上养了一棵名叫小黑的杜松盆景",
    f"my password is {SECRET}",
]
QUERIES = ["what plant does the user keep on the balcony?", "用户阳台上养了什么植物？"]


def _leaks(lines: list[dict]) -> list[str]:
    blob = json.dumps(lines, ensure_ascii=False).lower()
    words = {w.lower() for t in TEXTS + QUERIES for w in re.findall(r"\w{5,}", t)}
    words |= {"bonsai", "juniper", "kuro", "杜松", "盆景", "阳台", SECRET.lower()}
    return sorted(w for w in words if w in blob)


def test_write_and_recall_logs_hold_no_text_queries_or_secrets(
    log_lines, api, read_agent, owner_subject
):
    r = api.post_json("/api/v1/candidates", {"candidates": [candidate(statement=t) for t in TEXTS]})
    assert r.status_code == 200
    reader = read_agent.client(owner_subject)
    for q in QUERIES:
        assert (
            reader.post_json("/api/v1/recall", {"query": q, "purpose": PURPOSE}).status_code == 200
        )
    # Failing requests log too (validation errors echo nothing of the body).
    reader.post_json("/api/v1/recall", {"query": QUERIES[0], "purpose": PURPOSE, "k": "many"})
    lines = log_lines()
    assert len([x for x in lines if x["event"] == "request"]) >= 4
    assert _leaks(lines) == []


def test_text_fields_api_keys_and_exception_messages_are_redacted(log_lines):
    log = logging.getLogger("memory.services.writes")
    log.info(
        "recall for %s",
        "subject-1",
        extra={"query": QUERIES[0], "statement": TEXTS[0], "record_id": "r-1"},
    )
    log.warning("auth failed for egk_0a1b2c3d4e5f_%s and Bearer %s", SECRET, SECRET)
    try:
        raise ValueError(f'duplicate key (statement)=({TEXTS[1]}) DETAIL: "{TEXTS[0]}"')
    except ValueError:
        log.exception("candidate %s for subject %s failed", 0, "subject-1")
    lines = log_lines()
    assert _leaks(lines) == []
    first, second, third = lines[-3:]
    assert first["query"] == "[redacted]" and first["record_id"] == "r-1"
    assert "egk_0a1b2c3d4e5f_[redacted]" in second["event"]
    assert third["exception_class"] == "ValueError" and third["stack"]
