"""Golden set v2: params (see __init__.py)."""

from __future__ import annotations

SEED = 20261129


N_SUBJECTS = 28


SPLITS = ("tune", "heldout")
