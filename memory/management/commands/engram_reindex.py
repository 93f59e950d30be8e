"""Rebuild the derived indexes (lexical docs, embeddings) from the governed records.

    manage.py engram_reindex                 # everything, all tenants
    manage.py engram_reindex --tenant acme   # one tenant
    manage.py engram_reindex --pending       # only embed records still missing a vector
                                             # (what the after-commit queue did not finish)

Vectors are stored per embedding model: after switching ENGRAM_EMBEDDER, run this to add
the new model's vectors next to the old ones; recall uses the configured model only.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from accounts.models import Tenant
from memory.services.indexing import reindex


class Command(BaseCommand):
    help = "Rebuild lexical docs and embeddings from memory records (ids and counts only)."

    def add_arguments(self, parser):
        parser.add_argument("--tenant", help="Tenant slug (default: all tenants).")
        parser.add_argument(
            "--pending", action="store_true", help="Only embed records missing a vector."
        )
        parser.add_argument("--no-embeddings", action="store_true", help="Lexical docs only.")

    def handle(self, *args, tenant=None, pending=False, no_embeddings=False, **options):
        tenant_id = None
        if tenant:
            found = Tenant.objects.filter(slug=tenant).values_list("id", flat=True).first()
            if found is None:
                raise CommandError(f"No tenant with slug {tenant!r}.")
            tenant_id = found
        result = reindex(
            tenant_id=tenant_id, lexical_docs=not pending, embeddings=not no_embeddings
        )
        self.stdout.write(
            f"search docs written: {result.search_docs}; embeddings added: "
            f"{result.embeddings} (model {result.model_id})"
        )
