"""The benchmark data stays put: golden v4 is exactly what its builder produces, v1-v3 (whose
builders were retired to git history) are the files their figures were measured on, and
the re-index drift check's packaged golden set is the sample the check draws from golden v1."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from bench.golden.builders import v4
from bench.golden.builders.common import dumps
from memory.services.reindex_drift import DEFAULT_GOLDEN, drift_queries

GOLDEN = Path(__file__).resolve().parent.parent / "bench" / "golden"


# The sets the README's and docs' figures were measured on; their builders are in git history
# (before this test pinned them: `git log -- bench/golden/builders/v1.py`).
RETIRED_BUILDER_SETS = {
    1: "91b4493a960ad177c96087cacb5518fbab24aa1b3cc300da9eeb3277d5f6acae",
    2: "8af722a8d00d252f0fc65065084f6d31e9b36a8a8accdc0a268a629707a9a870",
    3: "113850ee1d29bee7e37933e90068d96db051e43416ba30af006f2242d063dce4",
}


def test_a_rebuilt_golden_v4_is_byte_identical():
    committed = (GOLDEN / "recall_v4.json").read_text(encoding="utf-8")
    assert dumps(v4.build()) == committed


@pytest.mark.parametrize("version", sorted(RETIRED_BUILDER_SETS))
def test_a_golden_set_without_a_builder_is_unchanged(version):
    data = (GOLDEN / f"recall_v{version}.json").read_bytes()
    assert hashlib.sha256(data).hexdigest() == RETIRED_BUILDER_SETS[version]
    golden = json.loads(data)
    assert golden["subjects"] and golden["queries"]


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
