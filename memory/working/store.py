"""Where working memory lives: Redis, or an UNLOGGED PostgreSQL table.

Both stores keep the same thing — per tenant, subject and thread, keys holding a JSON
value (stored as its canonical UTF-8 JSON bytes) that expires at a set time — and answer
the same calls. Neither ever returns an expired value: Redis drops it by its own expiry;
the table filters on ``expires_at`` in every read and a periodic job deletes the rest.

Which one (``working_store()``), read from settings on each call so a test can switch:
``ENGRAM_WORKING_MEMORY_URL`` when it is a Redis URL; ``postgres`` forces the table; unset,
the broker's Redis when ``CELERY_BROKER_URL`` is a Redis URL (a deployment with a broker
needs nothing more), otherwise the table (the embedded setup has no Redis).

The per-thread size limit is checked and the value written in one step — a Lua script in
Redis, a transaction holding an advisory lock on the thread in PostgreSQL — so two
concurrent puts cannot both pass the check and together exceed it.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Sum
from django.utils import timezone

from core.process_state import memoized
from memory.models import WorkingMemoryEntry


@dataclass(frozen=True)
class Entry:
    key: str
    value: Any
    size_bytes: int
    expires_at: datetime


@dataclass(frozen=True)
class Scope:
    """One subject's thread: everything a store keys on besides the entry's key."""

    tenant_id: uuid.UUID
    subject_id: uuid.UUID
    thread_id: str


class ThreadFull(Exception):
    def __init__(self, thread_bytes: int) -> None:
        super().__init__(thread_bytes)
        self.thread_bytes = thread_bytes


class WorkingStore(Protocol):
    name: str

    def put(self, scope: Scope, key: str, raw: bytes, ttl: int, max_thread: int) -> Entry:
        """Write (overwrite) one value; raises ThreadFull when the thread's other live
        values and this one together exceed ``max_thread`` bytes."""

    def get(self, scope: Scope, key: str) -> Entry | None: ...

    def delete(self, scope: Scope, key: str) -> bool: ...

    def list(self, scope: Scope) -> list[Entry]: ...

    def drop_thread(self, scope: Scope) -> int: ...

    def drop_subject(self, tenant_id: uuid.UUID, subject_id: uuid.UUID) -> int: ...

    def count_subject(self, tenant_id: uuid.UUID, subject_id: uuid.UUID) -> int: ...


def canonical_bytes(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


# --- PostgreSQL ---------------------------------------------------------------------------


class PostgresStore:
    """The UNLOGGED ``memory_workingmemoryentry`` table (row-level security applies: the
    caller holds the tenant context, as for every other table)."""

    name = "postgres"

    @staticmethod
    def _live(scope: Scope):
        return WorkingMemoryEntry.objects.filter(
            tenant_id=scope.tenant_id,
            subject_id=scope.subject_id,
            thread_id=scope.thread_id,
            expires_at__gt=timezone.now(),
        )

    @staticmethod
    def _entry(row: WorkingMemoryEntry) -> Entry:
        return Entry(row.key, row.value, row.size_bytes, row.expires_at)

    def put(self, scope: Scope, key: str, raw: bytes, ttl: int, max_thread: int) -> Entry:
        now = timezone.now()
        with transaction.atomic():
            with connection.cursor() as cursor:
                # Serialises puts to one thread (the size check below reads, then writes).
                cursor.execute(
                    "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))",
                    [f"working:{scope.tenant_id}:{scope.subject_id}:{scope.thread_id}"],
                )
            thread = WorkingMemoryEntry.objects.filter(
                tenant_id=scope.tenant_id, subject_id=scope.subject_id, thread_id=scope.thread_id
            )
            thread.filter(expires_at__lte=now).delete()
            others = thread.exclude(key=key).aggregate(n=Sum("size_bytes"))["n"] or 0
            if others + len(raw) > max_thread:
                raise ThreadFull(others)
            row, _ = WorkingMemoryEntry.objects.update_or_create(
                tenant_id=scope.tenant_id,
                subject_id=scope.subject_id,
                thread_id=scope.thread_id,
                key=key,
                defaults={
                    "value": json.loads(raw),
                    "size_bytes": len(raw),
                    "updated_at": now,
                    "expires_at": now + timedelta(seconds=ttl),
                },
            )
        return self._entry(row)

    def get(self, scope: Scope, key: str) -> Entry | None:
        row = self._live(scope).filter(key=key).first()
        return self._entry(row) if row else None

    def delete(self, scope: Scope, key: str) -> bool:
        live = self._live(scope).filter(key=key).exists()
        WorkingMemoryEntry.objects.filter(
            tenant_id=scope.tenant_id,
            subject_id=scope.subject_id,
            thread_id=scope.thread_id,
            key=key,
        ).delete()
        return live

    def list(self, scope: Scope) -> list[Entry]:
        return [self._entry(r) for r in self._live(scope).order_by("key")]

    def drop_thread(self, scope: Scope) -> int:
        return WorkingMemoryEntry.objects.filter(
            tenant_id=scope.tenant_id, subject_id=scope.subject_id, thread_id=scope.thread_id
        ).delete()[0]

    def drop_subject(self, tenant_id: uuid.UUID, subject_id: uuid.UUID) -> int:
        return WorkingMemoryEntry.objects.filter(
            tenant_id=tenant_id, subject_id=subject_id
        ).delete()[0]

    def count_subject(self, tenant_id: uuid.UUID, subject_id: uuid.UUID) -> int:
        return WorkingMemoryEntry.objects.filter(tenant_id=tenant_id, subject_id=subject_id).count()


def postgres_purge_expired(tenant_id: uuid.UUID) -> int:
    """Delete a tenant's expired rows (reads never return them; this frees the space)."""
    return WorkingMemoryEntry.objects.filter(
        tenant_id=tenant_id, expires_at__lte=timezone.now()
    ).delete()[0]


# --- Redis --------------------------------------------------------------------------------

# KEYS[1] the entry, KEYS[2] the thread's index set; ARGV: raw value, ttl ms, max bytes.
# Sums the thread's other live values (dropping index members whose key has expired),
# refuses past the limit, else writes with its expiry and keeps the index alive as long
# as its longest-lived entry.
_PUT_SCRIPT = """
local total = 0
for _, member in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  if member ~= KEYS[1] then
    local n = redis.call('STRLEN', member)
    if n == 0 and redis.call('EXISTS', member) == 0 then
      redis.call('SREM', KEYS[2], member)
    else
      total = total + n
    end
  end
end
if total + string.len(ARGV[1]) > tonumber(ARGV[3]) then
  return {0, total}
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('SADD', KEYS[2], KEYS[1])
if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[2]) then
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
end
return {1, total}
"""


@memoized("memory.working.redis_client", maxsize=4)
def _redis_client(url: str):
    import redis

    return redis.Redis.from_url(url)


class RedisStore:
    """Keys ``engram:wm:{tenant}:{subject}:{len}:{thread}:{key}`` (the thread's length
    first, so a thread id holding ':' can never be read as another thread and key); one
    index set per thread lists its keys."""

    name = "redis"

    def __init__(self, url: str) -> None:
        self.url = url

    @property
    def client(self):
        return _redis_client(self.url)

    @staticmethod
    def _subject_prefix(tenant_id: uuid.UUID, subject_id: uuid.UUID) -> str:
        return f"engram:wm:{tenant_id}:{subject_id}:"

    def _thread_prefix(self, scope: Scope) -> str:
        prefix = self._subject_prefix(scope.tenant_id, scope.subject_id)
        return f"{prefix}{len(scope.thread_id)}:{scope.thread_id}:"

    def _key(self, scope: Scope, key: str) -> str:
        return f"{self._thread_prefix(scope)}k:{key}"

    def _index(self, scope: Scope) -> str:
        return f"{self._thread_prefix(scope)}index"

    def put(self, scope: Scope, key: str, raw: bytes, ttl: int, max_thread: int) -> Entry:
        ok, total = self.client.eval(
            _PUT_SCRIPT, 2, self._key(scope, key), self._index(scope), raw, ttl * 1000, max_thread
        )
        if not ok:
            raise ThreadFull(int(total))
        return Entry(key, json.loads(raw), len(raw), timezone.now() + timedelta(seconds=ttl))

    def _read(self, names: list[str]) -> list[tuple[bytes | None, int]]:
        pipe = self.client.pipeline(transaction=False)
        for name in names:
            pipe.get(name)
            pipe.pttl(name)
        answers = pipe.execute()
        return list(zip(answers[0::2], answers[1::2], strict=True))

    def get(self, scope: Scope, key: str) -> Entry | None:
        [(raw, pttl)] = self._read([self._key(scope, key)])
        if raw is None or pttl < 0:
            return None
        return Entry(key, json.loads(raw), len(raw), timezone.now() + timedelta(milliseconds=pttl))

    def delete(self, scope: Scope, key: str) -> bool:
        name = self._key(scope, key)
        pipe = self.client.pipeline()
        pipe.delete(name)
        pipe.srem(self._index(scope), name)
        return bool(pipe.execute()[0])

    def list(self, scope: Scope) -> list[Entry]:
        names = sorted(n.decode() for n in self.client.smembers(self._index(scope)))
        marker = f"{self._thread_prefix(scope)}k:"
        now = timezone.now()
        entries = []
        for name, (raw, pttl) in zip(names, self._read(names), strict=True):
            if raw is not None and pttl >= 0:
                entries.append(
                    Entry(
                        name[len(marker) :],
                        json.loads(raw),
                        len(raw),
                        now + timedelta(milliseconds=pttl),
                    )
                )
        return entries

    def drop_thread(self, scope: Scope) -> int:
        index = self._index(scope)
        names = list(self.client.smembers(index))
        if not names:
            return 0
        pipe = self.client.pipeline()
        pipe.delete(*names)
        pipe.delete(index)
        return int(pipe.execute()[0])

    def _subject_names(self, tenant_id: uuid.UUID, subject_id: uuid.UUID) -> list[bytes]:
        # A scan, not an index: erasure and withdrawal are rare, and a scan finds every
        # key of the subject even if an index set was lost.
        pattern = self._subject_prefix(tenant_id, subject_id) + "*"
        return list(self.client.scan_iter(match=pattern, count=1000))

    def drop_subject(self, tenant_id: uuid.UUID, subject_id: uuid.UUID) -> int:
        names = self._subject_names(tenant_id, subject_id)
        values = [n for n in names if not n.endswith(b":index")]
        if names:
            self.client.delete(*names)
        return len(values)

    def count_subject(self, tenant_id: uuid.UUID, subject_id: uuid.UUID) -> int:
        return len(
            [n for n in self._subject_names(tenant_id, subject_id) if not n.endswith(b":index")]
        )


def _redis_url(url: str) -> bool:
    return url.startswith(("redis://", "rediss://", "unix://"))


def working_store() -> WorkingStore:
    url = settings.ENGRAM_WORKING_MEMORY["URL"]
    if url and url != "postgres":
        return RedisStore(url)
    broker = getattr(settings, "CELERY_BROKER_URL", "") or ""
    if not url and _redis_url(broker):
        return RedisStore(broker)
    return PostgresStore()
