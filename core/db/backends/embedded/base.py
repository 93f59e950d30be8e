"""PostgreSQL on the embedded server: Django's PostgreSQL backend, except that the server is
attached to (started first if needed, started again if it died) when a connection opens,
not when settings load.

Settings name the data directory (``PGDATA``) and leave ``HOST`` empty; the first
connection fills ``HOST`` in with the server's socket directory, in the shared settings
dict, so code that reads ``connection.settings_dict`` afterwards (or a copy of it) sees
where the server listens."""

from __future__ import annotations

from pathlib import Path

import psycopg
from django.db.backends.postgresql import base

from core.db.embedded_postgres import EmbeddedPostgresError, attach


class EmbeddedServerUnavailable(psycopg.OperationalError):
    """The embedded server is down and cannot be reached now; ``retry_after`` says when
    its supervisor tries again (core/api.py puts it in the 503's Retry-After)."""

    def __init__(self, message: str, retry_after: int | None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class DatabaseWrapper(base.DatabaseWrapper):
    def get_connection_params(self) -> dict:
        try:
            server = attach(Path(self.settings_dict["PGDATA"]))
        except EmbeddedPostgresError as exc:
            # An OperationalError: Django reports it as a failed connection (the start-up
            # self-test names it; a request answers 503), with the refusal's own message.
            raise EmbeddedServerUnavailable(
                f"Engram cannot start its embedded PostgreSQL: {exc}",
                getattr(exc, "retry_after", None),
            ) from None
        self.settings_dict["HOST"] = server.socket_dir
        return super().get_connection_params()
