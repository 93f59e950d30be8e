"""Recall's prepared statements planned generically, with the ORM's constants in their text
(``ENGRAM_RECALL_GENERIC_PLANS``, ``memory.recall.accel.prepared``), give the reference's
answers: the same items, scores, pack and lexical hits for any question as with every
statement sent as text, over a subject holding memories that must never be found; the
setting is the recall transaction's own; off, PostgreSQL's own choice is left alone."""

from __future__ import annotations

import pytest
from django.db import connection
from django.utils import timezone
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from tests.helpers.retrieval import recall, remember
from tests.memory.test_recall_prepared import _corpus, _lexical

pytestmark = pytest.mark.django_db

# Vocabulary of its own (not the other recall tests', not LoCoMo's).
WORDS = ["orchard", "tuba", "Henrike", "Bergen", "2011", "canoe", "quilt", "ferry"]
FILLER = ["did", "the", "user", "when", "where", "with", "go", "to", "a", "和", "果园"]


def _switch(settings, prepared: bool, generic: bool) -> None:
    settings.ENGRAM_RETRIEVAL = {
        **settings.ENGRAM_RETRIEVAL,
        "PREPARED_STATEMENTS": prepared,
        "GENERIC_PLANS": generic,
        "COMPILED_QUERIES": True,
        "FREEZE_ACCESS": True,
    }


def _plan_cache_mode() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('plan_cache_mode')")
        return cursor.fetchone()[0]


def _more(subject) -> None:
    for statement in (
        "User picked apples in the orchard near Bergen in 2011",
        "User plays the tuba in a brass band with Henrike",
        "User sewed a quilt on the ferry",
        "用户和 Henrike 一起去过果园",
    ):
        remember(subject, statement)
    remember(subject, "User's home city is Bergen", predicate="home_city")


def test_any_question_answers_as_the_reference(
    read_agent, owner_subject, other_tenant_user, settings
):
    forbidden = _corpus(owner_subject, other_tenant_user[1])
    _more(owner_subject)
    as_of = timezone.now()
    found = []

    def answer(question: str, prepared: bool, generic: bool) -> tuple:
        _switch(settings, prepared, generic)
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
        question = "Where " + " ".join(words) + "?"
        reference = answer(question, prepared=False, generic=False)
        # PostgreSQL's own choice, then generic plans twice (prepared, then by name).
        assert answer(question, prepared=True, generic=False) == reference, question
        assert answer(question, prepared=True, generic=True) == reference, question
        fast = answer(question, prepared=True, generic=True)
        assert fast == reference, question
        assert not forbidden & {item[0] for item in fast[0]}
        found.append(bool(fast[0]))

    check()
    assert any(found)


def test_the_setting_is_set_in_recall_only_when_on(read_agent, owner_subject, settings):
    """The test's transaction holds recall's: what recall set is still visible after it."""
    remember(owner_subject, "User rows a canoe on Sundays")
    _switch(settings, prepared=True, generic=False)
    recall(read_agent.agent, owner_subject, "Who rows a canoe?", record_trace=False)
    assert _plan_cache_mode() == "auto"
    _switch(settings, prepared=False, generic=True)  # nothing prepared: nothing to plan
    recall(read_agent.agent, owner_subject, "Who rows a canoe?", record_trace=False)
    assert _plan_cache_mode() == "auto"
    _switch(settings, prepared=True, generic=True)
    assert recall(read_agent.agent, owner_subject, "Who rows a canoe?", record_trace=False).items
    assert _plan_cache_mode() == "force_generic_plan"


def test_prepared_statements_hold_their_constants(read_agent, owner_subject, settings):
    remember(owner_subject, "User rows a canoe on Sundays")
    _switch(settings, prepared=True, generic=True)
    recall(read_agent.agent, owner_subject, "Who rows a canoe?", record_trace=False)
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        statements = [s for (s,) in cursor.fetchall()]
    # Recall's context: the statuses never returned written in, the subject a parameter.
    context = [s for s in statements if "memory_subject" in s and "'deleted'" in s]
    assert context, statements
    assert all("$1" in s for s in context)
