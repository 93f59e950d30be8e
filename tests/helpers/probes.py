"""The probe sets under ``tests/data/`` (one labelled sentence a line, written before the
round that tuned on them): read them, and count what a detector does with them."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data"


def probe_rows(name: str) -> list[dict]:
    """The rows of ``tests/data/<name>.jsonl``."""
    text = (DATA / f"{name}.jsonl").read_text("utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def caught_and_wrong(
    name: str, detect: Callable[[str], object], positive: str = "refuse"
) -> tuple[int, int]:
    """(positives ``detect`` finds something in, store-labelled rows it finds something in)."""
    rows = probe_rows(name)
    caught = sum(bool(detect(r["text"])) for r in rows if r["label"] == positive)
    wrong = sum(bool(detect(r["text"])) for r in rows if r["label"] == "store")
    return caught, wrong
