"""Test settings: the same database engine as production (real PostgreSQL with pgvector,
migrations applied), faster password hashing."""

from .base import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
DEBUG = False

# Tests never run collectstatic: serve static files through the finders.
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True

# No background embedding thread in tests: a thread still writing when a transactional
# test flushes the database deadlocks the flush. Tests embed explicitly (or opt in).
ENGRAM_RETRIEVAL = {**ENGRAM_RETRIEVAL, "EMBED_AFTER_COMMIT": "none"}  # noqa: F405
