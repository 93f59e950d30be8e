"""One call to an OpenAI-compatible chat completions endpoint, for the optional models
Engram can use (extraction, session summaries). The caller builds the request body and
judges the answer; this only carries it, with a timeout and a bounded read.

``ChatUnavailable``: the endpoint could not be reached or did not answer in time (the
message is the exception's class name, never the request). ``ChatMalformed``: it answered,
but not with ``choices[0].message.content``.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

MAX_ANSWER_BYTES = 1_000_000


class ChatUnavailable(Exception):
    pass


class ChatMalformed(Exception):
    pass


def chat_completion(*, base_url: str, api_key: str, body: dict[str, Any], timeout: float) -> Any:
    """POST ``body`` to ``{base_url}/chat/completions``; the first choice's message content."""
    headers = {"Content-Type": "application/json"}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    request = urllib.request.Request(
        base_url.rstrip("/") + "/chat/completions",
        data=json.dumps(body).encode(),
        headers=headers,
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            raw = response.read(MAX_ANSWER_BYTES)
    except (urllib.error.URLError, TimeoutError, OSError) as exc:
        raise ChatUnavailable(type(exc).__name__) from exc
    try:
        return json.loads(raw)["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        raise ChatMalformed(type(exc).__name__) from exc
