"""Access statistics are written off the request: a committed recall hands its ids to the
per-process writer thread, which folds and writes them with its own connection."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from core.tenancy import tenant_context
from memory.models import MemoryRecord
from memory.services.access_stats import access_stats_join, access_stats_write
from tests.helpers.retrieval import ids, recall, remember


def _stats(record_id):
    with tenant_context(MemoryRecord.objects.values_list("tenant_id", flat=True).get(pk=record_id)):
        return MemoryRecord.objects.values_list("access_count", "last_accessed_at").get(
            pk=record_id
        )


@pytest.mark.django_db(transaction=True)
def test_committed_recalls_reach_the_statistics_and_a_failed_one_does_not(
    read_agent, owner_subject
):
    seat = remember(owner_subject, "User prefers aisle seats on flights")
    tea = remember(owner_subject, "User's favourite drink is oolong tea")
    query = "aisle or window seat?"

    first = recall(read_agent.agent, owner_subject, query)
    second = recall(read_agent.agent, owner_subject, query)
    assert ids(first) == ids(second) == [seat.record_id]
    with pytest.raises(RuntimeError), transaction.atomic():
        assert ids(recall(read_agent.agent, owner_subject, query)) == [seat.record_id]
        raise RuntimeError("the request failed after recalling")
    access_stats_join()

    count, last = _stats(seat.record_id)
    assert count == 2
    assert last is not None and abs(last - timezone.now()) < timedelta(minutes=1)
    assert _stats(tea.record_id) == (0, None)


@pytest.mark.django_db
def test_accesses_are_folded_per_record_and_scoped_to_their_tenant(
    owner_subject, other_tenant_user
):
    _, other_subject = other_tenant_user
    mine = remember(owner_subject, "User prefers aisle seats on flights", embed=False)
    theirs = remember(other_subject, "User prefers window seats", embed=False)
    early = timezone.now() - timedelta(hours=2)
    late = timezone.now() - timedelta(hours=1)

    updated = access_stats_write(
        [
            (owner_subject.tenant_id, (mine.record_id,), late),
            (owner_subject.tenant_id, (mine.record_id,), early),
            # An id of another tenant under this tenant's name changes nothing.
            (owner_subject.tenant_id, (theirs.record_id,), late),
        ]
    )
    assert updated == 1
    assert _stats(mine.record_id) == (2, late)
    assert _stats(theirs.record_id) == (0, None)
