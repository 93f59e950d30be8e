"""The candidates of one request, looked up and written together: a speed-up that lives
apart from the reference path (``memory.services.writes``), which decides and writes
candidate by candidate. Used when a request carries at least
``ENGRAM_WRITE_BATCH["MIN_CANDIDATES"]`` candidates and ``ENGRAM_WRITE_BATCH_LOOKUPS`` is
on; the decisions, stored rows and audit rows are the reference path's
(tests/memory/test_write_batch_equivalence.py).

What changes is the number of round trips, not what is decided:

- the batch's cited events are read in one query, and the current values of every slot
  any candidate names in another (``WriteBatch.prefetch``), under the subject's row lock
  the reference path holds too, so nothing else can change them meanwhile;
- each candidate is then decided from these, unless something written earlier in the
  same batch touched one of its slots (a duplicate, a correction, a conflicting value),
  names a record explicitly, or asks for a deletion: such a candidate is decided by the
  reference path itself, after the batch's pending writes are flushed;
- a candidate that is rejected writes nothing and needs no savepoint; one that writes
  gets its own savepoint, so it can still fail alone;
- new records' source links and lexical docs (the context-turn lookup included) are
  written together at the end, or earlier whenever a later write could change what they
  would have been (a held or more sensitive record, or any change to an existing one:
  the docs' context rule reads them).

The reference path hands itself to ``WriteBatch.prefetch`` (``reference``): its own
functions decide and apply each candidate here, so this module never imports it and the
two cannot drift apart.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from types import ModuleType

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from accounts.models import Sensitivity
from core.actor import Actor
from core.codes import Operation
from core.db.json_rows import rows_insert
from core.process_state import memoized
from memory.models import MemoryRecord, MemorySource, MemoryStatus, SourceEvent, Subject
from memory.predicates import predicate_spellings
from memory.services.indexing import records_indexed_on_write
from memory.services.record_changes import citing_known
from memory.write_policy import Candidate, Decision, ExistingFact, Intent, content_key, content_keys

# The columns of writes._EXISTING_FACTS_SQL (ExistingFact's fields), plus when the record's
# latest cited event happened (None without one: the ordering check, _unless_stale).
_FACTS_SQL = """
    SELECT id, namespace, predicate, content_key, cardinality, assertion_kind,
           valid_from, valid_to, memory_type,
           (assertion_kind IN ('user_explicit', 'user_confirmed')
            AND created_by_agent_id IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM memory_memorysource s
                             WHERE s.record_id = memory_memoryrecord.id)) AS unsourced_claim,
           COALESCE(sourced.at, recorded_at) AS said_at,
           sourced.at
      FROM memory_memoryrecord
      LEFT JOIN LATERAL (SELECT max(e.occurred_at) AS at
                           FROM memory_memorysource s
                           JOIN memory_sourceevent e ON e.id = s.event_id
                          WHERE s.record_id = memory_memoryrecord.id) sourced ON true
     WHERE tenant_id = %(tenant)s AND subject_id = %(subject)s AND status = 'active'
       AND namespace = ANY(%(chains)s)
       AND (predicate = ANY(%(predicates)s) OR content_key = ANY(%(keys)s))
"""

Key = tuple[str, str, str]  # ("p", namespace, predicate) or ("c", namespace, content key)


def _lookup_keys(c: Candidate, chain: list[str]) -> set[Key]:
    """The slots the reference path's existing-facts query reads for ``c`` (``chain``:
    its namespace and the broader ones above it)."""
    if c.predicate:
        return {("p", ns, p) for ns in chain for p in predicate_spellings(c.predicate)}
    return {("c", ns, k) for ns in chain for k in content_keys(c)}


def _stored_keys(namespace: str, predicate: str, key: str) -> set[Key]:
    """The slots a stored record with these columns is found in."""
    return {("c", namespace, key)} | ({("p", namespace, predicate)} if predicate else set())


def _rank(sensitivity: str) -> int:
    if settings.ENGRAM_WRITE_BATCH.get("SENSITIVITY_RANKS_ONCE", True):
        # Sensitivity.rank builds the enum's list of values on every call (~7 µs; two
        # calls a new record): the same index from a table built once.
        ranks = _ranks()
        return ranks.get(sensitivity, len(ranks) - 1)
    try:
        return Sensitivity.rank(sensitivity)
    except ValueError:
        return len(Sensitivity.values) - 1  # as neighbourhood._RANK_SQL: unknown is highest


@memoized("memory.services.write_batch.ranks", maxsize=1)  # the enum is fixed at import
def _ranks() -> dict[str, int]:
    """Each sensitivity's ``Sensitivity.rank`` (its first index among the values)."""
    ranks: dict[str, int] = {}
    for value in Sensitivity.values:
        ranks.setdefault(value, Sensitivity.rank(value))
    return ranks


@dataclass
class WriteBatch:
    subject: Subject
    events: dict[uuid.UUID, tuple[str, datetime]]
    facts: list[tuple[ExistingFact, datetime | None]]
    ref: ModuleType  # the reference path (memory.services.writes)
    by_id: dict[uuid.UUID, set[Key]] = field(default_factory=dict)
    touched: set[Key] = field(default_factory=set)
    touched_ids: set[uuid.UUID] = field(default_factory=set)
    everything_touched: bool = False
    # New records not inserted yet: (candidate index, record, cited events).
    pending: list[tuple[int, MemoryRecord, tuple[uuid.UUID, ...]]] = field(default_factory=list)
    pending_rank: int | None = None
    # Candidates whose record the database refused at the batch's insert: their outcome.
    failed: dict = field(default_factory=dict)
    # The request's text check (``writes._text_problems``) and, with TEXT_CHECKED_ONCE,
    # each candidate's prepared form from the prefetch, by the candidate object.
    text_problem: Callable[[Candidate], str | None] | None = None
    prepared_of: dict[int, tuple[Candidate, Candidate]] = field(default_factory=dict)

    @classmethod
    def prefetch(
        cls,
        actor: Actor,
        subject: Subject,
        candidates: Sequence[Candidate],
        reference,
        text_problem: Callable[[Candidate], str | None] | None = None,
    ) -> WriteBatch:
        return prefetch(actor, subject, candidates, reference, text_problem)

    def _prepared(self, c: Candidate, actor: Actor, subject: Subject) -> Candidate:
        known = self.prepared_of.get(id(c))
        if known is not None and known[0] is c:
            return known[1]
        return self.ref._prepared(c, actor=actor, subject=subject)

    # --- lookups ---------------------------------------------------------------------

    def answers(self, c: Candidate) -> bool:
        """Whether ``c`` can be decided from the prefetched rows."""
        return not (
            self.everything_touched
            or c.target_record_id is not None
            or c.intent == Intent.FORGET
            or _lookup_keys(c, self.ref._namespace_chain(c.namespace)) & self.touched
        )

    def sources(self, c: Candidate) -> tuple[tuple[str, ...], datetime | None] | None:
        """As ``writes._sources``, from the prefetched events."""
        if not c.source_event_ids:
            return (), None
        rows = [self.events[e] for e in set(c.source_event_ids) if e in self.events]
        if len(rows) != len(set(c.source_event_ids)):
            return None
        said = [at for role, at in rows if role == "user"] or [at for _, at in rows]
        return tuple(sorted({role for role, _ in rows})), max(said)

    def existing(self, c: Candidate) -> list[ExistingFact]:
        """As ``writes._existing_facts`` for a candidate ``answers`` accepts."""
        chain = set(self.ref._namespace_chain(c.namespace))
        if c.predicate:
            spellings = set(predicate_spellings(c.predicate))
            return [f for f, _ in self.facts if f.namespace in chain and f.predicate in spellings]
        keys = content_keys(c)
        return [f for f, _ in self.facts if f.namespace in chain and f.content_key in keys]

    def unless_stale(self, decision: Decision, c: Candidate) -> Decision:
        """As ``writes._unless_stale``, from the prefetched events and facts."""
        writes = self.ref
        if not c.source_event_ids:
            return decision
        current = next(
            (at for f, at in self.facts if f.id == decision.target_id), writes._unless_stale
        )
        if current is writes._unless_stale:  # not among the prefetched facts: ask
            return writes._unless_stale(decision, c)
        mine = max(self.events[e][1] for e in c.source_event_ids)
        if current is None or mine >= current:
            return decision
        return writes._unless_stale(decision, c)  # the rejection, worded by the reference

    # --- what a write changes --------------------------------------------------------

    def note(self, c: Candidate, decision: Decision, record_id: uuid.UUID | None) -> None:
        """Mark the slots and records a written decision changed: later candidates
        naming them are decided by the reference path, on the database."""
        if decision.operation == Operation.REJECT:
            return
        if decision.operation == Operation.DELETE:
            self.everything_touched = True  # a whole lineage, whichever slots it spans
            return
        written: set[Key] = set()
        for cand in (c, decision.candidate):
            if cand is not None:
                written |= _stored_keys(cand.namespace, cand.predicate, content_key(cand))
        target_keys: set[Key] = set()
        if decision.target_id is not None:
            known = self.by_id.get(decision.target_id)
            if known is None:
                self.everything_touched = True
                return
            target_keys = known
            self.touched_ids.add(decision.target_id)
        self.touched |= written | target_keys
        if record_id is not None and record_id != decision.target_id:
            self.by_id[record_id] = (
                target_keys if decision.operation == Operation.EXPIRE else written
            )
            self.touched_ids.add(record_id)

    # --- submitting ------------------------------------------------------------------

    def submit(self, index: int, *, actor: Actor, subject: Subject, candidate: Candidate, **kw):
        """One candidate of the batch: the reference path's outcome."""
        writes = self.ref
        problem = (self.text_problem or writes._candidate_text_problem)(candidate)
        if problem:
            return writes._text_problem_outcome(problem)
        prepared = self._prepared(candidate, actor=actor, subject=subject)
        if not self.answers(prepared):
            self.flush()  # the reference path reads what the batch has written so far
            decided: list[Decision] = []
            outcome = writes._submit_with_retries(
                index, actor=actor, subject=subject, candidate=candidate, decided=decided, **kw
            )
            if decided:
                self.note(prepared, decided[-1], outcome.record_id)
            return outcome
        now = timezone.now()
        decision = writes._decided(
            prepared,
            subject=subject,
            state=kw["state"],
            tenant_policy=kw["tenant_policy"],
            now=now,
            sources=self.sources(prepared),
            existing=self.existing,
            stale=self.unless_stale,
            answered=kw["answered"],
            embedding=kw.get("embedding"),
        )
        if decision.operation == Operation.REJECT:
            return writes._outcome(decision, None)  # nothing written: no savepoint
        deferred: list | None = None
        if decision.operation == Operation.ADD and decision.status == MemoryStatus.ACTIVE:
            rank = _rank(decision.candidate.sensitivity)
            if self.pending_rank is not None and rank > self.pending_rank:
                # A more sensitive record citing an earlier one's context turn hides
                # that turn from its doc: write the earlier docs as they were first.
                self.flush()
            deferred = []
        else:
            self.flush()

        def apply():
            record_id = writes._apply(
                decision,
                subject=subject,
                actor=actor,
                agent_id=kw["agent_id"],
                user_id=kw["user_id"],
                now=now,
                request_id=kw["request_id"],
                deferred=deferred,
            )
            return writes._outcome(decision, record_id)

        if deferred is not None:
            # Nothing is written yet (the record waits for the batch's insert): no savepoint.
            outcome = apply()
            self.pending.extend((index, record, events) for record, events in deferred)
            rank = _rank(decision.candidate.sensitivity)
            ranks = (rank,) if self.pending_rank is None else (rank, self.pending_rank)
            self.pending_rank = min(ranks)
        else:
            outcome = writes._in_savepoint(index, subject, apply)
        if outcome.operation == decision.operation and outcome.reason_code == (
            decision.reason_code
        ):
            self.note(prepared, decision, outcome.record_id)
        return outcome

    def flush(self) -> None:
        """Insert what waits: the new records, then their source links and lexical docs."""
        if self.pending:
            self.failed.update(flush_records(self.subject, self.pending, self.ref))
            flush_docs(
                [
                    (record, events)
                    for index, record, events in self.pending
                    if index not in self.failed
                ]
            )
            self.pending = []
        self.pending_rank = None

    def outcomes(self, outcomes: list) -> list:
        """``outcomes`` with the candidates whose record could not be inserted (at the
        batch's insert) rejected as the reference path rejects them."""
        return [self.failed.get(i, o) for i, o in enumerate(outcomes)]


def flush_records(subject: Subject, pending, writes: ModuleType) -> dict:
    """One insert for the new records. If the database refuses it, each is inserted in a
    savepoint of its own, so only the refused ones fail (as in the reference path)."""
    try:
        with transaction.atomic():
            rows_insert(MemoryRecord, [record for _, record, _ in pending])
        return {}
    except DatabaseError:
        pass
    failed = {}
    for index, record, _ in pending:
        inserted = writes.WriteOutcome("", "", "")

        def insert(record=record, inserted=inserted):
            record.save(force_insert=True)
            return inserted

        outcome = writes._in_savepoint(index, subject, insert)
        if outcome is not inserted:
            failed[index] = outcome
    return failed


def flush_docs(pending: Sequence[tuple[MemoryRecord, tuple[uuid.UUID, ...]]]) -> None:
    """The source links of new records, then their lexical docs: one insert each."""
    if not pending:
        return
    rows_insert(
        MemorySource,
        [
            MemorySource(tenant_id=record.tenant_id, record=record, event_id=e)
            for record, events in pending
            for e in events
        ],
        ignore_conflicts=True,
    )
    records_indexed_on_write([record for record, _ in pending], citing_known(pending))


def prefetch(
    actor: Actor,
    subject: Subject,
    candidates: Sequence[Candidate],
    writes: ModuleType,
    text_problem: Callable[[Candidate], str | None] | None = None,
) -> WriteBatch:
    """The batch's cited events and the current facts of every slot it names."""
    checked = text_problem or writes._candidate_text_problem
    ready = [
        (c, writes._prepared(c, actor=actor, subject=subject)) for c in candidates if not checked(c)
    ]
    prepared = [p for _, p in ready]
    event_ids = {e for c in prepared for e in c.source_event_ids}
    events = (
        {
            pk: (role, at)
            for pk, role, at in SourceEvent.objects.filter(
                tenant_id=subject.tenant_id, subject=subject, id__in=event_ids
            ).values_list("id", "role", "occurred_at")
        }
        if event_ids
        else {}
    )
    chains = sorted({ns for c in prepared for ns in writes._namespace_chain(c.namespace)})
    spellings = sorted(
        {p for c in prepared if c.predicate for p in predicate_spellings(c.predicate)}
    )
    keys = sorted({k for c in prepared if not c.predicate for k in content_keys(c)})
    facts: list[tuple[ExistingFact, datetime | None]] = []
    if chains and (spellings or keys):
        with connection.cursor() as cursor:
            cursor.execute(
                _FACTS_SQL,
                {
                    "tenant": subject.tenant_id,
                    "subject": subject.pk,
                    "chains": chains,
                    "predicates": spellings,
                    "keys": keys,
                },
            )
            facts = [(ExistingFact(*row[:-1]), row[-1]) for row in cursor.fetchall()]
    batch = WriteBatch(
        subject=subject, events=events, facts=facts, ref=writes, text_problem=text_problem
    )
    if settings.ENGRAM_WRITE_BATCH.get("TEXT_CHECKED_ONCE", True):
        batch.prepared_of = {id(c): (c, p) for c, p in ready}
    batch.by_id = {f.id: _stored_keys(f.namespace, f.predicate, f.content_key) for f, _ in facts}
    return batch
