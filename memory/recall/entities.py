"""Step 5d of recall: the entity index (``MemoryMention``, ``memory.entities``).

Two levers, each off at weight 0 (``RecallWeights``):

**The question's entities** (``entity_mention``). The memories that name an entity the
question names (a person, place, organisation, thing or date, in any of the forms the
index holds: case, traditional characters, a bracketed other name, a Chinese name's
pinyin; a thing in common words, "the pottery class", ``memory.entity_phrases``) come
along at that share of the best hit's score times how specific the entities they share
with the question are (``specificity``, summed, at most 1): a phrase one memory names
says more than a word twelve do.

**One hop** (``entity_hop``). The other entities of the best ``SEEDS`` hits lead to the
memories that name them too, at that share of the hit's score times the entity's
``specificity``: from a person to the event
they took part in, told in another session. Dates do not lead anywhere (a day names too
many unrelated things).

Bounded: an entity named by more than ``MAX_RECORDS`` of the subject's memories (a
conversation partner's name, the user's city) is no index and leads nowhere; at most
``MAX_ADDED`` memories come along per lever. A memory comes back only if it is eligible
for this very request: it is read through ``Eligible.queryset``, the same scope and filter
every route searches in (tenant, subject, clearance, purpose, status, validity,
supersession, deletion); the mentions only say which ids to ask for.
"""

from __future__ import annotations

import math
import uuid
from collections import Counter

from django.db import connection

from memory import entities
from memory.models import EntityKind
from memory.recall.joined import join, order, raise_to, with_sources
from memory.recall.scope import Eligible
from memory.recall.signals import Candidate
from memory.recall.ties import record_key
from memory.recall.weights import RecallWeights

SEEDS = 5
MAX_RECORDS = 20
MAX_ADDED = 20

# The records naming each of ``norms`` within the subjects, for the entities named by at
# most ``max`` of them.
_NAMED_SQL = """
    SELECT norm, record_id FROM (
        SELECT m.norm, m.record_id, count(*) OVER (PARTITION BY m.norm) AS named
        FROM memory_memorymention m
        WHERE m.tenant_id = %(tenant)s AND m.subject_id = ANY(%(subjects)s)
          AND m.norm = ANY(%(norms)s)
    ) t
    WHERE named <= %(max)s
"""

# The other records naming an entity a seed names (not a date, not one of ``skip``), for
# the entities named by at most ``max`` records of the subjects.
_HOP_SQL = """
    WITH seed AS (
        SELECT record_id, norm FROM memory_memorymention
        WHERE tenant_id = %(tenant)s AND record_id = ANY(%(seeds)s)
          AND kind <> %(date)s AND NOT norm = ANY(%(skip)s)
    ), named AS (
        SELECT m.norm, m.record_id, count(*) OVER (PARTITION BY m.norm) AS n
        FROM memory_memorymention m
        WHERE m.tenant_id = %(tenant)s AND m.subject_id = ANY(%(subjects)s)
          AND m.norm IN (SELECT norm FROM seed)
    )
    SELECT s.record_id, named.record_id, named.n FROM seed s
    JOIN named ON named.norm = s.norm AND named.record_id <> s.record_id
    WHERE named.n <= %(max)s
"""


def specificity(named: int) -> float:
    """How much naming an entity says about a memory, by how many of the subject's
    memories name it: 1 for one memory, falling to about 0 at ``MAX_RECORDS`` (an idf)."""
    return max(0.0, 1.0 - math.log(named) / math.log(MAX_RECORDS + 1))


def _subjects(eligible: Eligible) -> list[uuid.UUID]:
    return [s for s in (eligible.values["subject"], eligible.values.get("procedures")) if s]


def _load(eligible: Eligible, ids: set[uuid.UUID]) -> list:
    """The records of ``ids`` this request may return, with their sources (what
    ``signals.load_records`` gives), in one query."""
    return list(with_sources(eligible.queryset.filter(pk__in=list(ids))))


def _add(
    out: list[Candidate],
    by_id: dict[uuid.UUID, Candidate],
    scores: dict[uuid.UUID, float],
    eligible: Eligible,
    w: RecallWeights,
    about_others: bool,
) -> None:
    # The new memories that come along: the best ``MAX_ADDED`` by score, equal scores by
    # ``ties.record_key`` (the newer first) — so all that tie with the last are loaded,
    # and the cut is made on their records, never on their random ids.
    fresh = sorted((i for i in scores if i not in by_id), key=lambda i: -scores[i])
    if len(fresh) > MAX_ADDED:
        last = scores[fresh[MAX_ADDED - 1]]
        fresh = [i for i in fresh if scores[i] >= last]
    wanted = set(fresh) | {i for i in scores if i in by_id}
    loaded = _load(eligible, wanted) if wanted else []
    new = sorted(
        (r for r in loaded if r.id not in by_id), key=lambda r: (-scores[r.id], *record_key(r))
    )
    for record in [r for r in loaded if r.id in by_id] + new[:MAX_ADDED]:
        raise_to(join(out, by_id, record, about_others=about_others), scores[record.id], w)


def entity_expand(
    ranked: list[Candidate],
    eligible: Eligible,
    w: RecallWeights,
    *,
    question: str,
    about_others: bool = False,
) -> list[Candidate]:
    """``ranked`` with the memories naming the question's entities and, one hop on, those
    naming the best hits' other entities, scored as the module says; a memory already
    ranked keeps the higher of its own score and that one. Unchanged when both weights
    are 0 or nothing was recalled."""
    if not (w.entity_mention or w.entity_hop) or not ranked:
        return ranked
    seeds = {c.id: c for c in ranked[:SEEDS]}
    top = max(c.signals.final or 0.0 for c in seeds.values())
    norms = entities.keys(question)
    params = {"tenant": eligible.values["tenant"], "subjects": _subjects(eligible)}
    scores: dict[uuid.UUID, float] = {}
    with connection.cursor() as cursor:
        if w.entity_mention and norms:
            cursor.execute(_NAMED_SQL, {**params, "norms": norms, "max": MAX_RECORDS})
            named = cursor.fetchall()
            held = Counter(norm for norm, _ in named)
            share: dict[uuid.UUID, float] = {}
            for norm, record_id in named:
                share[record_id] = share.get(record_id, 0.0) + specificity(held[norm])
            for record_id, total in share.items():
                scores[record_id] = w.entity_mention * top * min(1.0, total)
        if w.entity_hop:
            cursor.execute(
                _HOP_SQL,
                {
                    **params,
                    "seeds": list(seeds),
                    "skip": norms,
                    "date": EntityKind.DATE,
                    "max": MAX_RECORDS,
                },
            )
            hops: dict[uuid.UUID, float] = {}
            for seed_id, record_id, named in cursor.fetchall():
                if record_id in seeds:
                    continue
                seed = seeds[seed_id].signals.final or 0.0
                hops[record_id] = max(hops.get(record_id, 0.0), seed * specificity(named))
            for record_id, hop in hops.items():
                scores[record_id] = max(scores.get(record_id, 0.0), w.entity_hop * hop)
    if not scores:
        return ranked
    out = list(ranked)
    _add(out, {c.id: c for c in ranked}, scores, eligible, w, about_others)
    return order(out)
