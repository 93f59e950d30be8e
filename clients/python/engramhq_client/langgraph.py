"""``EngramStore``: a LangGraph ``BaseStore`` whose items are governed Engram memories, for
every user of an application.

Mapping. A namespace is ``(*prefix, user_id, *path)``: ``prefix`` is fixed when the store is
made (``namespace_prefix=("users",)``, default none), the next label names the end user —
the subject the item belongs to — and the rest is the item's place:

| LangGraph | Engram |
|---|---|
| ``namespace[len(prefix)]`` | the subject (``client.for_user(user_id)``): its subject token is minted and cached with the client's admin key, so one compiled graph serves every user, and a user's items live only in that user's memory |
| the rest of the namespace | the memory's namespace under ``root`` (``("users", "alice", "prefs", "food")`` → ``langgraph/prefs/food``) |
| ``key`` | the predicate ``lg.<key>`` (single-valued: a new value for the key supersedes the old one, which stays in history); keys in any script |
| ``value`` (dict) | the structured ``value``; the statement is ``value["statement"/"text"/"content"/"memory"]`` when one is a string, else ``"<key>: <value as JSON>"`` |
| ``put(…, ttl=minutes)``, ``TTLConfig`` | ``expires_at``; ``refresh_on_read`` moves it on ``get`` |
| ``put(…, None)`` / ``delete`` | the deletion workflow |
| ``search(query=…)`` | recall within the namespace prefix (score = Engram's final score) |
| ``search(filter=…)``, ``get``, ``list_namespaces`` | the current memories |

``batch``/``abatch`` send one request per kind of operation and user: every put and delete
of a user in one ``PUT /memories/by-slot`` (decided against each slot as it is then — no
read first), every get in one ``POST /memories/by-slot/lookup``; each search and namespace
listing is one request (or one per page).

Every put goes through the write policy. A put Engram refuses (a secret, a transient
remark, injection-like text held in quarantine, …) raises :class:`WriteRejected` with the
policy's reason code; it is never dropped silently.

When Engram cannot be reached the store degrades like the client: puts and deletes go to
the outbox (when the client has one) without reading first, and reads answer empty —
``get`` None, ``search`` and ``list_namespaces`` ``[]`` — with a warning logged and
``store.degraded`` / ``store.degraded_reason`` set until a read succeeds again.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    TTLConfig,
)

from engramhq_client import models as m
from engramhq_client.client import EngramClient, QueuedWrite, SubjectClient
from engramhq_client.errors import EngramError, EngramUnavailable, WriteRejected

logger = logging.getLogger("engramhq_client.langgraph")

PREDICATE_PREFIX = "lg."
MAX_PREDICATE = 200
# Subject handles kept (each holds a cached subject token); the oldest is dropped first.
MAX_SUBJECTS = 4096
# Items per bulk request: Engram's ENGRAM_MAX_BATCH_ITEMS (default 100).
MAX_BATCH = 100
_WORD = re.compile(r"[\w\-]")
_HEX_ESCAPE = re.compile(r"\.x([0-9a-f]{1,6})\.")
# Engram normalises predicates (case-folded, "-" and spaces become "_"), so a key is
# written with characters that survive that unchanged: lower-case letters and digits of
# any script. "-" -> ".d", "_" -> ".u", "A" -> ".ca" (kept from the first version, so
# stored keys read back), anything else -> ".x<hex>." (its code point). Two keys never
# become one predicate, and a key reads back exactly.
_ESCAPES = {"-": ".d", "_": ".u"}


def _plain(ch: str) -> bool:
    if ch.isascii():
        return ch.isdigit() or ("a" <= ch <= "z")
    return (
        ch.isalnum()
        and ch.casefold() == ch
        and unicodedata.normalize("NFKC", ch) == ch
        and _WORD.match(ch) is not None
    )


def encode_key(key: str) -> str:
    out = []
    for ch in key:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif "A" <= ch <= "Z":
            out.append(".c" + ch.lower())
        elif _plain(ch):
            out.append(ch)
        else:
            out.append(f".x{ord(ch):x}.")
    return "".join(out)


def decode_key(encoded: str) -> str:
    out, i = [], 0
    while i < len(encoded):
        if encoded[i] == "." and i + 1 < len(encoded):
            tag = encoded[i + 1]
            if tag == "x":
                hexed = _HEX_ESCAPE.match(encoded, i)
                if hexed:
                    out.append(chr(int(hexed.group(1), 16)))
                    i = hexed.end()
                    continue
            if tag == "d":
                out.append("-")
                i += 2
                continue
            if tag == "u":
                out.append("_")
                i += 2
                continue
            if tag == "c" and i + 2 < len(encoded):
                out.append(encoded[i + 2].upper())
                i += 3
                continue
        out.append(encoded[i])
        i += 1
    return "".join(out)


def encode_label(label: str) -> str:
    """A namespace label as one Engram namespace segment (``[\\w-][\\w.-]*``). LangGraph
    labels never contain ".", so every "." in a segment starts an escape."""
    out = "".join(ch if _WORD.match(ch) else f".x{ord(ch):x}." for ch in label)
    if out.startswith("-."):
        # A label's own leading "-" before an escape would read as the marker below
        # ("-:" came back as ":"): it is escaped too.
        out = f".x{ord('-'):x}." + out[1:]
    return "-" + out if out.startswith(".") else out


def decode_label(segment: str) -> str:
    if segment.startswith("-."):
        segment = segment[1:]
    return _HEX_ESCAPE.sub(lambda mt: chr(int(mt.group(1), 16)), segment)


_STATEMENT_FIELDS = ("statement", "text", "content", "memory")


class SubjectMismatch(EngramError, InvalidNamespaceError):
    """The namespace names another subject than the one this store acts for."""


class EngramStore(BaseStore):
    """A LangGraph store backed by Engram for every user. See the module for the mapping.

    ``client`` is an :class:`~engramhq_client.client.EngramClient` with an
    ``admin_api_key`` (to mint subject tokens); give it an ``outbox`` so puts made while
    Engram is down are kept. Write defaults (``assertion_kind``, ``confidence``,
    ``purpose``, ``consent_basis``, ``memory_type``) describe what an agent stores:
    inferences, unless the application knows the user said so. ``ttl`` is LangGraph's
    ``TTLConfig`` (``default_ttl`` in minutes, ``refresh_on_read``).
    """

    supports_ttl = True

    def __init__(
        self,
        client: EngramClient,
        *,
        namespace_prefix: tuple[str, ...] = (),
        subject_kind: str = "user",
        only_subject: str | None = None,
        root: str = "langgraph",
        purpose: str = "personalization",
        memory_type: str = "semantic",
        assertion_kind: str = "agent_inference",
        confidence: float = 0.8,
        consent_basis: str = "legitimate_interest",
        recall_token_budget: int = 2000,
        recall_route: str = "all",
        ttl: TTLConfig | None = None,
    ) -> None:
        self.client = client
        self.namespace_prefix = tuple(namespace_prefix)
        self.subject_kind = subject_kind
        self.only_subject = only_subject
        self.root = root
        self.purpose = purpose
        self.memory_type = memory_type
        self.assertion_kind = assertion_kind
        self.confidence = confidence
        self.consent_basis = consent_basis
        self.recall_token_budget = recall_token_budget
        # Which routed memories a search by query returns: "all" (what a memory tool
        # shows when the agent asks), or "inject_only" for a store whose search results
        # go into every prompt as they are.
        self.recall_route = recall_route
        self.ttl_config = ttl
        self.degraded = False
        self.degraded_reason = ""
        self._subjects: OrderedDict[str, SubjectClient] = OrderedDict()
        self._lock = threading.Lock()

    @classmethod
    def for_user(cls, client: EngramClient, external_id: str, **kwargs: Any) -> EngramStore:
        """A store for one end user whose namespaces start with ``(external_id, ...)``;
        any other first label is refused (:class:`SubjectMismatch`)."""
        return cls(client, only_subject=external_id, **kwargs)

    # -- mapping -------------------------------------------------------------------------

    def subject(self, user_id: str) -> SubjectClient:
        """The client handle acting for ``user_id`` (its token cached by the client)."""
        with self._lock:
            handle = self._subjects.get(user_id)
            if handle is None:
                handle = self.client.for_user(user_id, self.subject_kind)
                self._subjects[user_id] = handle
                if len(self._subjects) > MAX_SUBJECTS:
                    self._subjects.popitem(last=False)
            else:
                self._subjects.move_to_end(user_id)
            return handle

    def _split(
        self, namespace: tuple[str, ...], *, prefix: bool = False
    ) -> tuple[str | None, tuple[str, ...]]:
        """``(user_id, path)`` of a namespace; ``user_id`` None only for a search or
        listing prefix that stops before the user (refused by those operations)."""
        fixed = self.namespace_prefix
        position = len(fixed)
        if tuple(namespace[:position]) != fixed[: len(namespace)]:
            raise InvalidNamespaceError(
                f"Namespace {namespace!r} does not start with {fixed!r}: this store maps "
                f"(*{fixed!r}, user_id, ...) to Engram."
            )
        if len(namespace) <= position:
            if prefix:
                return self.only_subject, ()
            raise InvalidNamespaceError(
                f"Namespace {namespace!r} names no user: use (*{fixed!r}, user_id, ...)."
            )
        user_id = namespace[position]
        if self.only_subject is not None and user_id != self.only_subject:
            raise SubjectMismatch(
                f"This store acts for subject {self.only_subject!r}; the namespace "
                f"{namespace!r} names another. Use a store without only_subject to serve "
                f"every user."
            )
        if not isinstance(user_id, str) or not user_id:
            raise InvalidNamespaceError(f"Namespace {namespace!r}: the user id must be text.")
        return user_id, tuple(namespace[position + 1 :])

    def _engram_namespace(self, path: tuple[str, ...]) -> str:
        return "/".join((self.root, *(encode_label(label) for label in path)))

    def _namespace_of(self, user_id: str, engram_namespace: str) -> tuple[str, ...]:
        parts = [decode_label(p) for p in engram_namespace.split("/")[1:]]
        return (*self.namespace_prefix, user_id, *parts)

    @staticmethod
    def _predicate(key: str) -> str:
        if not isinstance(key, str) or not key:
            raise ValueError("A key must be a non-empty string.")
        predicate = PREDICATE_PREFIX + encode_key(key)
        if len(predicate) > MAX_PREDICATE:
            raise ValueError(
                f"Key {key[:40]!r}…: too long once encoded ({len(predicate)} of {MAX_PREDICATE}"
                " characters); use a shorter key."
            )
        return predicate

    @staticmethod
    def _statement(key: str, value: dict[str, Any]) -> str:
        for name in _STATEMENT_FIELDS:
            text = value.get(name)
            if isinstance(text, str) and text.strip():
                return text
        return f"{key}: {json.dumps(value, ensure_ascii=False, sort_keys=True)}"

    def _item(
        self, user_id: str, record: m.MemoryRecord | m.RecallItem, score: float | None = None
    ) -> Item:
        key = decode_key(record.predicate[len(PREDICATE_PREFIX) :])
        stamp = datetime.fromisoformat(record.recorded_at.replace("Z", "+00:00"))
        value = record.value if isinstance(record.value, dict) else {"value": record.value}
        namespace = self._namespace_of(user_id, record.namespace)
        if score is None and isinstance(record, m.MemoryRecord):
            return Item(
                value=value, key=key, namespace=namespace, created_at=stamp, updated_at=stamp
            )
        return SearchItem(namespace, key, value, stamp, stamp, score)

    def _mine(self, record: m.MemoryRecord | m.RecallItem) -> bool:
        return record.predicate.startswith(PREDICATE_PREFIX) and (
            record.namespace == self.root or record.namespace.startswith(self.root + "/")
        )

    def _ttl_seconds(self) -> int | None:
        minutes = (self.ttl_config or {}).get("default_ttl")
        return max(1, int(minutes * 60)) if minutes else None

    # -- degradation ---------------------------------------------------------------------

    def _read_failed(self, op: str, error: EngramUnavailable) -> None:
        self.degraded, self.degraded_reason = True, error.reason
        logger.warning("langgraph store %s degraded (empty answer): %s", op, error.reason)

    def _read_ok(self) -> None:
        self.degraded, self.degraded_reason = False, ""

    # -- operations ----------------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        ops = list(ops)
        results: list[Result] = [None] * len(ops)
        gets: dict[str, list[int]] = {}
        puts: dict[tuple[tuple[str, ...], str], int] = {}
        for index, op in enumerate(ops):
            if isinstance(op, GetOp):
                user_id, _ = self._split(op.namespace)
                gets.setdefault(user_id or "", []).append(index)
            elif isinstance(op, PutOp):
                self._split(op.namespace)  # refuse a bad namespace before anything is sent
                self._predicate(op.key)
                if op.value is not None and not isinstance(op.value, dict):
                    raise TypeError("A LangGraph store value must be a dict.")
                puts[(tuple(op.namespace), op.key)] = index  # the last put of a key wins
            elif isinstance(op, SearchOp):
                results[index] = self._search(op)
            elif isinstance(op, ListNamespacesOp):
                results[index] = self._list_namespaces(op)
            else:
                raise TypeError(f"Unknown operation {type(op).__name__}")
        for user_id, indices in gets.items():
            found = self._get_many(user_id, [ops[i] for i in indices])
            for index, item in zip(indices, found, strict=True):
                results[index] = item
        by_user: dict[str, list[PutOp]] = {}
        for index in sorted(puts.values()):
            op = ops[index]
            assert isinstance(op, PutOp)
            user_id, _ = self._split(op.namespace)
            by_user.setdefault(user_id or "", []).append(op)
        rejected: list[WriteRejected] = []
        for user_id, user_puts in by_user.items():
            rejected += self._put_many(user_id, user_puts)
        if rejected:
            raise rejected[0]
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        # The sync client is thread-safe; a thread keeps the event loop free.
        return await asyncio.to_thread(self.batch, list(ops))

    def _get_many(self, user_id: str, ops: list[Any]) -> list[Item | None]:
        slots = []
        for op in ops:
            _, path = self._split(op.namespace)
            slots.append((self._engram_namespace(path), self._predicate(op.key)))
        refresh = self._ttl_seconds() if any(op.refresh_ttl for op in ops) else None
        subject = self.subject(user_id)
        records: list[m.MemoryRecord | None] = []
        try:
            for start in range(0, len(slots), MAX_BATCH):
                chunk = slots[start : start + MAX_BATCH]
                records += subject.get_slots(chunk, refresh_ttl_seconds=refresh)
        except EngramUnavailable as e:
            self._read_failed("get", e)
            return [None] * len(ops)
        self._read_ok()
        return [self._item(user_id, r) if r is not None else None for r in records]

    def _slot_write(self, op: PutOp) -> m.SlotWrite:
        _, path = self._split(op.namespace)
        namespace, predicate = self._engram_namespace(path), self._predicate(op.key)
        if op.value is None:
            return m.SlotWrite(namespace, predicate, self.assertion_kind, delete=True)
        ttl = op.ttl if op.ttl is not None else (self.ttl_config or {}).get("default_ttl")
        expires_at = (datetime.now(UTC) + timedelta(minutes=ttl)).isoformat() if ttl else None
        return m.SlotWrite(
            namespace,
            predicate,
            self.assertion_kind,
            statement=self._statement(op.key, op.value),
            value=op.value,
            memory_type=self.memory_type,
            confidence=self.confidence,
            purpose=self.purpose,
            consent_basis=self.consent_basis,
            expires_at=expires_at,
        )

    def _put_many(self, user_id: str, ops: list[PutOp]) -> list[WriteRejected]:
        rejected: list[WriteRejected] = []
        for start in range(0, len(ops), MAX_BATCH):
            rejected += self._put_chunk(user_id, ops[start : start + MAX_BATCH])
        return rejected

    def _put_chunk(self, user_id: str, ops: list[PutOp]) -> list[WriteRejected]:
        result = self.subject(user_id).put_slots([self._slot_write(op) for op in ops])
        if isinstance(result, QueuedWrite):
            logger.warning(
                "langgraph store: %d put(s) queued in the outbox (key %s, %s)",
                len(ops),
                result.key,
                result.reason,
            )
            return []
        rejected = []
        for op, decision in zip(ops, result.results, strict=True):
            logger.info("langgraph store put -> %s %s", decision.operation, decision.reason_code)
            if op.value is None:
                continue  # deleting what is not there is fine
            if decision.operation in ("REJECT", "QUARANTINE"):
                rejected.append(
                    WriteRejected(
                        decision.reason_code, decision.message, operation=decision.operation
                    )
                )
        return rejected

    def _search(self, op: SearchOp) -> list[SearchItem]:
        user_id, path = self._split(op.namespace_prefix, prefix=True)
        if user_id is None:
            raise InvalidNamespaceError(
                f"search needs a namespace prefix that names the user: "
                f"(*{self.namespace_prefix!r}, user_id, ...)."
            )
        engram_ns = self._engram_namespace(path)
        subject = self.subject(user_id)
        wanted = op.offset + op.limit
        found: list[SearchItem] = []
        try:
            if op.query:
                pack = subject.recall(
                    op.query,
                    self.purpose,
                    namespaces=[engram_ns],
                    k=min(50, max(wanted * 3, 10)),
                    token_budget=self.recall_token_budget,
                    route=self.recall_route,
                )
                if pack.degraded:
                    raise EngramUnavailable(pack.degraded_reason)
                for item in pack.items:
                    if self._mine(item) and _matches(item.value, op.filter):
                        found.append(self._item(user_id, item, item.scores.get("final")))  # type: ignore[arg-type]
            else:
                for record in subject.iter_memories(namespace=engram_ns):
                    if self._mine(record) and _matches(record.value, op.filter):
                        item = self._item(user_id, record)
                        found.append(
                            SearchItem(
                                item.namespace,
                                item.key,
                                item.value,
                                item.created_at,
                                item.updated_at,
                            )
                        )
                        if len(found) >= wanted:
                            break
        except EngramUnavailable as e:
            self._read_failed("search", e)
            return []
        self._read_ok()
        return found[op.offset : wanted]

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        prefix: tuple[str, ...] = ()
        for condition in op.match_conditions or ():
            if condition.match_type == "prefix":
                prefix = tuple(condition.path)
        user_id: str | None
        if "*" in prefix[: len(self.namespace_prefix) + 1]:
            user_id = None
        else:
            user_id, _ = self._split(prefix, prefix=True)
        if user_id is None:
            raise InvalidNamespaceError(
                "list_namespaces needs a prefix that names the user: "
                f"prefix=(*{self.namespace_prefix!r}, user_id, ...)."
            )
        try:
            namespaces = {
                self._namespace_of(user_id, r.namespace)
                for r in self.subject(user_id).iter_memories(namespace=self.root)
                if self._mine(r)
            }
        except EngramUnavailable as e:
            self._read_failed("list_namespaces", e)
            return []
        self._read_ok()
        if op.match_conditions:
            namespaces = {
                ns for ns in namespaces if all(_does_match(c, ns) for c in op.match_conditions)
            }
        if op.max_depth is not None:
            namespaces = {ns[: op.max_depth] for ns in namespaces}
        ordered = sorted(namespaces)
        return ordered[op.offset : op.offset + op.limit]


def _does_match(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    path = condition.path
    if len(namespace) < len(path):
        return False
    pairs = (
        zip(namespace, path, strict=False)
        if condition.match_type == "prefix"
        else zip(reversed(namespace), reversed(path), strict=False)
    )
    return all(p == "*" or n == p for n, p in pairs)


def _matches(value: Any, filter_: dict[str, Any] | None) -> bool:
    if not filter_:
        return True
    if not isinstance(value, dict):
        return False
    return all(_compare(value.get(k), v) for k, v in filter_.items())


def _compare(actual: Any, expected: Any) -> bool:
    if isinstance(expected, dict):
        if any(k.startswith("$") for k in expected):
            return all(_operator(actual, k, v) for k, v in expected.items())
        return isinstance(actual, dict) and all(
            _compare(actual.get(k), v) for k, v in expected.items()
        )
    return actual == expected


def _operator(actual: Any, operator: str, operand: Any) -> bool:
    if operator == "$eq":
        return actual == operand
    if operator == "$ne":
        return actual != operand
    if actual is None:
        return False
    if operator == "$gt":
        return float(actual) > float(operand)
    if operator == "$gte":
        return float(actual) >= float(operand)
    if operator == "$lt":
        return float(actual) < float(operand)
    if operator == "$lte":
        return float(actual) <= float(operand)
    raise ValueError(f"Unsupported operator: {operator}")
