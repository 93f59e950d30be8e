"""Step 5e of recall: a question that names a time (``memory.temporal.window``: "in May
2023", "on 7 July, 2023", "last summer", "去年", "2023年5月") ranks up the memories whose
structured time falls in it, by ``time_named`` (``RecallWeights``; 0: off).

A memory's time is its ``valid_from``: when what it tells happened or was said (the write
path resolves "yesterday" or "上周" against the event's time). What is told is often told
a little later than it happened ("I went camping last week"), so a window reaches
``SLACK`` past its end. Only the memories already ranked (they passed the relevance gate)
are raised, the best ``DEPTH`` of them. With ``time_told`` (over 0) a memory is also in the
window when its words tell a time inside it: "Two months ago I went to Porto", said on 8
May, is in March (the entity index's ``date`` mentions, resolved at ingest; ``told_in``).

**Inside the window** (``time_window``, a share; 0: off). When the question names a
stretch with a start and an end (not a month of any year), the ``WINDOW_HITS`` memories of
that stretch that match the question best by vector margin (as the vector route ranks:
memory · (question − typical question)) come along at that share of the best hit's score
(a memory already ranked keeps the higher of the two): the routes rank the whole subject,
and a turn of that day may not be among their best. Read through the request's own
eligibility (``Eligible.queryset``), and only when something was recalled: a time alone
never answers a question.

**A question that asks for a time** (``time_asked``, 5f; 0: off): "When did Ada move?",
"What year did …", "Since when …", "她什么时候搬的家？", "哪一年…". Its answer is a time, so
of the best ``DEPTH`` memories already ranked (about the thing asked) those that tell one
gain ``time_asked``: a date in their words or a time resolved at ingest against when they
were said ("yesterday", "上周", "two months ago": the entity index's ``date`` rows,
``memory.temporal.said``). It reorders what the routes found; it brings none in."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from pgvector.django import MaxInnerProduct

from memory.models import EntityKind, MemoryEmbedding, MemoryMention
from memory.recall.joined import join, order, raise_to, with_sources
from memory.recall.query import QueryVector
from memory.recall.scope import Eligible
from memory.recall.signals import Candidate
from memory.recall.ties import recall_order
from memory.recall.weights import RecallWeights
from memory.temporal.en import _MONTH_NUMBER
from memory.temporal.said import told_window
from memory.temporal.window import Window, named_window

DEPTH = 50
SLACK = timedelta(days=7)
WINDOW_HITS = 3


def in_window(
    ranked: list[Candidate],
    eligible: Eligible,
    w: RecallWeights,
    *,
    window: Window | None,
    query_vector: QueryVector | None,
    about_others: bool = False,
) -> list[Candidate]:
    """``ranked`` with the best ``WINDOW_HITS`` memories of the window by vector margin,
    scored ``w.time_window`` times the best hit's score. Unchanged when the weight is 0,
    the window has no start, nothing was ranked or the question has no vector."""
    if not w.time_window or not ranked or window is None or window.start is None:
        return ranked
    got = query_vector.result() if query_vector is not None else None
    if got is None:
        return ranked
    query, typical = got
    records = eligible.queryset.filter(
        valid_from__gte=window.start, valid_from__lt=window.end + SLACK
    ).values("pk")
    nearest = list(
        MemoryEmbedding.objects.filter(
            tenant_id=eligible.values["tenant"],
            model_id=query_vector.model_id,
            record_id__in=records,
        )
        .annotate(negative_margin=MaxInnerProduct("vector", (query - typical).tolist()))
        .order_by("negative_margin", "record_id")
        .values_list("record_id", flat=True)[:WINDOW_HITS]
    )
    if not nearest:
        return ranked
    score = w.time_window * max(c.signals.final or 0.0 for c in ranked)
    by_id = {c.id: c for c in ranked}
    out = list(ranked)
    fresh = with_sources(eligible.queryset.filter(pk__in=[i for i in nearest if i not in by_id]))
    for record in fresh:
        join(out, by_id, record, about_others=about_others)
    for record_id in nearest:
        c = by_id.get(record_id)
        if c is not None:
            raise_to(c, score, w)
    return order(out)


def time_named(
    ranked: list[Candidate],
    w: RecallWeights,
    *,
    question: str,
    now: datetime,
    eligible: Eligible | None = None,
    query_vector: QueryVector | None = None,
    about_others: bool = False,
) -> list[Candidate]:
    """Both levers: the memories of the window first (``in_window``), then ``w.time_named``
    added to the score of each of the best ``DEPTH`` whose ``valid_from`` falls in the
    time the question names, re-sorted. Unchanged when both weights are 0 or the question
    names no time."""
    if not (w.time_named or w.time_window) or not ranked:
        return ranked
    window = named_window(question, now)
    if window is None:
        return ranked
    if eligible is not None:
        ranked = in_window(
            ranked,
            eligible,
            w,
            window=window,
            query_vector=query_vector,
            about_others=about_others,
        )
    if not w.time_named:
        return ranked
    head, tail = ranked[:DEPTH], ranked[DEPTH:]
    told = told_in(head, window, now) if w.time_told else set()
    raised = False
    for c in head:
        if c.id in told or window.holds(c.record.valid_from, SLACK):
            c.signals.final = round((c.signals.final or 0.0) + w.time_named, 4)
            raised = True
    if not raised:
        return ranked
    head.sort(key=recall_order)
    return head + tail


def told_in(head: list[Candidate], window: Window, now: datetime) -> set:
    """The ids of ``head`` whose words tell a time inside ``window`` (a ``date`` mention of
    the entity index: an absolute date, or a relative one resolved at ingest against when
    it was said, ``said.told_window``): "Last Saturday I ran my first 10k", said on
    Thursday 11 May, tells Saturday 6 May. One query."""
    found = set()
    said_at = {c.id: c.record.valid_from for c in head}
    mentions = MemoryMention.objects.filter(
        record_id__in=list(said_at), kind=EntityKind.DATE
    ).values_list("record_id", "norm")
    for record_id, norm in mentions:
        if record_id in found:
            continue
        span = told_window(norm, now) or month_told(norm, said_at[record_id])
        if span is not None and overlaps(window, span):
            found.add(record_id)
    return found


def month_told(norm: str, said: datetime) -> Window | None:
    """A month named without a year ("back in April", "in December": the ``date``
    mention "april") read as the one nearest to when it was said, before or after:
    "April" said on 12 July 2025 is April 2025, "December" said on 8 November 2025 is
    December 2025. None for anything but a lone month. No tense is read: a plan and a
    memory read alike."""
    month = _MONTH_NUMBER.get(norm.strip().lower().rstrip("."))
    if month is None:
        return None
    best = min(
        (
            datetime(year, month, 1, tzinfo=said.tzinfo)
            for year in range(said.year - 1, said.year + 2)
        ),
        key=lambda start: abs(start - said),
    )
    end = datetime(best.year + best.month // 12, best.month % 12 + 1, 1, tzinfo=said.tzinfo)
    return Window(best, end)


def overlaps(window: Window, span: Window) -> bool:
    """``span`` (with a start and an end) and ``window`` share a moment; a window of some
    months of any year holds the span's start."""
    if window.start is None or window.end is None:
        return window.holds(span.start)
    return span.start < window.end and window.start < span.end


# The question words that ask for a time (a closed class): "when" opening a question or
# before an auxiliary ("When did …", "Do you know when did …" but not "what did she do when
# she was young"), "what/which day, date, week, month, year, season, time", "how long ago",
# "since when"; 什么时候, 何时, 哪天, 哪一年, 哪个月, 几月, 几号, 几点, 多久以前.
_ASKS_TIME = re.compile(
    r"^\W*when\b|\bwhen\s+(?:did|does|do|is|was|were|will|would|has|have|had|are|am|can"
    r"|could|should)\b|\b(?:what|which)\s+(?:time|date|day|week|month|year|season)s?\b"
    r"|\bhow\s+long\s+ago\b|\bsince\s+when\b"
    r"|什么时候|何时|哪(?:一)?(?:天|日|年|周|个?月|个?星期)|几月|几号|几点|多久(?:以|之)前",
    re.IGNORECASE,
)


def asks_time(question: str) -> bool:
    """The question asks for a time (``_ASKS_TIME``)."""
    return bool(_ASKS_TIME.search(question))


def time_asked(ranked: list[Candidate], w: RecallWeights, *, question: str) -> list[Candidate]:
    """``w.time_asked`` added to each of the best ``DEPTH`` ranked memories that tells a
    time, when the question asks for one; re-sorted. One query (the ranked ids' ``date``
    mentions). Unchanged when the weight is 0, nothing was ranked or the question asks
    for no time."""
    if not w.time_asked or not ranked or not asks_time(question):
        return ranked
    head, tail = ranked[:DEPTH], ranked[DEPTH:]
    timed = set(
        MemoryMention.objects.filter(
            record_id__in=[c.id for c in head], kind=EntityKind.DATE
        ).values_list("record_id", flat=True)
    )
    if not timed:
        return ranked
    for c in head:
        if c.id in timed:
            c.signals.final = round((c.signals.final or 0.0) + w.time_asked, 4)
    return order(head) + tail
