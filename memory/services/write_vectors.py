"""One embedding per candidate, for the learned detectors and the index alike.

The learned detectors' embedding heads (memory/detectors/learned) read a candidate's
*passage embedding*: the vector the index stores for the memory it becomes (its context
turn, its statement, its value's words: ``memory.neighbourhood.passage_text``; the model
``learned.EMBEDDING_MODEL_ID``, the index's default). Only candidates whose n-gram head is
unsure need one (about 1-2 % of ordinary turns). For a write request:

1. ``prepare``, before the decisions: the candidates that need it are found by the n-gram
   heads, each one's passage is built as the index would build it if the memory were
   stored now (the context turn by ``neighbourhood.preceding_turn_of_events``, dropped
   when it holds a secret, as ``indexing.embeddable_context``), and all of them are
   embedded in **one** call. The policy reads each candidate's vector (``vector``).
2. ``store``, after the decisions, in the same transaction: every stored memory whose
   vector was computed gets it in the index (``indexing._store_vectors``: the same rows,
   model id and bookkeeping as the indexer), so the indexer, which skips a record that
   already has a vector for its model, does not embed it again. A memory is stored only
   where the passage the indexer would embed now is exactly the one embedded: the same
   text (its context turn may have changed meanwhile, e.g. held by a later candidate of
   the same request) and an embeddable record (active or history, not restricted, no
   secret); otherwise the indexer embeds it as before. Nothing is stored where the index
   serves another model than the heads'.

Candidates refused before the policy reads the heads (a text problem, a deletion request,
consent withdrawn or memory paused) are never embedded. A failure to store a vector never
fails the write: the indexer catches up.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from django.db import DatabaseError, transaction

from memory.detectors import learned
from memory.models import MemoryRecord, Subject
from memory.neighbourhood import passage_text, preceding_turn_of_events, preceding_turns
from memory.services import indexing
from memory.write_policy import Candidate, Intent, SubjectState
from memory.write_policy.policy import learned_words

logger = logging.getLogger(__name__)


@dataclass
class WriteVectors:
    """The passages embedded for a request's candidates, by candidate index."""

    passages: dict[int, tuple[str, np.ndarray]] = field(default_factory=dict)

    def vector(self, index: int) -> np.ndarray | None:
        found = self.passages.get(index)
        return found[1] if found else None

    def store(self, record_ids: dict[int, object]) -> int:
        """Store the vectors of the stored memories (``record_ids``: candidate index ->
        the record its outcome names) whose passage is the one embedded; returns how many."""
        chosen = {
            index: record_id
            for index, record_id in record_ids.items()
            if record_id is not None and index in self.passages
        }
        if not chosen:
            return 0
        models = [m for m in indexing.indexing_model_ids() if m == learned.EMBEDDING_MODEL_ID]
        if not models:
            return 0
        records = {
            r.id: r
            for r in MemoryRecord.objects.filter(id__in=set(chosen.values()))
            if indexing.is_embeddable(r)
        }
        contexts = preceding_turns(list(records))
        rows = []
        for index, record_id in chosen.items():
            record = records.get(record_id)
            if record is None:
                continue
            context = indexing.embeddable_context(contexts.get(record_id))
            text, vector = self.passages[index]
            if indexing.embedding_text(record, context) == text:
                rows.append((record, vector, context))
        rows = list({r.id: (r, v, c) for r, v, c in rows}.values())
        stored = 0
        for model_id in models:
            try:
                # A savepoint of its own: a failure here rolls back only the vectors, never
                # the request's writes (the transaction stays usable).
                with transaction.atomic():
                    stored += indexing._store_vectors(
                        [r for r, _, _ in rows],
                        [v for _, v, _ in rows],
                        [c for _, _, c in rows],
                        model_id,
                        None,
                    )
            except DatabaseError as exc:  # the indexer embeds them after the commit
                logger.warning("storing %d vectors failed (%s)", len(rows), type(exc).__name__)
        return stored


def prepare(
    *,
    subject: Subject,
    candidates: Sequence[Candidate],
    state: SubjectState,
    enabled: bool,
    text_problem,
) -> WriteVectors:
    """The passage vectors of the candidates whose embedding heads will be read, in one
    embedding call (the module docstring). ``text_problem``: the write path's check of a
    candidate's text (a candidate it refuses is not embedded)."""
    out = WriteVectors()
    if not enabled or state.consent_withdrawn or state.memory_paused:
        return out
    wanted: dict[int, str] = {}
    for index, candidate in enumerate(candidates):
        if candidate.intent == Intent.FORGET or text_problem(candidate):
            continue
        if not learned.needs_embedding(learned_words(candidate)):
            continue
        context = indexing.embeddable_context(
            preceding_turn_of_events(
                candidate.source_event_ids,
                candidate.sensitivity,
                tenant_id=subject.tenant_id,
                subject_id=subject.pk,
            )
        )
        wanted[index] = passage_text(
            candidate.statement, candidate.value, context.text if context else None
        )
    if not wanted:
        return out
    texts = list(dict.fromkeys(wanted.values()))
    vectors = dict(zip(texts, learned.embed(texts), strict=True))
    out.passages = {index: (text, vectors[text]) for index, text in wanted.items()}
    return out
