"""``EngramStore``: a LangGraph ``BaseStore`` whose items are governed Engram memories.

Mapping (one store acts for one subject, the one its subject token names):

| LangGraph | Engram |
|---|---|
| ``namespace[0]`` | the subject label the store was opened for (``"alice"``); any other first label is refused (:class:`SubjectMismatch`), never written to someone else |
| ``namespace[1:]`` | the memory's namespace path under ``root`` (``("alice", "prefs", "food")`` → ``langgraph/prefs/food``) |
| ``key`` | the predicate ``lg.<key>`` (single-valued: a new value for the same key supersedes the old one, which stays in history); ``-``, ``_`` and capitals are escaped (``.d``, ``.u``, ``.c<letter>``) because Engram normalises predicates |
| ``value`` (dict) | the structured ``value``; the statement is ``value["statement"|"text"|"content"|"memory"]`` when one is a string, else ``"<key>: <value as JSON>"`` |
| ``put(..., None)`` / ``delete`` | ``DELETE /memories/{id}`` (the deletion workflow) |
| ``search(query=...)`` | ``POST /recall`` within the namespace prefix (score = Engram's final score) |
| ``search(filter=...)``, ``get``, ``list_namespaces`` | ``GET /memories`` (current memories only) |

Every put goes through the write policy. A put Engram refuses (a secret, a transient
remark, injection-like text held in quarantine, ...) raises :class:`WriteRejected` with the
policy's reason code; it is never dropped silently. ``created_at``/``updated_at`` are the
current version's record time. Keys are ASCII letters, digits, ``_`` and ``-`` (UUIDs fit);
namespace labels too (any script: ``用户``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Iterable
from datetime import UTC, datetime
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
)

from engramhq_client import models as m
from engramhq_client.client import EngramClient, QueuedWrite, SubjectClient
from engramhq_client.errors import EngramError, WriteRejected

logger = logging.getLogger("engramhq_client.langgraph")

PREDICATE_PREFIX = "lg."
_LABEL_RE = re.compile(r"^[\w\-]+$")
_KEY_RE = re.compile(r"^[A-Za-z0-9_\-]+$")
# Engram normalises predicates (lower case, "_" for "-"), so a key is written with only
# lower-case letters, digits and dots: "-" -> ".d", "_" -> ".u", "A" -> ".ca". Two keys
# can never become one predicate, and the key reads back exactly.
_ESCAPES = {"-": ".d", "_": ".u"}


def encode_key(key: str) -> str:
    out = []
    for ch in key:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ch.isupper():
            out.append(".c" + ch.lower())
        else:
            out.append(ch)
    return "".join(out)


def decode_key(encoded: str) -> str:
    out, i = [], 0
    while i < len(encoded):
        if encoded[i] == "." and i + 1 < len(encoded):
            tag = encoded[i + 1]
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


_STATEMENT_FIELDS = ("statement", "text", "content", "memory")


class SubjectMismatch(EngramError, InvalidNamespaceError):
    """The namespace names another subject than the one this store acts for."""


class EngramStore(BaseStore):
    """A LangGraph store backed by Engram for one subject. See the module for the mapping.

    ``subject`` is a :class:`~engramhq_client.client.SubjectClient` (``client.for_user(...)``
    or ``client.for_subject(token)``); ``subject_label`` is the first namespace label that
    names it. Write defaults (``assertion_kind``, ``confidence``, ``purpose``,
    ``consent_basis``, ``memory_type``) describe what an agent stores: inferences, unless
    the application knows the user said so.
    """

    supports_ttl = False

    def __init__(
        self,
        subject: SubjectClient,
        subject_label: str,
        *,
        root: str = "langgraph",
        purpose: str = "personalization",
        memory_type: str = "semantic",
        assertion_kind: str = "agent_inference",
        confidence: float = 0.8,
        consent_basis: str = "legitimate_interest",
        recall_token_budget: int = 2000,
    ) -> None:
        self.subject = subject
        self.subject_label = subject_label
        self.root = root
        self.purpose = purpose
        self.memory_type = memory_type
        self.assertion_kind = assertion_kind
        self.confidence = confidence
        self.consent_basis = consent_basis
        self.recall_token_budget = recall_token_budget

    @classmethod
    def for_user(cls, client: EngramClient, external_id: str, **kwargs: Any) -> EngramStore:
        """A store for one end user whose namespaces start with ``(external_id, ...)``."""
        return cls(client.for_user(external_id), external_id, **kwargs)

    # -- mapping -------------------------------------------------------------------------

    def _path(self, namespace: tuple[str, ...], *, prefix: bool = False) -> tuple[str, ...]:
        """The namespace without its subject label; refuses other subjects."""
        if not namespace:
            if prefix:
                return ()
            raise InvalidNamespaceError("Namespace cannot be empty.")
        if namespace[0] != self.subject_label:
            raise SubjectMismatch(
                f"This store acts for subject {self.subject_label!r}; the namespace "
                f"{namespace!r} names another. Open a store with that subject's token."
            )
        path = tuple(namespace[1:])
        for label in path:
            if not isinstance(label, str) or not _LABEL_RE.match(label):
                raise InvalidNamespaceError(
                    f"Namespace label {label!r}: use letters, digits, '_' or '-'."
                )
        return path

    def _engram_namespace(self, path: tuple[str, ...]) -> str:
        return "/".join((self.root, *path))

    def _namespace_of(self, engram_namespace: str) -> tuple[str, ...]:
        parts = engram_namespace.split("/")[1:]
        return (self.subject_label, *parts)

    @staticmethod
    def _predicate(key: str) -> str:
        if not isinstance(key, str) or not _KEY_RE.match(key) or len(key) > 120:
            raise ValueError(f"Key {key!r}: use up to 120 letters, digits, '_' or '-'.")
        return PREDICATE_PREFIX + encode_key(key)

    @staticmethod
    def _statement(key: str, value: dict[str, Any]) -> str:
        for name in _STATEMENT_FIELDS:
            text = value.get(name)
            if isinstance(text, str) and text.strip():
                return text
        return f"{key}: {json.dumps(value, ensure_ascii=False, sort_keys=True)}"

    def _item(self, record: m.MemoryRecord | m.RecallItem, score: float | None = None) -> Item:
        key = decode_key(record.predicate[len(PREDICATE_PREFIX) :])
        stamp = datetime.fromisoformat(record.recorded_at.replace("Z", "+00:00"))
        value = record.value if isinstance(record.value, dict) else {"value": record.value}
        namespace = self._namespace_of(record.namespace)
        if score is None and isinstance(record, m.MemoryRecord):
            return Item(
                value=value, key=key, namespace=namespace, created_at=stamp, updated_at=stamp
            )
        return SearchItem(namespace, key, value, stamp, stamp, score)

    def _mine(self, record: m.MemoryRecord | m.RecallItem) -> bool:
        return record.predicate.startswith(PREDICATE_PREFIX) and (
            record.namespace == self.root or record.namespace.startswith(self.root + "/")
        )

    def _current(self, namespace: tuple[str, ...], key: str) -> m.MemoryRecord | None:
        engram_ns = self._engram_namespace(self._path(namespace))
        page = self.subject.list_memories(
            namespace=engram_ns, predicate=self._predicate(key), limit=50
        )
        exact = [r for r in page.results if r.namespace == engram_ns]
        return exact[0] if exact else None

    # -- operations ----------------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        results: list[Result] = []
        for op in ops:
            if isinstance(op, GetOp):
                record = self._current(op.namespace, op.key)
                results.append(self._item(record) if record else None)
            elif isinstance(op, PutOp):
                self._put(op)
                results.append(None)
            elif isinstance(op, SearchOp):
                results.append(self._search(op))
            elif isinstance(op, ListNamespacesOp):
                results.append(self._list_namespaces(op))
            else:
                raise TypeError(f"Unknown operation {type(op).__name__}")
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        # The sync client is thread-safe; a thread keeps the event loop free.
        return await asyncio.to_thread(self.batch, list(ops))

    def _put(self, op: PutOp) -> None:
        path = self._path(op.namespace)
        predicate = self._predicate(op.key)
        if op.value is None:
            record = self._current(op.namespace, op.key)
            if record is not None:
                result = self.subject.delete(record.id)
                logger.info("langgraph store delete %s -> %s", record.id, _op_name(result))
            return
        if not isinstance(op.value, dict):
            raise TypeError("A LangGraph store value must be a dict.")
        statement = self._statement(op.key, op.value)
        now = datetime.now(UTC).isoformat()
        current = self._current(op.namespace, op.key)
        result: m.CandidateResult | QueuedWrite
        if current is not None and current.value != op.value:
            # The application replaces the key's value: an explicit supersede, so the old
            # version is closed and kept in history. (A second plain candidate would be an
            # inference contradicting an inference, which the policy sends to the conflict
            # queue instead.)
            result = self.subject.supersede(
                current.id,
                m.SupersedeRequest(
                    statement=statement,
                    assertion_kind=self.assertion_kind,
                    confidence=self.confidence,
                    value=op.value,
                    valid_from=now,
                ),
            )
        else:
            result = self.subject.remember(
                m.Candidate(
                    memory_type=self.memory_type,
                    namespace=self._engram_namespace(path),
                    statement=statement,
                    assertion_kind=self.assertion_kind,
                    confidence=self.confidence,
                    purpose=self.purpose,
                    consent_basis=self.consent_basis,
                    predicate=predicate,
                    value=op.value,
                    cardinality="single",
                    valid_from=now,
                )
            )
        if isinstance(result, QueuedWrite):
            logger.warning("langgraph store put queued in outbox (key %s)", result.key)
            return
        logger.info("langgraph store put -> %s %s", result.operation, result.reason_code)
        if result.operation in ("REJECT", "QUARANTINE"):
            raise WriteRejected(result.reason_code, result.message, operation=result.operation)

    def _search(self, op: SearchOp) -> list[SearchItem]:
        path = self._path(op.namespace_prefix, prefix=True)
        engram_ns = self._engram_namespace(path)
        wanted = op.offset + op.limit
        found: list[SearchItem] = []
        if op.query:
            pack = self.subject.recall(
                op.query,
                self.purpose,
                namespaces=[engram_ns],
                k=min(50, max(wanted * 3, 10)),
                token_budget=self.recall_token_budget,
            )
            for item in pack.items:
                if self._mine(item) and _matches(item.value, op.filter):
                    found.append(self._item(item, item.scores.get("final")))  # type: ignore[arg-type]
        else:
            for record in self.subject.iter_memories(namespace=engram_ns):
                if self._mine(record) and _matches(record.value, op.filter):
                    item = self._item(record)
                    found.append(
                        SearchItem(
                            item.namespace, item.key, item.value, item.created_at, item.updated_at
                        )
                    )
                    if len(found) >= wanted:
                        break
        return found[op.offset : wanted]

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        namespaces = {
            self._namespace_of(r.namespace)
            for r in self.subject.iter_memories(namespace=self.root)
            if self._mine(r)
        }
        if op.match_conditions:
            namespaces = {
                ns for ns in namespaces if all(_does_match(c, ns) for c in op.match_conditions)
            }
        if op.max_depth is not None:
            namespaces = {ns[: op.max_depth] for ns in namespaces}
        ordered = sorted(namespaces)
        return ordered[op.offset : op.offset + op.limit]


def _op_name(result: m.CandidateResult | QueuedWrite) -> str:
    return "queued" if isinstance(result, QueuedWrite) else result.operation


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
