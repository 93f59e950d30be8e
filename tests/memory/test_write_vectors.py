"""One embedding per candidate (memory/services/write_vectors.py): the learned heads read
the memory's passage embedding, computed for a request's candidates in one call, and a
stored memory keeps that vector in the index, so the indexer does not embed it again.

The sentences are chosen by the heads themselves (those whose n-gram head is unsure, so
an embedding head is read), from our own Chinese conversation, not picked by hand: a
retrain changes which ones, not what is tested."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pgtrigger
import pytest
from django.test import override_settings

from core.actor import Actor
from core.codes import Operation
from memory.detectors import learned
from memory.models import MemoryEmbedding, MemoryRecord, MemoryStatus, SourceEvent, Subject
from memory.services import write_vectors
from memory.services.events import EventInput, events_append
from memory.services.indexing import index_pending_records
from memory.services.subjects import subject_get_or_create
from memory.services.writes import candidates_submit
from memory.write_policy import Candidate, Intent, SubjectState
from memory.write_policy.policy import learned_words
from tests.helpers.retrieval import PURPOSE
from tests.security.ordinary_zh import ORDINARY_ZH

pytestmark = pytest.mark.django_db

AT = datetime(2026, 3, 2, 9, tzinfo=UTC)
QUESTION = "你最近怎么样？有什么新鲜事吗？"


def _candidate(statement: str, event_id=None, **kw) -> Candidate:
    fields = dict(
        memory_type="semantic",
        namespace="assistant/profile",
        statement=statement,
        assertion_kind="user_explicit",
        confidence=1.0,
        purpose=PURPOSE,
        consent_basis="explicit_consent",
        source_event_ids=(event_id,) if event_id else (),
    )
    fields.update(kw)
    return Candidate(**fields)


def _needing() -> list[str]:
    """Ordinary sentences whose embedding heads are read."""
    found = [t for t in ORDINARY_ZH if learned.needs_embedding(learned_words(_candidate(t)))]
    assert len(found) >= 3, "the heads read an embedding for too few ordinary sentences"
    return found


def _subject(tenant, name: str) -> tuple[Actor, Subject]:
    subject = subject_get_or_create(tenant_id=tenant.id, kind="user", external_id=name)
    return Actor.system(tenant.id, "test"), subject


def _events(actor, agent, subject, texts: list[str], thread: str = "t1") -> list:
    out = events_append(
        actor=actor,
        agent_id=agent.id,
        subject=subject,
        items=[
            EventInput(
                client_event_id=f"{thread}:{i}",
                kind="message",
                role="user",
                content=text,
                speaker="Dana" if i % 2 else "Assistant",
                thread_id=thread,
                occurred_at=AT + timedelta(minutes=i),
            )
            for i, text in enumerate(texts)
        ],
    )
    return [o.event_id for o in out]


def _vector(record_id) -> np.ndarray:
    row = MemoryEmbedding.objects.get(record_id=record_id, model_id=learned.EMBEDDING_MODEL_ID)
    return np.asarray(row.vector, dtype=np.float32)


def _stored_after_a_question(actor, agent, subject, sentences):
    """Each sentence in its own request, after an assistant's question in its thread;
    returns [(record id, question event id)] of those stored as active memories."""
    stored = []
    for n, text in enumerate(sentences):
        question, said = _events(actor, agent, subject, [QUESTION, text], thread=f"t{n}")
        [outcome] = candidates_submit(
            actor=actor, subject=subject, candidates=[_candidate(text, said)]
        )
        if outcome.operation == Operation.ADD and (
            MemoryRecord.objects.get(id=outcome.record_id).status == MemoryStatus.ACTIVE
        ):
            stored.append((outcome.record_id, question))
    assert stored, "no sentence read by an embedding head was stored"
    return stored


def test_a_stored_candidate_keeps_the_vector_its_heads_read(tenant, write_agent):
    actor, subject = _subject(tenant, "reuse")
    stored = _stored_after_a_question(actor, write_agent.agent, subject, _needing()[:4])
    for record_id, question in stored:
        # Right after the write, in its transaction: the index's row, with its context turn.
        row = MemoryEmbedding.objects.get(record_id=record_id)
        assert row.model_id == learned.EMBEDDING_MODEL_ID
        assert row.context_event_id == question
        assert MemoryRecord.objects.get(id=record_id).embedding_model == row.model_id
        mine = _vector(record_id)
        # The indexer does not embed it again ...
        assert index_pending_records([record_id]) == 0
        # ... and would have computed the same vector.
        row.delete()
        assert index_pending_records([record_id]) == 1
        assert np.allclose(_vector(record_id), mine, atol=1e-4)


def test_a_candidate_whose_heads_need_no_embedding_is_left_to_the_indexer(tenant, write_agent):
    actor, subject = _subject(tenant, "plain")
    text = next(t for t in ORDINARY_ZH if not learned.needs_embedding(learned_words(_candidate(t))))
    [said] = _events(actor, write_agent.agent, subject, [text])
    [outcome] = candidates_submit(actor=actor, subject=subject, candidates=[_candidate(text, said)])
    assert outcome.operation == Operation.ADD
    assert not MemoryEmbedding.objects.filter(record_id=outcome.record_id).exists()
    assert index_pending_records([outcome.record_id]) == 1


def test_one_embedding_call_per_request(tenant, write_agent, monkeypatch):
    actor, subject = _subject(tenant, "one-call")
    sentences = _needing()[:3]
    events = _events(actor, write_agent.agent, subject, sentences)
    calls: list[int] = []
    real = learned.embed
    monkeypatch.setattr(learned, "embed", lambda texts: calls.append(len(texts)) or real(texts))
    candidates_submit(
        actor=actor,
        subject=subject,
        candidates=[_candidate(t, e) for t, e in zip(sentences, events, strict=True)],
    )
    assert calls == [3]


def _passages(subject, candidates) -> dict:
    return write_vectors.prepare(
        subject=subject,
        candidates=candidates,
        state=SubjectState(),
        enabled=True,
        text_problem=lambda c: None,
    ).passages


def test_a_secret_bearing_context_is_never_embedded(tenant, write_agent):
    actor, subject = _subject(tenant, "secret")
    text = _needing()[0]
    before, said = _events(actor, write_agent.agent, subject, [QUESTION, text])
    # A secret the events' redaction missed (written straight to the row).
    secret = "my wifi password is Qv7!plumtree88"
    with pgtrigger.ignore("memory.SourceEvent:source_event_append_only"):
        SourceEvent.objects.filter(id=before).update(content=secret)
    [(passage, _)] = _passages(subject, [_candidate(text, said)]).values()
    assert "plumtree" not in passage and passage.startswith(text)
    [outcome] = candidates_submit(actor=actor, subject=subject, candidates=[_candidate(text, said)])
    # Ordinary sentences are stored (the thresholds keep every ordinary turn below hold).
    assert outcome.operation == Operation.ADD
    assert MemoryEmbedding.objects.get(record_id=outcome.record_id).context_event_id is None


def test_refused_or_paused_candidates_store_nothing_and_paused_ones_embed_nothing(
    tenant, write_agent, monkeypatch
):
    actor, subject = _subject(tenant, "refused")
    text = _needing()[0]
    [said] = _events(actor, write_agent.agent, subject, [text])
    [refused] = candidates_submit(
        actor=actor, subject=subject, candidates=[_candidate(text, said, consent_basis="")]
    )
    assert refused.operation == Operation.REJECT and refused.record_id is None
    assert not MemoryEmbedding.objects.filter(subject=subject).exists()
    Subject.objects.filter(id=subject.id).update(memory_paused=True)
    calls: list[int] = []
    monkeypatch.setattr(learned, "embed", lambda texts: calls.append(len(texts)))
    [paused] = candidates_submit(actor=actor, subject=subject, candidates=[_candidate(text, said)])
    assert paused.operation == Operation.REJECT and calls == []
    assert not MemoryEmbedding.objects.filter(subject=subject).exists()


def test_a_context_changed_by_the_same_request_is_not_reused(tenant, write_agent):
    """The first candidate is held (sensitive): its turn is no longer context for the
    second, whose passage was embedded with it; the indexer embeds the second itself."""
    actor, subject = _subject(tenant, "changed")
    text = _needing()[0]
    held_text = "User was diagnosed with type 1 diabetes"
    first, second = _events(actor, write_agent.agent, subject, [held_text, text])
    [(passage, _)] = _passages(subject, [_candidate(text, second)]).values()
    assert held_text in passage
    held, outcome = candidates_submit(
        actor=actor,
        subject=subject,
        candidates=[_candidate(held_text, first), _candidate(text, second)],
    )
    assert held.operation == Operation.QUARANTINE
    assert outcome.operation == Operation.ADD
    assert not MemoryEmbedding.objects.filter(record_id=outcome.record_id).exists()
    assert index_pending_records([outcome.record_id]) == 1
    assert MemoryEmbedding.objects.get(record_id=outcome.record_id).context_event_id is None


def test_an_erased_memory_loses_the_vector(tenant, write_agent):
    actor, subject = _subject(tenant, "erased")
    [(record_id, _)] = _stored_after_a_question(actor, write_agent.agent, subject, _needing())[:1]
    assert MemoryEmbedding.objects.filter(record_id=record_id).exists()
    [forget] = candidates_submit(
        actor=actor,
        subject=subject,
        candidates=[
            _candidate(
                MemoryRecord.objects.get(id=record_id).statement,
                intent=Intent.FORGET,
                target_record_id=record_id,
            )
        ],
    )
    assert forget.operation == Operation.DELETE
    assert not MemoryEmbedding.objects.filter(record_id=record_id).exists()


def _write(tenant, agent, name: str, sentences: list[str]):
    """The sentences in one request, each after a question in a thread of its own."""
    actor, subject = _subject(tenant, name)
    said = [
        _events(actor, agent, subject, [QUESTION, t], thread=f"t{i}")[1]
        for i, t in enumerate(sentences)
    ]
    outcomes = candidates_submit(
        actor=actor,
        subject=subject,
        candidates=[_candidate(t, e) for t, e in zip(sentences, said, strict=True)],
    )
    vectors = {
        MemoryRecord.objects.get(id=o.record_id).statement: _vector(o.record_id)
        for o in outcomes
        if o.record_id and MemoryEmbedding.objects.filter(record_id=o.record_id).exists()
    }
    return [(o.operation, o.reason_code, o.findings) for o in outcomes], vectors


def test_the_batched_path_decides_and_stores_as_the_reference_path(tenant, write_agent):
    sentences = _needing()[:5] + ["User prefers window seats on long flights"]
    with override_settings(ENGRAM_WRITE_BATCH={"LOOKUPS": True, "MIN_CANDIDATES": 1}):
        batched, batched_vectors = _write(tenant, write_agent.agent, "batched", sentences)
    with override_settings(ENGRAM_WRITE_BATCH={"LOOKUPS": False, "MIN_CANDIDATES": 1}):
        reference, reference_vectors = _write(tenant, write_agent.agent, "reference", sentences)
    assert batched == reference
    assert batched_vectors.keys() == reference_vectors.keys() and batched_vectors
    for statement, vector in batched_vectors.items():
        assert np.allclose(vector, reference_vectors[statement], atol=1e-5)
    # One candidate per request decides each alike (its vector computed alone).
    alone = []
    for n, text in enumerate(sentences):
        decided, _ = _write(tenant, write_agent.agent, f"alone-{n}", [text])
        alone.extend(decided)
    assert [d[:2] for d in alone] == [d[:2] for d in reference]


def test_the_policy_alone_reads_the_bare_passage():
    """``decide`` without a vector embeds the bare passage itself: the same decision as
    with the vector the write path computes for a candidate without context."""
    from accounts.policies import TenantPolicy
    from memory.neighbourhood import passage_text
    from memory.write_policy import decide

    now = datetime(2026, 12, 1, tzinfo=UTC)
    for text in _needing()[:4]:
        c = _candidate(text)
        vector = learned.embed([passage_text(c.statement, c.value)])[0]
        kw = dict(existing=[], subject=SubjectState(), tenant=TenantPolicy(), now=now)
        alone, given = decide(c, **kw), decide(c, embedding=vector, **kw)
        assert (alone.operation, alone.reason_code) == (given.operation, given.reason_code)


def test_a_failure_to_store_the_vector_never_fails_the_write(tenant, write_agent, monkeypatch):
    # The database refuses the vector (a real failing statement in the write's transaction):
    # the memory and its audit row are still written, and the indexer embeds it later.
    from django.db import connection

    def refused(*args, **kwargs):
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1 / 0")

    monkeypatch.setattr(write_vectors.indexing, "_store_vectors", refused)
    actor, subject = _subject(tenant, "refused-vector")
    stored = _stored_after_a_question(actor, write_agent.agent, subject, _needing()[:2])
    for record_id, _ in stored:
        assert not MemoryEmbedding.objects.filter(record_id=record_id).exists()
        monkeypatch.undo()
        assert index_pending_records([record_id]) == 1
