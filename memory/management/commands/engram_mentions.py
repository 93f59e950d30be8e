"""Rebuild the entity index (``MemoryMention``) from the governed records' statements.

    manage.py engram_mentions                 # all tenants
    manage.py engram_mentions --tenant acme   # one tenant

Records written before the index existed (migration 0025) get their mentions here; new
records get them on write. Safe to run again: each page of records is rewritten whole.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from accounts.models import Tenant
from core.tenancy import tenant_ids
from memory.services.mentions import mentions_rebuild


class Command(BaseCommand):
    help = "Rebuild the entity mentions of every record (or one tenant's)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--tenant", default="", help="a tenant's slug (default: all)")
        parser.add_argument("--batch-size", type=int, default=500)

    def handle(self, *args, **options) -> None:
        if options["tenant"]:
            slug = options["tenant"]
            found = Tenant.objects.filter(slug=slug).values_list("id", flat=True).first()
            if found is None:
                raise CommandError(f"No tenant with slug {slug!r}.")
            ids = [found]
        else:
            ids = tenant_ids()
        for tenant_id in ids:
            written = mentions_rebuild(tenant_id, batch_size=max(1, options["batch_size"]))
            self.stdout.write(f"tenant {tenant_id}: {written} mentions")
