"""Credentials by their format alone: keys with a known prefix or layout, long tokens of high
entropy, URLs that carry a password or a secret query parameter, and detect-secrets' plugins
over the whole text. Split out of ``secrets`` (which reads credentials written in prose);
these readings need no credential word beside the value."""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlsplit

from core.process_state import memoized
from memory.detectors.unlabelled_values import public_key_token
from memory.text_normalize import detection_form

_FORMATS = [
    re.compile(r"\bsk-[A-Za-z0-9_-]{20,}"),
    re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)"),
    re.compile(r"\b(?:AKIA|ASIA)[A-Z0-9]{16}\b"),
    re.compile(r"\bgh[pousr]_[A-Za-z0-9]{30,}\b"),
    re.compile(r"\bgithub_pat_[A-Za-z0-9_]{30,}"),
    re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}"),
    re.compile(r"\bxox[abpr]-[A-Za-z0-9-]{10,}"),
    re.compile(r"\bkey-[0-9a-z]{32}\b"),  # Mailgun's API keys
    re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
]
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]{1,20}://[^\s<>\"'`]+")
_SECRET_QUERY_KEYS = re.compile(
    r"^(?:x-amz-signature|x-amz-credential|sig|signature|token|access_token|refresh_token|"
    r"id_token|password|passwd|pwd|secret|client_secret|api_key|apikey|key|auth|code)$",
    re.IGNORECASE,
)
_USERINFO = re.compile(r"://[^\s:/@]+:(\S+)@[A-Za-z0-9.-]+")
_LONG_TOKEN = re.compile(r"[A-Za-z0-9+/_=-]{20,}")

# detect-secrets' plugins for key formats (by class name).
_DETECT_SECRETS_PLUGINS = frozenset(
    (
        "AWSKeyDetector ArtifactoryDetector AzureStorageKeyDetector BasicAuthDetector "
        "CloudantDetector DiscordBotTokenDetector GitHubTokenDetector GitLabTokenDetector "
        "IbmCloudIamDetector IbmCosHmacDetector JwtTokenDetector KeywordDetector "
        "MailchimpDetector NpmDetector OpenAIDetector PrivateKeyDetector PypiTokenDetector "
        "SendGridDetector SlackDetector SoftlayerDetector SquareOAuthDetector StripeDetector "
        "TelegramBotTokenDetector TwilioKeyDetector"
    ).split()
)


@memoized("memory.detectors.key_formats._entropy_plugins", maxsize=1)
def _entropy_plugins():
    # detect-secrets' entropy plugins score a token in their own charset; the plugins' own
    # line scan only looks at quoted strings, so tokens are scored directly.
    from detect_secrets.plugins.high_entropy_strings import (
        Base64HighEntropyString,
        HexHighEntropyString,
    )

    return Base64HighEntropyString(), HexHighEntropyString()


def entropy(token: str) -> float:
    return _entropy_plugins()[0].calculate_shannon_entropy(token)


@memoized("memory.detectors.key_formats._format_plugins", maxsize=1)
def _format_plugins() -> list:
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class

    wanted = set(_DETECT_SECRETS_PLUGINS)
    return [
        cls() for cls in get_mapping_from_secret_type_to_class().values() if cls.__name__ in wanted
    ]


def url_spans(text: str) -> list[tuple[int, int, str]]:
    spans: list[tuple[int, int, str]] = []
    for m in _URL.finditer(text):
        url = m.group().rstrip(".,;)")
        try:
            parts = urlsplit(url)
            password = parts.password
        except ValueError:
            continue
        begin = url.find("://") + 3
        netloc_end = min(
            (i for i in (url.find(c, begin) for c in "/?#") if i >= 0), default=len(url)
        )
        at = url.rfind("@", begin, netloc_end)
        colon = url.find(":", begin, at) if at > 0 else -1
        if password and colon > 0:
            spans.append((m.start() + colon + 1, m.start() + at, "url_password"))
        elif not password:
            # A password holding "/" or "#" ends urlsplit's netloc early: find it directly.
            raw = _USERINFO.match(url, begin - 3)
            if raw:
                spans.append((m.start() + raw.start(1), m.start() + raw.end(1), "url_password"))
        for key, value in parse_qsl(parts.query, keep_blank_values=False):
            if _SECRET_QUERY_KEYS.match(key) and len(value) >= 6:
                at = url.find(value, url.find("?"))
                if at >= 0:
                    spans.append((m.start() + at, m.start() + at + len(value), "url_credential"))
    return spans


def format_spans(text: str) -> list[tuple[int, int, str]]:
    spans = [
        (m.start(), m.end(), "credential_format") for rx in _FORMATS for m in rx.finditer(text)
    ]
    for m in _LONG_TOKEN.finditer(text):
        token = m.group()
        if (
            all(any(f(c) for c in token) for f in (str.islower, str.isupper, str.isdigit))
            and entropy(token) >= 4.0
            and not public_key_token(text, m.start(), token)
        ):
            spans.append((m.start(), m.end(), "high_entropy_token"))
    return spans


# detect-secrets' plugins look for keys (long tokens) and assignments ("x = '…'", "key:"):
# text with neither cannot match (skipping them saves most of the detector's time).
_PLUGIN_WORTHY = re.compile(r"[A-Za-z0-9+/_=.-]{16,}|[=:]\s*['\"]|-----BEGIN")


def detect_secrets_finds(text: str) -> bool:
    form = detection_form(text).text
    if not _PLUGIN_WORTHY.search(form):
        return False
    plugins = _format_plugins()
    lines = form.splitlines() or [form]
    return any(p.analyze_line(filename="memory.txt", line=line) for line in lines for p in plugins)
