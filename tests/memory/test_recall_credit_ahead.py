"""``ENGRAM_RECALL_CREDIT_AHEAD``: the word routes' hits credited while the question is
embedded (``accel.credit_ahead``) give the candidates the reference gives
(``routes.credit``): the same ids in the same order, each with the same ranks, signals
(and which came through another version of a fact) and record.

A property over random hits (overlapping routes, other versions of single-valued facts
pointing at one or two values, slot values the key lookup did or did not find, equal
vector margins), then the setting inside whole recalls."""

from __future__ import annotations

import random
import uuid

from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from memory.recall.accel import credit_ahead
from memory.recall.routes import credit
from tests.helpers.retrieval import recall, remember

# A small pool, so that the routes find the same memories often.
POOL = [uuid.UUID(int=n + 1) for n in range(12)]
ids = st.sampled_from(POOL)
scores = st.floats(min_value=-1.0, max_value=1.0, allow_nan=False).map(lambda x: round(x, 3))


def _hits(draw, most: int) -> list[tuple[uuid.UUID, float]]:
    chosen = draw(st.lists(ids, max_size=most, unique=True))
    return [(rid, draw(scores)) for rid in chosen]


@st.composite
def routes_answers(draw):
    # Other versions of single-valued facts -> their slot's eligible value(s).
    old = draw(st.lists(ids, max_size=3, unique=True))
    answers_of = {
        rid: draw(st.lists(ids.filter(lambda t: t not in old), min_size=1, max_size=2, unique=True))
        for rid in old
    }
    lexical = _hits(draw, 8)
    vector = _hits(draw, 8)
    # Equal margins happen (the same text): drawn from few values.
    margins = {rid: draw(st.sampled_from([0.25, 0.25, 0.1, 0.4])) for rid, _ in vector}
    return {
        "answers_of": answers_of,
        "exact_hits": _hits(draw, 3),
        "lexical_hits": lexical,
        "trigram_hits": _hits(draw, 6),
        "recency_hits": _hits(draw, 3),
        "vector_hits": vector,
        "margins": margins,
        "coverage": {rid: draw(scores) for rid, _ in lexical},
        "slot_hits": _hits(draw, 3),
        "loaded": {rid: f"record {rid.int}" for rid in draw(st.lists(ids, max_size=8))},
    }


def _seen(candidates) -> list[tuple]:
    return [
        (rid, c.id, dict(c.ranks), c.signals.as_scores(), c.record) for rid, c in candidates.items()
    ]


def _ahead_then_finish(a: dict):
    early = credit_ahead.ahead(
        a["answers_of"],
        a["exact_hits"],
        a["lexical_hits"],
        a["trigram_hits"],
        a["recency_hits"],
        a["coverage"],
    )
    return credit_ahead.finish(
        early,
        a["answers_of"],
        a["exact_hits"],
        a["vector_hits"],
        a["margins"],
        a["slot_hits"],
        a["loaded"],
    )


@hsettings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(a=routes_answers())
def test_credited_ahead_as_the_reference_credits(a):
    reference = credit(a["answers_of"], **{k: v for k, v in a.items() if k != "answers_of"})
    finished = _ahead_then_finish(a)
    if finished is None:
        # Only when a slot value joining the key lookup is not among its candidates.
        exact_ids = {rid for rid, _ in a["exact_hits"]}
        first = {t for rid in exact_ids for t in a["answers_of"].get(rid, [rid])}
        joining = {
            t
            for rid, _ in a["slot_hits"]
            if rid not in exact_ids
            for t in a["answers_of"].get(rid, [rid])
        }
        assert joining - first
        return
    assert _seen(finished) == _seen(reference)


def test_a_slot_value_the_key_lookup_did_not_find_falls_back_to_the_reference():
    value, other = POOL[0], POOL[1]
    a = {
        "answers_of": {},
        "exact_hits": [],
        "lexical_hits": [(other, 0.5)],
        # A candidate already, but of a later ranking than the key lookup.
        "trigram_hits": [(value, 0.4)],
        "recency_hits": [],
        "vector_hits": [(value, 0.3), (other, 0.2)],
        "margins": {value: 0.3, other: 0.2},
        "coverage": {other: 0.5},
        "slot_hits": [(value, 0.9)],
        "loaded": {other: "record"},
    }
    assert _ahead_then_finish(a) is None
    reference = credit(a["answers_of"], **{k: v for k, v in a.items() if k != "answers_of"})
    assert list(reference) == [value, other]  # the key lookup's value first
    assert list(credit_ahead.ahead({}, [], [(other, 0.5)], [(value, 0.4)], [], {})) == [
        other,
        value,
    ]


def test_whole_recalls_answer_the_same(read_agent, owner_subject, settings):
    """Through recall (English and Chinese, a single-valued slot that changed, an
    identifier): the same items and scores with the setting on and off."""
    rng = random.Random(13)
    for thing in rng.sample(["kayak", "cello", "bonsai", "telescope", "chess set"], 4):
        remember(owner_subject, f"User keeps a {thing} in the shed")
    for thing in ("大提琴", "望远镜", "盆景"):
        remember(owner_subject, f"用户的阁楼里有一个{thing}")
    remember(owner_subject, "User lives in Tallinn", predicate="home_city")
    remember(owner_subject, "User now lives in Ghent", predicate="home_city")
    remember(owner_subject, "User filed ticket QZ-5521 about the heater")
    questions = [
        "What does the user keep in the shed?",
        "Where does the user live?",
        "用户的阁楼里有什么？",
        "ticket QZ-5521",
        "Which city is the user's home now?",
    ]

    def answers(on: bool) -> list:
        settings.ENGRAM_RETRIEVAL = {
            **settings.ENGRAM_RETRIEVAL,
            "FREEZE_ACCESS": True,
            "CREDIT_AHEAD": on,
        }
        return [
            [(i.id, i.scores) for i in recall(read_agent.agent, owner_subject, q).items]
            for q in questions
        ]

    reference = answers(False)
    assert any(reference)
    assert answers(True) == reference
    assert answers(False) == reference
