"""API helpers: the one error shape every refusal takes, and an event body."""

from __future__ import annotations


def assert_error(response, status: int, code: str | None = None):
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"code", "message", "extra"}, body
    assert body["message"]
    if code:
        assert body["code"] == code, body
    return body


def event(i: int = 1, **kw):
    body = {
        "client_event_id": f"turn-{i}",
        "kind": "message",
        "role": "user",
        "content": f"message {i}",
        "thread_id": "t1",
    }
    body.update(kw)
    return body
