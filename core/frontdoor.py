"""The front door of ``./dev run``: a small asyncio HTTP/1.1 server that reads each request
whole before handing it to gunicorn, and takes each answer whole before the client reads
it — the buffering nginx does in front of gunicorn's sync workers.

Why: a sync worker serves one connection at a time, from accept to close. A client that
opens a connection and sends nothing, or a byte now and then, or reads its answer slowly,
holds that worker; two such clients held both of ``./dev run``'s workers, and 50 kept
``/healthz`` from answering for 30 s. Here an idle or slow client costs a coroutine and a
socket; a worker only ever sees a complete request and hands its answer over at once, so
it keeps the measured sync-worker setup (the question embedded on the worker's own
threads, one process per core; docs/performance.md).

Bounds (each a command-line option; ``./dev run`` passes the defaults):

- the request line and headers must arrive within ``--header-timeout`` seconds of the
  connection (or of the previous answer, on a kept-alive connection), at most
  ``--max-head-bytes``;
- the body within ``--body-timeout``, at most ``--max-body-bytes`` (413 beyond);
- a kept-alive connection idle longer than ``--keepalive`` is closed;
- the client must take the answer within ``--write-timeout``;
- at most ``--max-connections`` at once (503 beyond).

Framing: ``Content-Length`` or ``Transfer-Encoding: chunked`` (the body is de-chunked and
sent on with a length); both at once is refused (a request-smuggling shape), as is any
other transfer coding (501). ``Expect: 100-continue`` is answered here. Upstream, each
request goes on its own connection (``Connection: close``), with ``X-Forwarded-For`` set
to the client's address: a client's own ``X-Forwarded-*`` headers are dropped unless it
connects from a ``--trust-forwarded`` network. Django reads that header only because
``./dev run`` also names the front door as a trusted proxy (``ENGRAM_TRUSTED_PROXIES``,
``core/client_address.py``).

    python -m core.frontdoor --bind 127.0.0.1:8000 --upstream unix:.engram/run/gunicorn.sock

Production puts its own proxy in front (deploy/: Caddy with request and response
buffering; docs/deployment.md "Slow clients").
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import json
import logging
import re
import signal
import sys
import time
from dataclasses import dataclass, field
from http import HTTPStatus

logger = logging.getLogger("engram.frontdoor")

# Hop-by-hop headers (RFC 9110 §7.6.1) and the ones this proxy sets itself.
_HOP_BY_HOP = {
    "connection",
    "keep-alive",
    "proxy-connection",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "expect",
    "content-length",
}
_FORWARDED = {"x-forwarded-for", "x-forwarded-proto", "x-forwarded-host", "forwarded"}
_TOKEN = re.compile(rb"^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$")
_TARGET = re.compile(rb"^[\x21-\x7e]+$")
_REASONS = {
    400: "Bad Request",
    408: "Request Timeout",
    413: "Content Too Large",
    431: "Request Header Fields Too Large",
    501: "Not Implemented",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout",
    505: "HTTP Version Not Supported",
}


def _phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return ""


@dataclass(frozen=True)
class Limits:
    header_seconds: float = 10.0
    body_seconds: float = 60.0
    keepalive_seconds: float = 15.0
    write_seconds: float = 60.0
    upstream_seconds: float = 120.0
    max_head_bytes: int = 64 * 1024
    max_body_bytes: int = 8 * 1024 * 1024
    max_connections: int = 2000


@dataclass
class Refusal(Exception):
    status: int
    code: str
    message: str
    extra: dict = field(default_factory=dict)


@dataclass
class Request:
    method: str
    target: str
    version: str
    headers: list[tuple[str, str]]
    body: bytes = b""

    def values(self, name: str) -> list[str]:
        return [v for k, v in self.headers if k.lower() == name]

    @property
    def keep_alive(self) -> bool:
        tokens = {t.strip().lower() for v in self.values("connection") for t in v.split(",")}
        if self.version == "HTTP/1.0":
            return "keep-alive" in tokens
        return "close" not in tokens


def _parse_head(raw: bytes) -> Request:
    lines = raw[:-4].split(b"\r\n")
    parts = lines[0].split(b" ")
    if len(parts) != 3 or not _TOKEN.match(parts[0]) or not _TARGET.match(parts[1]):
        raise Refusal(400, "bad_request", "The request line is malformed.")
    version = parts[2].decode("latin-1")
    if version not in ("HTTP/1.0", "HTTP/1.1"):
        raise Refusal(505, "http_version", "Only HTTP/1.0 and HTTP/1.1 are served here.")
    headers = []
    for line in lines[1:]:
        name, sep, value = line.partition(b":")
        if not sep or not _TOKEN.match(name):
            # Includes obsolete line folding (a line starting with whitespace).
            raise Refusal(400, "bad_request", "A request header is malformed.")
        headers.append((name.decode("latin-1"), value.strip(b" \t").decode("latin-1")))
    return Request(parts[0].decode("latin-1"), parts[1].decode("latin-1"), version, headers)


async def _within(awaitable, deadline: float, status: int = 408):
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise Refusal(status, "request_timeout", "The request did not arrive in time.")
    try:
        return await asyncio.wait_for(awaitable, remaining)
    except TimeoutError:
        raise Refusal(status, "request_timeout", "The request did not arrive in time.") from None


async def _read_chunked(reader: asyncio.StreamReader, deadline: float, limit: int) -> bytes:
    body = bytearray()
    while True:
        line = await _within(reader.readuntil(b"\r\n"), deadline)
        size_text = line[:-2].split(b";", 1)[0].strip()
        if not size_text or not re.fullmatch(rb"[0-9A-Fa-f]{1,16}", size_text):
            raise Refusal(400, "bad_request", "A chunk size is malformed.")
        size = int(size_text, 16)
        if size == 0:
            while (await _within(reader.readuntil(b"\r\n"), deadline)) != b"\r\n":
                pass  # trailers are dropped
            return bytes(body)
        if len(body) + size > limit:
            raise Refusal(
                413,
                "payload_too_large",
                "The request body is too large. Split it into smaller batches.",
                {"max_body_bytes": limit},
            )
        body += await _within(reader.readexactly(size), deadline)
        if await _within(reader.readexactly(2), deadline) != b"\r\n":
            raise Refusal(400, "bad_request", "A chunk does not end with CRLF.")


async def _read_body(
    request: Request, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, limits: Limits
) -> bytes:
    codings = [c.strip().lower() for v in request.values("transfer-encoding") for c in v.split(",")]
    lengths = request.values("content-length")
    if codings and lengths:
        raise Refusal(
            400,
            "bad_request",
            "Send either Content-Length or Transfer-Encoding: chunked, not both.",
        )
    if codings and codings != ["chunked"]:
        raise Refusal(501, "not_implemented", "Only the chunked transfer coding is supported.")
    length = None
    if lengths:
        if len(set(lengths)) != 1 or not lengths[0].isdigit() or len(lengths[0]) > 15:
            raise Refusal(400, "bad_request", "Content-Length is malformed.")
        length = int(lengths[0])
        if length > limits.max_body_bytes:
            raise Refusal(
                413,
                "payload_too_large",
                "The request body is too large. Split it into smaller batches.",
                {"max_body_bytes": limits.max_body_bytes},
            )
    if not codings and not length:
        return b""
    if any(v.strip().lower() == "100-continue" for v in request.values("expect")):
        writer.write(b"HTTP/1.1 100 Continue\r\n\r\n")
        await writer.drain()
    deadline = time.monotonic() + limits.body_seconds
    if codings:
        return await _read_chunked(reader, deadline, limits.max_body_bytes)
    return await _within(reader.readexactly(length), deadline)


def _error_response(refusal: Refusal) -> tuple[int, list[tuple[str, str]], bytes]:
    body = json.dumps(
        {"code": refusal.code, "message": refusal.message, "extra": refusal.extra}
    ).encode()
    headers = [("Content-Type", "application/json")]
    if refusal.status in (502, 503, 504):
        headers.append(("Retry-After", "2"))
    return refusal.status, headers, body


class FrontDoor:
    def __init__(
        self,
        upstream: str,
        limits: Limits,
        trusted: list[ipaddress.IPv4Network | ipaddress.IPv6Network],
    ) -> None:
        self.upstream = upstream
        self.limits = limits
        self.trusted = trusted
        self.connections = 0

    async def _open_upstream(self):
        if self.upstream.startswith("unix:"):
            return await asyncio.open_unix_connection(self.upstream[5:], limit=2**20)
        host, _, port = self.upstream.rpartition(":")
        return await asyncio.open_connection(host, int(port), limit=2**20)

    def _forwarded_for(self, request: Request, peer: str) -> list[tuple[str, str]]:
        try:
            trusted = any(ipaddress.ip_address(peer) in net for net in self.trusted)
        except ValueError:
            trusted = False
        headers = [(k, v) for k, v in request.headers if k.lower() not in _HOP_BY_HOP | _FORWARDED]
        chain = request.values("x-forwarded-for") if trusted else []
        headers.append(("X-Forwarded-For", ", ".join([*chain, peer])))
        if trusted:
            headers += [(k, v) for k, v in request.headers if k.lower() == "x-forwarded-proto"]
        return headers

    async def _forward(self, request: Request, peer: str):
        headers = self._forwarded_for(request, peer)
        if request.body or request.method in ("POST", "PUT", "PATCH"):
            headers.append(("Content-Length", str(len(request.body))))
        headers.append(("Connection", "close"))
        head = f"{request.method} {request.target} HTTP/1.1\r\n" + "".join(
            f"{k}: {v}\r\n" for k, v in headers
        )
        try:
            reader, writer = await asyncio.wait_for(self._open_upstream(), 10)
        except (OSError, TimeoutError):
            raise Refusal(
                502,
                "upstream_unavailable",
                "The application server is not accepting requests (it may be restarting). "
                "Retry in a few seconds.",
            ) from None
        try:
            writer.write(head.encode("latin-1") + b"\r\n" + request.body)
            await writer.drain()
            deadline = time.monotonic() + self.limits.upstream_seconds
            return await _within(self._read_response(reader, request), deadline, 504)
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
            raise Refusal(
                502,
                "upstream_failed",
                "The application server closed the connection before answering. Retry.",
            ) from None
        finally:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()

    async def _read_response(self, reader: asyncio.StreamReader, request: Request):
        raw = await reader.readuntil(b"\r\n\r\n")
        lines = raw[:-4].decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers = []
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers.append((name.strip(), value.strip()))
        names = {k.lower(): v for k, v in headers}
        if request.method == "HEAD" or status in (204, 304) or 100 <= status < 200:
            body = b""
        elif "chunked" in names.get("transfer-encoding", "").lower():
            body = await _read_chunked(reader, time.monotonic() + 3600, 2**31)
        elif "content-length" in names:
            body = await reader.readexactly(int(names["content-length"]))
        else:
            body = await reader.read()
        keep = [(k, v) for k, v in headers if k.lower() not in _HOP_BY_HOP]
        if request.method == "HEAD" and "content-length" in names:
            keep.append(("Content-Length", names["content-length"]))
        return status, keep, body

    async def _respond(
        self,
        writer: asyncio.StreamWriter,
        status: int,
        headers: list[tuple[str, str]],
        body: bytes,
        *,
        keep_alive: bool,
        head_only: bool = False,
    ) -> None:
        reason = _REASONS.get(status) or _phrase(status)
        out = [f"HTTP/1.1 {status} {reason}\r\n"]
        out += [f"{k}: {v}\r\n" for k, v in headers]
        if not (status in (204, 304) or head_only):
            out.append(f"Content-Length: {len(body)}\r\n")
        out.append("Connection: keep-alive\r\n" if keep_alive else "Connection: close\r\n")
        writer.write("".join(out).encode("latin-1") + b"\r\n" + (b"" if head_only else body))
        await asyncio.wait_for(writer.drain(), self.limits.write_seconds)

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        peer = writer.get_extra_info("peername")
        peer = peer[0] if isinstance(peer, tuple) else "127.0.0.1"
        try:
            if self.connections > self.limits.max_connections:
                await self._respond(
                    writer,
                    *_error_response(
                        Refusal(503, "too_many_connections", "Too many connections. Retry.")
                    ),
                    keep_alive=False,
                )
                return
            first = True
            while True:
                wait = self.limits.header_seconds if first else self.limits.keepalive_seconds
                first = False
                keep_alive = False
                try:
                    try:
                        raw = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), wait)
                    except TimeoutError:
                        return  # idle or too slow: close without an answer
                    except asyncio.IncompleteReadError:
                        return  # the client closed the connection
                    except asyncio.LimitOverrunError:
                        raise Refusal(
                            431,
                            "header_too_large",
                            "The request headers are too large. Send shorter headers.",
                        ) from None
                    request = _parse_head(raw)
                    request.body = await _read_body(request, reader, writer, self.limits)
                    keep_alive = request.keep_alive
                    status, headers, body = await self._forward(request, peer)
                except Refusal as refusal:
                    with contextlib.suppress(OSError, TimeoutError):
                        await self._respond(writer, *_error_response(refusal), keep_alive=False)
                    return
                except asyncio.IncompleteReadError:
                    return
                await self._respond(
                    writer,
                    status,
                    headers,
                    body,
                    keep_alive=keep_alive,
                    head_only=request.method == "HEAD",
                )
                if not keep_alive:
                    return
        except (OSError, TimeoutError):
            return
        finally:
            self.connections -= 1
            writer.close()
            with contextlib.suppress(OSError, TimeoutError):
                await asyncio.wait_for(writer.wait_closed(), 5)


async def serve(bind: str, door: FrontDoor, ready=None) -> None:
    host, _, port = bind.rpartition(":")
    server = await asyncio.start_server(
        door.handle,
        host or "127.0.0.1",
        int(port),
        limit=door.limits.max_head_bytes,
        backlog=1024,
        reuse_address=True,
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    if ready is not None:
        ready()
    async with server:
        await stop.wait()


def main(argv: list[str] | None = None) -> int:
    defaults = Limits()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bind", default="127.0.0.1:8000")
    parser.add_argument("--upstream", required=True, help="unix:PATH or HOST:PORT of gunicorn")
    parser.add_argument("--header-timeout", type=float, default=defaults.header_seconds)
    parser.add_argument("--body-timeout", type=float, default=defaults.body_seconds)
    parser.add_argument("--keepalive", type=float, default=defaults.keepalive_seconds)
    parser.add_argument("--write-timeout", type=float, default=defaults.write_seconds)
    parser.add_argument("--upstream-timeout", type=float, default=defaults.upstream_seconds)
    parser.add_argument("--max-head-bytes", type=int, default=defaults.max_head_bytes)
    parser.add_argument("--max-body-bytes", type=int, default=defaults.max_body_bytes)
    parser.add_argument("--max-connections", type=int, default=defaults.max_connections)
    parser.add_argument(
        "--trust-forwarded",
        default="",
        help="Comma-separated networks whose X-Forwarded-For/-Proto are kept.",
    )
    args = parser.parse_args(argv)
    limits = Limits(
        header_seconds=args.header_timeout,
        body_seconds=args.body_timeout,
        keepalive_seconds=args.keepalive,
        write_seconds=args.write_timeout,
        upstream_seconds=args.upstream_timeout,
        max_head_bytes=args.max_head_bytes,
        max_body_bytes=args.max_body_bytes,
        max_connections=args.max_connections,
    )
    trusted = [ipaddress.ip_network(n.strip()) for n in args.trust_forwarded.split(",") if n]
    with contextlib.suppress(ImportError, ValueError, OSError):
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))
    logging.basicConfig(level=logging.INFO, format="frontdoor: %(message)s")
    door = FrontDoor(args.upstream, limits, trusted)
    try:
        asyncio.run(
            serve(
                args.bind,
                door,
                ready=lambda: print(f"frontdoor: listening on {args.bind}", flush=True),
            )
        )
    except OSError as exc:
        print(f"frontdoor: cannot listen on {args.bind}: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
