"""Other versions of single-valued facts, as matching keys for the lexical and vector
routes (``SlotKeys``)."""

from __future__ import annotations

import uuid
from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import BooleanField, ExpressionWrapper, Q

from memory.models import Cardinality, MemoryRecord


@dataclass
class SlotKeys:
    """Earlier (or later) versions of single-valued facts, as matching keys.

    "Where does the user live now?" is often worded closest to the *first* statement of
    the fact ("User lives in Singapore"), while the current version says "User now lives
    in Munich after moving from Seoul". The lexical and vector routes therefore also
    search the other versions of each single-valued slot, and a hit on one counts as a
    hit on the slot's eligible value — the one valid at ``as_of`` and believed at
    ``known_at``. The other version itself is never a candidate: the answer is always a
    record that passed the filters."""

    answers_of: dict[uuid.UUID, list[uuid.UUID]] = field(default_factory=dict)

    @property
    def ids(self) -> list[uuid.UUID]:
        return list(self.answers_of)


def slot_keys(scope_q: Q, filter_q: Q, history_q: Q) -> SlotKeys:
    rows = list(
        MemoryRecord.objects.filter(scope_q, filter_q | history_q)
        .filter(cardinality=Cardinality.SINGLE)
        .exclude(predicate="")
        .annotate(answer=ExpressionWrapper(filter_q, output_field=BooleanField()))
        .values_list("id", "subject_id", "namespace", "predicate", "answer")
    )
    answers: dict[tuple, list[uuid.UUID]] = defaultdict(list)
    for rid, subject_id, namespace, predicate, answer in rows:
        if answer:
            answers[(subject_id, namespace, predicate)].append(rid)
    keys = SlotKeys()
    for rid, subject_id, namespace, predicate, answer in rows:
        slot_answers = answers.get((subject_id, namespace, predicate))
        if not answer and slot_answers:
            keys.answers_of[rid] = slot_answers
    return keys
