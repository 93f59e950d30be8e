"""Working memory operations for one subject's thread: the checks every put passes, then
the store (``memory.working.store``).

A put is refused, and nothing is stored, when:
- the key or thread id is malformed, the value too large or the thread full;
- the user has withdrawn consent or paused memory (the write policy's own reason codes and
  sentences: the same refusal the candidates API gives);
- a string in the value looks like a secret, by the write policy's own detector
  (``memory.content_rules.find_secrets``), read leaf by leaf with the key that names each
  leaf, so ``{"password": "hunter2"}`` is read as "password: hunter2".

Logs carry ids and sizes, never values.
"""

from __future__ import annotations

import logging
import re
import uuid
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from core.codes import ReasonCode
from memory import content_rules
from memory.models import Subject
from memory.working.store import Entry, Scope, ThreadFull, canonical_bytes, working_store
from memory.write_policy.policy import consent_refusal as policy_consent_refusal

logger = logging.getLogger(__name__)

# Letters (any script), digits and ``. _ : @ -``, no spaces or control characters; a
# thread id may also hold '/' between its parts (as event thread ids may), a key is one
# URL path segment.
THREAD_ID_RE = re.compile(r"^[^\W_](?:[\w.:@-]|/(?!/))*$")
KEY_RE = re.compile(r"^[^\W][\w.:@-]{0,127}$")


class WorkingRefused(Exception):
    """A put (or a read) that cannot be done; ``code`` and ``status`` are the API's."""

    def __init__(self, code: str, message: str, status: int, extra: dict | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.message = message
        self.status = status
        self.extra = extra or {}


@dataclass(frozen=True)
class Limits:
    default_ttl: int
    max_ttl: int
    max_value: int
    max_thread: int


def limits() -> Limits:
    conf = settings.ENGRAM_WORKING_MEMORY
    return Limits(
        conf["DEFAULT_TTL_SECONDS"],
        conf["MAX_TTL_SECONDS"],
        conf["MAX_VALUE_BYTES"],
        conf["MAX_THREAD_BYTES"],
    )


def check_thread_id(thread_id: str) -> None:
    if len(thread_id) > 200 or not THREAD_ID_RE.match(thread_id) or thread_id.endswith("/"):
        raise WorkingRefused(
            "invalid_thread_id",
            "A thread id is 1 to 200 letters, digits or . _ : @ - / (starting with a letter "
            "or digit, no empty part).",
            400,
            {"max_length": 200},
        )


def check_key(key: str) -> None:
    if not KEY_RE.match(key):
        raise WorkingRefused(
            "invalid_working_key",
            "A working memory key is 1 to 128 letters, digits or . _ : @ - (starting with a "
            "letter or digit).",
            400,
            {"max_length": 128},
        )


def _scope(subject: Subject, thread_id: str) -> Scope:
    check_thread_id(thread_id)
    return Scope(subject.tenant_id, subject.id, thread_id)


def _string_leaves(value: Any, path: str = "$", name: str = ""):
    """Every string in a JSON value, with its path and the key that names it (a list's
    items are named by the list's key)."""
    if isinstance(value, str):
        yield path, name, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield path + "." + str(k), str(k), str(k)
            yield from _string_leaves(v, f"{path}.{k}", str(k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _string_leaves(v, f"{path}[{i}]", name)


def secret_paths(value: Any) -> tuple[list[str], list[str]]:
    """Paths of the strings that look like secrets, and the detector's finding codes."""
    paths: list[str] = []
    findings: list[str] = []
    for path, name, text in _string_leaves(value):
        found = content_rules.find_secrets(text)
        if not found and name and name != text:
            found = content_rules.find_secrets(f"{name}: {text}")
        if found:
            paths.append(path)
            findings.extend(f for f in found if f not in findings)
    return paths, findings


def consent_refusal(subject: Subject) -> WorkingRefused | None:
    """The write policy's step 3, for working memory (its reason codes and sentences)."""
    refusal = policy_consent_refusal(
        withdrawn=subject.consent_withdrawn_at is not None, paused=subject.memory_paused
    )
    if refusal is None:
        return None
    code, message = refusal
    return WorkingRefused(code.value, message, 403)


def working_put(
    *, subject: Subject, thread_id: str, key: str, value: Any, ttl_seconds: int | None
) -> Entry:
    scope = _scope(subject, thread_id)
    check_key(key)
    lim = limits()
    ttl = lim.default_ttl if ttl_seconds is None else ttl_seconds
    if not 1 <= ttl <= lim.max_ttl:
        raise WorkingRefused(
            "invalid_ttl",
            f"ttl_seconds must be between 1 and {lim.max_ttl}.",
            400,
            {"max_ttl_seconds": lim.max_ttl},
        )
    raw = canonical_bytes(value)
    if len(raw) > lim.max_value:
        raise WorkingRefused(
            "value_too_large",
            f"A working memory value is at most {lim.max_value} bytes of JSON.",
            413,
            {"size_bytes": len(raw), "max_value_bytes": lim.max_value},
        )
    refusal = consent_refusal(subject)
    if refusal is not None:
        raise refusal
    paths, findings = secret_paths(value)
    if paths:
        raise WorkingRefused(
            ReasonCode.SECRET_DETECTED.value,
            "This looks like a password, key or token; secrets are never remembered, "
            "not even for a moment. Nothing was stored.",
            422,
            {"paths": paths, "findings": findings},
        )
    try:
        entry = working_store().put(scope, key, raw, ttl, lim.max_thread)
    except ThreadFull as full:
        raise WorkingRefused(
            "thread_full",
            f"This thread's working memory would exceed {lim.max_thread} bytes; delete "
            "keys or close the thread.",
            413,
            {
                "thread_bytes": full.thread_bytes,
                "size_bytes": len(raw),
                "max_thread_bytes": lim.max_thread,
            },
        ) from None
    logger.info(
        "working memory put",
        extra={"subject_id": str(subject.id), "size_bytes": len(raw), "ttl_seconds": ttl},
    )
    return entry


def _withdrawn(subject: Subject) -> bool:
    """After a withdrawal nothing is read back, even what a failed drop left behind
    (``working_subject_drop`` runs at the withdrawal; this drops it again)."""
    if subject.consent_withdrawn_at is None:
        return False
    working_store().drop_subject(subject.tenant_id, subject.id)
    return True


def working_get(*, subject: Subject, thread_id: str, key: str) -> Entry | None:
    scope = _scope(subject, thread_id)
    check_key(key)
    if _withdrawn(subject):
        return None
    return working_store().get(scope, key)


def working_delete(*, subject: Subject, thread_id: str, key: str) -> bool:
    scope = _scope(subject, thread_id)
    check_key(key)
    return working_store().delete(scope, key)


def working_list(*, subject: Subject, thread_id: str) -> list[Entry]:
    scope = _scope(subject, thread_id)
    if _withdrawn(subject):
        return []
    return working_store().list(scope)


def working_thread_drop(*, subject: Subject, thread_id: str) -> int:
    return working_store().drop_thread(_scope(subject, thread_id))


def working_subject_drop(*, tenant_id: uuid.UUID, subject_id: uuid.UUID) -> int:
    """Every thread of the subject (erasure). Returns values dropped; a store error
    raises (the deletion job retries, and its verification would see what is left)."""
    dropped = working_store().drop_subject(tenant_id, subject_id)
    logger.info("working memory dropped", extra={"subject_id": str(subject_id), "n": dropped})
    return dropped


def working_subject_drop_on_withdrawal(*, tenant_id: uuid.UUID, subject_id: uuid.UUID) -> None:
    """Consent withdrawn: drop it now. The withdrawal itself is already committed and must
    stand even if the store is unreachable; then reads stay empty (``_withdrawn``) and
    drop it when the store answers, and the time-to-live ends it in any case."""
    from redis.exceptions import RedisError

    try:
        working_subject_drop(tenant_id=tenant_id, subject_id=subject_id)
    except (RedisError, OSError):
        logger.warning(
            "working memory not dropped at withdrawal", extra={"subject_id": str(subject_id)}
        )


def working_subject_count(*, tenant_id: uuid.UUID, subject_id: uuid.UUID) -> int:
    return working_store().count_subject(tenant_id, subject_id)
