"""Fit recall's relevance gate and fusion weights (and, with a reranker, its blend) for the
configured models on a labelled set; print them, or store them in a tenant's policy.

    manage.py engram_calibrate --dry-run                       # the packaged golden set
    manage.py engram_calibrate my_set.json --tenant acme       # grid for acme's weights
    manage.py engram_calibrate my_set.json --tenant acme --apply

The set is loaded into a scratch tenant inside one transaction that is rolled back, so
nothing of it remains (see memory/services/calibration.py for the formats and the grid).
``--apply`` writes ``recall_weights_by_model[<model id>]`` of the tenant's policy; without
it nothing is written and the weights are printed as JSON. Progress goes to stderr.
"""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from accounts.models import Tenant
from core.actor import Actor
from memory.recall import RecallWeights
from memory.recall.crossrank import reranker_id
from memory.selectors import active_model_id
from memory.services.calibration import (
    GRID,
    CalibrationError,
    calibrate,
    calibration_apply,
    labelled_set_load,
)
from memory.services.reindex_drift import DEFAULT_GOLDEN

SHOWN = 10


class Command(BaseCommand):
    help = "Calibrate recall's gate and weights for the configured models on a labelled set."

    def add_arguments(self, parser):
        parser.add_argument(
            "labelled_set",
            nargs="?",
            default=str(DEFAULT_GOLDEN),
            help="Labelled set (JSON; default: the packaged golden set, "
            "memory/fixtures/reindex_drift.json).",
        )
        parser.add_argument(
            "--tenant", help="Tenant slug: the grid starts from its weights; --apply writes them."
        )
        mode = parser.add_mutually_exclusive_group()
        mode.add_argument(
            "--apply", action="store_true", help="Write the best weights to the tenant's policy."
        )
        mode.add_argument(
            "--dry-run", action="store_true", help="Write nothing; print the weights (default)."
        )
        parser.add_argument(
            "--queries", type=int, default=None, help="Run at most this many queries (spread)."
        )
        parser.add_argument(
            "--grid",
            help="JSON {weight: [values]} replacing the generated values of a grid key, e.g. "
            "'{\"vector_sure_similarity\": [0.55, 0.6, 0.65]}' for a model on another scale.",
        )

    def handle(self, *args, **options):
        tenant = self._tenant(options)
        values = self._grid(options["grid"])
        try:
            labelled = labelled_set_load(Path(options["labelled_set"])).sample(options["queries"])
        except CalibrationError as e:
            raise CommandError(str(e)) from None
        model_id, reranker = active_model_id(), reranker_id()
        base = RecallWeights.for_tenant(tenant.policy if tenant else {}, model_id, reranker)
        self._progress(
            f"calibrating {model_id}{' + ' + reranker if reranker else ''} on "
            f"{labelled.name}: {sum(len(m) for m in labelled.memories.values())} memories, "
            f"{len(labelled.queries)} queries (weights of "
            f"{'tenant ' + tenant.slug if tenant else 'the defaults'})"
        )
        result = calibrate(labelled, base=base, values=values, progress=self._progress)
        self._table(result)
        if result.not_stored:
            self.stdout.write(
                self.style.WARNING(f"memories the write path did not store: {result.not_stored}")
            )
        if result.answerable < 20:
            self.stdout.write(
                self.style.WARNING(
                    f"only {result.answerable} queries with relevant memories: weights fit on "
                    "so few may not carry over; use a larger set before --apply."
                )
            )
        self.stdout.write(json.dumps(result.as_json(), indent=2, ensure_ascii=False))
        if not options["apply"]:
            self.stdout.write("not applied; run again with --tenant SLUG --apply to store them")
            return
        calibration_apply(
            actor=Actor.system(tenant.id, "engram_calibrate"), tenant=tenant, calibration=result
        )
        self.stdout.write(
            self.style.SUCCESS(
                f"stored under {tenant.slug}'s recall_weights_by_model: "
                f"{', '.join(sorted(result.by_model()))}"
            )
        )

    def _progress(self, line: str) -> None:
        self.stderr.write(line, style_func=str)  # progress, not an error: unstyled

    def _tenant(self, options) -> Tenant | None:
        slug = options["tenant"]
        if options["apply"] and not slug:
            raise CommandError("--apply needs --tenant SLUG: the tenant whose policy to write.")
        if not slug:
            return None
        tenant = Tenant.objects.filter(slug=slug).first()
        if tenant is None:
            known = ", ".join(Tenant.objects.order_by("slug").values_list("slug", flat=True)[:20])
            raise CommandError(f"No tenant with slug {slug!r} (tenants: {known or 'none'}).")
        return tenant

    def _grid(self, raw: str | None) -> dict[str, list[float]] | None:
        if not raw:
            return None
        try:
            values = json.loads(raw)
        except json.JSONDecodeError as e:
            raise CommandError(f"--grid is not JSON: {e.msg}.") from None
        if not isinstance(values, dict) or not all(
            key in GRID
            and isinstance(v, list)
            and v
            and all(isinstance(x, int | float) and not isinstance(x, bool) for x in v)
            for key, v in values.items()
        ):
            raise CommandError(
                f"--grid must be {{weight: [numbers]}} with weights among {sorted(GRID)}."
            )
        return values

    def _table(self, result) -> None:
        keys = list(GRID)
        header = "  ".join(f"{k:>22}" for k in keys)
        self.stdout.write(f"{header}  {'nDCG@10':>8}  {'R@10':>6}  {'abstain':>7}  {'score':>6}")
        current = next(p for p in result.points if p.current)
        shown = result.points[:SHOWN]
        for point in shown + ([] if current in shown else [current]):
            row = "  ".join(f"{point.weights[k]:>22.4g}" for k in keys)
            self.stdout.write(
                f"{row}  {point.ndcg:>8.3f}  {point.recall:>6.3f}  {point.abstention:>7.3f}  "
                f"{point.score:>6.3f}{'  (current)' if point.current else ''}"
            )
        for point in result.blends:
            self.stdout.write(
                f"rerank_blend {point.weights['rerank_blend']:.1f}: score {point.score:.3f}"
                f"{'  (current)' if point.current else ''}"
            )
