"""The leave-one-out arithmetic of ``bench/quality/locomo.py --loco`` (bench/quality/loco.py):
which variant each rotation chooses on the other conversations, how it does on the held-out
one, and which variants survive (helping in every rotation, on the two it is chosen on and
on the one held out)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bench.quality.loco import BASELINE, format_result, leave_one_out, per_variant_table


def test_a_variant_that_helps_everywhere_is_chosen_and_kept():
    scores = {
        BASELINE: {"a": 0.70, "b": 0.72, "c": 0.74},
        "better": {"a": 0.73, "b": 0.75, "c": 0.76},
    }
    result = leave_one_out(scores)
    assert [r.chosen for r in result.rotations] == ["better"] * 3
    assert result.kept == ["better"]
    assert result.mean_held_out == pytest.approx((0.73 + 0.75 + 0.76) / 3)
    assert result.mean_baseline_held_out == pytest.approx(0.72)


def test_a_variant_fitted_to_two_conversations_is_dropped_when_the_third_loses():
    # Great on a and b, worse on c: the rotation holding out c chooses it on a and b, and
    # it loses there, so it is not kept even though it wins the other two rotations' dev.
    scores = {
        BASELINE: {"a": 0.70, "b": 0.70, "c": 0.70},
        "fitted": {"a": 0.80, "b": 0.80, "c": 0.60},
    }
    result = leave_one_out(scores)
    by_held = {r.held_out: r for r in result.rotations}
    assert by_held["c"].chosen == "fitted"
    assert by_held["c"].gain == pytest.approx(-0.10)
    assert result.kept == []


def test_a_variant_losing_on_a_conversation_no_rotation_chose_it_for_is_not_kept():
    # "wide" is chosen only when c is held out (and helps there), but it loses on a: it
    # does not help in every rotation, so it is not kept.
    scores = {
        BASELINE: {"a": 0.70, "b": 0.70, "c": 0.70},
        "wide": {"a": 0.69, "b": 0.75, "c": 0.72},
        "narrow": {"a": 0.74, "b": 0.71, "c": 0.71},
    }
    result = leave_one_out(scores)
    assert result.kept == ["narrow"]


def test_ties_go_to_the_baseline():
    scores = {BASELINE: {"a": 0.5, "b": 0.5}, "same": {"a": 0.5, "b": 0.5}}
    result = leave_one_out(scores)
    assert {r.chosen for r in result.rotations} == {BASELINE}
    assert result.kept == []


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="baseline"):
        leave_one_out({"x": {"a": 1.0, "b": 1.0}})
    with pytest.raises(ValueError, match="two conversations"):
        leave_one_out({BASELINE: {"a": 1.0}})
    with pytest.raises(ValueError, match="not scored"):
        leave_one_out({BASELINE: {"a": 1.0, "b": 1.0}, "x": {"a": 1.0}})


score = st.floats(min_value=0, max_value=1, allow_nan=False)


@given(
    st.dictionaries(
        st.sampled_from(["v1", "v2", "v3"]),
        st.fixed_dictionaries({"a": score, "b": score, "c": score}),
        max_size=3,
    ),
    st.fixed_dictionaries({"a": score, "b": score, "c": score}),
)
def test_the_choice_never_sees_the_held_out_conversation(variants, baseline):
    scores = {BASELINE: baseline, **variants}
    result = leave_one_out(scores)
    for r in result.rotations:
        dev = [c for c in "abc" if c != r.held_out]
        best_dev = max(sum(s[c] for c in dev) / 2 for s in scores.values())
        assert r.chosen_on_dev == pytest.approx(best_dev)
        # Changing only the held-out conversation's scores never changes the choice.
        shifted = {v: {**s, r.held_out: 1 - s[r.held_out]} for v, s in scores.items()}
        again = {x.held_out: x for x in leave_one_out(shifted).rotations}[r.held_out]
        assert again.chosen == r.chosen
    for kept in result.kept:
        assert all(scores[kept][c] > baseline[c] for c in "abc")
    assert len(format_result(result)) == len(result.rotations) + 3
    assert len(per_variant_table(scores)) == len(scores) + 1
