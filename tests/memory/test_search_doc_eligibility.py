"""A lexical doc keeps copies of what recall's eligibility filter reads of its record
(``RECALL_ELIGIBILITY_FIELDS``), and the lexical route filters its matches by them. The
database keeps them: the doc's trigger copies them on every insert and update of the doc,
the record's trigger sends each change. The route's hits are checked against the records
themselves too, so a wrong copy could hide a memory but never return one."""

from __future__ import annotations

import importlib
from datetime import timedelta
from types import SimpleNamespace

import pgtrigger
import pytest
from django.db import connection
from django.db.models import Q
from django.utils import timezone

from accounts.models import Sensitivity
from core.tenancy import tenant_context
from memory import lexical
from memory.models import MemoryRecord, MemorySearchDoc, MemoryStatus
from memory.models.records import RECALL_ELIGIBILITY_FIELDS
from memory.recall.routes import route_exact, route_lexical
from memory.recall.routes.common import scope_statistics as _scope_statistics
from memory.recall.scope import Eligible, RecallRequest, RecallScope
from tests.helpers.conversation import converse
from tests.helpers.retrieval import (
    PURPOSE,
    ids,
    in_tenant_recording,
    recall,
    remember,
    trigram_route,
)

DOC_TRIGGER = "memory.MemorySearchDoc:search_doc_copies_eligibility"


@pytest.fixture(params=["scope's docs", "full-text indexes"])
def lexical_path(request, monkeypatch):
    """The lexical route reads a small scope's own docs, and finds a large scope's
    matches through the full-text indexes (``engram_search_docs_held``): the tests
    that take this fixture run both ways."""
    if request.param == "full-text indexes":
        monkeypatch.setattr("memory.recall.routes.common.LEXICAL_INDEX_FROM", 0)
    return request.param


def _copies(record_id) -> dict:
    return MemorySearchDoc.objects.filter(record_id=record_id).values(*RECALL_ELIGIBILITY_FIELDS)[0]


def _originals(record_id) -> dict:
    return MemoryRecord.objects.filter(id=record_id).values(*RECALL_ELIGIBILITY_FIELDS)[0]


def _lexical_hits(agent, subject, question: str, scores: bool = False, **request) -> list:
    scope = RecallScope(subject.tenant_id, subject.id, agent.id, agent.clearance)
    now = timezone.now()
    eligible = Eligible.of(
        scope,
        RecallRequest(query=question, purpose=request.pop("purpose", PURPOSE), **request),
        as_of=now,
        now=now,
    )
    with tenant_context(subject.tenant_id):
        hits, _ = route_lexical(eligible, [subject.id], question, 30)
    return hits if scores else [rid for rid, _ in hits]


def test_a_new_doc_holds_its_records_columns(owner_subject):
    outcome = remember(
        owner_subject,
        "User keeps bees on the roof",
        namespace="assistant/hobbies",
        memory_type="episodic",
        sensitivity=Sensitivity.CONFIDENTIAL,
        expires_at=timezone.now() + timedelta(days=30),
        embed=False,
    )
    copies = _copies(outcome.record_id)
    assert copies == _originals(outcome.record_id)
    assert copies["namespace"] == "assistant/hobbies" and copies["memory_type"] == "episodic"
    assert copies["sensitivity"] == Sensitivity.CONFIDENTIAL and copies["expires_at"] is not None


@pytest.mark.parametrize(
    "change",
    [
        {"status": MemoryStatus.SUPERSEDED, "superseded_at": "now"},
        {"status": MemoryStatus.RETRACTED, "superseded_at": "now"},
        {"status": MemoryStatus.QUARANTINED},
        {"expires_at": "now"},
        {"expires_at": None},
    ],
    ids=["superseded", "retracted", "quarantined", "expiry set", "expiry cleared"],
)
def test_a_change_of_the_record_reaches_its_doc(owner_subject, change):
    outcome = remember(
        owner_subject,
        "User swims in the lake",
        expires_at=timezone.now() + timedelta(days=3),
        embed=False,
    )
    now = timezone.now()
    MemoryRecord.objects.filter(id=outcome.record_id).update(
        **{k: now if v == "now" else v for k, v in change.items()}
    )
    copies = _copies(outcome.record_id)
    assert copies == _originals(outcome.record_id)
    for field, value in change.items():
        assert copies[field] == (now if value == "now" else value)


def test_close_record_time_reaches_the_doc(owner_subject):
    outcome = remember(owner_subject, "User rows on Sundays", embed=False)
    record = MemoryRecord.objects.get(id=outcome.record_id)
    record.close_record_time(MemoryStatus.SUPERSEDED, "test")
    assert _copies(record.id)["status"] == MemoryStatus.SUPERSEDED
    assert _copies(record.id)["superseded_at"] == record.superseded_at


def test_the_application_cannot_write_other_values_into_the_copies(owner_subject):
    """Whatever an update of the doc sets, its trigger copies the record again — through
    the ORM and through SQL."""
    outcome = remember(owner_subject, "User sails at dawn", embed=False)
    MemoryRecord.objects.filter(id=outcome.record_id).update(
        status=MemoryStatus.SUPERSEDED, superseded_at=timezone.now()
    )
    MemorySearchDoc.objects.filter(record_id=outcome.record_id).update(
        status=MemoryStatus.ACTIVE, superseded_at=None, purpose="other"
    )
    assert _copies(outcome.record_id) == _originals(outcome.record_id)
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE memory_memorysearchdoc SET status = 'active', sensitivity = 'public'"
            " WHERE record_id = %s",
            [outcome.record_id],
        )
    assert _copies(outcome.record_id) == _originals(outcome.record_id)


def test_migration_0016_fills_the_copies_of_existing_docs(owner_subject):
    fill = importlib.import_module("memory.migrations.0016_search_doc_eligibility_copies").fill
    rids = [
        remember(owner_subject, s, embed=False).record_id
        for s in ("User likes figs", "User lives in Lyon")
    ]
    MemoryRecord.objects.filter(id=rids[1]).update(
        status=MemoryStatus.SUPERSEDED, superseded_at=timezone.now()
    )
    # Docs as they were before the columns existed.
    with pgtrigger.ignore(DOC_TRIGGER):
        MemorySearchDoc.objects.filter(record_id__in=rids).update(
            **dict.fromkeys(RECALL_ELIGIBILITY_FIELDS)
        )
    assert _copies(rids[0])["status"] is None
    fill(None, SimpleNamespace(connection=connection))
    for rid in rids:
        assert _copies(rid) == _originals(rid)


def test_the_lexical_route_finds_only_what_the_request_may_read(
    read_agent, owner_subject, same_tenant_user, lexical_path
):
    """Each of the filters, on the doc: superseded, expired, another purpose, above the
    agent's clearance, not yet valid, another subject — none is a hit; narrowing to a
    type or namespace applies too."""
    now = timezone.now()
    kept = remember(owner_subject, "User paddles a kayak on the lake", embed=False).record_id
    superseded = remember(owner_subject, "User paddled a canoe on the lake", embed=False)
    believed = timezone.now()
    MemoryRecord.objects.filter(id=superseded.record_id).update(
        status=MemoryStatus.SUPERSEDED, superseded_at=timezone.now()
    )
    expired = remember(
        owner_subject,
        "User fished on the lake",
        expires_at=now + timedelta(days=1),
        embed=False,
    )
    MemoryRecord.objects.filter(id=expired.record_id).update(expires_at=now - timedelta(seconds=1))
    other_purpose = remember(
        owner_subject, "User sold a boat at the lake", purpose="billing", embed=False
    )
    restricted = remember(
        owner_subject,
        "User's lake house address",
        sensitivity=Sensitivity.RESTRICTED,
        embed=False,
    )
    future = remember(
        owner_subject,
        "User will camp by the lake",
        valid_from=now + timedelta(days=10),
        embed=False,
    )
    someone_else = remember(same_tenant_user[1], "User paddles a kayak on the lake", embed=False)
    episodic = remember(
        owner_subject,
        "User saw a heron at the lake",
        memory_type="episodic",
        namespace="assistant/diary",
        embed=False,
    )
    hits = _lexical_hits(read_agent.agent, owner_subject, "What about the lake?")
    assert set(hits) == {kept, episodic.record_id}
    for hidden in (superseded, expired, other_purpose, restricted, future, someone_else):
        assert hidden.record_id not in hits
    assert _lexical_hits(
        read_agent.agent, owner_subject, "What about the lake?", memory_types=("episodic",)
    ) == [episodic.record_id]
    assert _lexical_hits(
        read_agent.agent, owner_subject, "What about the lake?", namespaces=("assistant/diary",)
    ) == [episodic.record_id]
    # Known at a point before the supersession: the old version was believed then.
    before = _lexical_hits(
        read_agent.agent,
        owner_subject,
        "What about the canoe?",
        known_at=believed,
    )
    assert before == [superseded.record_id]


def test_a_wrong_copy_never_returns_a_memory(read_agent, owner_subject, lexical_path):
    """Copies forced out of step with their records (the trigger bypassed): a doc whose
    copy says active while its record is superseded is not a hit — the hits are checked
    against the records."""
    old = remember(owner_subject, "User climbs at the quarry", embed=False).record_id
    MemoryRecord.objects.filter(id=old).update(
        status=MemoryStatus.SUPERSEDED, superseded_at=timezone.now()
    )
    with pgtrigger.ignore(DOC_TRIGGER):
        MemorySearchDoc.objects.filter(record_id=old).update(
            status=MemoryStatus.ACTIVE, superseded_at=None
        )
    assert _copies(old)["status"] == MemoryStatus.ACTIVE
    assert _lexical_hits(read_agent.agent, owner_subject, "Where does the user climb?") == []
    assert old not in ids(recall(read_agent.agent, owner_subject, "Where does the user climb?"))


def test_document_frequency_counts_only_what_the_request_may_read(
    read_agent, owner_subject, lexical_path
):
    """A word that another purpose's memories hold often weighs for this purpose by this
    purpose's memories only: the route's scores are the reference BM25 with document
    frequencies counted over the readable matches (the scope's size and mean length are
    the whole scope's, as before), not over every doc."""
    readable = [
        remember(owner_subject, "User walks the dog by the lake", embed=False).record_id,
        remember(owner_subject, "User walks the dog in the park", embed=False).record_id,
    ]
    for i in range(6):
        remember(owner_subject, f"Invoice {i} for the lake cabin", purpose="billing", embed=False)
    question = "the dog at the lake"
    scored = dict(_lexical_hits(read_agent.agent, owner_subject, question, scores=True))
    with tenant_context(owner_subject.tenant_id):
        size, mean = _scope_statistics(owner_subject.tenant_id, [owner_subject.id])
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT tsvector_to_array(to_tsvector('english', %s))",
                [" ".join(lexical.query_terms(question, frozenset()))],
            )
            lexemes = cursor.fetchone()[0]
            cursor.execute(
                "SELECT record_id, length(search_vector),"
                " ARRAY(SELECT u.lexeme FROM unnest(search_vector) u)"
                " FROM memory_memorysearchdoc WHERE subject_id = %s",
                [owner_subject.id],
            )
            docs = {
                rid: lexical.BM25Doc(dict.fromkeys(words, 1), {}, length, 0)
                for rid, length, words in cursor.fetchall()
                if set(words) & set(lexemes)
            }
    assert set(lexemes) == {"dog", "lake"} and len(docs) == 8
    readable_only = lexical.bm25({r: docs[r] for r in readable}, lexemes, size, mean)
    every_match = lexical.bm25(docs, lexemes, size, mean)
    assert scored == {rid: round(score, 4) for rid, score in readable_only.items()}
    assert round(every_match[readable[0]], 4) != scored[readable[0]]


# --- large scopes: the matches come through the full-text indexes -----------------------


def _held(subjects: list, query: str, lexemes: list[str], context_weight: float = 0.5) -> dict:
    """``engram_search_docs_held``'s rows: record id → (own, ctx, len)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT record_id, own, ctx, len"
            " FROM engram_search_docs_held(%s::uuid[], %s::tsquery, %s::tsquery[], %s)",
            ["{" + ",".join(str(s) for s in subjects) + "}", query, lexemes, context_weight],
        )
        return {rid: (own, ctx, length) for rid, own, ctx, length in cursor.fetchall()}


def _matching(subjects: list, query: str) -> set:
    return set(_held(subjects, query, []))


def test_matching_docs_are_the_transaction_tenants_only(owner_subject, other_tenant_user):
    """``engram_search_docs_held`` runs as the owner (row-level security does not
    restrict it) and applies the policy's condition itself: another tenant's docs are
    never returned, even for that tenant's subject id; with no tenant set, nothing."""
    mine = remember(owner_subject, "User rides a tandem bicycle", embed=False).record_id
    remember(owner_subject, "User plays chess", embed=False)
    theirs = remember(other_tenant_user[1], "User rides a tandem bicycle", embed=False).record_id
    both = [owner_subject.id, other_tenant_user[1].id]
    with tenant_context(owner_subject.tenant_id):
        with connection.cursor() as cursor:
            cursor.execute("SELECT current_user")
            assert cursor.fetchone()[0] == "engram_app"  # row-level security applies here
        assert _matching(both, "'tandem' | 'bicycl'") == {mine}
        assert _matching([other_tenant_user[1].id], "'tandem'") == set()
    with tenant_context(other_tenant_user[1].tenant_id):
        assert _matching(both, "'tandem'") == {theirs}
    with tenant_context(None):
        assert _matching(both, "'tandem'") == set()


def test_the_index_path_finds_and_scores_what_the_scope_path_does(
    read_agent, owner_subject, same_tenant_user, monkeypatch
):
    for statement in ("User paddles a kayak on the lake", "User walks by the lake at dusk"):
        remember(owner_subject, statement, embed=False)
    remember(owner_subject, "User sold a boat at the lake", purpose="billing", embed=False)
    hidden = remember(owner_subject, "User swam in the lake", embed=False).record_id
    MemoryRecord.objects.filter(id=hidden).update(
        status=MemoryStatus.SUPERSEDED, superseded_at=timezone.now()
    )
    remember(same_tenant_user[1], "User kayaks on the lake too", embed=False)
    question = "Who paddles a kayak on the lake?"
    by_scope = _lexical_hits(read_agent.agent, owner_subject, question, scores=True)
    monkeypatch.setattr("memory.recall.routes.common.LEXICAL_INDEX_FROM", 0)
    by_index = _lexical_hits(read_agent.agent, owner_subject, question, scores=True)
    assert by_index == by_scope and len(by_scope) == 2


def _trigram_search(function: str, subjects: list, *args) -> set:
    placeholders = ", ".join(["%s"] * len(args))
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT record_id FROM {function}(%s::uuid[], {placeholders})",
            ["{" + ",".join(str(s) for s in subjects) + "}", *args],
        )
        return {rid for (rid,) in cursor.fetchall()}


def test_trigram_searches_are_the_transaction_tenants_only(owner_subject, other_tenant_user):
    mine = remember(owner_subject, "User met Priyanka in Oslo", embed=False).record_id
    theirs = remember(other_tenant_user[1], "User met Priyanka in Oslo", embed=False).record_id
    both = [owner_subject.id, other_tenant_user[1].id]
    with tenant_context(owner_subject.tenant_id):
        with connection.cursor() as cursor:
            cursor.execute("SELECT set_config('pg_trgm.word_similarity_threshold', '0.45', true)")
        assert _trigram_search("engram_search_docs_regex", both, r"\mpriyanka\M") == {mine}
        assert _trigram_search("engram_search_docs_similar", both, "priyanca", 0.5) == {mine}
        assert _trigram_search("engram_search_docs_similar", both, "zzyzx", 0.5) == set()
        # The threshold the search set is put back.
        with connection.cursor() as cursor:
            cursor.execute("SHOW pg_trgm.word_similarity_threshold")
            assert cursor.fetchone()[0] == "0.45"
    with tenant_context(other_tenant_user[1].tenant_id):
        assert _trigram_search("engram_search_docs_regex", both, r"\mpriyanka\M") == {theirs}
    with tenant_context(None):
        assert _trigram_search("engram_search_docs_similar", both, "priyanka", 0.5) == set()


def test_the_trigram_route_finds_names_and_ids_both_ways(read_agent, owner_subject, lexical_path):
    """A name verbatim, a name with a typo, an id with a typo: found on either path, and
    a memory the request may not read is not, whatever it holds."""
    flight = remember(owner_subject, "User's flight KL1412 to Singapore", embed=False).record_id
    friend = remember(owner_subject, "User visited Priyanka in Oslo", embed=False).record_id
    remember(owner_subject, "User likes tea", embed=False)
    hidden = remember(
        owner_subject, "User paid KL1412 fees to Priyanka", purpose="billing", embed=False
    )
    for question, expected in [
        ("When did the user see Priyanka?", friend),
        ("When did the user see Priyanca?", friend),
        ("Which flight was KL1712?", flight),
    ]:
        hits, statements = trigram_route(
            read_agent.agent,
            owner_subject,
            question,
            large_scope=lexical_path == "full-text indexes",
        )
        assert [rid for rid, _ in hits][:1] == [expected], question
        assert hidden.record_id not in {rid for rid, _ in hits}
        through_index = any("engram_search_docs_" in sql for sql in statements)
        assert through_index == (lexical_path == "full-text indexes")


def test_the_full_text_function_says_which_lexemes_a_doc_holds_and_where(
    write_agent, owner_subject
):
    """Bit ``i`` of ``own`` / ``ctx``: ``lexemes[i + 1]`` is in the doc's own words / its
    context (the turn before it); ``len`` counts a context lexeme ``context_weight``; a doc
    holding none of the query's lexemes is not returned."""
    first, second = converse(
        write_agent.agent,
        owner_subject,
        [("Anna", "I repaired the old kayak"), ("Ben", "The paddles are new too")],
    )
    chess = remember(owner_subject, "User plays chess", embed=False).record_id
    remember(owner_subject, "User plays the violin", embed=False)
    with tenant_context(owner_subject.tenant_id):
        rows = _held(
            [owner_subject.id],
            "'kayak' | 'paddl' | 'chess'",
            ["'kayak'", "'paddl'", "'tent'"],
            context_weight=0.25,
        )
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT length(search_vector), length(context_vector)"
                " FROM memory_memorysearchdoc WHERE record_id = %s",
                [second],
            )
            own_length, context_length = cursor.fetchone()
    assert set(rows) == {first, second, chess}
    assert rows[chess][:2] == (0, 0)  # matched by 'chess', which is not one of the three
    assert rows[first][:2] == (0b001, 0)
    assert rows[second][:2] == (0b010, 0b001)  # its context, the turn before, holds 'kayak'
    assert rows[second][2] == own_length + 0.25 * context_length and context_length > 0


def test_the_full_text_function_refuses_more_lexemes_than_its_masks_hold(owner_subject):
    from django.db import ProgrammingError, transaction

    from memory.recall.routes import MAX_LEXEMES

    with tenant_context(owner_subject.tenant_id):
        with pytest.raises(ProgrammingError, match="at most 62 lexemes"), transaction.atomic():
            _held([owner_subject.id], "'a'", [f"'w{i}'" for i in range(MAX_LEXEMES + 1)])
        assert _held([owner_subject.id], "'a'", [f"'w{i}'" for i in range(MAX_LEXEMES)]) == {}


def test_the_full_text_function_returns_every_column_the_route_filters_on(db):
    """The route's filters apply to the function's rows by column name: a column of
    ``RECALL_ELIGIBILITY_FIELDS`` it did not return would break large scopes only."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT proargnames, proargmodes FROM pg_proc WHERE proname = 'engram_search_docs_held'"
        )
        names, modes = cursor.fetchone()
    returned = {name for name, mode in zip(names, modes, strict=True) if mode == "t"}
    assert returned >= {*RECALL_ELIGIBILITY_FIELDS, "record_id", "tenant_id", "subject_id"}


@pytest.mark.parametrize(
    "signature",
    [
        "engram_search_docs_held(uuid[], tsquery, tsquery[], float8)",
        "engram_search_docs_matching(uuid[], tsquery)",
        "engram_search_docs_regex(uuid[], text)",
        "engram_search_docs_similar(uuid[], text, real)",
    ],
)
def test_only_the_application_role_may_call_the_search_functions(db, signature):
    """They run as the owner, past the tables' grants: no role but the application's
    (and the owner) may call them."""
    from django.conf import settings

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT has_function_privilege(%s, %s, 'EXECUTE'),"
            " array_to_string(proacl, ',') FROM pg_proc WHERE oid = %s::regprocedure",
            [settings.ENGRAM["DB_APP_ROLE"], signature, signature],
        )
        app_may, acl = cursor.fetchone()
    assert app_may
    assert not any(entry.startswith("=") for entry in acl.split(","))  # nothing for PUBLIC


def test_the_exact_route_finds_an_identifier_both_ways(read_agent, owner_subject, lexical_path):
    """An identifier verbatim in the text (lowercased, with its punctuation): found on
    either path; a memory the request may not read is not, whatever it holds."""
    order = remember(owner_subject, "User's order ORD-2023-65769 shipped", embed=False).record_id
    remember(owner_subject, "User's order ORD-2023-63805 was lost", embed=False)
    hidden = remember(
        owner_subject, "Refund for ORD-2023-65769 issued", purpose="billing", embed=False
    )
    question = "Where is order ORD-2023-65769?"
    scope = RecallScope(
        owner_subject.tenant_id, owner_subject.id, read_agent.agent.id, read_agent.agent.clearance
    )
    now = timezone.now()
    request = RecallRequest(query=question, purpose=PURPOSE)
    eligible = Eligible.of(scope, request, as_of=now, now=now)
    with in_tenant_recording(owner_subject) as statements:
        hits = route_exact(
            eligible.queryset,
            request,
            30,
            large_scope=lambda: lexical_path == "full-text indexes",
            doc_scope=Q(tenant_id=owner_subject.tenant_id, subject_id__in=[owner_subject.id]),
            subject_ids=[owner_subject.id],
        )
    assert [rid for rid, _ in hits] == [order]
    assert hidden.record_id not in {rid for rid, _ in hits}
    through_index = any("engram_search_docs_regex" in sql for sql in statements)
    assert through_index == (lexical_path == "full-text indexes")
