"""The trigram route: identifiers (with typos) and names."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING

from django.contrib.postgres.search import TrigramWordSimilarity
from django.db.models import F, Q, QuerySet
from django.db.models.functions import Collate, Length

from memory import lexical
from memory.models import MemoryRecord, MemorySearchDoc
from memory.recall.routes.common import docs_rows, queryset_of

if TYPE_CHECKING:
    from memory.recall.routes.route_query import Hits, RouteQuery

# Among docs that match a token equally, the shorter first (the memory more about what
# the token names, as BM25 normalises by length), then the newer (its record's valid_from
# and recorded_at, as ``ties.record_key``), then by text (code point order), then by id:
# never by the random id alone, so the same memories give the same cut each time they
# are written. Read from the record: a large scope's docs come from functions that return
# only the doc's id, scope and text (``docs_rows``). ``accel.trigram_read`` orders its
# rows the same way (``DOC_ORDER_SQL``, from the doc's copies of those columns).
DOC_ORDER = (
    Length("trigram_text"),
    F("record__valid_from").desc(),
    F("record__recorded_at").desc(),
    Collate(F("trigram_text"), "C"),
    "record_id",
)
DOC_ORDER_SQL = (
    "length(d.trigram_text), d.valid_from DESC, d.recorded_at DESC,"
    ' d.trigram_text COLLATE "C", d.record_id'
)


def route_trigram(
    eligible: QuerySet[MemoryRecord] | Callable[[], QuerySet[MemoryRecord]],
    doc_scope: Q,
    query: str,
    n: int,
    threshold: float,
    scope_names: frozenset[str] = frozenset(),
    large_scope: Callable[[], bool] = lambda: False,
    subject_ids: list[uuid.UUID] | None = None,
) -> list[tuple[uuid.UUID, float]]:
    """Fuzzy match of identifier-like tokens (ids, error codes, versions) and names
    (capitalised Latin words) against the raw text: tolerant of typos and partial ids.

    One mistyped digit changes most of a short id's trigrams ("KL1712" and "KL1412" share
    4 of 10), so identifiers are matched in two steps: trigram similarity finds a wider
    set of candidates, then the edit distance to the closest identifier in the memory
    decides — one edit per six characters is a typo; the score is 1 − edits / length.

    A name is looked up verbatim first; only one held nowhere as a word is searched for
    as a typo — unless it is a typo of a speaker's name (``scope_names``), which, like the
    name itself, says whose memory is asked about rather than what.

    In a large scope (``large_scope()``: ``LEXICAL_INDEX_FROM`` docs or more) the docs
    that can match are found through the trigram index (``docs_rows``), which
    row-level security keeps PostgreSQL from using on its own."""
    tokens, identifiers = trigram_tokens(query, scope_names)
    if not tokens:
        return []
    best: dict[uuid.UUID, float] = {}
    docs = MemorySearchDoc.objects.filter(doc_scope, record__in=queryset_of(eligible))
    through_index = subject_ids is not None and large_scope()
    for token in tokens:
        is_id = token in identifiers
        if not is_id:
            # A name the subject's memories hold as a word needs no typo search: those
            # memories match it fully (word similarity 1), and a cheap word match finds
            # them where word similarity over every doc is the costliest search a recall can make.
            word = whole_word(token)
            verbatim = docs_rows(
                docs.filter(trigram_text__regex=word)
                .order_by(*DOC_ORDER)
                .values_list("record_id")[:n],
                ("engram_search_docs_regex(%s::uuid[], %s::text)", [word]),
                subject_ids if through_index else None,
            )
            if verbatim:
                for (rid,) in verbatim:
                    best[rid] = 1.0
                continue
            if lexical.misspells(token, scope_names):
                # A speaker's name mistyped ("Carolin", held nowhere as a word): like the
                # name, it says whose memory is asked about, not what. As a typo search
                # it would match every turn of that speaker.
                continue
        floor = _ID_CANDIDATE_SIMILARITY if is_id else threshold
        rows = docs_rows(
            docs.filter(_typo_candidates(token))
            .annotate(sim=TrigramWordSimilarity(token, "trigram_text"))
            .filter(sim__gte=floor)
            .order_by("-sim", *DOC_ORDER)
            .values_list("record_id", "sim", "trigram_text")[:n],
            ("engram_search_docs_similar(%s::uuid[], %s::text, %s::real)", [token, floor]),
            subject_ids if through_index else None,
        )
        credit_similar(best, token, is_id, rows, threshold)
    return best_first(best, n)


def best_first(best: dict[uuid.UUID, float], n: int) -> Hits:
    """The ``n`` best of ``best``; equal scores in the order they were found (the tokens'
    order, each token's rows in ``DOC_ORDER``), not by id. ``sorted`` is stable."""
    return sorted(best.items(), key=lambda kv: -kv[1])[:n]


def trigram_tokens(query: str, scope_names: frozenset[str]) -> tuple[list[str], list[str]]:
    """(the tokens the route searches for, at most 8: identifiers, then names; the
    identifiers among them), lowercased."""
    identifiers = [t.lower() for t in lexical.identifiers(query)]
    names = [t.lower() for t in lexical.names(query, scope_names) if t.lower() not in identifiers]
    return list(dict.fromkeys(identifiers + names))[:8], identifiers


def whole_word(token: str) -> str:
    """The regular expression (PostgreSQL's) of ``token`` as a whole word."""
    return rf"\m{re.escape(token)}\M"


def credit_similar(
    best: dict[uuid.UUID, float], token: str, is_id: bool, rows: list, threshold: float
) -> None:
    """``best`` gains the docs of the typo search for ``token`` (rows of record id,
    word similarity, text)."""
    for rid, sim, text in rows:
        if is_id:
            # An id matches itself or a typo of itself. Sharing a prefix with another
            # id ("ORD-2023-63805" for "ORD-2023-65769") is no match; a part of one
            # ("65719" in "ORD-2023-65719") scores high as a whole word.
            typo = lexical.closest_identifier_score(token, text)
            sim = typo if typo else (sim if sim >= _ID_PART_SIMILARITY else 0.0)
            if sim < threshold:
                continue
        best[rid] = max(best.get(rid, 0.0), sim)


def _typo_candidates(token: str) -> Q:
    """Docs that can hold ``token`` or a typo of it: cut into one piece more than the
    edits a typo may make (one per six characters, at least one), a typo leaves at least
    one piece whole (pigeonhole), so a doc holding none of the pieces is no match. A
    substring test per piece is cheap; word similarity over every doc of a subject is not,
    and grows with the subject."""
    pieces = typo_pieces(token)
    if pieces is None:
        return Q()
    match = Q()
    for piece in pieces:
        match |= Q(trigram_text__contains=piece)
    return match


def typo_pieces(token: str) -> list[str] | None:
    """The pieces of ``_typo_candidates``; None when one is shorter than two characters
    (then every doc is a candidate)."""
    parts = max(1, len(token) // 6) + 1
    size = -(-len(token) // parts)
    pieces = [token[i : i + size] for i in range(0, len(token), size)]
    if min(len(p) for p in pieces) < 2:
        return None
    return pieces


# Identifier candidates for the edit-distance check (see route_trigram), and the
# similarity at which a query identifier counts as part of a longer one.
_ID_CANDIDATE_SIMILARITY = 0.3


_ID_PART_SIMILARITY = 0.8


def search(q: RouteQuery) -> Hits:
    """The route for ``q``."""
    return route_trigram(
        lambda: q.records,
        q.doc_scope,
        q.request.query,
        q.n,
        q.weights.min_trigram_similarity,
        q.scope_names,
        large_scope=q.large_scope,
        subject_ids=q.subject_ids,
    )
