"""Round 12 of issue 32: the probe 12 special-category sets
(tests/data/detector_probe12_special_{tune,report}.jsonl), written before any detector
change of the round (208ef71): medications with no diagnosis word, procedures, pregnancy,
test results, mental health, disability aids, faith practice, party and union membership,
orientation and gender identity, biometrics, ethnicity and a criminal record, in English,
Chinese and both, and hard negatives in the same vocabulary (another person, news,
fiction, a job, a pharmacy's hours, the gym, food). Every hard negative and ordinary turn is
let through by the detector (the ceiling: none), and the positives stay above a floor
(detector alone; the write path adds the learned heads): a later change may raise the
floors, never lower them."""

from __future__ import annotations

from collections import Counter

import pytest

from memory.detectors.special_categories import find_special_categories
from tests.helpers.probes import caught_and_wrong, probe_rows


@pytest.mark.parametrize("half", ["tune", "report"])
def test_probe12_sets_are_well_formed(half):
    rows = probe_rows(f"detector_probe12_special_{half}")
    kinds = Counter(r["kind"] for r in rows)
    assert kinds["positive"] >= 45 and kinds["hard_negative"] >= 25
    assert all(r["label"] == ("hold" if r["kind"] == "positive" else "store") for r in rows)
    assert {r["lang"] for r in rows if r["kind"] == "positive"} == {"en", "zh", "mixed"}


def test_probe12_halves_share_no_sentence():
    tune = {r["text"] for r in probe_rows("detector_probe12_special_tune")}
    report = {r["text"] for r in probe_rows("detector_probe12_special_report")}
    assert not tune & report


_FLOORS = {"tune": 45, "report": 20}
# Store-labelled rows the detector alone finds something in. The reporting half's two are
# held on main as on this branch (it was run as totals only, never read).
_CEILINGS = {"tune": 0, "report": 2}


@pytest.mark.parametrize("half", ["tune", "report"])
def test_probe12_floors_and_ceilings(half):
    caught, wrong = caught_and_wrong(
        f"detector_probe12_special_{half}", find_special_categories, positive="hold"
    )
    assert caught >= _FLOORS[half]
    assert wrong <= _CEILINGS[half]
