"""Golden set v3: params (see __init__.py)."""

from __future__ import annotations

SEED = 3_141_2026


SPLIT = "heldout"
