"""The entity index's levers (``memory.recall.entities``) in two reads
(``ENGRAM_RECALL_ONE_ENTITY_READ``).

The reference asks the mentions table twice (the question's entities, then one hop from
the best hits) and loads the records that may come along through the ORM: the eligible
queryset built and compiled on every request, and a model instance built for every
record loaded — all that tie at the cut and the ranked ones whose score may rise, often
several times ``MAX_ADDED``. Here:

1. one statement reads both levers' mention rows (the entity counts are the same window
   over the subject's mentions of each entity, whichever lever asked for it);
2. one statement, compiled once per shape (``core.sqltemplate``) and prepared
   (``accel.prepared``), reads the same records (eligible for this request, among the
   same ids) as rows; the cut between equal scores is made on those rows' columns
   (``ties.record_key``'s), and an instance is built only for the ``MAX_ADDED`` new
   records that come along. A ranked memory needs only its id: its record is loaded.

Scores, the cut and the join are the reference's own functions (``mention_scores``,
``wanted``, ``joined``, ``starting_points``): the same answers (tests/memory/test_entity_read.py)."""

from __future__ import annotations

from django.db.models import QuerySet

from core.sqltemplate import (
    ModelColumns,
    Placeholders,
    QueryTemplate,
    pk_in_array,
    read_connection,
    uuid_array,
)
from memory.models import EntityKind, MemoryRecord
from memory.recall import entities
from memory.recall.accel import prepared
from memory.recall.joined import with_sources
from memory.recall.scope import Eligible, eligible_q
from memory.recall.signals import Candidate
from memory.recall.weights import RecallWeights

# Both levers' rows in one statement: the question's entities (``seed`` NULL) and the
# other records naming an entity a seed names (not a date, not one of ``skip``), each
# with how many of the subjects' records name the entity, for those named by at most
# ``max``. A lever that is off passes no norms or no seeds. Of the entities a seed shares
# with a record, only the one fewest records name is read (``min(n)``): the reference
# keeps the best of seed score x ``specificity(n)``, which falls as n grows, and a
# seed's score at or below 0 adds nothing either way (a hop's score is at least 0).
_MENTIONS_SQL = """
    WITH seed AS (
        SELECT record_id, norm FROM memory_memorymention
        WHERE tenant_id = %(tenant)s AND record_id = ANY(%(seeds)s::uuid[])
          AND kind <> %(date)s AND NOT norm = ANY(%(skip)s::text[])
    ), named AS (
        SELECT m.norm, m.record_id, count(*) OVER (PARTITION BY m.norm) AS n
        FROM memory_memorymention m
        WHERE m.tenant_id = %(tenant)s AND m.subject_id = ANY(%(subjects)s::uuid[])
          AND (m.norm = ANY(%(norms)s::text[]) OR m.norm IN (SELECT norm FROM seed))
    )
    SELECT NULL::uuid, named.norm, named.record_id, named.n FROM named
    WHERE named.norm = ANY(%(norms)s::text[]) AND named.n <= %(max)s
    UNION ALL
    SELECT s.record_id, NULL, named.record_id, min(named.n) FROM seed s
    JOIN named ON named.norm = s.norm AND named.record_id <> s.record_id
    WHERE named.n <= %(max)s
    GROUP BY s.record_id, named.record_id
"""

_RECORD = ModelColumns(MemoryRecord)
_WIDTH = len(_RECORD)
_KEY = tuple(_RECORD.names.index(n) for n in ("valid_from", "recorded_at", "content_key"))
_STATEMENT, _ID = _RECORD.names.index("statement"), _RECORD.names.index("id")


def _records_query(p: Placeholders, eligible_shape: tuple) -> QuerySet:
    """The reference's ``entities._load``: the eligible records among ``ids``, with
    their sources, as rows."""
    records = MemoryRecord.objects.filter(*eligible_q(p, eligible_shape), pk_in_array(p, "ids"))
    return with_sources(records).values_list(*_RECORD.names, "source_event_ids")


_RECORDS = QueryTemplate(_records_query)


def _row_key(row: tuple) -> tuple:
    """``ties.record_key`` of the record ``row`` holds, read from its columns."""
    valid_from, recorded_at, content_key = (row[i] for i in _KEY)
    return (
        -valid_from.timestamp(),
        -recorded_at.timestamp(),
        content_key,
        row[_STATEMENT],
        str(row[_ID]),
    )


def _mention_rows(
    eligible: Eligible, seeds: dict, norms: list[str], w: RecallWeights
) -> tuple[list | None, list | None]:
    params = {
        "tenant": eligible.values["tenant"],
        "subjects": entities.scope_subjects(eligible),
        "seeds": list(seeds) if w.entity_hop else [],
        "skip": norms,
        "norms": norms if w.entity_mention else [],
        "date": EntityKind.DATE.value,
        "max": entities.MAX_RECORDS,
    }
    with prepared.cursor() as cursor:
        cursor.execute(_MENTIONS_SQL, params)
        rows = cursor.fetchall()
    named = [(norm, rid) for seed, norm, rid, _ in rows if seed is None]
    hops = [(seed, rid, n) for seed, _, rid, n in rows if seed is not None]
    return (named if w.entity_mention and norms else None), (hops if w.entity_hop else None)


def entity_expand_in_two_reads(
    ranked: list[Candidate],
    eligible: Eligible,
    w: RecallWeights,
    *,
    question: str,
    about_others: bool = False,
) -> list[Candidate]:
    """``entities.entity_expand``'s answer for the same arguments."""
    if not (w.entity_mention or w.entity_hop) or not ranked:
        return ranked
    seeds, norms, by_id = entities.starting_points(ranked, question)
    named, hops = _mention_rows(eligible, seeds, norms, w)
    scores = entities.mention_scores(named, hops, seeds, w)
    if not scores:
        return ranked
    fresh, raised = entities.wanted(scores, by_id)
    values = {**eligible.values, "ids": uuid_array(list(fresh | raised))}
    rows = prepared.rows(_RECORDS, (eligible.shape,), values)
    ranked_eligible = [row[_ID] for row in rows if row[_ID] in by_id]
    new_rows = sorted(
        (row for row in rows if row[_ID] not in by_id),
        key=lambda row: (-scores[row[_ID]], *_row_key(row)),
    )
    connection = read_connection()
    new = []
    for row in new_rows[: entities.MAX_ADDED]:
        record = _RECORD.instance(row[:_WIDTH], connection)
        record.source_event_ids = row[_WIDTH]
        new.append(record)
    return entities.joined(ranked, by_id, scores, ranked_eligible, new, w, about_others)
