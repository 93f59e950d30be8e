"""Recall's largest statements prepared on their connection
(``ENGRAM_RECALL_PREPARED_STATEMENTS``, ``memory.recall.accel.prepared``) give what the
same statements give sent as text: the same hits, scores, order and pack for any
question, over a subject whose memories include kinds that must never be found (another
tenant's, another purpose's, deleted, above the clearance); the statements are prepared
once per connection and shape and run again by name; a rollback (which makes psycopg
drop them) changes nothing; off, or with compiled queries off, nothing is prepared."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.utils import timezone
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from core.tenancy import tenant_context
from memory.models import Subject
from memory.recall.accel import prepared
from memory.recall.routes import RouteQuery, search_lexical
from memory.recall.scope import Eligible, RecallRequest, RecallScope
from memory.recall.weights import RecallWeights
from tests.helpers.lifecycle import erase
from tests.helpers.retrieval import PURPOSE, recall, remember

pytestmark = pytest.mark.django_db

# Vocabulary of its own (not the golden sets', not LoCoMo's).
WORDS = ["lighthouse", "marmalade", "violin", "quarry", "Oskar", "Lisbon", "1987", "glider"]
FILLER = ["did", "the", "user", "when", "why", "with", "go", "to", "a", "和", "灯塔"]


def _corpus(subject: Subject, other_tenant_subject: Subject) -> set:
    for statement in (
        "User painted the lighthouse with Oskar in 1987",
        "User makes marmalade from the quarry's oranges",
        "User plays the violin on the glider field",
        "User moved to Lisbon to build gliders",
        "用户和 Oskar 一起去过灯塔",
    ):
        remember(subject, statement)
    forbidden = {
        remember(other_tenant_subject, "User painted the lighthouse violin").record_id,
        remember(subject, "User's marmalade invoices from Lisbon", purpose="billing").record_id,
        remember(
            subject, "User's violin teacher Oskar lives by the quarry", sensitivity="restricted"
        ).record_id,
    }
    deleted = remember(subject, "User lent the glider to Oskar in Lisbon").record_id
    erase(subject, "memory", deleted)
    forbidden.add(deleted)
    forbidden.discard(None)
    return forbidden


def _switch(settings, on: bool, compiled: bool = True) -> None:
    settings.ENGRAM_RETRIEVAL = {
        **settings.ENGRAM_RETRIEVAL,
        "PREPARED_STATEMENTS": on,
        "COMPILED_QUERIES": compiled,
        "FREEZE_ACCESS": True,
    }


def _prepared_here() -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return {statement for (statement,) in cursor.fetchall()}


def _lexical(subject: Subject, question: str):
    now = timezone.now()
    scope = RecallScope(subject.tenant_id, subject.id, None, "internal")
    request = RecallRequest(query=question, purpose=PURPOSE)
    q = RouteQuery(
        eligible=Eligible.of(scope, request, None, as_of=now, now=now),
        scope=scope,
        request=request,
        weights=RecallWeights(),
        subject_ids=[subject.id],
        query_vector=None,  # the lexical route never reads it
    )
    with tenant_context(subject.tenant_id):
        return search_lexical(q)


def test_any_question_answers_as_the_reference(
    read_agent, owner_subject, other_tenant_user, settings
):
    forbidden = _corpus(owner_subject, other_tenant_user[1])
    as_of = timezone.now()
    found = []

    def answer(question: str, on: bool) -> tuple:
        _switch(settings, on)
        result = recall(read_agent.agent, owner_subject, question, as_of=as_of, record_trace=False)
        items = [(i.id, i.scores, i.use, i.use_reason) for i in result.items]
        return items, result.context_pack, result.empty_reason, _lexical(owner_subject, question)

    @hypothesis_settings(
        max_examples=30,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(words=st.lists(st.sampled_from(WORDS + FILLER), min_size=1, max_size=9))
    def check(words: list[str]) -> None:
        question = "What " + " ".join(words) + "?"
        reference = answer(question, on=False)
        # Twice on: the statements prepared by the first, run by name by the second.
        assert answer(question, on=True) == reference, question
        fast = answer(question, on=True)
        assert fast == reference, question
        assert not forbidden & {item[0] for item in fast[0]}
        found.append(bool(fast[0]))

    check()
    assert any(found)


def test_statements_prepared_once_and_run_by_name(
    read_agent, owner_subject, other_tenant_user, settings
):
    _corpus(owner_subject, other_tenant_user[1])
    as_of = timezone.now()

    def ask(question: str) -> list:
        result = recall(read_agent.agent, owner_subject, question, as_of=as_of, record_trace=False)
        return [(i.id, i.scores) for i in result.items]

    _switch(settings, on=False)
    before = _prepared_here()
    reference = ask("When did the user paint the lighthouse with Oskar?")
    assert _prepared_here() == before  # off: nothing prepared
    _switch(settings, on=True)
    assert ask("When did the user paint the lighthouse with Oskar?") == reference
    first = _prepared_here() - before
    # The lexical route's BM25 statement, the context and the found records among them.
    assert any("WITH m AS MATERIALIZED" in s for s in first)
    assert any("memory_subject" in s for s in first)
    assert len(first) >= 3
    # Another question of the same shape (as many lexemes, names and digits): by name.
    ask("When did the user paint the quarry with Lisbon?")
    assert _prepared_here() - before == first
    # Compiled queries off: statements hold their values; none is prepared.
    _switch(settings, on=True, compiled=False)
    assert ask("Why does the user make marmalade?")
    assert _prepared_here() - before == first


def test_a_rollback_changes_nothing(read_agent, owner_subject, other_tenant_user, settings):
    """psycopg drops the connection's prepared statements on a rollback (a savepoint's
    too): the next recall prepares them again and answers the same."""
    _corpus(owner_subject, other_tenant_user[1])
    as_of = timezone.now()
    _switch(settings, on=True)

    def ask() -> list:
        result = recall(
            read_agent.agent,
            owner_subject,
            "Who plays the violin?",
            as_of=as_of,
            record_trace=False,
        )
        return [(i.id, i.scores) for i in result.items]

    reference = ask()
    assert reference
    try:
        with transaction.atomic():
            assert ask() == reference
            raise RuntimeError("roll back")
    except RuntimeError:
        pass
    assert ask() == reference
    assert any("WITH m AS MATERIALIZED" in s for s in _prepared_here())


def test_off_the_usual_cursor(settings):
    _switch(settings, on=False)
    with prepared.cursor() as cursor:
        assert type(cursor.cursor) is type(connection.cursor().cursor)
    _switch(settings, on=True)
    with prepared.cursor() as cursor:
        assert type(cursor.cursor).__name__ == "_PreparingCursor"
        cursor.execute("SELECT %s::int + 1", [41])
        assert cursor.fetchone() == (42,)


def test_the_query_log_shows_prepared_statements_with_their_values(
    read_agent, owner_subject, other_tenant_user, settings
):
    """Django's query log (DEBUG, CaptureQueriesContext) carries each prepared statement's
    text with its values, as it does every other (psycopg keeps none for a run by name):
    the same statements are logged with the setting on as off."""
    from django.test.utils import CaptureQueriesContext

    _corpus(owner_subject, other_tenant_user[1])

    def logged(on: bool) -> list:
        _switch(settings, on)
        recall(read_agent.agent, owner_subject, "What violin in Lisbon?", record_trace=False)
        with CaptureQueriesContext(connection) as run:
            recall(read_agent.agent, owner_subject, "What violin in Lisbon?", record_trace=False)
        return [q["sql"] for q in run.captured_queries]

    off, on = logged(False), logged(True)
    # With ENGRAM_RECALL_GENERIC_PLANS, one more: the transaction's plan_cache_mode.
    on = [sql for sql in on if "plan_cache_mode" not in sql]
    assert _prepared_here()
    assert all(isinstance(sql, str) and sql for sql in on), on
    assert len(on) == len(off)
    assert sum("violin" in sql.lower() for sql in on) == sum("violin" in sql.lower() for sql in off)
