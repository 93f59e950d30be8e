"""Step 5e of recall: a question that names a time (``memory.temporal.window``: "in May
2023", "on 7 July, 2023", "last summer", "去年", "2023年5月") ranks up the memories whose
structured time falls in it, by ``time_named`` (``RecallWeights``; 0: off).

A memory's time is its ``valid_from``: when what it tells happened or was said (the write
path resolves "yesterday" or "上周" against the event's time). What is told is often told
a little later than it happened ("I went camping last week"), so a window reaches
``SLACK`` past its end. Only the memories already ranked (they passed the relevance gate)
are raised, the best ``DEPTH`` of them: a time alone never brings a memory in."""

from __future__ import annotations

from datetime import datetime, timedelta

from memory.recall.signals import Candidate
from memory.recall.weights import RecallWeights
from memory.temporal.window import named_window

DEPTH = 50
SLACK = timedelta(days=7)


def time_named(
    ranked: list[Candidate], w: RecallWeights, *, question: str, now: datetime
) -> list[Candidate]:
    """``ranked`` with ``w.time_named`` added to the score of each of its best ``DEPTH``
    whose ``valid_from`` falls in the time the question names, re-sorted. Unchanged when
    the weight is 0 or the question names no time."""
    if not w.time_named or not ranked:
        return ranked
    window = named_window(question, now)
    if window is None:
        return ranked
    head, tail = ranked[:DEPTH], ranked[DEPTH:]
    raised = False
    for c in head:
        if window.holds(c.record.valid_from, SLACK):
            c.signals.final = round((c.signals.final or 0.0) + w.time_named, 4)
            raised = True
    if not raised:
        return ranked
    head.sort(
        key=lambda c: (-(c.signals.final or 0.0), -c.record.valid_from.timestamp(), str(c.id))
    )
    return head + tail
