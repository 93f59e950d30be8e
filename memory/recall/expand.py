"""Step 5c of recall: where the hits sit in the subject's conversations.

Two levers, each off at weight 0 (``RecallWeights``); both read the threads of the
memories' source events.

**The reply to a recalled question** (``adjacent_reply``). A turn that asks something
("How did the interview go?") holds the question's words, but its answer is in the turn
after it, which may share none of them. When one of the best hits asks something (``?``
or ``？``, as ``rank.scope_to_speaker`` reads a turn), the memories citing the event right
after its own in the same conversation thread come along, scored ``adjacent_reply`` times
the hit's (a memory already ranked keeps the higher of the two). The turn *before* a hit
is not added: it is already the hit's context (``memory.neighbourhood``), and adding it
(or the turns around every hit) did not help on LoCoMo (docs/recall.md).

Bounded: the replies to the best ``SEEDS`` hits only. A reply comes back only if it is
eligible for this very request: it is read through ``Eligible.queryset``, the same scope
and filter every route searches in (tenant, subject, clearance, purpose, status,
validity, supersession, deletion), so a deleted, superseded, quarantined, too sensitive
or other subject's memory never comes back this way. Conversation order is that of
``memory.neighbourhood``: ``(occurred_at, received_at, id)``.

**Spread over threads** (``thread_spread``). A question about what someone does, has or
has been through is answered across conversations: each one adds a part. When the best
hits all come from one thread, near-repeats of one part crowd out the others, so each
memory's score drops by ``thread_spread`` for every better-ranked memory from the same
thread (a greedy diversification, as maximal marginal relevance does by content, here by
provenance). It reorders the best ``SPREAD_DEPTH`` only, never adds or drops one; a
memory from no thread is never lowered."""

from __future__ import annotations

import uuid

from django.db import connection

from memory.models import MemorySource
from memory.recall.joined import join, order, raise_to, with_sources
from memory.recall.rank import ASKS
from memory.recall.scope import Eligible
from memory.recall.signals import Candidate
from memory.recall.weights import RecallWeights

# The best hits whose replies are looked up.
SEEDS = 5
# How far down the ranking the spread over threads reorders.
SPREAD_DEPTH = 50

_THREADS_SQL = """
    SELECT DISTINCT ON (s.record_id) s.record_id, e.thread_id
    FROM memory_memorysource s
    JOIN memory_sourceevent e ON e.id = s.event_id
    WHERE s.record_id = ANY(%(ids)s)
    ORDER BY s.record_id, e.occurred_at, e.received_at, e.id
"""

_REPLIES_SQL = """
    SELECT s.record_id, n.id
    FROM memory_memorysource s
    JOIN memory_sourceevent e ON e.id = s.event_id
    JOIN LATERAL (
        SELECT p.id FROM memory_sourceevent p
        WHERE p.tenant_id = e.tenant_id AND p.subject_id = e.subject_id
          AND p.thread_id = e.thread_id
          AND (p.occurred_at, p.received_at, p.id) > (e.occurred_at, e.received_at, e.id)
        ORDER BY p.occurred_at, p.received_at, p.id
        LIMIT 1
    ) n ON true
    WHERE s.record_id = ANY(%(seeds)s) AND e.thread_id <> ''
"""


def next_events(seed_ids: list[uuid.UUID]) -> dict[uuid.UUID, set[uuid.UUID]]:
    """Event id -> the seeds it comes right after (in the thread of one of their source
    events)."""
    if not seed_ids:
        return {}
    with connection.cursor() as cursor:
        cursor.execute(_REPLIES_SQL, {"seeds": list(seed_ids)})
        rows = cursor.fetchall()
    out: dict[uuid.UUID, set[uuid.UUID]] = {}
    for seed_id, event_id in rows:
        out.setdefault(event_id, set()).add(seed_id)
    return out


def adjacent_replies(
    ranked: list[Candidate],
    eligible: Eligible,
    w: RecallWeights,
    *,
    about_others: bool = False,
) -> list[Candidate]:
    """``ranked`` with the memories of the turns right after those of its best ``SEEDS``
    hits that ask something, each scored ``w.adjacent_reply`` times its hit's score
    (less ``someone_else`` for a fact about someone else, as in
    ``rank.fuse_and_rerank``); a memory already ranked keeps the higher of its own score
    and that one. Unchanged when the weight is 0 or no such hit was recalled."""
    if not w.adjacent_reply or not ranked:
        return ranked
    seeds = {c.id: c for c in ranked[:SEEDS] if ASKS.search(c.record.statement)}
    events = next_events(list(seeds))
    if not events:
        return ranked
    # Eligible for this request, exactly as the routes see the subject's memories; read
    # whole with their sources (what ``signals.load_records`` gives), in one query.
    cited = with_sources(
        eligible.queryset.filter(
            pk__in=MemorySource.objects.filter(event_id__in=list(events)).values("record_id")
        )
    )
    by_id = {c.id: c for c in ranked}
    out = list(ranked)
    for record in cited:
        if record.id in seeds:
            continue
        after = {s for e in record.source_event_ids if e in events for s in events[e]}
        if not after:
            continue
        c = join(out, by_id, record, about_others=about_others)
        raise_to(c, w.adjacent_reply * max(seeds[s].signals.final or 0.0 for s in after), w)
    return order(out)


def around_hits(
    ranked: list[Candidate],
    eligible: Eligible,
    w: RecallWeights,
    *,
    about_others: bool = False,
) -> list[Candidate]:
    """Both levers, as the tenant's weights ask: the spread first, so the replies to the
    (spread) best hits come along."""
    return adjacent_replies(spread_threads(ranked, w), eligible, w, about_others=about_others)


def threads_of(record_ids: list[uuid.UUID]) -> dict[uuid.UUID, str]:
    """Record id -> the thread of its earliest source event (absent: no event)."""
    if not record_ids:
        return {}
    with connection.cursor() as cursor:
        cursor.execute(_THREADS_SQL, {"ids": list(record_ids)})
        return dict(cursor.fetchall())


def spread_threads(ranked: list[Candidate], w: RecallWeights) -> list[Candidate]:
    """``ranked`` with its best ``SPREAD_DEPTH`` reordered greedily: at each step the
    memory with the highest score less ``thread_spread`` per memory of its thread already
    placed; that lowered score becomes its ``final``, so the order holds through a
    later sort. Unchanged when the weight is 0."""
    if not w.thread_spread or len(ranked) < 2:
        return ranked
    head, tail = ranked[:SPREAD_DEPTH], ranked[SPREAD_DEPTH:]
    threads = threads_of([c.id for c in head])
    placed: dict[str, int] = {}
    out: list[Candidate] = []
    left = list(head)

    def lowered(c: Candidate) -> float:
        thread = threads.get(c.id, "")
        return (c.signals.final or 0.0) - w.thread_spread * (placed.get(thread, 0) if thread else 0)

    while left:
        best = max(left, key=lowered)  # the first of equals: rank order breaks ties
        left.remove(best)
        best.signals.final = round(lowered(best), 4)
        thread = threads.get(best.id, "")
        if thread:
            placed[thread] = placed.get(thread, 0) + 1
        out.append(best)
    # The tail stays below: nothing beneath the head is raised above it.
    floor = out[-1].signals.final or 0.0
    for c in tail:
        if (c.signals.final or 0.0) > floor:
            c.signals.final = floor
    return out + tail
