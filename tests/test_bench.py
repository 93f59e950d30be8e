"""The benchmark data stays reproducible: every committed golden set is exactly what its
builder produces, and the re-index drift check's packaged golden set is the sample the
check draws from golden v1."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

from bench.golden.builders.common import dumps
from memory.services.reindex_drift import DEFAULT_GOLDEN, drift_queries

GOLDEN = Path(__file__).resolve().parent.parent / "bench" / "golden"


@pytest.mark.parametrize("version", [1, 2, 3, 4])
def test_a_rebuilt_golden_set_is_byte_identical(version):
    builder = importlib.import_module(f"bench.golden.builders.v{version}")
    committed = (GOLDEN / f"recall_v{version}.json").read_text(encoding="utf-8")
    assert dumps(builder.build()) == committed


def test_the_packaged_drift_set_is_the_checks_sample_of_golden_v1():
    v1 = json.loads((GOLDEN / "recall_v1.json").read_text(encoding="utf-8"))
    packaged = json.loads(DEFAULT_GOLDEN.read_text(encoding="utf-8"))
    sample = drift_queries(v1, 80)
    fields = ("subject", "kind", "key", "query")
    assert packaged["queries"] == [{f: q[f] for f in fields} for q in sample]
    subjects = {s["id"]: s for s in v1["subjects"]}
    for s in packaged["subjects"]:
        relevant = [m for m in subjects[s["id"]]["memories"] if m["role"] == "relevant"]
        assert s["memories"] == [{f: m[f] for f in ("key", "statement", "role")} for m in relevant]
