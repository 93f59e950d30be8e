"""Settings of the web process (gunicorn through config/wsgi.py): the application role,
so row-level security applies to every request. ENGRAM_DB_CONNECT_AS=owner overrides it."""

from .base import *  # noqa: F403
from .base import (
    DEBUG,
    ENGRAM,
    SECRET_KEY,
    assume_app_role,
    databases,
    env,
    production_secret_key_check,
)

DB_CONNECT_AS = env("ENGRAM_DB_CONNECT_AS", default="app")
DATABASES = databases(DB_CONNECT_AS)
ENGRAM = {**ENGRAM, "DB_ASSUME_APP_ROLE": assume_app_role(DATABASES)}

# A production role never starts with a key everyone knows (base.py says why).
production_secret_key_check(SECRET_KEY, DEBUG)
