"""Round 11 of issue 32: the probe 11 special-category sets
(tests/data/detector_probe11_special_{tune,report}.jsonl), written before any detector
change of the round: a condition by a test value or a body part's trouble, a care routine,
an accessibility aid, a faith's dietary rule, a political act, criminal-justice contact,
immigration paperwork, an identity told through a partner or a community, and the families
round 10 left. Every hard negative and ordinary turn is let through by the detector, and
the positives stay above a floor (detector alone; the write path adds the learned heads):
a later change may raise the floors, never lower them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memory.detectors.special_categories import find_special_categories

DATA = Path(__file__).resolve().parents[1] / "data"


def _probe(name: str) -> list[dict]:
    lines = (DATA / f"detector_probe11_special_{name}.jsonl").read_text("utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


@pytest.mark.parametrize("name", ["tune", "report"])
def test_probe11_negatives_and_ordinary_turns_pass(name):
    held = [
        r["text"]
        for r in _probe(name)
        if r["label"] == "store" and find_special_categories(r["text"])
    ]
    assert held == []


_FLOORS = {"tune": 47, "report": 39}


@pytest.mark.parametrize("name", ["tune", "report"])
def test_probe11_positives_stay_caught(name):
    caught = sum(
        1 for r in _probe(name) if r["label"] == "hold" and find_special_categories(r["text"])
    )
    assert caught >= _FLOORS[name]
