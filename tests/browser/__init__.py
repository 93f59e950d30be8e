"""Real-browser tests (Playwright driving Debian's Chromium; the fixtures and ``login``
are in tests/helpers/browser.py, registered for the whole suite from tests/conftest.py)."""
