"""``./dev run`` and ``./dev stop`` as a person uses them, on a throw-away data directory and
port: the run serves, a SIGTERM stops gunicorn and the embedded PostgreSQL the run started —
but never one that was already running — and ``./dev stop`` stops what is left behind. The
control socket and pid file are in the checkout's data folder, not ~/.gunicorn."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from core.db import embedded_postgres as ep

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _healthz(port: int) -> dict | None:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as r:
            return json.load(r)
    except OSError:
        return None


def _dev(*args: str, data_dir: Path, port: int, **kw) -> subprocess.Popen:
    env = {
        **{k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "ENGRAM_DB_NAME"}},
        "ENGRAM_DATA_DIR": str(data_dir),
        "ENGRAM_BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": "1",
        "DJANGO_SETTINGS_MODULE": "",
    }
    env.pop("DJANGO_SETTINGS_MODULE")
    return subprocess.Popen(
        ["./dev", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        **kw,
    )


def _serve(data_dir: Path, port: int) -> subprocess.Popen:
    run = _dev("run", data_dir=data_dir, port=port, start_new_session=True)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if (health := _healthz(port)) is not None:
            assert health["database"]["ok"] is True
            assert health["database"]["self_test"]["passed"] is True
            return run
        if run.poll() is not None:
            pytest.fail(f"./dev run exited: {run.stdout.read()}")
        time.sleep(0.5)
    run.kill()
    pytest.fail("./dev run did not serve within 300 s")


@pytest.fixture
def data_dir(tmp_path):
    tmp_path.chmod(0o755)
    yield tmp_path / "engram"
    ep.stop_embedded_postgres(tmp_path / "engram" / "pgdata")


def test_run_stops_the_database_it_started_and_leaves_a_running_one(data_dir):
    port = _free_port()
    run = _serve(data_dir, port)
    pgdata = data_dir / "pgdata"
    assert ep.running_pid(pgdata) is not None
    assert (data_dir / "run" / "gunicorn.ctl").exists()
    assert (data_dir / "run" / "gunicorn.pid").exists()

    os.killpg(run.pid, signal.SIGTERM)
    out, _ = run.communicate(timeout=120)
    assert run.returncode == 0, out
    assert "Stopping the embedded PostgreSQL this run started" in out
    first_key = _demo_key(out)
    assert (data_dir / "demo-agent-key").read_text().strip() == first_key
    assert _healthz(port) is None
    assert ep.running_pid(pgdata) is None

    # Second run: the server is already running (started by hand), so it stays up.
    ep.ensure_embedded_postgres(pgdata)
    running = ep.running_pid(pgdata)
    run = _serve(data_dir, port)
    # The demo agent's key survives the restart: a running agent keeps working.
    second = _read_until_serving(run)
    assert _demo_key(second) == first_key and "previous demo key" not in second
    run.send_signal(signal.SIGTERM)
    out, _ = run.communicate(timeout=120)
    assert run.returncode == 0, out
    assert "Stopping the embedded PostgreSQL" not in out
    assert ep.running_pid(pgdata) == running

    # ./dev stop stops what is left behind.
    stop = _dev("stop", data_dir=data_dir, port=port)
    out, _ = stop.communicate(timeout=120)
    assert stop.returncode == 0, out
    assert ep.running_pid(pgdata) is None


def _read_until_serving(run: subprocess.Popen) -> str:
    lines = []
    for line in run.stdout:
        lines.append(line)
        if "Serving Engram" in line:
            break
    return "".join(lines)


def _demo_key(output: str) -> str:
    [line] = [x for x in output.splitlines() if "Agent API key:" in x]
    return line.split("Agent API key:")[1].strip()
