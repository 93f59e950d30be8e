"""The offline arithmetic of ``bench/quality/gate_rules.py``: what recall would answer with
the speaker gate at a share and ``named_speaker_outweighed`` on or off, from one recorded
answer at share 0, and which member a rotation chooses by round 3's guard."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bench.quality.gate_rules import gate_rule, guard_choice, score


def _side(n=1, fused=0.5, coverage=0.5, vector=0.85, margin=0.05):
    return {"n": n, "fused": fused, "coverage": coverage, "vector": vector, "margin": margin}


def _row(conv, category, own, against, stating=None, evidence=("D1:1",), dia=("D1:1",)):
    return {
        "conversation": conv,
        "category": category,
        "evidence": list(evidence),
        "speaker": {"own": own, "against": against, "stating": stating or against},
        "items": [list(dia)],
    }


def test_the_share_reads_the_fused_ratio():
    row = _row("a", 1, _side(fused=0.5), _side(fused=1.0))
    assert gate_rule(0.6)(row)
    assert not gate_rule(0.5)(row)


def test_outweighed_needs_every_reading_in_the_others_favour():
    ahead = _side(fused=1.0, coverage=0.8, vector=0.87, margin=0.08)
    row = _row("a", 5, _side(fused=0.9, coverage=0.3, vector=0.85, margin=0.05), ahead)
    assert not gate_rule(0.6)(row)
    assert gate_rule(0.6, outweighed=True)(row)
    tied = _row("a", 5, _side(fused=0.9, coverage=0.8, vector=0.85, margin=0.05), ahead)
    assert not gate_rule(0.6, outweighed=True)(tied)
    # only asking turns on the other side: nothing stated against the speaker
    asking = _row("a", 5, _side(fused=0.9, coverage=0.3), ahead, stating=_side(n=0))
    assert not gate_rule(0.6, outweighed=True)(asking)


def test_no_speaker_takes_no_side():
    row = {"conversation": "a", "category": 1, "evidence": ["D1:1"], "speaker": None}
    row["items"] = [["D1:1"]]
    assert not gate_rule(0.99, outweighed=True)(row)


def test_score_counts_recall_abstention_and_empty_answers():
    rows = [
        _row("a", 1, _side(fused=1.0), _side(fused=0.5)),  # answered, evidence found
        _row("a", 2, _side(fused=0.1), _side(fused=1.0)),  # abstains: an empty answer
        _row("a", 5, _side(fused=0.1), _side(fused=1.0)),  # adversarial, abstains
    ]
    assert score(rows, gate_rule(0.6)) == {"a": {"r10": 0.5, "abst": 1.0, "empty": 1}}


def test_the_guard_keeps_the_baseline_unless_a_member_holds_recall_and_empty_answers():
    results = {
        "base": {
            "x": {"r10": 0.8, "abst": 0.3, "empty": 2},
            "y": {"r10": 0.8, "abst": 0.3, "empty": 2},
        },
        "more": {
            "x": {"r10": 0.8, "abst": 0.5, "empty": 2},
            "y": {"r10": 0.8, "abst": 0.4, "empty": 2},
        },
        "costly": {
            "x": {"r10": 0.79, "abst": 0.9, "empty": 2},
            "y": {"r10": 0.8, "abst": 0.9, "empty": 2},
        },
    }
    assert guard_choice(results, "base", ["x", "y"]) == "more"
    assert guard_choice({k: results[k] for k in ("base", "costly")}, "base", ["x", "y"]) == "base"


@given(share=st.floats(0, 1), fused=st.floats(0.01, 1), other=st.floats(0.01, 1))
def test_outweighed_only_adds_abstentions(share, fused, other):
    row = _row("a", 5, _side(fused=fused, coverage=0.2), _side(fused=other, coverage=0.9))
    if gate_rule(share)(row):
        assert gate_rule(share, outweighed=True)(row)
