"""Malformed input is refused at the edge with a 4xx in the API's error shape, never a 500
and never a misleading "retry it": NUL characters, lone surrogates, deep nesting, NaN,
bad UTF-8, oversized bodies and headers (core/edge.py, config/gunicorn.py)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection

from tests.helpers.cast import candidate

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def _event(**overrides):
    body = {"client_event_id": "e1", "kind": "message", "role": "user", "content": "hello"}
    body.update(overrides)
    return body


def _raw_post(api, path: str, raw: str | bytes, **kw):
    return api.post(path, raw, content_type="application/json", **kw)


def _assert_shape(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content[:300]
    body = response.json()
    assert set(body) == {"code", "message", "extra"}
    assert body["code"] == code, body
    return body


# --- NUL ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        # a NUL inside event metadata (a value), and as a key
        json.dumps({"events": [_event(metadata={"note": "a\u0000b"})]}),
        json.dumps({"events": [_event(metadata={"k\u0000": "v"})]}),
        # in the content itself, spelled as an escape
        '{"events": [{"client_event_id": "e1", "kind": "message", "role": "user", '
        '"content": "x\\u0000y"}]}',
    ],
)
def test_nul_in_event_is_400_nul_character(api, raw):
    body = _assert_shape(_raw_post(api, "/api/v1/events", raw), 400, "nul_character")
    assert body["extra"]["path"].startswith("$")


@pytest.mark.parametrize(
    "value", ["Hang\u0000zhou", {"city": "Hang\u0000zhou"}, ["a", ["b\u0000"]]]
)
def test_nul_in_candidate_value_is_400_not_a_retry_hint(api, value):
    raw = json.dumps({"candidates": [candidate(value=value)]})
    body = _assert_shape(_raw_post(api, "/api/v1/candidates", raw), 400, "nul_character")
    assert "retry" not in body["message"].lower()


def test_nul_in_query_string_is_400(api):
    _assert_shape(api.get("/api/v1/memories?q=a%00b"), 400, "nul_character")


# --- Unicode -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        '{"events": [{"client_event_id": "e1", "kind": "message", "role": "user", '
        '"content": "x", "metadata": {"\\ud800": 1}}]}',  # a lone surrogate as a key
        '{"events": [{"client_event_id": "e1", "kind": "message", "role": "user", '
        '"content": "\\udfff tail"}]}',  # a lone low surrogate in a value
    ],
)
def test_lone_surrogate_is_400_invalid_unicode(api, raw):
    _assert_shape(_raw_post(api, "/api/v1/events", raw), 400, "invalid_unicode")


def test_paired_surrogates_are_fine(api):
    # "\ud83d\ude00" is one emoji written as a surrogate pair: valid.
    raw = (
        '{"events": [{"client_event_id": "e1", "kind": "message", "role": "user", '
        '"content": "I like \\ud83d\\ude00 and 杭州"}]}'
    )
    response = _raw_post(api, "/api/v1/events", raw)
    assert response.status_code == 200, response.content
    assert response.json()["results"][0]["event_id"]


def test_invalid_utf8_is_400(api):
    _assert_shape(
        _raw_post(api, "/api/v1/events", b'{"events": [{"content": "\xff\xfe"}]}'),
        400,
        "invalid_encoding",
    )


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_malformed_json(api, constant):
    raw = json.dumps({"candidates": [candidate()]}).replace(
        '"confidence": 1.0', f'"confidence": {constant}'
    )
    _assert_shape(_raw_post(api, "/api/v1/candidates", raw), 400, "malformed_json")


# --- nesting and size -------------------------------------------------------------------


@pytest.mark.parametrize("depth", [33, 1_000, 100_000])
def test_deep_value_is_400_json_too_deep(api, depth):
    raw = json.dumps({"candidates": [candidate(value="PLACEHOLDER")]}).replace(
        '"PLACEHOLDER"', "[" * depth + "1" + "]" * depth
    )
    body = _assert_shape(_raw_post(api, "/api/v1/candidates", raw), 400, "json_too_deep")
    assert body["extra"]["max_depth"] == 32


def test_deep_object_keys_are_400(api):
    raw = '{"a":' * 50_000 + "1" + "}" * 50_000
    _assert_shape(_raw_post(api, "/api/v1/recall", raw), 400, "json_too_deep")


def test_modest_nesting_is_accepted(api):
    value = {"trip": {"legs": [{"from": "Shanghai", "to": "Hangzhou", "stops": [["a", "b"]]}]}}
    raw = json.dumps({"candidates": [candidate(value=value, predicate="next_trip")]})
    response = _raw_post(api, "/api/v1/candidates", raw)
    assert response.status_code == 200, response.content
    assert response.json()["results"][0]["operation"] in ("ADD", "QUARANTINE", "REJECT")
    assert response.json()["results"][0]["reason_code"] != "storage_conflict"


def test_body_over_the_limit_is_413(api, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 2_000
    raw = json.dumps({"events": [_event(content="x" * 5_000)]})
    _assert_shape(_raw_post(api, "/api/v1/events", raw), 413, "payload_too_large")


# --- headers --------------------------------------------------------------------------


def test_huge_header_is_431_in_the_api_shape(api):
    body = _assert_shape(
        api.get("/api/v1/memories", HTTP_X_PADDING="a" * 10_000), 431, "header_too_large"
    )
    assert body["extra"]["max_header_bytes"] == 8192


def test_many_headers_together_are_431(api):
    headers = {f"HTTP_X_PAD_{i}": "b" * 4_000 for i in range(10)}
    _assert_shape(api.get("/api/v1/memories", **headers), 431, "header_too_large")


def test_ordinary_headers_pass(api):
    response = api.get("/api/v1/memories", HTTP_X_REQUEST_ID="r" * 64)
    assert response.status_code != 431


def test_header_limits_do_not_apply_outside_the_api(client):
    response = client.get("/healthz", HTTP_X_PADDING="a" * 10_000)
    assert response.status_code != 431


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _http(port: int, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port)) as conn:
        conn.sendall(request)
        chunks = []
        while True:
            data = conn.recv(65536)
            if not data:
                break
            chunks.append(data)
    return b"".join(chunks)


@pytest.mark.django_db(transaction=True)
def test_gunicorn_passes_a_10kb_header_to_the_api(tmp_path):
    """Against a real gunicorn with config/gunicorn.py: a 10 KB header is answered by the
    API (JSON 431), not by gunicorn's HTML page."""
    port = _free_port()
    # The test database (migrated): gunicorn's start-up self-test refuses an unmigrated one.
    env = {
        **os.environ,
        "ENGRAM_SKIP_WARM_UP": "1",
        "WEB_CONCURRENCY": "1",
        "ENGRAM_DB_NAME": connection.settings_dict["NAME"],
    }
    server = subprocess.Popen(
        [
            str(Path(sys.executable).with_name("gunicorn")),
            "config.wsgi",
            "--config",
            "python:config.gunicorn",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "1",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(900):  # wait for the socket (bounded: 90 s on a loaded machine)
            try:
                socket.create_connection(("127.0.0.1", port)).close()
                break
            except OSError:
                time.sleep(0.1)
        raw = _http(
            port,
            b"GET /api/v1/memories HTTP/1.0\r\nHost: 127.0.0.1\r\n"
            + b"X-Padding: "
            + b"a" * 10_000
            + b"\r\n\r\n",
        )
        head, _, payload = raw.partition(b"\r\n\r\n")
        assert head.split(b"\r\n")[0].split(b" ")[1] == b"431", head
        assert b"application/json" in head
        assert json.loads(payload)["code"] == "header_too_large"
    finally:
        server.terminate()
        server.wait(timeout=30)
