"""Real-browser tests (Playwright driving Debian's Chromium).

This package shadows the module ``tests/browser.py`` (a package wins over a module of the
same name on import), so that module's fixtures are loaded from its file here and
re-exported: ``pytest_plugins = ["tests.browser"]`` and ``from tests.browser import login``
keep working, and ``tests/browser.py`` stays the one place the fixtures are defined.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location(
    "tests._browser_fixtures", Path(__file__).resolve().parent.parent / "browser.py"
)
assert _spec is not None and _spec.loader is not None
_fixtures = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_fixtures)

CHROMIUM_FLAGS = _fixtures.CHROMIUM_FLAGS
chromium_path = _fixtures.chromium_path
browser = _fixtures.browser
page = _fixtures.page
login = _fixtures.login

__all__ = ["CHROMIUM_FLAGS", "browser", "chromium_path", "login", "page"]
