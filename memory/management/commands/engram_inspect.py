"""Run the quality inspector once (the beat job ``quality-inspection`` runs it daily).

    manage.py engram_inspect                 # every tenant
    manage.py engram_inspect --tenant acme   # one tenant (slug or id)
    manage.py engram_inspect --json          # the runs' counts as JSON on stdout

Progress (each detector and how many findings it made) goes to stderr; findings are
stored for the console (/console/quality/) and the metrics. Ids and counts only are
printed, never memory text.
"""

from __future__ import annotations

import json
import uuid

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from accounts.models import Tenant
from core.actor import Actor
from memory.services.inspector import tenant_inspect


class Command(BaseCommand):
    help = "Inspect memory quality (duplicates, stale values, low value, index health, canaries)."

    def add_arguments(self, parser):
        parser.add_argument("--tenant", help="Tenant slug or id (default: every tenant).")
        parser.add_argument("--json", action="store_true", help="Print the counts as JSON.")

    def handle(self, *args, **options):
        tenant_ids = self._tenants(options.get("tenant"))
        runs = []
        for number, tenant_id in enumerate(tenant_ids, start=1):
            self.stderr.write(f"[{number}/{len(tenant_ids)}] tenant {tenant_id}")

            def progress(step: str, found: int) -> None:
                self.stderr.write(f"  {step}: {found}")

            run = tenant_inspect(
                actor=Actor.system(tenant_id, "engram_inspect"),
                tenant_id=tenant_id,
                trigger="command",
                progress=progress,
            )
            runs.append({"tenant_id": str(tenant_id), "run_id": run.pk, **run.counts})
            total = sum(run.counts["findings"].values())
            self.stderr.write(f"  {total} findings ({run.counts['new']} new), run {run.pk}")
        if options["json"]:
            self.stdout.write(json.dumps(runs, sort_keys=True))
        else:
            self.stdout.write(f"Inspected {len(runs)} tenant(s).")

    def _tenants(self, wanted: str | None) -> list[uuid.UUID]:
        if not wanted:
            # Ids only, through the SECURITY DEFINER lookup (row-level security hides
            # tenants until one is set).
            with connection.cursor() as cursor:
                cursor.execute("SELECT id FROM engram_tenant_ids()")
                return [row[0] for row in cursor.fetchall()]
        try:
            lookup = {"pk": uuid.UUID(wanted)}
        except ValueError:
            lookup = {"slug": wanted}
        tenant = Tenant.objects.filter(**lookup).first()
        if tenant is None:
            raise CommandError(f"No tenant {wanted!r}.")
        return [tenant.id]
