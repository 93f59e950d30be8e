"""The write path and the background indexer on one subject, at the same time: a user's
statement is never refused because Engram's own indexer held a lock.

Two real PostgreSQL connections (threads), the real write path (``candidates_submit``)
and the real indexer (``index_pending_records``). The first test forces the interleaving
that used to deadlock: the writer holds the subject lock, the indexer inserts a vector for
a record of that subject, and then the writer changes that record."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection

from core.actor import Actor
from core.codes import Operation
from memory.models import MemoryEmbedding, MemoryRecord
from memory.services import writes
from memory.services.indexing import index_pending_records
from memory.write_policy import Candidate, Intent

pytestmark = pytest.mark.django_db(transaction=True)


def _city(city: str, **kw) -> Candidate:
    return Candidate(
        memory_type="semantic",
        namespace="assistant/profile",
        statement=f"User lives in {city}",
        predicate="home_city",
        value=city,
        assertion_kind="user_explicit",
        confidence=1.0,
        purpose="personalization",
        consent_basis="explicit_consent",
        **kw,
    )


def _submit(subject, candidate):
    [outcome] = writes.candidates_submit(
        actor=Actor.system(subject.tenant_id), subject=subject, candidates=[candidate]
    )
    return outcome


def _backend_waits_on_lock(pid: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [pid])
        row = cursor.fetchone()
    return bool(row and row[0] == "Lock")


def test_writer_holding_the_subject_and_indexer_never_deadlock(owner_subject, monkeypatch):
    subject = owner_subject
    first = _submit(subject, _city("Shanghai"))
    assert first.operation == Operation.ADD
    MemoryEmbedding.objects.filter(record_id=first.record_id).delete()

    indexer_pid: list[int] = []
    indexer_done = threading.Event()
    indexer_errors: list[BaseException] = []

    def indexer() -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                indexer_pid.append(cursor.fetchone()[0])
            index_pending_records([first.record_id], tenant_id=subject.tenant_id)
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            indexer_errors.append(exc)
        finally:
            indexer_done.set()
            connection.close()

    real_existing_facts = writes._existing_facts

    def existing_facts_then_let_the_indexer_run(subj, candidate):
        # The writer holds the subject lock here. Start the indexer and wait (bounded)
        # until it has finished or is blocked on a lock; then the writer goes on to lock
        # the record the indexer just referenced.
        thread = threading.Thread(target=indexer)
        thread.start()
        for _ in range(600):
            if indexer_done.is_set() or (indexer_pid and _backend_waits_on_lock(indexer_pid[0])):
                break
            time.sleep(0.05)
        return real_existing_facts(subj, candidate)

    monkeypatch.setattr(writes, "_existing_facts", existing_facts_then_let_the_indexer_run)
    moved = _submit(
        subject,
        _city("Hangzhou", intent=Intent.SUPERSEDE, target_record_id=first.record_id),
    )
    indexer_done.wait(60)
    assert not indexer_errors, indexer_errors
    assert moved.operation == Operation.SUPERSEDE, moved
    assert moved.reason_code != "storage_conflict"
    assert MemoryEmbedding.objects.filter(record_id=first.record_id).exists()


def test_writes_and_indexing_run_together_on_one_subject(owner_subject):
    """Both loops at once, bounded: every write is decided (no storage_conflict) and the
    indexer never fails."""
    subject = owner_subject
    outcomes = []
    errors: list[BaseException] = []
    writer_done = threading.Event()

    def writer() -> None:
        try:
            for i in range(25):
                outcomes.append(_submit(subject, _city(f"City{i}")))
                outcomes.append(
                    _submit(
                        subject,
                        Candidate(
                            memory_type="semantic",
                            namespace="assistant/profile",
                            statement=f"User likes dish number {i}",
                            assertion_kind="user_explicit",
                            confidence=1.0,
                            purpose="personalization",
                            consent_basis="explicit_consent",
                        ),
                    )
                )
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)
        finally:
            writer_done.set()
            connection.close()

    def indexer() -> None:
        try:
            for _ in range(500):
                ids = list(
                    MemoryRecord.objects.filter(subject_id=subject.id).values_list("id", flat=True)
                )
                index_pending_records(ids, tenant_id=subject.tenant_id)
                if writer_done.is_set():
                    break
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=writer), threading.Thread(target=indexer)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    assert not errors, errors
    assert len(outcomes) == 50
    assert not [o for o in outcomes if o.reason_code == "storage_conflict"]
    assert {o.operation for o in outcomes} <= {Operation.ADD, Operation.SUPERSEDE}
