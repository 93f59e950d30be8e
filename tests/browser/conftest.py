"""Fixtures shared by the browser tests of the pages (Alice, her memories, her page)."""

from tests.browser.test_my_memories import alice_page, memories

__all__ = ["alice_page", "memories"]
