"""Round 21 of issue 32: special categories read in one place, and terms other domains
borrow from medicine (memory/detectors/spec_shown.py), with the probe 21 sets
(tests/data/detector_probe21_special_{tune,report}.jsonl), committed before any rule of
the round changed. Only the tuning half's misses were read; the reporting half is counted.

The look-alike class: a medical term used by another trade (surgery on the checkout flow,
weeks along in a course, a due date for a thesis, expecting a delivery, recovery mode, 代码
移植). What the term governs decides whose word it is, so each test pairs a term governing
medicine's own complement (the body, a time, a child, nothing) with the same term governing
something else, and a Hypothesis property composes both with another person, a frame, a
negation and a future phrase."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory.detectors.spec_shown import shown_categories
from memory.detectors.special_categories import find_special_categories
from tests.helpers.probes import caught_and_wrong, probe_rows

# --- one place: what three modules read of pregnancy and procedures is read here once ---


def test_medical_forms_is_gone_and_spec_shown_reads_its_concepts():
    import importlib.util

    assert importlib.util.find_spec("memory.detectors.medical_forms") is None
    for text in (
        "I had a tonsillectomy in May.",
        "I'm recovering from a knee replacement.",
        "I saw my dermatologist about it.",
        "我去年做了阑尾切除手术。",
        "我每周去心内科复诊。",
        "I'm 28 weeks along.",
        "我怀二胎了",
        "I got a faint second line on the stick.",
        "지난달에 갑상선 절제 수술을 받았어요.",
    ):
        assert shown_categories(text) == ["health"], text


# --- the borrowed term: its complement says whose word it is ----------------------------
MEDICINES_OWN = [
    "I had surgery on my left knee in March.",
    "I'm booked in for surgery on Tuesday.",
    "I need a hip replacement.",
    "I had a kidney transplant.",
    "I had a transplant of bone marrow from my brother.",
    "I'm 20 weeks along with twins.",
    "I'm expecting our second in May.",
    "I'm in recovery from alcoholism.",
    "I've been in recovery for two years.",
    "我做了肾移植。",
    "我上个月动了手术。",
    "시각 장애가 있어요.",
]
BORROWED = [
    "I had surgery on the checkout flow.",
    "We did surgery on the old router, and I had surgery on its firmware too.",
    "I need a battery replacement.",
    "I had a transplant of the billing service.",
    "I'm 12 weeks along in the course and loving it.",
    "I'm six weeks along into the rewrite.",
    "My due date for the thesis is the 14th of May.",
    "I'm expecting our first shipment on Friday.",
    "We're expecting a delivery.",
    "I'm in recovery mode after the deadline.",
    "I'm in recovery from the launch week.",
    "我做了代码移植。",
    "我把老游戏移植到了手机上。",
    "我在医院康复科做行政工作。",
    "시스템 장애가 있어서 배포가 늦어졌어요.",
    "장애가 있는 친구를 도와요.",
]


@pytest.mark.parametrize("text", MEDICINES_OWN)
def test_a_term_governing_medicines_own_complement_is_held(text):
    assert "health" in find_special_categories(text)


@pytest.mark.parametrize("text", BORROWED)
def test_a_term_governing_another_domains_complement_is_stored(text):
    assert find_special_categories(text) == []


# --- the probe 21 sets -------------------------------------------------------------------


@pytest.mark.parametrize("half", ["tune", "report"])
def test_probe21_sets_are_well_formed(half):
    rows = probe_rows(f"detector_probe21_special_{half}")
    kinds = Counter(r["kind"] for r in rows)
    assert len(rows) >= 60 and 2 * (len(rows) - kinds["positive"]) >= len(rows)
    assert all(r["label"] == ("hold" if r["kind"] == "positive" else "store") for r in rows)
    assert {"en", "zh", "ja", "ko"} <= {r["lang"] for r in rows}


def test_probe21_halves_share_no_sentence():
    tune = {r["text"] for r in probe_rows("detector_probe21_special_tune")}
    report = {r["text"] for r in probe_rows("detector_probe21_special_report")}
    assert not tune & report


# The detector alone (no learned heads). Before the round: tune 28/37 caught, 2 of 50
# stored rows found; report 16/30 caught, 3 of 39 found. After: tune 36/37, 0; report 19/30,
# 3 (the report half read once, at the end: docs/write-policy.md, round 21).
_FLOORS = {"tune": 36, "report": 19}
_CEILINGS = {"tune": 0, "report": 3}


@pytest.mark.parametrize("half", ["tune", "report"])
def test_probe21_floors_and_ceilings(half):
    caught, wrong = caught_and_wrong(
        f"detector_probe21_special_{half}", find_special_categories, positive="hold"
    )
    assert caught >= _FLOORS[half]
    assert wrong <= _CEILINGS[half]


# --- composition: a term with medicine's complement or a borrowed one, in five forms ----
# Precedence (spec_shown): another person, a frame of news, fiction or hearsay, a negation
# and a borrowed complement each make the sentence stored; a future phrase keeps the hold.
_TERMS = [
    # (me, other, negated, future) with {} the complement slot
    (
        "I had surgery on {}.",
        "My brother had surgery on {}.",
        "I have never had surgery on {}.",
        "I'm booked in for surgery on {} next month.",
    ),
    (
        "I had a transplant of {}.",
        "My aunt had a transplant of {}.",
        "I never had a transplant of {}.",
        "I'm going in for a transplant of {} next week.",
    ),
]
_OWN = ["my knee", "my left hip", "both eyes", "my spine", "my kidney"]
_BORROWED = ["the checkout flow", "our billing service", "the old laptop", "the login page"]
_FRAMES = ["In the novel, {}", "The news said {}", "According to the article, {}"]


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(_TERMS),
    st.sampled_from(["me", "other", "negated", "future", "framed"]),
    st.booleans(),
    st.integers(0, 2),
    st.data(),
)
def test_round21_borrowed_term_precedence(term, form, own, frame_at, data):
    me, other, negated, future = term
    complement = data.draw(st.sampled_from(_OWN if own else _BORROWED))
    sentence = {
        "me": me,
        "other": other,
        "negated": negated,
        "future": future,
        "framed": _FRAMES[frame_at].format(me[0].lower() + me[1:] if frame_at else me),
    }[form].format(complement)
    held = "health" in shown_categories(sentence)
    assert held == (own and form in ("me", "future")), sentence
    if not own or form in ("other", "framed"):
        assert "health" not in find_special_categories(sentence), sentence
