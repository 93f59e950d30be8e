"""What engramhq_client costs per call on top of a bare HTTP request.

    .venv/bin/python -m bench.perf.client_overhead [--calls 300]

Starts its own Engram (gunicorn, one worker, loopback, the configured database; a fresh
tenant per run), then times the same operations alternately through a raw ``httpx.Client``
(same keep-alive connection, hand-built headers and JSON) and through
``engramhq_client.SubjectClient`` (typed models, retries/breaker bookkeeping, error mapping,
outbox check). Operations: ``GET /api/v1/memories`` (a cheap read) and ``POST
/api/v1/recall``. Prints p50/p95 per path and the difference of the medians.

On a loaded machine the server's time swamps the client's, so the same comparison is then
repeated without a network: both paths talk to an ``httpx.MockTransport`` that answers with
the bodies the server just returned. That isolates the client's own cost per call (building
the request, parsing into typed models, breaker and outbox bookkeeping).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=300)
    args = parser.parse_args(argv)
    calls = max(10, min(args.calls, 5000))

    import httpx
    from engramhq_client import EngramClient, Outbox

    from bench._harness import machine
    from bench.quality.experiment_20_turns import _own_engram

    server, key, admin = _own_engram()
    with server:
        url = f"http://127.0.0.1:{server.port}"
        outbox = Outbox(Path("/tmp") / f"engram-bench-outbox-{uuid.uuid4().hex[:6]}.sqlite")
        with EngramClient(url, key, admin_api_key=admin, outbox=outbox) as client:
            token = client.issue_subject_token("bench-user").token
            subject = client.for_subject(token)
            for i in range(20):
                subject.remember(
                    {
                        "memory_type": "semantic",
                        "namespace": "assistant/profile",
                        "statement": f"User fact number {i} about hiking trails",
                        "assertion_kind": "user_explicit",
                        "confidence": 1.0,
                        "purpose": "personalization",
                        "consent_basis": "explicit_consent",
                    }
                )
            headers = {
                "Authorization": f"Bearer {key}",
                "X-Engram-Subject-Token": token,
                "X-Request-ID": "bench",
            }
            raw = httpx.Client(base_url=url, timeout=30)
            ops = {
                "GET /memories": (
                    lambda: raw.get("/api/v1/memories", params={"limit": 20}, headers=headers),
                    lambda: subject.list_memories(limit=20),
                ),
                "POST /recall": (
                    lambda: raw.post(
                        "/api/v1/recall",
                        json={"query": "hiking trails", "purpose": "personalization", "k": 5},
                        headers=headers,
                    ).json(),
                    lambda: subject.recall("hiking trails", "personalization", k=5),
                ),
            }
            print(f"machine: {machine()}; {calls} calls per path, alternating")
            for name, (raw_call, client_call) in ops.items():
                for _ in range(10):  # warm both paths
                    raw_call()
                    client_call()
                raw_ms, client_ms = [], []
                for _ in range(calls):
                    t = time.perf_counter()
                    raw_call()
                    raw_ms.append((time.perf_counter() - t) * 1000)
                    t = time.perf_counter()
                    client_call()
                    client_ms.append((time.perf_counter() - t) * 1000)
                diff = statistics.median(client_ms) - statistics.median(raw_ms)
                print(
                    f"{name:14} raw httpx p50 {percentile(raw_ms, 0.5):6.2f} ms  p95 "
                    f"{percentile(raw_ms, 0.95):6.2f} ms | engramhq_client p50 "
                    f"{percentile(client_ms, 0.5):6.2f} ms  p95 {percentile(client_ms, 0.95):6.2f}"
                    f" ms | overhead (median) {diff:+.2f} ms"
                )
            raw.close()

            # The client's own cost: no server, canned bodies from the runs above.
            bodies = {
                "/api/v1/memories": raw_body(url, "/api/v1/memories", headers, None),
                "/api/v1/recall": raw_body(
                    url,
                    "/api/v1/recall",
                    headers,
                    {"query": "hiking trails", "purpose": "personalization", "k": 5},
                ),
            }

            def answer(request: httpx.Request) -> httpx.Response:
                return httpx.Response(200, content=bodies[request.url.path])

            offline_raw = httpx.Client(
                base_url="http://engram.invalid", transport=httpx.MockTransport(answer)
            )
            offline = EngramClient(
                "http://engram.invalid",
                key,
                transport=httpx.MockTransport(answer),
                outbox=outbox,
            ).for_subject(token)
            offline_ops = {
                "GET /memories": (
                    lambda: offline_raw.get(
                        "/api/v1/memories", params={"limit": 20}, headers=headers
                    ).json(),
                    lambda: offline.list_memories(limit=20),
                ),
                "POST /recall": (
                    lambda: offline_raw.post(
                        "/api/v1/recall",
                        json={"query": "hiking trails", "purpose": "personalization", "k": 5},
                        headers=headers,
                    ).json(),
                    lambda: offline.recall("hiking trails", "personalization", k=5),
                ),
            }
            n = calls * 10
            print(f"without a network (httpx.MockTransport, the same bodies), {n} calls per path")
            for name, (raw_call, client_call) in offline_ops.items():
                raw_ms, client_ms = [], []
                for _ in range(n):
                    t = time.perf_counter()
                    raw_call()
                    raw_ms.append((time.perf_counter() - t) * 1000)
                    t = time.perf_counter()
                    client_call()
                    client_ms.append((time.perf_counter() - t) * 1000)
                print(
                    f"{name:14} raw httpx p50 {percentile(raw_ms, 0.5):6.3f} ms  p95 "
                    f"{percentile(raw_ms, 0.95):6.3f} ms | engramhq_client p50 "
                    f"{percentile(client_ms, 0.5):6.3f} ms  p95 {percentile(client_ms, 0.95):6.3f}"
                    f" ms | overhead p50 {percentile(client_ms, 0.5) - percentile(raw_ms, 0.5):+.3f}"
                    f" ms, p95 {percentile(client_ms, 0.95) - percentile(raw_ms, 0.95):+.3f} ms"
                )


def raw_body(url: str, path: str, headers: dict[str, str], body: dict | None) -> bytes:
    import httpx

    if body is None:
        return httpx.get(url + path, params={"limit": 20}, headers=headers, timeout=30).content
    return httpx.post(url + path, json=body, headers=headers, timeout=30).content


if __name__ == "__main__":
    main()
