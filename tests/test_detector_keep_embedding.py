"""bench/detectors/keep_embedding.py stores a column kept from the old weights exactly as the
old file did (a re-rounded column moved an ordinary turn sitting on the transient line across
it: docs/write-policy.md, fourteenth round, learned heads)."""

from __future__ import annotations

import numpy as np

from bench.detectors.keep_embedding import merged_scale


def _stored(col: np.ndarray, scale: float) -> np.ndarray:
    # As weights.npz stores a column and memory.detectors.learned.Model reads it back.
    return (col / scale).astype(np.float16).astype(np.float32) * scale


def test_a_kept_column_is_stored_exactly_as_before():
    rng = np.random.default_rng(0)
    raw = rng.normal(0, 3, 5000).astype(np.float32)
    old_scale = float(np.abs(raw).max() / 60000.0)
    old = _stored(raw, old_scale)
    new_peak = float(np.abs(raw).max()) * 1.02  # a new column a little larger
    scale = merged_scale(new_peak, old_scale, ("transient",))
    assert scale == old_scale
    assert np.array_equal(_stored(old, scale), old)
    # The scale of the merged peak alone (what the script used) re-rounds the kept column.
    assert not np.array_equal(_stored(old, new_peak / 60000.0), old)


def test_the_peak_decides_when_nothing_is_kept_or_it_does_not_fit():
    assert merged_scale(6.0, 1e-4, ()) == 6.0 / 60000.0
    # 70,000 steps of the old scale would overflow float16 (65,504).
    assert merged_scale(7.0, 1e-4, ("future",)) == 7.0 / 60000.0
