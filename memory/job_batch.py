"""Many idempotent jobs of one task in one transaction (``memory.tasks.extract_events``):
their task-run rows written, locked and marked done together, each job's body run in
turn. Kept apart from memory/tasks.py, which calls it (the job framework's one-at-a-time
form, ``run_job``, stays there)."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from core.tenancy import tenant_context
from memory.models import TaskOutcome, TaskRun

logger = logging.getLogger("memory.tasks")


def run_jobs_together(
    task: Any,
    *,
    tenant_id: str,
    bodies: dict[str, Callable[[], dict[str, Any] | None]],
    savepoints: bool = True,
    grouped_finish: bool = False,
) -> tuple[dict[str, dict[str, Any] | None], list[str]]:
    """``run_job`` for many keys in one transaction: their task-run rows are written and
    locked in two statements and marked done in one, each body in a savepoint of its own.
    Returns each key's result (None: done before) and the keys whose body failed, which
    the caller hands to ``run_job`` one by one (its retries and dead-lettering).

    ``savepoints=False``: the caller's bodies take their own savepoint around every write
    (a failing body has nothing else to undo; one whose read breaks the transaction fails
    the batch, which is then run one by one). ``grouped_finish``: the finished rows
    marked done by one ``UPDATE`` per distinct result instead of ``bulk_update``'s
    ``CASE`` per row and field (the same rows; one finish time for the batch)."""
    results: dict[str, dict[str, Any] | None] = {}
    failed: list[str] = []
    try:
        with tenant_context(tenant_id):
            TaskRun.objects.bulk_create(
                [
                    TaskRun(
                        tenant_id=tenant_id,
                        task_name=task.name,
                        key=key,
                        outcome=TaskOutcome.RUNNING,
                    )
                    for key in bodies
                ],
                ignore_conflicts=True,
            )
            runs = {
                run.key: run
                for run in TaskRun.objects.select_for_update().filter(
                    tenant_id=tenant_id, task_name=task.name, key__in=list(bodies)
                )
            }
            finished = []
            for key, body in bodies.items():
                run = runs[key]
                if run.outcome in (TaskOutcome.SUCCEEDED, TaskOutcome.DEAD):
                    results[key] = None
                    continue
                try:
                    if savepoints:
                        with transaction.atomic():
                            result = body() or {}
                    else:
                        result = body() or {}
                except Exception as exc:  # noqa: BLE001 — run_job takes it from here
                    logger.warning("task %s key %s failed: %s", task.name, key, type(exc).__name__)
                    failed.append(key)
                    continue
                results[key] = result
                run.outcome, run.attempts, run.error_class = (
                    TaskOutcome.SUCCEEDED,
                    run.attempts + 1,
                    "",
                )
                run.result, run.finished_at = result, timezone.now()
                finished.append(run)
            if grouped_finish:
                _finish_grouped(finished)
            else:
                TaskRun.objects.bulk_update(
                    finished, ["outcome", "attempts", "error_class", "result", "finished_at"]
                )
    except Exception as exc:  # noqa: BLE001 — the batch's transaction is gone: one by one
        if not connection.in_atomic_block and not connection.is_usable():
            connection.close()
        logger.warning("task %s: batch failed (%s), one by one", task.name, type(exc).__name__)
        return {}, list(bodies)
    return results, failed


def _finish_grouped(finished: list[TaskRun]) -> None:
    """Mark ``finished`` (locked by the caller, outcome and result set) done: one
    ``UPDATE`` per distinct result, most rows of a batch sharing one."""
    by_result: dict[str, list[int]] = {}
    for run in finished:
        by_result.setdefault(json.dumps(run.result, sort_keys=True), []).append(run.pk)
    now = timezone.now()
    for result, pks in by_result.items():
        TaskRun.objects.filter(pk__in=pks).update(
            outcome=TaskOutcome.SUCCEEDED,
            attempts=F("attempts") + 1,
            error_class="",
            result=json.loads(result),
            finished_at=now,
        )
