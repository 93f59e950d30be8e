"""Embedding index versions: re-embed every memory under a new model side by side, check
the retrieval golden set against both models, then switch recall over.

    index_version_build(model_id)     # background: embed all tenants' records, then drift
    index_version_switch(model_id)    # active -> retired, building -> active
    index_version_prune(model_id)     # drop a retired version's vectors

While a version is building, recall keeps serving the active one, and new writes are
embedded for both (``memory.selectors.indexing_model_ids``), so the new version is
complete when it is switched to. The build works tenant by tenant inside each tenant's
context (tenants come from the SECURITY DEFINER lookup ``engram_tenant_ids()``), one
short transaction per batch, and keeps ``done``/``total`` up to date: it is resumable
and idempotent (a rerun embeds only what is still missing).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from accounts.models import Sensitivity
from core.tenancy import tenant_context, tenant_ids
from memory.embedders import EmbedderError, configured_model_id, get_embedder
from memory.models import (
    EmbeddingIndex,
    EmbeddingIndexStatus,
    MemoryEmbedding,
    MemoryRecord,
)
from memory.selectors import active_model_id
from memory.services.index_maintenance import _embed_missing
from memory.services.indexing import EMBEDDABLE_STATUSES
from memory.services.reindex_drift import DEFAULT_GOLDEN, golden_drift

logger = logging.getLogger(__name__)

Progress = Callable[[EmbeddingIndex], None]


class IndexVersionError(Exception):
    """A version operation that cannot be done (code is stable, message is for people)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _counts(model_id: str) -> tuple[int, int]:
    """(embeddable records, of which embedded under ``model_id``) across all tenants."""
    total = done = 0
    for tid in tenant_ids():
        with tenant_context(tid):
            records = MemoryRecord.objects.filter(
                tenant_id=tid, status__in=EMBEDDABLE_STATUSES
            ).exclude(sensitivity=Sensitivity.RESTRICTED)
            total += records.count()
            done += records.filter(
                Exists(MemoryEmbedding.objects.filter(record_id=OuterRef("pk"), model_id=model_id))
            ).count()
    return total, done


def _ensure_active_row() -> EmbeddingIndex:
    """The active version's row, created for the configured model on first use (before
    any re-index, the configured model is active without a row)."""
    active = EmbeddingIndex.objects.filter(status=EmbeddingIndexStatus.ACTIVE).first()
    if active is not None:
        return active
    model_id = configured_model_id()
    total, done = _counts(model_id)
    active, _ = EmbeddingIndex.objects.update_or_create(
        model_id=model_id,
        defaults={
            "status": EmbeddingIndexStatus.ACTIVE,
            "total": total,
            "done": done,
            "activated_at": timezone.now(),
        },
    )
    return active


def index_version_start(model_id: str) -> EmbeddingIndex:
    """Create (or reopen) the building version for ``model_id``. From this moment new
    writes are embedded for it too."""
    try:
        get_embedder(model_id)
    except EmbedderError as e:
        raise IndexVersionError("unknown_model", str(e)) from None
    with transaction.atomic():
        active = _ensure_active_row()
        if active.model_id == model_id:
            raise IndexVersionError(
                "already_active", f"{model_id} is already the active index version."
            )
        index, created = EmbeddingIndex.objects.select_for_update().get_or_create(
            model_id=model_id, defaults={"status": EmbeddingIndexStatus.BUILDING}
        )
        if not created and index.status != EmbeddingIndexStatus.BUILDING:
            # A retired version is rebuilt: its vectors missed every write since it retired.
            index.status = EmbeddingIndexStatus.BUILDING
            index.activated_at = None
            index.drift = {}
            index.save(update_fields=["status", "activated_at", "drift"])
    return index


def index_version_build(
    model_id: str,
    *,
    progress: Progress | None = None,
    batch_size: int = 64,
    drift_sample: int | None = None,
    golden: Path | None = None,
) -> EmbeddingIndex:
    """Embed every embeddable record of every tenant under ``model_id`` (continuing a
    build that stopped), then run the golden set against the active and the new model
    and store the drift. Recall keeps serving the active version throughout."""
    index = index_version_start(model_id)
    index.total, index.done = _counts(model_id)
    index.save(update_fields=["total", "done"])
    if progress:
        progress(index)

    def advance(stored: int) -> None:
        index.done = min(index.total, index.done + stored)
        EmbeddingIndex.objects.filter(pk=index.pk).update(done=index.done)
        if progress:
            progress(index)

    for tid in tenant_ids():
        _embed_missing(tid, model_id, batch_size, on_batch=advance)
    # Records written meanwhile were embedded by the write path (secret-bearing ones are
    # never embedded, so ``done`` may stay just short of ``total``).
    index.total, index.done = _counts(model_id)
    index.save(update_fields=["total", "done"])
    index.drift = index_version_drift(model_id, sample=drift_sample, golden=golden)
    index.save(update_fields=["drift"])
    if progress:
        progress(index)
    logger.info("index version %s built: %s vectors", model_id, index.done)
    return index


def index_version_drift(
    model_id: str, *, sample: int | None = None, golden: Path | None = None
) -> dict:
    """The golden set against the active model and ``model_id`` (see
    memory.services.reindex_drift); the packaged set unless ``golden`` or the setting names one."""
    conf = settings.ENGRAM_REINDEX
    path = Path(golden or conf["GOLDEN"] or DEFAULT_GOLDEN)
    try:
        return golden_drift(
            get_embedder(active_model_id()),
            get_embedder(model_id),
            path=path,
            sample=sample if sample is not None else conf["DRIFT_SAMPLE"],
        )
    except (OSError, ValueError, KeyError, EmbedderError) as e:
        logger.warning("golden drift for %s failed: %s", model_id, type(e).__name__)
        return {"error": type(e).__name__, "golden": path.name}


def index_version_switch(
    model_id: str, *, max_drift: float | None = None, force: bool = False
) -> EmbeddingIndex:
    """Make the built version ``model_id`` the one recall serves; the old active version
    is retired (its vectors stay until ``index_version_prune``). Refused while the build
    is unfinished, and when the golden-set drift exceeds ``max_drift`` unless ``force``."""
    limit = settings.ENGRAM_REINDEX["MAX_DRIFT"] if max_drift is None else max_drift
    index = EmbeddingIndex.objects.filter(model_id=model_id).first()
    if index is None or index.status != EmbeddingIndexStatus.BUILDING:
        raise IndexVersionError("not_building", f"{model_id} is not an index version being built.")
    if not index.drift:
        raise IndexVersionError("not_built", f"The build of {model_id} has not finished.")
    # Catch up with anything that slipped between the build's last pass and now.
    for tid in tenant_ids():
        _embed_missing(tid, model_id, 64)
    drift = index.drift.get("drift")
    if not force:
        if drift is None:
            raise IndexVersionError(
                "drift_unknown",
                f"The golden set could not be run ({index.drift.get('error')}); use force.",
            )
        if drift > limit:
            raise IndexVersionError(
                "drift_too_large",
                f"Golden-set drift {drift:.3f} exceeds the allowed {limit:.3f}.",
            )
    # The tenants' retrieval canaries, measured on each side of the switch (never blocks it).
    from memory.services.inspector.canaries import canaries_around_index_change

    canaries_around_index_change("before", tenant_ids())
    with transaction.atomic():
        # Serialise concurrent switches (one active version: a partial unique constraint).
        list(EmbeddingIndex.objects.select_for_update().order_by("pk"))
        EmbeddingIndex.objects.filter(status=EmbeddingIndexStatus.ACTIVE).update(
            status=EmbeddingIndexStatus.RETIRED
        )
        index.total, index.done = _counts(model_id)
        index.status = EmbeddingIndexStatus.ACTIVE
        index.activated_at = timezone.now()
        index.save(update_fields=["status", "activated_at", "total", "done"])
    canaries_around_index_change("after", tenant_ids())
    logger.info("index version %s is now active", model_id)
    return index


def index_version_prune(model_id: str) -> int:
    """Delete a retired version's vectors (tenant by tenant) and its row; returns how
    many vectors were deleted."""
    index = EmbeddingIndex.objects.filter(model_id=model_id).first()
    if index is None or index.status != EmbeddingIndexStatus.RETIRED:
        raise IndexVersionError("not_retired", f"{model_id} is not a retired index version.")
    deleted = 0
    for tid in tenant_ids():
        with tenant_context(tid):
            n, _ = MemoryEmbedding.objects.filter(tenant_id=tid, model_id=model_id).delete()
            deleted += n
    index.delete()
    return deleted
