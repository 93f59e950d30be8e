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


def scope_subjects(eligible: Eligible) -> list[uuid.UUID]:
    return [s for s in (eligible.values["subject"], eligible.values.get("procedures")) if s]


def _load(eligible: Eligible, ids: set[uuid.UUID]) -> list:
    """The records of ``ids`` this request may return, with their sources (what
    ``signals.load_records`` gives), in one query."""
    return list(with_sources(eligible.queryset.filter(pk__in=list(ids))))


def mention_scores(
    named: list[tuple[str, uuid.UUID]] | None,
    hops: list[tuple[uuid.UUID, uuid.UUID, int]] | None,
    seeds: dict[uuid.UUID, Candidate],
    w: RecallWeights,
) -> dict[uuid.UUID, float]:
    """Each memory's score from the entity index's rows: ``named`` (norm, record) for the
    question's entities, ``hops`` (seed, record, how many records name the entity) for
    one hop on (``None``: that lever is off). The rows' order does not matter (shares are
    summed exactly, ``math.fsum``), so any read of the same rows gives the same scores."""
    scores: dict[uuid.UUID, float] = {}
    if named is not None:
        top = max(c.signals.final or 0.0 for c in seeds.values())
        held = Counter(norm for norm, _ in named)
        shares: dict[uuid.UUID, list[float]] = {}
        for norm, record_id in named:
            shares.setdefault(record_id, []).append(specificity(held[norm]))
        for record_id, share in shares.items():
            scores[record_id] = w.entity_mention * top * min(1.0, math.fsum(share))
    if hops is not None:
        best: dict[uuid.UUID, float] = {}
        for seed_id, record_id, n in hops:
            if record_id in seeds:
                continue
            seed = seeds[seed_id].signals.final or 0.0
            best[record_id] = max(best.get(record_id, 0.0), seed * specificity(n))
        for record_id, hop in best.items():
            scores[record_id] = max(scores.get(record_id, 0.0), w.entity_hop * hop)
    return scores


def wanted(scores: dict[uuid.UUID, float], by_id: dict) -> tuple[set, set]:
    """(the new memories that may come along, the ranked ones whose score may rise): the
    best ``MAX_ADDED`` new ones by score and all that tie with the last — the cut between
    equal scores is made on their records (``ties.record_key``, the newer first), never on
    their random ids."""
    fresh = sorted((i for i in scores if i not in by_id), key=lambda i: -scores[i])
    if len(fresh) > MAX_ADDED:
        last = scores[fresh[MAX_ADDED - 1]]
        fresh = [i for i in fresh if scores[i] >= last]
    return set(fresh), {i for i in scores if i in by_id}


def joined(
    ranked: list[Candidate],
    by_id: dict[uuid.UUID, Candidate],
    scores: dict[uuid.UUID, float],
    ranked_eligible: list[uuid.UUID],
    new: list,
    w: RecallWeights,
    about_others: bool,
) -> list[Candidate]:
    """``ranked`` with the ranked memories of ``ranked_eligible`` raised to their scores
    and the eligible ``new`` records (best first, at most ``MAX_ADDED``) joined, in a
    recall's order."""
    out = list(ranked)
    for record_id in ranked_eligible:
        raise_to(by_id[record_id], scores[record_id], w)
    for record in new:
        raise_to(join(out, by_id, record, about_others=about_others), scores[record.id], w)
    return order(out)


def starting_points(
    ranked: list[Candidate], question: str
) -> tuple[dict[uuid.UUID, Candidate], list[str], dict[uuid.UUID, Candidate]]:
    """(the best ``SEEDS`` hits, the question's entities, every ranked memory by id)."""
    return {c.id: c for c in ranked[:SEEDS]}, entities.keys(question), {c.id: c for c in ranked}


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
    are 0 or nothing was recalled. ``accel.entity_read`` gives the same answers in two
    reads (``ENGRAM_RECALL_ONE_ENTITY_READ``, chosen by the pipeline)."""
    if not (w.entity_mention or w.entity_hop) or not ranked:
        return ranked
    seeds, norms, by_id = starting_points(ranked, question)
    params = {"tenant": eligible.values["tenant"], "subjects": scope_subjects(eligible)}
    named = hops = None
    with connection.cursor() as cursor:
        if w.entity_mention and norms:
            cursor.execute(_NAMED_SQL, {**params, "norms": norms, "max": MAX_RECORDS})
            named = cursor.fetchall()
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
            hops = cursor.fetchall()
    scores = mention_scores(named, hops, seeds, w)
    if not scores:
        return ranked
    fresh, raised = wanted(scores, by_id)
    loaded = _load(eligible, fresh | raised) if fresh | raised else []
    new = sorted(
        (r for r in loaded if r.id not in by_id), key=lambda r: (-scores[r.id], *record_key(r))
    )
    ranked_eligible = [r.id for r in loaded if r.id in by_id]
    return joined(ranked, by_id, scores, ranked_eligible, new[:MAX_ADDED], w, about_others)
