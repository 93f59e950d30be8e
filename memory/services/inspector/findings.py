"""What a detector returns: a finding not yet stored, with ids and numbers only."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings


@dataclass(frozen=True)
class Found:
    kind: str
    severity: str
    record_ids: tuple[uuid.UUID, ...] = ()
    subject_id: uuid.UUID | None = None
    # Ids, counts, ratios and model ids only: never memory text.
    detail: dict[str, Any] = field(default_factory=dict)


def conf(key: str) -> Any:
    return settings.ENGRAM_QUALITY[key]
