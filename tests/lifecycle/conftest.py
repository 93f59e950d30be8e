"""Fixtures of the lifecycle tests (their helpers, appending events and running jobs the
way a worker does: tests/helpers/lifecycle.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone


@pytest.fixture
def ago():
    now = timezone.now()
    return lambda **kw: now - timedelta(**kw)
