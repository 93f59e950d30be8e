"""What the Python client costs a turn when Engram is hung or down, with the default
deadlines, and what the LangGraph store's bulk writes cost.

    .venv/bin/python -m bench.perf.client_outage [--rounds 5]

Starts its own Engram (gunicorn, one worker, the dev database — run ``./dev run`` once
first), then per round with a fresh client (a closed breaker):

- hung: every worker stopped (SIGSTOP): a recall, a queued write, a third call, and a call
  once the breaker is open;
- down: a closed port: a recall (three refused attempts with backoff) and a call once the
  breaker is open;
- the LangGraph store: 150 puts for one user through ``batch`` (bulk) and one by one.

Prints p50 / max per step in milliseconds, with the machine's load.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.quality.experiment_20_turns import _own_engram, ensure_client  # noqa: E402


def _workers(pid: int) -> list[int]:
    return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def preference(statement: str) -> dict:
    return {
        "memory_type": "semantic",
        "namespace": "assistant/profile",
        "statement": statement,
        "assertion_kind": "user_explicit",
        "confidence": 1.0,
        "purpose": "personalization",
        "consent_basis": "explicit_consent",
    }


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    ensure_client()
    from engramhq_client import EngramClient, Timeouts
    from engramhq_client.langgraph import EngramStore
    from langgraph.store.base import PutOp

    from bench._harness import free_port

    server, key, admin = _own_engram()
    steps: dict[str, list[float]] = {}

    def note(step: str, ms: float) -> None:
        steps.setdefault(step, []).append(ms)

    with server:
        url = f"http://127.0.0.1:{server.port}"
        patient = Timeouts(recall=60, read=60, write=60)
        with EngramClient(url, key, admin_api_key=admin, timeouts=patient) as warm:
            warm.for_user("bench").remember(preference("User likes tea"))
            warm.for_user("bench").recall("tea", "personalization")
        for _ in range(args.rounds):
            outbox = Path(f"/tmp/engram-outage-{uuid.uuid4().hex}.sqlite")
            with EngramClient(url, key, admin_api_key=admin, outbox=outbox) as c:
                alice = c.for_user("bench")
                alice.recall("tea", "personalization")  # token cached, connection open
                workers = _workers(server.proc.pid)
                for pid in workers:
                    os.kill(pid, signal.SIGSTOP)
                try:
                    t = time.perf_counter()
                    assert alice.recall("tea", "personalization").degraded
                    note("hung: recall (degraded)", _ms(t))
                    t = time.perf_counter()
                    alice.remember(preference(f"User noted {uuid.uuid4().hex[:6]}"))
                    note("hung: write (queued)", _ms(t))
                    t = time.perf_counter()
                    alice.recall("tea", "personalization")
                    note("hung: third call", _ms(t))
                    t = time.perf_counter()
                    alice.recall("tea", "personalization")
                    note("hung: breaker open", _ms(t))
                finally:
                    for pid in workers:
                        os.kill(pid, signal.SIGCONT)
            outbox.unlink(missing_ok=True)
            with EngramClient(f"http://127.0.0.1:{free_port()}", key) as down:
                bob = down.for_subject("x:y:z")
                t = time.perf_counter()
                bob.recall("tea", "personalization")
                note("closed port: recall (degraded)", _ms(t))
                t = time.perf_counter()
                bob.recall("tea", "personalization")
                note("closed port: breaker open", _ms(t))
            with EngramClient(url, key, admin_api_key=admin, timeouts=patient) as c:
                store = EngramStore(c, namespace_prefix=("users",))
                user = f"u{uuid.uuid4().hex[:8]}"
                store.get(("users", user, "notes"), "warm")  # the token
                ops = [
                    PutOp(("users", user, "notes"), f"k{i}", {"text": f"User noted item {i}"})
                    for i in range(150)
                ]
                t = time.perf_counter()
                store.batch(ops)
                note("store: 150 puts through batch", _ms(t))
                t = time.perf_counter()
                for op in ops:
                    store.put(op.namespace, op.key + "b", op.value)
                note("store: 150 puts one by one", _ms(t))
    load = os.getloadavg()[0]
    print(f"{args.rounds} rounds, load {load:.1f}, {os.cpu_count()} vCPU")
    print("| step | p50 ms | max ms |\n|---|---|---|")
    for step, values in steps.items():
        print(f"| {step} | {statistics.median(values):.0f} | {max(values):.0f} |")


if __name__ == "__main__":
    main()
