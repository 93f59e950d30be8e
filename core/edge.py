"""Input checks at the edge of the API: malformed input is refused with a 4xx in the API's
error shape (``core.api``) before any view, serializer or database sees it.

- ``StrictJSONParser`` (every JSON body): valid UTF-8; no NaN/Infinity; nesting at most
  ``ENGRAM["MAX_JSON_DEPTH"]`` levels; no NUL character and no lone surrogate (``"\\ud800"``
  is legal JSON but not text PostgreSQL or any client can store) in any string or key.
  The body size limit is Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (413 ``payload_too_large``).
- ``ApiEdgeMiddleware`` (paths under ``/api/``): a header value longer than
  ``ENGRAM["MAX_HEADER_BYTES"]``, or all headers together longer than
  ``ENGRAM["MAX_HEADERS_TOTAL_BYTES"]``, gets 431 ``header_too_large``; a NUL in the query
  string gets 400 ``nul_character``. gunicorn's own header limits (``config/gunicorn.py``)
  are set above these, so the API's answer is the one a client sees.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from rest_framework.parsers import JSONParser

_SURROGATE = re.compile("[\ud800-\udfff]")


def _limit(name: str, default: int) -> int:
    return int(getattr(settings, "ENGRAM", {}).get(name, default))


def text_problem(text: str) -> str | None:
    """``"nul"`` or ``"lone_surrogate"`` when ``text`` cannot be stored as text, else None."""
    if "\x00" in text:
        return "nul"
    if _SURROGATE.search(text):
        return "lone_surrogate"
    return None


def value_problem(value: Any, *, max_depth: int) -> tuple[str, str] | None:
    """The first problem in a parsed JSON value, as (code, path), walking iteratively (a
    deep value never recurses in Python)."""
    stack: list[tuple[Any, int, str]] = [(value, 1, "$")]
    while stack:
        node, depth, path = stack.pop()
        if isinstance(node, dict | list):
            if depth > max_depth:
                return "json_too_deep", path
            items = node.items() if isinstance(node, dict) else enumerate(node)
            for key, child in items:
                if isinstance(key, str):
                    problem = text_problem(key)
                    if problem:
                        return _TEXT_CODES[problem], f"{path} (a key)"
                stack.append((child, depth + 1, f"{path}.{key}" if len(path) < 200 else path))
        elif isinstance(node, str):
            problem = text_problem(node)
            if problem:
                return _TEXT_CODES[problem], path
    return None


_TEXT_CODES = {"nul": "nul_character", "lone_surrogate": "invalid_unicode"}
_MESSAGES = {
    "json_too_deep": "The JSON is nested too deeply (at most {depth} levels). Flatten the value.",
    "nul_character": "The text contains a NUL character (\\u0000), which cannot be stored. Remove it.",
    "invalid_unicode": "The text contains an unpaired surrogate (e.g. \\ud800), which is not valid Unicode. Send valid UTF-8 text.",
    "invalid_encoding": "The request body is not valid UTF-8. Send JSON encoded as UTF-8.",
}


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


class StrictJSONParser(JSONParser):
    """DRF's JSON parser plus the checks above. Raises ``ApiError`` (400) for each."""

    def parse(self, stream, media_type=None, parser_context=None):
        # Imported here: core.api imports rest_framework.views, which imports this
        # parser through the DEFAULT_PARSER_CLASSES setting.
        from core.api import ApiError, PayloadTooLarge

        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read(limit + 1 if limit else -1) if stream is not None else b""
        if limit and len(raw) > limit:
            raise PayloadTooLarge(
                "The request body is too large. Split it into smaller batches.",
                extra={"max_body_bytes": limit},
            )
        try:
            text = codecs.decode(raw, "utf-8")
        except UnicodeDecodeError:
            raise ApiError("invalid_encoding", _MESSAGES["invalid_encoding"]) from None
        if text.startswith("\ufeff"):
            text = text[1:]
        max_depth = _limit("MAX_JSON_DEPTH", 32)
        try:
            data = json.loads(text, parse_constant=_reject_constant)
        except RecursionError:
            raise self._error("json_too_deep", "$", max_depth) from None
        except ValueError as exc:
            raise ApiError(
                "malformed_json",
                "The request body is not valid JSON. Send a JSON object with "
                "Content-Type: application/json.",
                extra={"detail": str(exc)[:200]},
            ) from None
        problem = value_problem(data, max_depth=max_depth)
        if problem:
            raise self._error(*problem, max_depth)
        return data

    @staticmethod
    def _error(code: str, path: str, max_depth: int) -> Exception:
        from core.api import ApiError

        return ApiError(
            code,
            _MESSAGES[code].format(depth=max_depth),
            extra={"path": path, "max_depth": max_depth}
            if code == "json_too_deep"
            else {"path": path},
        )


class ApiEdgeMiddleware:
    """Header size and query-string checks for ``/api/`` (first in MIDDLEWARE)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path.startswith("/api/"):
            refused = self._refusal(request)
            if refused is not None:
                return refused
        return self.get_response(request)

    @staticmethod
    def _refusal(request: HttpRequest) -> HttpResponse | None:
        from core.api import error_body

        per_header = _limit("MAX_HEADER_BYTES", 8192)
        total_limit = _limit("MAX_HEADERS_TOTAL_BYTES", 32768)
        total = 0
        for key, value in request.META.items():
            if not (key.startswith("HTTP_") or key in ("CONTENT_TYPE", "CONTENT_LENGTH")):
                continue
            size = len(key) + len(str(value))
            total += size
            if size > per_header or total > total_limit:
                return JsonResponse(
                    error_body(
                        "header_too_large",
                        "A request header (or all of them together) is too large. "
                        "Send shorter headers.",
                        {"max_header_bytes": per_header, "max_headers_total_bytes": total_limit},
                    ),
                    status=431,
                )
        query = request.META.get("QUERY_STRING", "")
        if "%00" in query or "\x00" in query:
            return JsonResponse(
                error_body("nul_character", _MESSAGES["nul_character"], {"path": "query"}),
                status=400,
            )
        return None
