"""The read path: what should this agent know, for this task, about this subject?

One pipeline, in this order (read top to bottom):

1. scope     tenant and subject from the credential; the record's purpose must equal the
             request's purpose; sensitivity at most the agent's clearance.
2. filter    status, valid time at ``as_of`` (default now), record time at ``known_at``,
             not expired, narrowing by type / namespace / predicate / time range.
             Steps 1–2 produce one queryset, ``eligible``; every route below searches
             *inside* it, so permission and validity are filters before ranking, never
             weights: a memory outside ``eligible`` cannot be returned by any route.
3. routes    exact (predicate / key lookup), slot (a predicate the question names in
             other words), lexical (Chinese segmented + English stemmed full text),
             trigram (ids, error codes), vector (exact scan within the subject's scope,
             scored by how much more a memory matches the question than a typical
             question), recency (episodic). The routes search for the question
             as it is about the user: the subject's own name in it, and "he" / "她",
             read "the user" — unless it names another speaker of the subject's
             conversations: then its pronouns are that person's. Speakers' names scope
             a question (whose turn), they are not content words for the lexical and
             trigram routes. Equal scores break by id, so answers are reproducible.
4. fusion    weighted reciprocal-rank fusion of the routes' rankings (the slot route's
             hits join the exact route's ranking, after its own).
5. rerank    relevance gate: answer only if some memory clearly answers (exact key,
             trigram id match, most query words, or a vector similarity clearly above
             what the memory scores against a typical question), else abstain — an
             empty result is an answer; related memories then come along. Survivors
             are scored by fused relevance, vector margin, structured fact, confidence,
             importance and freshness. A question about one speaker of the subject's
             conversations is answered by what that person said: their turns rank up,
             and recall abstains when their best statement is far below another's
             (``rank.scope_to_speaker``).
5b. model    optional: a configured cross-encoder (``ENGRAM_RERANKER_URL``) reorders
             the top survivors, blended with their score (``crossrank``); it sees only
             what passed steps 1–5 and never adds a candidate; if it fails, step 5's
             order stands and the result says so (``rerank_error``).
6. dedupe    one value per single-valued predicate (the latest valid one), one version per
             lineage, near-duplicate statements removed.
7. budget    the top ``k`` that fit the token budget.
8. pack      items with source, time and flags, and a context pack that frames every
             memory as untrusted data, never as instructions.

The question is embedded on a pool thread while steps 1–3 run everything that does not
need it (the word routes, the records of what they found); only the vector and slot routes
wait for it.

Read the reference first: ``pipeline`` and the ``routes`` package (one module per route,
each a function of one typed ``RouteQuery``) — one connection, the ORM or one SQL
statement per route, no state kept between requests. The speed-ups live apart in
``accel`` (the vector cache; compiled SQL in ``core.sqltemplate``; the early embedding,
``QueryVector.speculate``, which starts only after the request's checks; judging ahead,
``pack.judge_ahead``), each behind an ``ENGRAM_RECALL_*`` setting, each held to the
reference's answers (tests/memory/test_recall_accel_equivalence.py). Whatever a process
keeps lives in ``core.process_state``.

Then the trace (ids only) and the read's audit event are recorded and
access statistics handed to the writer thread.
Recall writes no record and no embedding: a found memory without a vector yet is
reported as ``vector_pending``.
A subject who withdrew consent gets an explicit empty answer (``consent_withdrawn``).
Weights are per tenant (tenant policy key ``recall_weights``); defaults were chosen on the
tuning half of the golden set in ``bench/`` (see bench/quality/recall.py).

The modules read in pipeline order: ``scope`` (1–2), ``query`` (reading and embedding
the question), ``routes`` (3), ``signals`` and ``rank`` (4–5), ``crossrank`` (5b),
``decompose`` (5b', a question of several parts; off by default),
``dedupe`` (6), ``pack`` (7–8), ``trace``; ``pipeline`` runs them. ``recall()`` is the one entry point: the API,
the console, management commands and the benchmarks call it the same way.
"""

from memory.recall.pack import RecallItem, context_pack
from memory.recall.pipeline import RecallResult, SubjectKindRefused, recall
from memory.recall.query import QueryVector, warm_up
from memory.recall.routes import ROUTES
from memory.recall.scope import RecallRequest, RecallScope
from memory.recall.trace import (
    RecallFeedbackConflict,
    RecallFeedbackUnknownIds,
    RecallTraceNotFound,
    query_fingerprint,
    recall_feedback_record,
)
from memory.recall.weights import RecallWeights

__all__ = [
    "ROUTES",
    "QueryVector",
    "RecallItem",
    "RecallRequest",
    "RecallResult",
    "RecallScope",
    "RecallFeedbackConflict",
    "RecallFeedbackUnknownIds",
    "RecallTraceNotFound",
    "RecallWeights",
    "SubjectKindRefused",
    "context_pack",
    "query_fingerprint",
    "recall",
    "recall_feedback_record",
    "warm_up",
]
