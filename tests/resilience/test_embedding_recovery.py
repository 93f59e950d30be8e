"""Acknowledged memories get their vectors, whatever happens to the process embedding them,
and a batch of long statements does not stall recall. A real ``./dev run`` (two gunicorn
workers, each with its after-commit embedding thread and periodic sweep):

1. recall's latency is measured quiet, then while the workers embed 60 statements of
   7,900 characters (the figures are printed: p50/p95 quiet and loaded; the mechanism
   that keeps them close — questions and memories embedded by separate instances — is
   asserted in tests/memory/test_indexing_resilience.py);
2. both workers are killed with SIGKILL mid-batch, losing their queues; gunicorn starts
   new ones, whose sweep embeds what was lost: the index lag on /metrics returns to 0
   without anyone acting.
"""

from __future__ import annotations

import os
import re
import signal
import statistics
import time

import httpx
import pytest

from tests.helpers.dev_run import DevRun
from tests.helpers.live_server import preference

TOKEN = "resilience-scrape-token"
LONG = 7900


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    base = tmp_path_factory.mktemp("embedding")
    base.chmod(0o755)
    run = DevRun(
        base / "engram",
        env={"ENGRAM_INDEX_SWEEP_SECONDS": "5", "ENGRAM_METRICS_TOKEN": TOKEN},
    )
    try:
        yield run.start()
    finally:
        run.stop()


def _metric(run: DevRun, name: str) -> float:
    r = httpx.get(run.url + "/metrics", headers={"Authorization": f"Bearer {TOKEN}"}, timeout=30)
    assert r.status_code == 200
    m = re.search(rf"^{name} ([0-9.e+-]+)$", r.text, re.M)
    assert m, name
    return float(m.group(1))


def _long_statement(i: int) -> str:
    words = [f"topic{i}-{j} garden weather reading travel music cooking" for j in range(200)]
    return (f"User's long note number {i}: " + " ".join(words))[:LONG]


_asked = iter(range(10**6))


def _recall_times(run: DevRun, n: int) -> list[float]:
    """Each question new, so each is embedded (none comes from the query cache)."""
    times = []
    for _ in range(n):
        started = time.perf_counter()
        r = run.recall(query=f"What does the user prefer, case {next(_asked)}?", timeout=60)
        times.append(time.perf_counter() - started)
        assert r.status_code == 200
    return times


def _p95(times: list[float]) -> float:
    return statistics.quantiles(times, n=20)[-1]


def test_long_statements_then_killed_workers_and_the_lag_returns_to_zero(served):
    _recall_times(served, 5)  # warm
    quiet = _recall_times(served, 30)
    for start in range(0, 60, 10):
        r = httpx.post(
            served.url + "/api/v1/candidates",
            json={"candidates": [preference(_long_statement(i)) for i in range(start, start + 10)]},
            headers=served.headers(),
            timeout=60,
        )
        assert r.status_code == 200, r.text
    loaded = _recall_times(served, 30)
    print(
        f"\nrecall quiet p50 {statistics.median(quiet) * 1000:.0f} ms p95 "
        f"{_p95(quiet) * 1000:.0f} ms; while embedding 60 x {LONG} chars: p50 "
        f"{statistics.median(loaded) * 1000:.0f} ms p95 {_p95(loaded) * 1000:.0f} ms "
        f"(ratio p95 {_p95(loaded) / _p95(quiet):.2f}; load {os.getloadavg()[0]:.2f})"
    )
    lag = _metric(served, "engram_index_lag_records")
    assert lag > 0, "the workers finished before they could be killed"
    assert _metric(served, "engram_index_lag_oldest_seconds") > 0
    workers = served.gunicorn_workers()
    assert len(workers) == 2
    for pid in workers:
        os.kill(pid, signal.SIGKILL)
    killed_at = time.monotonic()
    while time.monotonic() - killed_at < 600:
        try:
            lag = _metric(served, "engram_index_lag_records")
        except (httpx.TransportError, AssertionError):
            lag = None  # workers restarting
        if lag == 0:
            break
        time.sleep(1)
    print(f"index lag back to 0 {time.monotonic() - killed_at:.1f} s after the kill")
    assert lag == 0, served.log_tail()
    assert _metric(served, "engram_index_lag_oldest_seconds") == 0
    assert set(served.gunicorn_workers()).isdisjoint(workers)
