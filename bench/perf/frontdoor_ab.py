"""What ``./dev run``'s front door (core/frontdoor.py) costs a request, and what it buys.

One real ``./dev run`` on a throw-away data directory (the demo tenant; two sync workers
behind the front door). Requests alternate, in blocks, between the front door (TCP) and
gunicorn's own Unix socket behind it: the same workers and database, only the extra hop
differs. Then the same with 50 idle connections held open on the front door. Every recall
question is unique (each one is embedded). Prints p50 / p95 of /healthz and recall.

    .venv/bin/python bench/perf/frontdoor_ab.py --requests 200
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.helpers.dev_run import DevRun  # noqa: E402


def _q(values: list[float], n: int) -> float:
    return statistics.quantiles(values, n=100)[n - 1] * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=200, help="per route and path")
    parser.add_argument("--block", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp).chmod(0o755)
        run = DevRun(Path(tmp) / "engram").start()
        try:
            sock = str(run.data_dir / "run" / "gunicorn.sock")
            direct = httpx.Client(
                transport=httpx.HTTPTransport(uds=sock), base_url="http://127.0.0.1", timeout=60
            )
            door = httpx.Client(base_url=run.url, timeout=60)
            asked = iter(range(10**6))

            def measure(label: str, idle: int) -> None:
                times: dict[tuple[str, str], list[float]] = {}
                with ExitStack() as stack:
                    for _ in range(idle):
                        stack.enter_context(socket.create_connection(("127.0.0.1", run.port)))
                    for block in range(0, args.requests, args.block):
                        order = [("door", door), ("direct", direct)]
                        if (block // args.block) % 2:
                            order.reverse()
                        for name, client in order:
                            for _ in range(args.block):
                                for route in ("healthz", "recall"):
                                    started = time.perf_counter()
                                    if route == "healthz":
                                        r = client.get("/healthz")
                                    else:
                                        r = client.post(
                                            "/api/v1/recall",
                                            json={
                                                "query": f"How should answers be written, case {next(asked)}?",
                                                "purpose": "personalization",
                                            },
                                            headers=run.headers(),
                                        )
                                    assert r.status_code == 200, r.text
                                    times.setdefault((route, name), []).append(
                                        time.perf_counter() - started
                                    )
                for (route, name), values in sorted(times.items()):
                    print(
                        f"{label:<22} {route:<8} {name:<7} n={len(values)} "
                        f"p50 {_q(values, 50):6.1f} ms  p95 {_q(values, 95):6.1f} ms"
                    )

            load = os.getloadavg()[0]
            measure("quiet", 0)
            measure("50 idle connections", 50)
            print(f"load average at start {load:.2f}, at end {os.getloadavg()[0]:.2f}")
        finally:
            run.stop()


if __name__ == "__main__":
    main()
