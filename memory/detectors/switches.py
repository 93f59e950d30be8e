"""The detection shortcuts' switches, read from the settings once per change of them.

Each candidate asks about thirty times whether a detection shortcut is on (the literal
prefilter per rule list, ``normalize_text`` per content key, the text forms): every
``settings.configured and settings.ENGRAM_WRITE_BATCH.get(…)`` goes through Django's lazy
settings object, about a microsecond each. ``detection_switch`` answers from the values
read once, forgotten whenever Django says a setting changed (``setting_changed``:
``override_settings`` and pytest-django's ``settings`` fixture send it) and by a reset of
the process state.

``ENGRAM_DETECTOR_SWITCHES_ONCE`` (default on) keeps them; off, every question reads the
settings (the reference). tests/memory/test_detector_plumbing.py shows a change of the
settings seen at once either way.
"""

from __future__ import annotations

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver

from core.process_state import memoized


@memoized("memory.detectors.switches", maxsize=1)
def _read() -> tuple[dict, bool]:
    batch = dict(settings.ENGRAM_WRITE_BATCH) if settings.configured else {}
    return batch, bool(batch.get("SWITCHES_ONCE"))


def detection_switch(key: str) -> bool:
    """Whether ``ENGRAM_WRITE_BATCH[key]`` is on (False before settings are configured)."""
    batch, once = _read()
    if not once:
        _read.cache_clear()
    return bool(batch.get(key))


def detection_switches() -> dict:
    """``ENGRAM_WRITE_BATCH`` as ``detection_switch`` reads it (empty before settings are
    configured), for a caller that asks about several switches at once: one read, where
    each ``detection_switch`` would read again (``search_any`` asks four, 35 times a
    candidate). Read it with ``.get(key)``; do not change it."""
    batch, once = _read()
    if not once:
        _read.cache_clear()
    return batch


@receiver(setting_changed)
def _forget(*, setting: str, **_kwargs) -> None:
    if setting == "ENGRAM_WRITE_BATCH":
        _read.cache_clear()
