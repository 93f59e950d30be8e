"""No client can starve the rest: ``./dev run``'s front door (core/frontdoor.py) holds idle
and slow clients itself, so gunicorn's two sync workers only ever see complete requests.

Against the real stack: 50 idle connections and a few that trickle their headers a byte
at a time, then ``/healthz`` and a recall must still answer within a second (the issue's
bound; the figures are printed). The same clients against gunicorn bound directly
(``ENGRAM_FRONTDOOR=0``, what ``./dev run`` did before) starve it: the check can fail.
Chunked request bodies work through both."""

from __future__ import annotations

import json
import socket
import statistics
import time
from contextlib import ExitStack

import httpx
import pytest

from tests.helpers.dev_run import DevRun
from tests.helpers.live_server import preference


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    base = tmp_path_factory.mktemp("slow-clients")
    base.chmod(0o755)
    run = DevRun(base / "engram")
    try:
        yield run.start()
    finally:
        run.stop()


@pytest.fixture(scope="module")
def bare(tmp_path_factory):
    """gunicorn's sync workers bound directly (no front door), on a data directory of its
    own (a second ./dev run on the same one would share its pid file and demo key)."""
    base = tmp_path_factory.mktemp("bare")
    base.chmod(0o755)
    run = DevRun(base / "engram", env={"ENGRAM_FRONTDOOR": "0"})
    try:
        yield run.start()
    finally:
        run.stop()


def _idle(port: int, stack: ExitStack, n: int) -> list[socket.socket]:
    held = []
    for _ in range(n):
        s = stack.enter_context(socket.create_connection(("127.0.0.1", port), timeout=5))
        held.append(s)
    return held


def _trickle(sockets: list[socket.socket], text: bytes) -> None:
    for s in sockets:
        try:
            s.send(text)
        except OSError:
            pass


def _timed(call) -> tuple[float, int]:
    started = time.perf_counter()
    status = call()
    return time.perf_counter() - started, status


def test_fifty_idle_and_slow_clients_do_not_starve_healthz_or_recall(served):
    assert served.recall().status_code == 200  # warm
    with ExitStack() as stack:
        idle = _idle(served.port, stack, 50)
        slow = _idle(served.port, stack, 5)
        _trickle(slow, b"POST /api/v1/recall HTTP/1.1\r\n")
        time.sleep(1.0)  # every connection is accepted and waiting
        health, recalls = [], []
        for _ in range(5):
            _trickle(slow, b"X")  # a byte now and then: never a complete header line
            health.append(_timed(lambda: httpx.get(served.url + "/healthz", timeout=5).status_code))
            recalls.append(_timed(lambda: served.recall(timeout=5).status_code))
        print(
            f"\nwith 50 idle + 5 trickling connections: /healthz "
            f"{[round(t * 1000) for t, _ in health]} ms, recall "
            f"{[round(t * 1000) for t, _ in recalls]} ms"
        )
        assert all(status == 200 for _, status in health + recalls)
        assert max(t for t, _ in health) < 1.0
        assert statistics.median(t for t, _ in recalls) < 1.0
        # The idle ones are still open (held by the front door, not dropped to make room).
        assert sum(1 for s in idle if _still_open(s)) == len(idle)


def _still_open(s: socket.socket) -> bool:
    s.setblocking(False)
    try:
        return s.recv(1, socket.MSG_PEEK) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        s.setblocking(True)


def test_idle_clients_starve_gunicorn_without_the_front_door(bare):
    """The failure the front door prevents: two idle connections hold both sync workers."""
    assert httpx.get(bare.url + "/healthz", timeout=10).status_code == 200
    with ExitStack() as stack:
        _idle(bare.port, stack, 2)
        time.sleep(0.5)
        with pytest.raises(httpx.TimeoutException):
            httpx.get(bare.url + "/healthz", timeout=2)


def _chunked(url: str, headers: dict, body: bytes) -> httpx.Response:
    def pieces():
        for start in range(0, len(body), 700):
            yield body[start : start + 700]

    return httpx.post(
        url,
        content=pieces(),  # a generator: httpx sends Transfer-Encoding: chunked
        headers={**headers, "Content-Type": "application/json"},
        timeout=30,
    )


@pytest.mark.parametrize("through", ["front door", "gunicorn directly"])
def test_chunked_request_bodies_work(served, bare, through):
    run = served if through == "front door" else bare
    body = json.dumps(
        {"candidates": [preference(f"Prefers chunked answers, variant {through}")]}
    ).encode()
    r = _chunked(run.url + "/api/v1/candidates", run.headers(), body)
    assert r.request.headers.get("Transfer-Encoding") == "chunked"
    assert r.status_code == 200, r.text
    assert r.json()["results"][0]["operation"] in {"ADD", "CONFIRM", "SUPERSEDE"}


@pytest.mark.parametrize("through", ["front door", "gunicorn directly"])
def test_a_chunked_body_over_the_limit_is_refused_in_the_api_shape(served, bare, through):
    run = served if through == "front door" else bare
    big = json.dumps({"candidates": [preference("x" * 1000)] * 1500}).encode()
    assert len(big) > 1_048_576 + 65536
    r = _chunked(run.url + "/api/v1/candidates", run.headers(), big)
    assert r.status_code == 413
    assert r.json()["code"] == "payload_too_large"
