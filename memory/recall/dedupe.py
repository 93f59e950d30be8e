"""Step 6 of recall: one value per single-valued predicate (the latest valid one), one
version per lineage, near-duplicate statements removed."""

from __future__ import annotations

import uuid
from datetime import datetime

from memory.content_rules import normalize_text
from memory.models import Cardinality, MemoryRecord
from memory.recall.signals import Candidate


def dedupe(
    ranked: list[Candidate], *, as_of: datetime, limit: int | None = None
) -> list[Candidate]:
    """Keep, in rank order: for a single-valued predicate only the value that started
    latest by ``as_of`` (the current one, or the one valid then; future values asked for
    with include_future stay, flagged), one version per lineage, and no statement that
    normalises to one already kept. Stops once ``limit`` are kept."""

    def collapses(r: MemoryRecord) -> bool:
        return r.cardinality == Cardinality.SINGLE and r.valid_from <= as_of

    latest_slot: dict[tuple[str, str], Candidate] = {}
    for c in ranked:
        r = c.record
        if collapses(r):
            key = (r.namespace, r.predicate)
            held = latest_slot.get(key)
            if held is None or (r.valid_from, r.recorded_at) > (
                held.record.valid_from,
                held.record.recorded_at,
            ):
                latest_slot[key] = c
    out: list[Candidate] = []
    seen_lineages: set[uuid.UUID] = set()
    seen_texts: set[str] = set()
    for c in ranked:
        r = c.record
        if collapses(r) and latest_slot[(r.namespace, r.predicate)] is not c:
            continue
        if r.valid_from <= as_of and r.lineage_id in seen_lineages:
            continue
        text = normalize_text(r.statement)
        if text in seen_texts:
            continue
        if r.valid_from <= as_of:
            seen_lineages.add(r.lineage_id)
        seen_texts.add(text)
        out.append(c)
        if limit is not None and len(out) >= limit:
            break
    return out
