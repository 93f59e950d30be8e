"""Reading memories exported from elsewhere into plain items the write policy can judge:
ChatGPT's memory list as pasted text, a Mem0 / OpenMemory export, an Engram export.

Pure functions: text or parsed JSON in, ``ImportItem`` out, or ``ImportFormatError`` with
a sentence saying what to fix. Nothing here decides what is kept: every item goes through
the write policy (``memory.services.user_memory.memories_import``), which refuses secrets,
passing moods and everything else it refuses from anyone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext_lazy as _

# One import at most this many items: a larger list is split by the person, not silently.
MAX_ITEMS = 500

SOURCE_CHATGPT = "chatgpt"
SOURCE_MEM0 = "mem0"
SOURCE_ENGRAM = "engram"

# A list marker in front of a pasted line: "-", "*", "•", "·", "1.", "2)", "(3)".
_MARKER = re.compile(r"^\s*(?:[-*•·‣◦▪]|\(?\d{1,4}[.)、])\s*")


@dataclass(frozen=True)
class ImportItem:
    statement: str
    memory_type: str = "semantic"
    namespace: str = ""
    predicate: str = ""
    valid_from: datetime | None = None
    valid_to: datetime | None = None


class ImportFormatError(ValueError):
    """The file or text is not in a format we read; ``message`` says what to do."""

    def __init__(self, message: str) -> None:
        super().__init__(str(message))
        self.message = message


def _limit(items: list[ImportItem]) -> list[ImportItem]:
    if not items:
        raise ImportFormatError(_("Nothing to import was found."))
    if len(items) > MAX_ITEMS:
        raise ImportFormatError(
            _("At most %(n)d memories can be imported at once; split the list.") % {"n": MAX_ITEMS}
        )
    return items


def parse_pasted_list(text: str) -> list[ImportItem]:
    """ChatGPT's "Manage memories" list (or any list), pasted: one memory per line; list
    markers are dropped, blank lines ignored, repeated lines kept once."""
    seen: set[str] = set()
    items = []
    for line in text.splitlines():
        statement = _MARKER.sub("", line).strip()
        if statement and statement not in seen:
            seen.add(statement)
            items.append(ImportItem(statement=statement))
    return _limit(items)


def _when(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return parse_datetime(value)
    except ValueError:
        return None


def parse_mem0(data: Any) -> list[ImportItem]:
    """A Mem0 ``get_all`` answer (``{"results": [...]}`` or a plain list, each item's text
    in ``memory``) or an OpenMemory export (``{"memories": [...]}``, text in ``content``).
    Items an OpenMemory user paused, archived or deleted are left out."""
    rows = data
    if isinstance(data, dict):
        rows = data.get("results", data.get("memories"))
    if not isinstance(rows, list):
        raise ImportFormatError(
            _('This is not a Mem0 export: expected a list of memories, or "results" or "memories".')
        )
    items = []
    for row in rows:
        if not isinstance(row, dict):
            continue
        text = row.get("memory") or row.get("content") or row.get("text")
        state = str(row.get("state") or "active").lower()
        if isinstance(text, str) and text.strip() and state == "active":
            items.append(ImportItem(statement=text.strip()))
    return _limit(items)


def parse_engram(data: Any) -> list[ImportItem]:
    """An Engram export (``"format": "engram.subject_export"``): the memories that were
    current when it was exported (active, still believed, not deleted), with their kind,
    topic, slot and dates. History, held and deleted versions are not imported."""
    if not isinstance(data, dict) or data.get("format") != "engram.subject_export":
        raise ImportFormatError(_("This is not an Engram export (its format field is missing)."))
    rows = data.get("records")
    if not isinstance(rows, list):
        raise ImportFormatError(_("This Engram export has no list of records."))
    items = []
    for row in rows:
        if not isinstance(row, dict) or row.get("status") != "active" or row.get("superseded_at"):
            continue
        text = row.get("statement")
        if not isinstance(text, str) or not text.strip():
            continue
        memory_type = row.get("memory_type")
        items.append(
            ImportItem(
                statement=text.strip(),
                memory_type=memory_type if memory_type in ("semantic", "episodic") else "semantic",
                namespace=str(row.get("namespace") or "")[:300],
                predicate=str(row.get("predicate") or "")[:200],
                valid_from=_when(row.get("valid_from")),
                valid_to=_when(row.get("valid_to")),
            )
        )
    return _limit(items)


def parse_file(data: Any) -> tuple[str, list[ImportItem]]:
    """An uploaded JSON file: an Engram export if it says so, else Mem0's shapes."""
    if isinstance(data, dict) and data.get("format") == "engram.subject_export":
        return SOURCE_ENGRAM, parse_engram(data)
    return SOURCE_MEM0, parse_mem0(data)
