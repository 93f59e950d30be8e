"""Shared benchmark plumbing: a real gunicorn serving Engram on loopback, a bench tenant
with credentials, percentile maths and a text plot for the console."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")


def django_setup() -> None:
    import django

    django.setup()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """gunicorn with sync workers (the production shape), bound to loopback only.

    ``bench_db`` serves an already loaded bench database instead (recall_perf, locomo):
    production settings on it (``bench.perf.perf_settings``), ``./dev run``'s gunicorn
    config (start-up self-test, per-worker warm-up), OpenMP threads as the caller set them.
    Use as a context manager, or ``start()`` / ``stop()``."""

    def __init__(
        self,
        workers: int = 2,
        env: dict[str, str] | None = None,
        *,
        port: int | None = None,
        bench_db: str | None = None,
    ) -> None:
        self.port = port or free_port()
        self.workers = workers
        self.extra_env = env or {}
        self.bench_db = bench_db
        self.proc: subprocess.Popen | None = None

    def _command_and_env(self) -> tuple[list[str], dict[str, str]]:
        command = [sys.executable, "-m", "gunicorn", "config.wsgi"]
        if self.bench_db:
            command += ["--config", "python:config.gunicorn"]
            env = {
                **os.environ,
                "ENGRAM_BENCH_DB": self.bench_db,
                "DJANGO_SETTINGS_MODULE": "bench.perf.perf_settings",
                "PYTHONPATH": str(ROOT),
            }
        else:
            # As ./dev run: web workers connect as the application role, one OpenMP
            # thread each.
            command += ["--no-control-socket"]
            env = {
                **os.environ,
                "ENGRAM_SUBJECT_TOKEN_MAX_AGE": "3600",
                "LOG_LEVEL": "WARNING",
                "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS", "1"),
            }
        command += [
            "--bind",
            f"127.0.0.1:{self.port}",
            "--workers",
            str(self.workers),
            "--log-level",
            "warning",
        ]
        return command, {**env, **self.extra_env}

    def start(self) -> Server:
        command, env = self._command_and_env()
        self.proc = subprocess.Popen(command, cwd=ROOT, env=env)
        # The bench-database servers wait for the schema, as their own copies did.
        path = "/api/v1/schema" if self.bench_db else "/healthz"
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                conn.request("GET", path)
                response = conn.getresponse()
                response.read()
                if self.bench_db or response.status == 200:
                    return self
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError("gunicorn did not come up within 60 s")

    def stop(self) -> None:
        if self.proc:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(timeout=30)
            self.proc = None

    def __enter__(self) -> Server:
        return self.start()

    def worker_pids(self) -> list[int]:
        assert self.proc is not None
        out = subprocess.run(
            ["pgrep", "-P", str(self.proc.pid)], capture_output=True, text=True
        ).stdout
        return [int(p) for p in out.split()]

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def process_cpu_s(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (0 if it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def postgres_pids(root: Path) -> list[int]:
    """The embedded PostgreSQL of the checkout at ``root``: its postmaster and every child
    (backends, WAL writer, checkpointer); [] when it does not run there."""
    try:
        postmaster = int((root / ".engram" / "pgdata" / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return []
    out = subprocess.run(["pgrep", "-P", str(postmaster)], capture_output=True, text=True)
    return [postmaster, *(int(p) for p in out.stdout.split())]


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Client:
    def __init__(self, port: int, key: str, subject_token: str) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.headers = {
            "Authorization": f"Bearer {key}",
            "X-Engram-Subject-Token": subject_token,
            "Content-Type": "application/json",
        }

    def post(self, path: str, body: Any) -> tuple[int, Any, float]:
        payload = json.dumps(body)
        start = time.perf_counter()
        self.conn.request("POST", path, payload, self.headers)
        response = self.conn.getresponse()
        data = response.read()
        elapsed = time.perf_counter() - start
        return response.status, json.loads(data), elapsed


def bench_credentials(tenant_slug: str, external_id: str) -> tuple[str, str]:
    """A fresh tenant-scoped agent key and a subject token for a new subject."""
    from accounts.models import Agent, Tenant
    from accounts.services.credentials import api_key_issue
    from accounts.services.tenants import agent_create, tenant_create
    from core.actor import Actor
    from memory.services.subject_tokens import subject_token_issue
    from memory.services.subjects import subject_get_or_create

    tenant = Tenant.objects.filter(slug=tenant_slug).first() or tenant_create(
        slug=tenant_slug, name="Benchmarks"
    )
    actor = Actor.system(tenant.id, "bench")
    agent = Agent.objects.filter(tenant=tenant, name="bench").first() or agent_create(
        actor=actor, tenant=tenant, name="bench"
    )
    _, key = api_key_issue(actor=actor, agent=agent, scopes=["read", "write"], label="bench")
    subject = subject_get_or_create(tenant_id=tenant.id, kind="user", external_id=external_id)
    return key, subject_token_issue(tenant_id=tenant.id, agent_id=agent.id, subject_id=subject.id)


def backend_cpu_ms(connection):
    """A reader of the CPU time, in ms, that ``connection``'s PostgreSQL backend has spent
    (``/proc/PID/schedstat``: the embedded or a local server only)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        schedstat = Path(f"/proc/{cursor.fetchone()[0]}/schedstat")
    return lambda: int(schedstat.read_text().split()[0]) / 1e6


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def histogram(values_ms: list[float], bins: int = 12, width: int = 46) -> str:
    lo, hi = min(values_ms), percentile(values_ms, 99)
    step = (hi - lo) / bins or 1
    counts = [0] * bins
    for v in values_ms:
        counts[min(int((v - lo) / step), bins - 1)] += 1
    top = max(counts)
    lines = []
    for i, c in enumerate(counts):
        bar = "█" * round(c / top * width) if top else ""
        lines.append(f"  {lo + i * step:7.2f}–{lo + (i + 1) * step:7.2f} ms │{bar} {c}")
    return "\n".join(lines)


def progress(done: int, total: int, label: str) -> None:
    """A bar redrawn in place on a terminal; a line every 25 % when piped to a file."""
    filled = int(30 * done / total)
    bar = f"  {label} [{'#' * filled}{'.' * (30 - filled)}] {done}/{total}"
    if sys.stdout.isatty():
        print("\r" + bar, end="\n" if done == total else "", flush=True)
    elif done == total or done % max(1, total // 4) == 0:
        print(bar, flush=True)


def machine() -> str:
    cpus = os.cpu_count()
    mem = next(
        (
            ln.split()[1]
            for ln in Path("/proc/meminfo").read_text().splitlines()
            if ln.startswith("MemTotal")
        ),
        "?",
    )
    return f"{cpus} CPU, {int(mem) // 1024 // 1024} GiB RAM, Python {sys.version.split()[0]}"


def summary(values_s: list[float]) -> dict[str, float]:
    ms = [v * 1000 for v in values_s]
    return {
        "n": len(ms),
        "p50_ms": round(percentile(ms, 50), 2),
        "p95_ms": round(percentile(ms, 95), 2),
        "mean_ms": round(statistics.fmean(ms), 2),
    }
