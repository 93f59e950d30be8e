"""The order of equal scores: what recall does when two memories score the same.

Record ids are random (uuid4), so breaking a tie by id ranks the same memories
differently each time they are written (two ingests of one conversation, a restored
export, a subject rebuilt from its events). Recall instead breaks ties by what the memory
says about itself:

1. the newer ``valid_from`` first: of two equally good answers the later state of things;
2. the newer ``recorded_at``: of two told at one time, the one learned last (in a
   conversation written in order, the later turn);
3. the ``content_key``: the hash of the normalised statement (person-neutral, the same
   for "I prefer green tea" and "User prefers green tea", and for Chinese text), a stable
   key that depends only on what is said;
4. the statement itself, by code point (the same in every locale and language);
5. only then the id (two records of one statement at one instant: a duplicate).

The routes list equal scores in such an order too: the word routes by the doc's length,
its copies of valid_from and recorded_at, then its text (``routes.trigram.DOC_ORDER``,
BM25's final cut; BM25's approximate cut keeps all that tie with its last), the key
lookup, the slot's values and the latest experiences by ``TIME_ORDER``. Only the vector
route, whose equal margins mean the same vector (the same text), lists them by id: there
equal margins share a rank (``shared_ranks``, "1, 2, 2, 4").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from memory.models import MemoryRecord
from memory.recall.signals import Candidate

# ``record_key`` in SQL, for the routes that list memories by time (the key lookup, the
# slot's values, the latest experiences). The statement is compared in the database's
# collation there: any fixed order serves, as long as it is not the random id's.
TIME_ORDER = ("-valid_from", "-recorded_at", "content_key", "statement", "id")


def record_key(r: MemoryRecord) -> tuple:
    """``r``'s place among records of equal score (see the module's docstring)."""
    return (
        -r.valid_from.timestamp(),
        -r.recorded_at.timestamp(),
        r.content_key,
        r.statement,
        str(r.id),
    )


def recall_order(c: Candidate) -> tuple:
    """A recall's order: the score, then ``record_key``. Preconditions: ``c.record`` is
    loaded."""
    return (-(c.signals.final or 0.0), *record_key(c.record))


def shared_ranks(hits: Sequence[Any], score: Callable[[Any], float]) -> list[int]:
    """The rank of each of ``hits`` (listed best first by ``score``): its place, or the
    place of the first hit of the same score before it."""
    ranks: list[int] = []
    for place, hit in enumerate(hits, start=1):
        if ranks and score(hit) == score(hits[place - 2]):
            ranks.append(ranks[-1])
        else:
            ranks.append(place)
    return ranks
