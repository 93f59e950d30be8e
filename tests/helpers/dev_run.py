"""A real ``./dev run`` on a throw-away data directory and port: the embedded PostgreSQL,
migrations, the demo tenant, gunicorn's workers and the front door, exactly as a person
starts Engram. The resilience tests break its parts (the postmaster, a backend, a worker,
the disk) and watch it heal from outside, over HTTP.

Optionally the data directory sits on its own small tmpfs (``small_disk_mb``), so a test
can fill the disk without touching the machine's (root only)."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import psycopg

from core.db import embedded_postgres as ep

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def mount_small_disk(path: Path, size_mb: int) -> bool:
    """A tmpfs of ``size_mb`` at ``path``; False where mounting is not allowed."""
    path.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size_mb}m,mode=0755", "tmpfs", str(path)],
        capture_output=True,
    )
    return done.returncode == 0


def unmount(path: Path) -> None:
    subprocess.run(["umount", "-l", str(path)], capture_output=True)


@dataclass
class DevRun:
    data_dir: Path
    port: int = field(default_factory=free_port)
    env: dict[str, str] = field(default_factory=dict)
    proc: subprocess.Popen | None = None
    output: list[str] = field(default_factory=list)
    api_key: str = ""
    subject_token: str = ""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pgdata(self) -> Path:
        return self.data_dir / "pgdata"

    def start(self, timeout: float = 300) -> DevRun:
        env = {
            **{
                k: v
                for k, v in os.environ.items()
                if k
                not in {
                    "DATABASE_URL",
                    "ENGRAM_DB_NAME",
                    "DJANGO_SETTINGS_MODULE",
                    "REDIS_URL",
                    "CELERY_BROKER_URL",
                    "ENGRAM_DB_CONNECT_AS",
                }
            },
            "ENGRAM_DATA_DIR": str(self.data_dir),
            "ENGRAM_BIND": f"127.0.0.1:{self.port}",
            "WEB_CONCURRENCY": "2",
            **self.env,
        }
        self.proc = subprocess.Popen(
            ["./dev", "run"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        threading.Thread(target=self._drain, daemon=True).start()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError("./dev run exited:\n" + self.log_tail())
            health = self.healthz()
            if health is not None and health[0] == 200 and self.api_key:
                return self
            time.sleep(0.5)
        self.stop()
        raise AssertionError("./dev run did not serve in time:\n" + self.log_tail())

    def _drain(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        for line in self.proc.stdout:
            self.output.append(line)
            if m := re.search(r"Agent API key:\s+(\S+)", line):
                self.api_key = m.group(1)
            if m := re.search(r"Subject token:\s+(\S+)", line):
                self.subject_token = m.group(1)

    def log_tail(self, lines: int = 60) -> str:
        return "".join(self.output[-lines:])

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=30)
        # ./dev run stops the database it started; a server still up (a run killed before
        # it got there) is stopped here.
        deadline = time.monotonic() + 30
        while ep.running_pid(self.pgdata) and time.monotonic() < deadline:
            time.sleep(0.5)
        if ep.running_pid(self.pgdata):
            try:
                ep.stop_embedded_postgres(self.pgdata)
            except subprocess.CalledProcessError:
                pass  # it stopped meanwhile

    # --- talking to it ----------------------------------------------------------------

    def healthz(self, timeout: float = 5) -> tuple[int, dict] | None:
        try:
            r = httpx.get(self.url + "/healthz", timeout=timeout)
        except httpx.TransportError:
            return None
        try:
            return r.status_code, r.json()
        except ValueError:
            return r.status_code, {}

    def headers(self) -> dict[str, str]:
        return {
            "Authorization": f"Bearer {self.api_key}",
            "X-Engram-Subject-Token": self.subject_token,
        }

    def recall(self, query: str = "How should answers be written?", timeout: float = 30):
        return httpx.post(
            self.url + "/api/v1/recall",
            json={"query": query, "purpose": "personalization"},
            headers=self.headers(),
            timeout=timeout,
        )

    def superuser(self) -> psycopg.Connection:
        lines = (self.pgdata / "postmaster.pid").read_text().splitlines()
        return psycopg.connect(
            host=lines[4].strip(), user=ep.SUPERUSER, dbname=ep.DATABASE_NAME, autocommit=True
        )

    def gunicorn_workers(self) -> list[int]:
        master = int((self.data_dir / "run" / "gunicorn.pid").read_text())
        out = subprocess.run(
            ["pgrep", "-P", str(master)], capture_output=True, text=True
        ).stdout.split()
        return [int(p) for p in out]

    def supervisor(self) -> dict:
        """The supervision state every process shares (empty before any restart)."""
        path = self.pgdata.parent / f".{self.pgdata.name}.supervisor.json"
        return json.loads(path.read_text()) if path.exists() else {}
