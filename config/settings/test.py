"""Test settings: the same database engine as production (real PostgreSQL with pgvector,
migrations applied), faster password hashing."""

from .base import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
DEBUG = False
