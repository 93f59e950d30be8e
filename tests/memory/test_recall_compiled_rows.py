"""Recall's records, trace and audit row with ``ENGRAM_RECALL_COMPILED_QUERIES`` (SQL
compiled or written once, rows built as the ORM builds them) are the ORM's: the records
the routes load, field by field with their annotations, the whole answer of
``POST /api/v1/recall``, and the trace and audit rows it writes (also by a prepared
statement, ``ENGRAM_RECALL_PREPARED_TRACE``). The sibling of
test_recall_accel_equivalence.py, which compares the ranked ids."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from core.models import AuditEvent
from memory.embedders import configured_model_id
from memory.models import MemoryRecord, RecallTrace
from memory.recall.signals import load_records
from tests.helpers.conversation import converse
from tests.helpers.retrieval import PURPOSE, remember

pytestmark = pytest.mark.django_db


def compiled(settings, on: bool, prepared_trace: bool = True) -> None:
    settings.ENGRAM_RETRIEVAL = {
        **settings.ENGRAM_RETRIEVAL,
        "COMPILED_QUERIES": on,
        "PREPARED_STATEMENTS": True,
        "PREPARED_TRACE": prepared_trace,
        "FREEZE_ACCESS": True,  # no answer may change the next
    }


def loaded(ids, **kw) -> dict:
    out = {}
    for rid, record in load_records(ids, **kw).items():
        values = {f.attname: getattr(record, f.attname) for f in MemoryRecord._meta.concrete_fields}
        for name in ("source_event_ids", "has_vector", "source_speakers"):
            values[name] = getattr(record, name, "absent")
        out[rid] = (values, record._state.adding, record._state.db)
    return out


def test_loaded_records_are_the_orms(write_agent, owner_subject, settings):
    remember(
        owner_subject, "User prefers aisle seats", predicate="seat", value={"side": "ü", "n": 2}
    )
    remember(
        owner_subject,
        "User lived in Porto",
        valid_from=datetime(2020, 1, 1, tzinfo=UTC),
        valid_to=datetime(2022, 6, 1, 12, 30, tzinfo=UTC),
    )
    remember(owner_subject, "User keeps a kayak in the garage", embed=False)
    converse(write_agent.agent, owner_subject, [("Caroline", "I adopted a puppy last week")])
    ids = list(MemoryRecord.objects.filter(subject=owner_subject).values_list("id", flat=True))
    assert len(ids) >= 4
    seen = []
    for kw in (
        {"with_speakers": False},
        {"with_speakers": False, "model_id": "no-such-model"},
        {"with_speakers": True},
        {"with_speakers": True, "model_id": configured_model_id()},
    ):
        compiled(settings, False)
        reference = loaded(ids, **kw)
        compiled(settings, True)
        assert loaded(ids, **kw) == reference, kw
        assert loaded(ids[:1], **kw) == {ids[0]: reference[ids[0]]}
        seen += [values for values, _, _ in reference.values()]
    assert any(v["value"] == {"side": "ü", "n": 2} for v in seen)
    assert any(v["source_speakers"] == ["Caroline"] for v in seen)
    assert {v["has_vector"] for v in seen} == {"absent", True, False}


def test_an_api_recall_answers_and_records_as_the_orm(read_agent, owner_subject, settings):
    remember(owner_subject, "User prefers aisle seats", predicate="seat", value={"side": "aisle"})
    remember(owner_subject, "User lives in Ghent", predicate="home_city")
    remember(owner_subject, "用户每天早上跑步五公里")
    client = read_agent.client(owner_subject)

    def answer(query: str) -> tuple[dict, dict, dict]:
        response = client.post_json("/api/v1/recall", {"query": query, "purpose": PURPOSE})
        assert response.status_code == 200, response.content
        body = response.json()
        trace_id = body.pop("trace_id")
        # The request's own time: the only part of an answer that differs between two asks.
        body.pop("as_of")
        body["context_pack"] = re.sub(r'as_of="[^"]*"', "", body["context_pack"])
        trace = RecallTrace.objects.get(pk=trace_id)
        audit = AuditEvent.objects.get(extra__trace_id=trace_id)
        assert audit.occurred_at == trace.created_at
        skip = {"id", "created_at", "occurred_at", "latency_ms", "request_id"}
        rows = [
            {f.attname: getattr(row, f.attname) for f in type(row)._meta.concrete_fields}
            for row in (trace, audit)
        ]
        rows[1]["extra"] = {k: v for k, v in audit.extra.items() if k != "trace_id"}
        return body, *({k: v for k, v in row.items() if k not in skip} for row in rows)

    for query in ("aisle seat preference", "where does the user live", "用户跑步吗", "volcanoes"):
        compiled(settings, False)
        reference = answer(query)
        # The trace's insert through Django's cursor and prepared (ENGRAM_RECALL_PREPARED_TRACE),
        # twice: its first run prepares it, the second runs it by name.
        for prepared_trace in (False, True, True):
            compiled(settings, True, prepared_trace)
            assert answer(query) == reference, (query, prepared_trace)
    assert reference[1]["record_ids"] == [] and reference[2]["operation"] == "RECALL"
