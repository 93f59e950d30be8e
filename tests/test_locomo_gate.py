"""The offline arithmetic of ``bench/quality/gate_loco.py``: what recall would have answered
under a speaker share and a score floor, from one recorded answer at share 0, and which
thresholds a rotation chooses on the other conversations."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bench.quality.gate_loco import answered, choose, measure


def _row(conv, category, ratio, final, evidence=("D1:1",), dia=("D1:1",)):
    items = [{"dia": list(dia), "scores": {"final": final}}] if final is not None else []
    return {
        "conversation": conv,
        "category": category,
        "evidence": list(evidence),
        "ratio": ratio,
        "items": items,
    }


def test_the_share_abstains_under_the_ratio_and_never_without_one():
    assert answered(_row("a", 1, 0.5, 1.0), 0.6, 0.0) == []
    assert answered(_row("a", 1, 0.6, 1.0), 0.6, 0.0) == [["D1:1"]]
    # No speaker, or no other speaker's turn to weigh against: the gate takes no side.
    assert answered(_row("a", 1, None, 1.0), 0.99, 0.0) == [["D1:1"]]


def test_the_floor_reads_the_best_item():
    assert answered(_row("a", 4, None, 0.4), 0.0, 0.5) == []
    assert answered(_row("a", 4, None, 0.6), 0.0, 0.5) == [["D1:1"]]


@given(
    ratios=st.lists(st.one_of(st.none(), st.floats(0, 2)), min_size=1, max_size=20),
    low=st.floats(0, 1),
    high=st.floats(0, 1),
)
def test_a_higher_share_abstains_on_a_superset(ratios, low, high):
    low, high = sorted((low, high))
    rows = [_row("a", 5, r, 1.0) for r in ratios] + [_row("a", 1, r, 1.0) for r in ratios]
    a, b = measure(rows, low, 0.0), measure(rows, high, 0.0)
    assert b["abstained"] >= a["abstained"] and b["empty"] >= a["empty"]
    assert b["r10"] <= a["r10"]


def test_the_target_rule_abstains_most_within_the_empty_budget():
    rows = []
    for conv in ("a", "b"):
        rows += [_row(conv, 5, 0.5, 1.0), _row(conv, 5, 0.7, 1.0)]
        rows += [_row(conv, 1, 0.8, 1.0) for _ in range(20)] + [_row(conv, 1, 0.65, 1.0)]
    pairs = [(0.6, 0.0), (0.675, 0.0), (0.75, 0.0), (0.9, 0.0)]
    by_conv = {
        c: {p: measure([r for r in rows if r["conversation"] == c], *p) for p in pairs}
        for c in "ab"
    }
    # 0.675 empties one answerable of 21 (4.8 %): over a 4 % budget, within 5 %.
    assert choose(by_conv, pairs, ["a", "b"], "target", 0.04) == (0.6, 0.0)
    assert choose(by_conv, pairs, ["a", "b"], "target", 0.05) == (0.75, 0.0)
