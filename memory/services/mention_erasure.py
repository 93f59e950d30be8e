"""The entity index in the deletion workflow (``memory.services.deletion``): the mentions
of erased records, or all of an erased subject's. Erasure also drops them with the record
(``index_maintenance.derived_rows_erase``); this store verifies none is left."""

from __future__ import annotations

from django.db.models import Q

from memory.models import MemoryMention
from memory.services.derived_stores import DerivedStore, ErasureTarget


def _rows_q(t: ErasureTarget) -> Q:
    q = Q(record_id__in=t.record_ids)
    if t.whole_subject:
        q |= Q(subject_id=t.subject_id)
    return Q(tenant_id=t.tenant_id) & q


def _erase(t: ErasureTarget) -> int:
    return MemoryMention.objects.filter(_rows_q(t)).delete()[0]


def _find(t: ErasureTarget) -> int:
    return MemoryMention.objects.filter(_rows_q(t)).count()


ENTITY_MENTIONS_STORE = DerivedStore("entity_mentions", _erase, _find)
