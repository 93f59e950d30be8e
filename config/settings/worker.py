"""Settings of Celery worker and beat processes (``DJANGO_SETTINGS_MODULE=
config.settings.worker celery -A config worker``): the application role, like web
processes, so every job runs under row-level security. ENGRAM_DB_CONNECT_AS=owner
overrides it."""

from .base import *  # noqa: F403
from .base import ENGRAM, assume_app_role, databases, env

DB_CONNECT_AS = env("ENGRAM_DB_CONNECT_AS", default="app")
DATABASES = databases(DB_CONNECT_AS)
ENGRAM = {**ENGRAM, "DB_ASSUME_APP_ROLE": assume_app_role(DATABASES)}
