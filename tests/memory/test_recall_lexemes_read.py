"""The lexical route's lexemes and the scope's statistics in one statement
(``ENGRAM_RECALL_LEXEMES_WITH_STATISTICS``, ``memory.recall.accel.lexemes_read``) find what
the reference finds: the same hits, scores, order and coverage, the same statistics for
the rest of the request, one statement fewer when no route has read the statistics yet;
over a subject whose memories include kinds that must never be found (another tenant's,
another purpose's, deleted), an empty scope, and a large scope whose statistics are kept."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from core.tenancy import tenant_context
from memory.models import Subject
from memory.recall.routes import RouteQuery, common, search_lexical
from memory.recall.scope import Eligible, RecallRequest, RecallScope
from memory.recall.weights import RecallWeights
from tests.helpers.lifecycle import erase
from tests.helpers.retrieval import PURPOSE, recall, remember

pytestmark = pytest.mark.django_db

WORDS = ["harbour", "bicycle", "cooking", "tents", "invoices", "Sundays", "garden", "piano"]
FILLER = ["did", "the", "user", "what", "about", "with", "running", "is", "a", "跑步"]


def _corpus(subject: Subject, other_tenant_subject: Subject) -> set:
    for statement in (
        "User cooks at the harbour on Sundays",
        "User fixed the bicycle in the garden",
        "User paid the invoices for the tents",
        "User plays piano while cooking",
        "用户喜欢在花园里跑步",
    ):
        remember(subject, statement)
    forbidden = {
        remember(other_tenant_subject, "User plays piano at the harbour").record_id,
        remember(subject, "User's bicycle invoices", purpose="billing").record_id,
    }
    deleted = remember(subject, "User lent tents at the harbour garden").record_id
    erase(subject, "memory", deleted)
    forbidden.add(deleted)
    forbidden.discard(None)
    return forbidden


def _query(subject: Subject, question: str) -> RouteQuery:
    now = timezone.now()
    scope = RecallScope(subject.tenant_id, subject.id, None, "internal")
    request = RecallRequest(query=question, purpose=PURPOSE)
    return RouteQuery(
        eligible=Eligible.of(scope, request, None, as_of=now, now=now),
        scope=scope,
        request=request,
        weights=RecallWeights(),
        subject_ids=[subject.id],
        query_vector=None,  # the lexical route never reads it
    )


def _route(subject: Subject, question: str, settings, on: bool, *, read_first=False):
    settings.ENGRAM_RETRIEVAL = {**settings.ENGRAM_RETRIEVAL, "LEXEMES_WITH_STATISTICS": on}
    q = _query(subject, question)
    with tenant_context(subject.tenant_id):
        if read_first:
            q.statistics  # noqa: B018 - another route asked first
        with CaptureQueriesContext(connection) as queries:
            hits = search_lexical(q)
        return hits, q.statistics, len(queries)


@pytest.mark.parametrize("compiled", [True, False])
def test_one_read_finds_what_the_reference_finds(
    owner_subject, other_tenant_user, settings, compiled
):
    settings.ENGRAM_RETRIEVAL = {**settings.ENGRAM_RETRIEVAL, "COMPILED_QUERIES": compiled}
    forbidden = _corpus(owner_subject, other_tenant_user[1])
    found = []

    @hypothesis_settings(
        max_examples=40,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(words=st.lists(st.sampled_from(WORDS + FILLER), min_size=1, max_size=8))
    def check(words: list[str]) -> None:
        question = "What " + " ".join(words) + "?"
        reference, stats, _ = _route(owner_subject, question, settings, on=False)
        fast, fast_stats, _ = _route(owner_subject, question, settings, on=True)
        assert fast == reference, question
        assert fast_stats == stats
        assert not forbidden & {rid for rid, _ in fast[0]}
        found.append(bool(fast[0]))

    check()
    reference, stats, statements = _route(owner_subject, "the harbour piano", settings, on=False)
    fast, fast_stats, fewer = _route(owner_subject, "the harbour piano", settings, on=True)
    assert fast == reference and fast[0] and fast_stats == stats
    assert fewer == statements - 1
    # The statistics read already (another route asked): the lexemes alone, the same hits.
    again, _, after = _route(owner_subject, "the harbour piano", settings, on=True, read_first=True)
    assert again == reference and after == fewer
    assert any(found)


def test_an_empty_scope_and_a_kept_large_scope(owner_subject, same_tenant_user, settings):
    empty = same_tenant_user[1]
    for on in (False, True):
        hits, stats, _ = _route(empty, "the harbour piano", settings, on=on)
        assert hits == ([], {}) and stats == (0, 0.0)
    remember(owner_subject, "User plays piano at the harbour")
    key = common._statistics_key(owner_subject.tenant_id, [owner_subject.id])
    common.STATISTICS.put(key, (5000, 7.0))  # as a large scope's counts are kept
    try:
        _, stats, statements = _route(owner_subject, "the harbour piano", settings, on=True)
        _, ref_stats, ref_statements = _route(
            owner_subject, "the harbour piano", settings, on=False
        )
        assert stats == ref_stats == (5000, 7.0) and statements == ref_statements
    finally:
        common.STATISTICS.clear()


def test_a_recall_answers_as_the_reference(read_agent, owner_subject, other_tenant_user, settings):
    _corpus(owner_subject, other_tenant_user[1])
    as_of = timezone.now()

    def answer(question: str, on: bool) -> tuple:
        settings.ENGRAM_RETRIEVAL = {
            **settings.ENGRAM_RETRIEVAL,
            "LEXEMES_WITH_STATISTICS": on,
            "FREEZE_ACCESS": True,
        }
        result = recall(read_agent.agent, owner_subject, question, as_of=as_of, record_trace=False)
        return [(i.id, i.scores, i.use) for i in result.items], result.context_pack

    for question in ("Where does the user cook?", "What about the bicycle invoices?", "花园跑步"):
        assert answer(question, on=True) == answer(question, on=False), question
    assert answer("Where does the user cook?", on=True)[0]
