"""A small durable outbox (one SQLite file) for writes made while Engram is unreachable.

Each entry keeps the request (method, path, JSON body), the subject it is for and an
idempotency key, and survives a crash of the agent process. Entries are sent again in the
order they were written, per subject, when the service is back. Why a replay never applies
a write twice:

- events carry ``client_event_id``; Engram stores each once per agent (a replay answers
  ``created: false``);
- a candidate batch carries its outbox key as the ``Idempotency-Key`` header from its first
  attempt on: a batch the server did apply before the answer was lost is, on replay,
  answered from Engram's stored response and applies nothing (not even a ``CONFIRM``);
- delete/retract/supersede name a record: replayed after success, the record is gone or
  no longer current and Engram answers 404 or refuses; a 404 on a replayed delete counts
  as done.

A claim column keeps two processes sharing the file from sending the same entry at once.
An entry Engram refuses with a 4xx is kept as ``failed`` with the error code (never
silently dropped); ``failed()`` lists them.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_SCHEMA = """
CREATE TABLE IF NOT EXISTS outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL UNIQUE,
    subject_key TEXT NOT NULL,
    op TEXT NOT NULL,
    method TEXT NOT NULL,
    path TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at REAL NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    state TEXT NOT NULL DEFAULT 'pending',
    error_code TEXT NOT NULL DEFAULT '',
    claimed_by TEXT,
    claimed_at REAL
);
CREATE INDEX IF NOT EXISTS outbox_pending ON outbox (subject_key, state, id);
"""

# A claim older than this is assumed to belong to a process that died mid-send.
CLAIM_TTL_SECONDS = 60.0


@dataclass(frozen=True)
class OutboxEntry:
    id: int
    key: str
    subject_key: str
    op: str
    method: str
    path: str
    body: Any
    attempts: int
    state: str
    error_code: str


# Where ``outbox=True`` (and the MCP server, unless told otherwise) keeps queued writes.
DEFAULT_OUTBOX_PATH = "~/.engramhq/outbox.sqlite"


class Outbox:
    def __init__(self, path: str | os.PathLike[str] = DEFAULT_OUTBOX_PATH) -> None:
        # "~/.engramhq/outbox.sqlite" means the home folder, as a shell would read it.
        self.path = Path(path).expanduser()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._owner = uuid.uuid4().hex
        self._lock = threading.Lock()
        with self._connect() as db:
            db.executescript(_SCHEMA)
            # Subjects with queued writes, kept in memory so the hot path (a recall asking
            # "anything to send?") costs no file access. Entries another process adds to a
            # shared file later are seen when this one starts or flushes.
            self._pending_subjects = {
                row[0]
                for row in db.execute(
                    "SELECT DISTINCT subject_key FROM outbox WHERE state = 'pending'"
                )
            }

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        db = sqlite3.connect(self.path, timeout=10, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")  # a queued write survives power loss
            yield db
        finally:
            db.close()

    def put(
        self,
        *,
        subject_key: str,
        op: str,
        method: str,
        path: str,
        body: Any,
        key: str | None = None,
    ) -> str:
        key = key or uuid.uuid4().hex
        with self._lock, self._connect() as db:
            db.execute(
                "INSERT OR IGNORE INTO outbox (key, subject_key, op, method, path, body, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (key, subject_key, op, method, path, json.dumps(body), time.time()),
            )
            self._pending_subjects.add(subject_key)
        return key

    def has_pending(self, subject_key: str) -> bool:
        """Cheap, in-memory: whether this process knows of queued writes for a subject."""
        return subject_key in self._pending_subjects

    def pending(self, subject_key: str | None = None) -> list[OutboxEntry]:
        sql = "SELECT * FROM outbox WHERE state = 'pending'"
        args: tuple[Any, ...] = ()
        if subject_key is not None:
            sql += " AND subject_key = ?"
            args = (subject_key,)
        return self._select(sql + " ORDER BY id", args)

    def failed(self, subject_key: str | None = None) -> list[OutboxEntry]:
        sql = "SELECT * FROM outbox WHERE state = 'failed'"
        args: tuple[Any, ...] = ()
        if subject_key is not None:
            sql += " AND subject_key = ?"
            args = (subject_key,)
        return self._select(sql + " ORDER BY id", args)

    def count(self, subject_key: str | None = None) -> int:
        n = len(self.pending(subject_key))
        if subject_key is not None and n == 0:
            self._pending_subjects.discard(subject_key)
        return n

    def _select(self, sql: str, args: tuple[Any, ...]) -> list[OutboxEntry]:
        with self._connect() as db:
            db.row_factory = sqlite3.Row
            rows = db.execute(sql, args).fetchall()
        return [
            OutboxEntry(
                id=r["id"],
                key=r["key"],
                subject_key=r["subject_key"],
                op=r["op"],
                method=r["method"],
                path=r["path"],
                body=json.loads(r["body"]),
                attempts=r["attempts"],
                state=r["state"],
                error_code=r["error_code"],
            )
            for r in rows
        ]

    def claim(self, entry_id: int) -> bool:
        """Take an entry for sending; False when another process holds a live claim."""
        now = time.time()
        with self._lock, self._connect() as db:
            cur = db.execute(
                "UPDATE outbox SET claimed_by = ?, claimed_at = ?, attempts = attempts + 1"
                " WHERE id = ? AND state = 'pending'"
                " AND (claimed_by IS NULL OR claimed_by = ? OR claimed_at < ?)",
                (self._owner, now, entry_id, self._owner, now - CLAIM_TTL_SECONDS),
            )
            return cur.rowcount == 1

    def release(self, entry_id: int) -> None:
        with self._lock, self._connect() as db:
            db.execute(
                "UPDATE outbox SET claimed_by = NULL, claimed_at = NULL WHERE id = ?", (entry_id,)
            )

    def done(self, entry_id: int) -> None:
        with self._lock, self._connect() as db:
            db.execute("DELETE FROM outbox WHERE id = ?", (entry_id,))

    def fail(self, entry_id: int, error_code: str) -> None:
        with self._lock, self._connect() as db:
            db.execute(
                "UPDATE outbox SET state = 'failed', error_code = ?, claimed_by = NULL"
                " WHERE id = ?",
                (error_code, entry_id),
            )
