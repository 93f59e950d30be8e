"""Erase everything about one subject (the right to erasure) and print the receipt.

    manage.py engram_delete_subject --tenant acme --subject user:alice

Runs the deletion workflow in this process (no worker needed) and exits non-zero when the
verification step still finds anything."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from accounts.models import Tenant
from core.actor import Actor
from core.tenancy import tenant_context
from memory.models import DeletionStatus, Subject
from memory.services.deletion import subject_erase


class Command(BaseCommand):
    help = "Erase a subject's memories, events and everything derived from them; print the receipt."

    def add_arguments(self, parser):
        parser.add_argument("--tenant", required=True, help="Tenant slug.")
        parser.add_argument(
            "--subject", required=True, help="kind:external_id (e.g. user:alice) or subject id."
        )

    def handle(self, *args, **options):
        tenant = Tenant.objects.filter(slug=options["tenant"]).first()
        if tenant is None:
            raise CommandError("No such tenant.")
        with tenant_context(tenant.id):
            kind, sep, external_id = options["subject"].partition(":")
            subjects = Subject.objects.filter(tenant_id=tenant.id)
            subject = (
                subjects.filter(kind=kind, external_id=external_id).first()
                if sep
                else subjects.filter(pk=_uuid_or_none(options["subject"])).first()
            )
            if subject is None:
                raise CommandError("No such subject in this tenant.")
            request = subject_erase(actor=Actor.system(tenant.id, "operator"), subject=subject)
        self.stdout.write(
            json.dumps(
                {
                    "deletion_request": str(request.id),
                    "status": request.status,
                    "receipt": request.receipt,
                    "verification": request.verification,
                },
                indent=2,
            )
        )
        if request.status != DeletionStatus.DONE:
            raise CommandError("Verification still found data; see the receipt above.")


def _uuid_or_none(value: str):
    import uuid

    try:
        return uuid.UUID(value)
    except ValueError:
        return None
