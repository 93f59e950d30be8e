"""While the question is still being embedded, recall checks the statements the word
routes found for instruction-like text (``pack.judge_ahead``): the verdict the answer
needs is ready when it is packed, and nothing else changes."""

from __future__ import annotations

import time
from types import SimpleNamespace

from memory.recall import pack
from memory.recall import query as recall_query
from tests.helpers.retrieval import ids, recall, remember


def test_found_statements_are_checked_while_the_question_is_embedded(
    read_agent, owner_subject, monkeypatch
):
    fact = remember(owner_subject, "User prefers aisle seats on long flights")
    events: list = []
    real_embed = recall_query.embed_question

    def slow(query, model_id):
        time.sleep(0.3)  # long enough for the word routes to finish first
        events.append("embedded")
        return real_embed(query, model_id)

    real_find = pack.find_injection
    monkeypatch.setattr(recall_query, "embed_question", slow)
    pack._VERDICTS.clear()
    monkeypatch.setattr(pack, "find_injection", lambda text: events.append(text) or real_find(text))
    result = recall(read_agent.agent, owner_subject, "Which seats does the user prefer on flights?")
    assert ids(result)[0] == fact.record_id
    assert events.index(_statement(fact)) < events.index("embedded")
    assert events.count(_statement(fact)) == 1  # checked ahead, not again when packed
    # The verdict is the check's own.
    for item in result.items:
        assert ("instruction_like_text" in item.flags) == bool(real_find(item.statement))


def _statement(outcome) -> str:
    from memory.models import MemoryRecord

    return MemoryRecord.objects.get(pk=outcome.record_id).statement


def test_judging_ahead_stops_when_the_embedding_is_done(monkeypatch):
    checked: list[str] = []
    pack._VERDICTS.clear()
    monkeypatch.setattr(pack, "find_injection", lambda text: checked.append(text) or [])
    records = [SimpleNamespace(statement=f"User note {i}") for i in range(5)]
    pack.judge_ahead(records, until=lambda: len(checked) >= 2)
    assert checked == ["User note 0", "User note 1"]
    pack.judge_ahead(records, until=lambda: True)
    assert len(checked) == 2
