"""The trigram route's bound (``ENGRAM_RECALL_TRIGRAM_BOUND``,
``memory.recall.accel.trigram_read``): a doc's word similarity to a token is computed only
if the doc holds enough of the token's trigrams to reach the floor.

The bound must be a necessary condition: every doc whose word similarity reaches the
floor passes it (PostgreSQL's own ``word_similarity`` against the bound's SQL, for tokens
and texts Hypothesis writes near each other: pieces, typos, other cases, punctuation,
letters outside ASCII), and it must leave docs out (else it saves nothing). With the bound
on, the route's hits and a recall's whole answer are the reference's (the bound off)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.utils import timezone
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from core.tenancy import tenant_context
from memory.models import Subject
from memory.recall.accel.trigram_read import GRAMS_SQL, NEED_SQL, REACHABLE_SQL
from memory.recall.routes import RouteQuery, search_trigram
from memory.recall.scope import Eligible, RecallRequest, RecallScope
from memory.recall.weights import RecallWeights
from tests.helpers.retrieval import PURPOSE, recall, remember

pytestmark = pytest.mark.django_db

# Vocabulary of its own (not LoCoMo's, not the golden sets').
NAMES = ["Ivo", "Pelle", "Saoirse", "Tamsin", "Oluwaseun", "Kwame", "Lisbeth", "Bo"]
IDS = ["QR-5521", "v2.14.3", "ab12"]
FILLER = ["sailed", "over", "the", "fjord", "with", "a", "lantern", "ivory", "pelican"]


def _reaches_and_bound(token: str, text: str, floor: float) -> tuple[bool, bool]:
    bound = REACHABLE_SQL.format(
        text="%(text)s::text",
        grams=GRAMS_SQL.format(token="%(token)s::text"),
        need=NEED_SQL.format(token="%(token)s::text", floor="%(floor)s::float8"),
    )
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT word_similarity(%(token)s, %(text)s) >= %(floor)s::float8, {bound}",
            {"token": token, "text": text, "floor": floor},
        )
        return cursor.fetchone()


def _near(token: str, cut: int, swap: int) -> list[str]:
    """Words near ``token``: a piece of it, a typo, its reverse, with a letter outside ASCII."""
    i = swap % max(1, len(token))
    return [
        token[: cut % (len(token) + 1)],
        token[cut % (len(token) + 1) :],
        token[:i] + "x" + token[i + 1 :],
        token[::-1],
        token[:i] + "é" + token[i:],
        token.upper(),
    ]


ascii_token = st.one_of(
    st.sampled_from([n.lower() for n in NAMES] + [i.lower() for i in IDS]),
    st.text(alphabet="abcdefghijklmnoprstu0123456789", min_size=1, max_size=12),
    st.builds(lambda a, b: f"{a}'{b}", st.sampled_from(["o", "d", "mc"]), st.sampled_from(NAMES)),
)
glue = st.sampled_from([" ", ", ", ": ", "-", "'", " (", "ı", "K", "\u212a", "ß", "", "_"])


@hypothesis_settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    token=ascii_token,
    cut=st.integers(0, 12),
    swap=st.integers(0, 12),
    picks=st.lists(st.integers(0, 30), min_size=1, max_size=8),
    joins=st.lists(glue, min_size=8, max_size=8),
    floor=st.sampled_from([0.0, 0.3, 0.45, 0.5, 0.6, 0.75, 0.8, 1.0]),
)
def test_every_doc_that_reaches_the_floor_passes_the_bound(token, cut, swap, picks, joins, floor):
    pool = _near(token, cut, swap) + FILLER + NAMES + [token]
    words = [pool[p % len(pool)] for p in picks]
    text = "".join(w + j for w, j in zip(words, joins, strict=False))
    reaches, bound = _reaches_and_bound(token, text, floor)
    assert bound or not reaches, (token, text, floor)


def test_the_bound_leaves_docs_out_and_keeps_the_near_ones():
    # Left out: too few of the token's trigrams, though a piece of it is there.
    assert _reaches_and_bound("vivaldo", "the song was lovely and vivid", 0.6) == (False, False)
    assert _reaches_and_bound("kwame", "we came to a wall", 0.6) == (False, False)
    # Kept: the word itself, a typo, in capitals, after punctuation.
    assert _reaches_and_bound("kwame", "Met KWAME (twice)", 0.6) == (True, True)
    assert _reaches_and_bound("tamsin", "tamsim's lantern", 0.6) == (True, True)
    # Kept, unread: a doc with a letter outside ASCII is always scored.
    assert _reaches_and_bound("kwame", "the café was shut", 0.6) == (False, True)
    # A floor of zero keeps every doc.
    assert _reaches_and_bound("kwame", "nothing alike", 0.0) == (True, True)


def _corpus(subject: Subject) -> None:
    for statement in (
        "User sailed the fjord with Ivo",
        "Pelle lent the user a lantern",
        "User's ticket QR-5521 was reopened",
        "Saoirse and the user read about pelicans",
        "User upgraded to v2.14.3 on Friday",
        "Tamsim (Tamsin?) sent the user a postcard",
        "Oluwaseun painted the user's kayak",
        "User met Kwame at the café",
        "Lisbeth's boat is ivory",
        "User and Bo walked over the bridge",
    ):
        remember(subject, statement)


def _route(subject: Subject, question: str, speakers: frozenset[str], settings, bound: bool):
    settings.ENGRAM_RETRIEVAL = {
        **settings.ENGRAM_RETRIEVAL,
        "ONE_TRIGRAM_READ": True,
        "TRIGRAM_BOUND": bound,
    }
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
        return search_trigram(q)


def _typo(word: str, i: int) -> str:
    i = i % len(word)
    return word[:i] + ("x" if word[i].lower() != "x" else "y") + word[i + 1 :]


word = st.one_of(
    st.sampled_from(NAMES + IDS + FILLER + ["Vivaldo", "Kwami", "Saorise", "QR-5512"]),
    st.builds(_typo, st.sampled_from(NAMES + IDS), st.integers(0, 12)),
)


def test_the_route_finds_what_it_finds_without_the_bound(owner_subject, settings):
    _corpus(owner_subject)
    found_any = []

    @hypothesis_settings(
        max_examples=60,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(
        words=st.lists(word, min_size=1, max_size=8),
        speakers=st.sets(st.sampled_from(NAMES), max_size=2),
    )
    def check(words: list[str], speakers: set[str]) -> None:
        question = "When " + " ".join(words) + "?"
        names = frozenset(s.lower() for s in speakers)
        reference = _route(owner_subject, question, names, settings, bound=False)
        assert _route(owner_subject, question, names, settings, bound=True) == reference
        found_any.append(bool(reference))

    check()
    for question in ("Did Kwami sail with Ivo?", "Is QR-5522 open?", "What did Oluwasean paint?"):
        reference = _route(owner_subject, question, frozenset(), settings, bound=False)
        assert reference, question  # a typo found
        assert _route(owner_subject, question, frozenset(), settings, bound=True) == reference
        found_any.append(True)
    assert sum(found_any) >= 3


def test_a_recall_answers_as_without_the_bound(read_agent, owner_subject, settings):
    _corpus(owner_subject)
    as_of = timezone.now()

    def answer(question: str, bound: bool) -> tuple:
        settings.ENGRAM_RETRIEVAL = {
            **settings.ENGRAM_RETRIEVAL,
            "TRIGRAM_BOUND": bound,
            "FREEZE_ACCESS": True,
        }
        result = recall(read_agent.agent, owner_subject, question, as_of=as_of, record_trace=False)
        items = [(i.id, i.scores, i.use, i.use_reason) for i in result.items]
        return items, result.context_pack, result.empty_reason

    for question in (
        "Did Kwami sail over the fjord with Ivo?",
        "Who lent the lantern, Pele or Vivaldo?",
        "Is ticket QR-5522 reopened?",
    ):
        reference = answer(question, bound=False)
        assert reference[0], question
        assert answer(question, bound=True) == reference, question
