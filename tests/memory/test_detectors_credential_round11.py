"""Round 11 of issue 32: credentials in chat-style answers, code snippets, mixed-script
digits, card security numbers, one-time codes and ja/ko/zh-Hant nouns. Probe 11's halves
(tests/data/detector_probe11_credential_*.jsonl) were written before any change; they are
floors here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memory.detectors.secrets import find_secrets

_DATA = Path(__file__).resolve().parents[1] / "data"
# Positives refused by the rules alone, and store-labelled sentences refused (measured;
# main before round 11: tuning 29/42 with 1/28, reporting 29/42 with 0/28).
_FLOORS = {"tune": (29, 1), "report": (29, 0)}


@pytest.mark.parametrize("name", sorted(_FLOORS))
def test_probe11_floors_with_the_rules_alone(name):
    path = _DATA / f"detector_probe11_credential_{name}.jsonl"
    rows = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
    caught = sum(bool(find_secrets(r["text"])) for r in rows if r["label"] == "refuse")
    wrong = sum(bool(find_secrets(r["text"])) for r in rows if r["label"] == "store")
    floor, ceiling = _FLOORS[name]
    assert caught >= floor and wrong <= ceiling, (name, caught, wrong)
