"""Step 5b of recall: an optional cross-encoder reorders the top candidates.

When a reranker is configured (``ENGRAM_RERANKER_URL``, see ``memory.rerankers``), the top
``ENGRAM_RERANKER_TOP_N`` candidates of the rerank (step 5) are sent to it, the question
and each candidate's statement, and reordered by a blend of its score and Engram's own:

    blended = w.rerank_blend * norm(reranker score) + (1 - w.rerank_blend) * norm(final)

where ``norm`` is min-max over the candidates sent (a reranker's scale, a probability or a
raw logit, does not matter; equal scores all count 1). Candidates below the top N keep
their order after the reranked ones.

What it never does: widen the answer. It only sees candidates that already passed every
governance filter (tenant, subject, purpose, sensitivity, validity, consent) and the
relevance gate, and returns exactly those, reordered. Dedupe (step 6) runs after it, so
the slot and lineage rules hold whatever order it chose.

When no reranker is configured nothing leaves the process. When the server fails, times
out or answers malformed, recall keeps its own order and reports the error
(``RecallResult.rerank_error``); recall itself never fails for it.
"""

from __future__ import annotations

import logging
import math

from django.conf import settings

from memory import rerankers
from memory.recall.signals import Candidate
from memory.recall.weights import RecallWeights

logger = logging.getLogger(__name__)


def reranker_id() -> str:
    """The configured reranker's model id (what its calibrated weights are keyed by), or
    "" when none is configured."""
    config = rerankers.configured()
    return config.model_id if config else ""


def _normalised(values: list[float]) -> list[float]:
    low, high = min(values), max(values)
    if high == low:
        return [1.0] * len(values)
    return [(v - low) / (high - low) for v in values]


def model_rerank(
    ranked: list[Candidate], question: str, *, weights: RecallWeights
) -> tuple[list[Candidate], str, str]:
    """``ranked`` (step 5's order, records loaded) reordered by the configured reranker;
    returns (candidates, the reranker's model id or "" when none was asked, an error or "").
    Preconditions: every candidate passed the governance filters and carries its ``final``
    score. On an error the candidates come back in ``ranked``'s order."""
    config = rerankers.configured()
    top_n = int(settings.ENGRAM_RETRIEVAL.get("RERANKER_TOP_N") or 0)
    if config is None or not ranked or top_n <= 0:
        return ranked, "", ""
    head, tail = ranked[:top_n], ranked[top_n:]
    try:
        scores = rerankers.rerank(config, question, [c.record.statement for c in head])
    except rerankers.RerankerError as e:
        logger.warning("reranker %s failed (%s); recall keeps its own order", config.model_id, e)
        return ranked, config.model_id, str(e)
    except Exception as e:  # noqa: BLE001 - a reranker's failure must never fail recall
        # http.client errors outside OSError (an incomplete read, a bad status line).
        error = f"rerank endpoint failed: {type(e).__name__}"
        logger.warning("reranker %s: %s; recall keeps its own order", config.model_id, error)
        return ranked, config.model_id, error
    if not all(math.isfinite(s) for s in scores):
        error = "rerank endpoint answered with a score that is not a number"
        logger.warning("reranker %s: %s; recall keeps its own order", config.model_id, error)
        return ranked, config.model_id, error
    blend = weights.rerank_blend
    theirs = _normalised(scores)
    ours = _normalised([c.signals.final or 0.0 for c in head])
    blended = {}
    for c, score, their, our in zip(head, scores, theirs, ours, strict=True):
        c.signals.model_rerank = round(score, 4)
        blended[c.id] = blend * their + (1 - blend) * our
    # Equal blends keep step 5's order (its tie-breaks are deterministic).
    order = {c.id: i for i, c in enumerate(head)}
    head = sorted(head, key=lambda c: (-blended[c.id], order[c.id]))
    return head + tail, config.model_id, ""
