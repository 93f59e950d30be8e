"""A /rerank server on 127.0.0.1 for the reranker tests (both wire shapes and the failure
modes), recording what it was sent."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler

from tests.helpers.http_stub import serve


class _Rerank(BaseHTTPRequestHandler):
    """A /rerank server: scores a document containing ``favourite`` 0.9, others 0.1."""

    mode = "cohere"
    favourite = ""
    seen: list[dict] = []

    def do_POST(self):  # noqa: N802 (http.server's naming)
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        cls = type(self)
        cls.seen.append({"path": self.path, "body": body})
        docs = body.get("documents") if cls.mode != "tei" else body.get("texts")
        docs = docs or []
        scores = [0.9 if cls.favourite and cls.favourite in d else 0.1 for d in docs]
        if cls.mode == "slow":
            time.sleep(1.0)
        if cls.mode == "error":
            self.send_response(500)
            self.end_headers()
            return
        if cls.mode == "tei":
            data = json.dumps([{"index": i, "score": s} for i, s in enumerate(scores)]).encode()
        elif cls.mode == "malformed":
            data = b'{"results": [{"index": 0, "relevance_score": '  # cut off
        else:
            results = [{"index": i, "relevance_score": s} for i, s in enumerate(scores)]
            data = json.dumps({"results": results[::-1]}).encode()  # any order
        send_json(self, data)

    def log_message(self, *args):
        pass


def send_json(handler: BaseHTTPRequestHandler, data: bytes) -> None:
    """A 200 JSON answer; a client that already gave up (a timeout test) is no error."""
    try:
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)
    except BrokenPipeError:
        pass


@contextmanager
def rerank_server() -> Iterator[str]:
    """Serve ``_Rerank`` (reset) until the block ends; yields its base URL."""
    _Rerank.seen, _Rerank.mode, _Rerank.favourite = [], "cohere", ""
    with serve(_Rerank) as url:
        yield url
