"""The trigram route in one statement (``ENGRAM_RECALL_ONE_TRIGRAM_READ``,
``memory.recall.accel.trigram_read``) finds what the reference finds (``route_trigram``):
the same records, scores and order, for questions Hypothesis writes from names the
subject's memories hold, typos of them, names held nowhere, speakers' names and their
typos, identifiers and typos of them, over a subject whose memories include every kind
that must never be found — another tenant's, another purpose's, deleted, expired,
superseded, above the agent's clearance. A recall's whole answer is the reference's too,
and a subject who withdrew consent gets nothing either way."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from core.tenancy import tenant_context
from memory.models import MemoryRecord, Subject
from memory.recall.accel.trigram_read import route_trigram_in_one_read
from memory.recall.routes import RouteQuery, search_trigram
from memory.recall.scope import Eligible, RecallRequest, RecallScope
from memory.recall.weights import RecallWeights
from tests.helpers.lifecycle import erase
from tests.helpers.retrieval import PURPOSE, recall, remember

pytestmark = pytest.mark.django_db

# Vocabulary of its own (not LoCoMo's, not the golden sets').
HELD = ["Odalys", "Brannock", "Quillon", "Marisol", "Ferreday"]
NOWHERE = ["Zebulon", "Anouk", "Tiberio", "Vesna"]
IDS = ["ZX-9041", "build-77310", "INV/2231/7"]
FILLER = ["did", "the", "user", "meet", "with", "about", "harbour", "bicycle", "cook", "at"]


def _typo(word: str, i: int) -> str:
    i = i % len(word)
    swapped = "x" if word[i].lower() != "x" else "y"
    return word[:i] + (swapped.upper() if i == 0 else swapped) + word[i + 1 :]


def _corpus(subject: Subject, other_tenant_subject: Subject) -> set[uuid.UUID]:
    """The subject's memories; returns the ids no route may find."""
    for statement in (
        "User met Odalys at the harbour",
        "Brannock fixed the user's bicycle",
        "User's ticket ZX-9041 was closed",
        "User visited Quillon twice last spring",
        "Marisol and the user cook on Sundays",
        "User runs build-77310 nightly",
        "Invoice INV/2231/7 was paid by the user",
        "Ferreday lent the user a tent",
    ):
        remember(subject, statement)
    forbidden = set()
    forbidden.add(remember(other_tenant_subject, "User met Odalys Brannock at ZX-9041").record_id)
    forbidden.add(remember(subject, "User met Zebulon about billing", purpose="billing").record_id)
    deleted = remember(subject, "User wrote to Anouk about the harbour").record_id
    erase(subject, "memory", deleted)
    forbidden.add(deleted)
    expired = remember(subject, "User saw Tiberio Quillon at the harbour").record_id
    MemoryRecord.objects.filter(pk=expired).update(expires_at=timezone.now() - timedelta(minutes=1))
    forbidden.add(expired)
    old = remember(subject, "User's best friend is Vesna", predicate="best_friend").record_id
    remember(subject, "User's best friend is Marisol", predicate="best_friend")
    forbidden.add(old)
    for sensitivity, statement in (
        ("confidential", "User told Vesna Odalys about build-77310"),
        ("restricted", "User asked Brannock to keep ZX-9041 quiet"),
    ):
        forbidden.add(remember(subject, statement, sensitivity=sensitivity).record_id)
    forbidden.discard(None)  # a write the policy refused: nothing to find either
    return forbidden


def _route(subject: Subject, question: str, speakers: frozenset[str], settings, on: bool):
    settings.ENGRAM_RETRIEVAL = {**settings.ENGRAM_RETRIEVAL, "ONE_TRIGRAM_READ": on}
    now = timezone.now()
    scope = RecallScope(subject.tenant_id, subject.id, None, "internal")
    request = RecallRequest(query=question, purpose=PURPOSE)
    q = RouteQuery(
        eligible=Eligible.of(scope, request, None, as_of=now, now=now),
        scope=scope,
        request=request,
        weights=RecallWeights(),
        subject_ids=[subject.id],
        query_vector=None,  # the trigram route never reads it
        scope_names=speakers,
    )
    with tenant_context(subject.tenant_id):
        return search_trigram(q), q


word = st.one_of(
    st.sampled_from(HELD + NOWHERE + IDS + FILLER),
    st.builds(_typo, st.sampled_from(HELD + NOWHERE + IDS), st.integers(0, 12)),
    st.builds(str.lower, st.sampled_from(HELD + IDS)),
)


@pytest.mark.parametrize("compiled", [True, False])
def test_one_read_finds_what_the_reference_finds(
    owner_subject, other_tenant_user, settings, compiled
):
    settings.ENGRAM_RETRIEVAL = {**settings.ENGRAM_RETRIEVAL, "COMPILED_QUERIES": compiled}
    forbidden = _corpus(owner_subject, other_tenant_user[1])
    assert len(forbidden) >= 6
    found_any = []

    @hypothesis_settings(
        max_examples=60,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(
        words=st.lists(word, min_size=1, max_size=10),
        speakers=st.sets(st.sampled_from(HELD + NOWHERE), max_size=2),
    )
    def check(words: list[str], speakers: set[str]) -> None:
        question = "Where " + " ".join(words) + "?"
        names = frozenset(s.lower() for s in speakers)
        reference, _ = _route(owner_subject, question, names, settings, on=False)
        fast, _ = _route(owner_subject, question, names, settings, on=True)
        assert fast == reference, question
        assert not forbidden & {rid for rid, _ in fast}
        found_any.append(bool(fast))

    check()
    # Held names, a typo of one, an id and a typo of it: found, and the same both ways.
    for question, speakers in (
        ("Did the user meet Odalys or Brannok?", frozenset()),
        ("What happened to ZX-9014 and INV/2231/7?", frozenset()),
        ("What did Marysol cook with Quillon?", frozenset({"marisol"})),
        ("Where did Vesna meet Tiberio and Anouk?", frozenset()),
    ):
        reference, q = _route(owner_subject, question, speakers, settings, on=False)
        fast, _ = _route(owner_subject, question, speakers, settings, on=True)
        assert fast == reference, question
        assert not forbidden & {rid for rid, _ in fast}
        found_any.append(bool(fast))
    assert sum(found_any) >= 3


def test_a_large_scope_takes_the_references_path(owner_subject, other_tenant_user, settings):
    _corpus(owner_subject, other_tenant_user[1])
    _, q = _route(owner_subject, "Did the user meet Odalys?", frozenset(), settings, on=True)
    with tenant_context(owner_subject.tenant_id):
        assert route_trigram_in_one_read(q)  # a small scope: answered here
        q.__dict__["statistics"] = (10_000, 12.0)  # as a large scope counts
        assert route_trigram_in_one_read(q) is None


def test_a_recall_answers_as_the_reference(
    read_agent, owner_subject, other_tenant_user, same_tenant_user, settings
):
    _corpus(owner_subject, other_tenant_user[1])
    withdrawn = same_tenant_user[1]
    remember(withdrawn, "User met Odalys at the harbour")
    Subject.objects.filter(pk=withdrawn.pk).update(consent_withdrawn_at=timezone.now())
    withdrawn.refresh_from_db()
    as_of = timezone.now()

    def answer(subject: Subject, question: str, on: bool) -> tuple:
        settings.ENGRAM_RETRIEVAL = {
            **settings.ENGRAM_RETRIEVAL,
            "ONE_TRIGRAM_READ": on,
            "FREEZE_ACCESS": True,
        }
        result = recall(read_agent.agent, subject, question, as_of=as_of, record_trace=False)
        items = [(i.id, i.scores, i.use, i.use_reason) for i in result.items]
        return items, result.context_pack, result.empty_reason

    questions = (
        "Where did the user meet Odalys?",
        "Who fixed the bicycle, Brannok or Zebulon?",
        "Is ticket ZX-9014 closed?",
        "What did Tiberio and Anouk see at the harbour?",
    )
    for question in questions:
        reference = answer(owner_subject, question, on=False)
        assert answer(owner_subject, question, on=True) == reference, question
    assert answer(owner_subject, questions[0], on=False)[0]
    for on in (False, True):
        items, _, reason = answer(withdrawn, questions[0], on=on)
        assert items == [] and reason == "consent_withdrawn"
