"""Golden set v4: params (see __init__.py)."""

from __future__ import annotations

from datetime import date

SEED = 4_2026_1129


SPLIT = "heldout"


D = date


LAST_DAY = D(2026, 11, 10)  # nothing is learnt after this (the bench runs "now")
