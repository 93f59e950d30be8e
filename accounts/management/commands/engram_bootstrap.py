"""Prepare a working Engram: database started and migrated, a demo tenant with a user who
can sign in, an agent with a fresh API key, and sample memories written through the real
write path. Idempotent: run it as often as you like."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import transaction

from accounts.models import Agent, ApiKey, Role, Tenant
from accounts.services.credentials import api_key_issue, api_key_revoke, subject_token_issue
from accounts.services.tenants import agent_create, membership_set, tenant_create
from governance.services import Actor
from memory.services.subjects import subject_get_or_create

DEMO_TENANT = "demo"
DEMO_USER = "demo"
DEMO_PASSWORD = "engram-demo"  # noqa: S105 - a documented demo credential, local only
DEMO_AGENT = "demo-agent"
DEMO_KEY_LABEL = "bootstrap"


class Command(BaseCommand):
    help = "Migrate and seed the demo tenant; prints how to sign in and a fresh agent API key."

    def add_arguments(self, parser):
        parser.add_argument("--no-migrate", action="store_true", help="Skip migrations.")

    def handle(self, *args, **options):
        if not options["no_migrate"]:
            self.stdout.write("Applying migrations…")
            call_command("migrate", interactive=False, verbosity=0)
        with transaction.atomic():
            tenant = Tenant.objects.filter(slug=DEMO_TENANT).first() or tenant_create(
                slug=DEMO_TENANT, name="Demo tenant"
            )
            system = Actor.system(tenant.id, "bootstrap")
            user = User.objects.filter(username=DEMO_USER).first()
            if user is None:
                user = User.objects.create_user(
                    DEMO_USER, password=DEMO_PASSWORD, first_name="Demo"
                )
            membership_set(actor=system, tenant=tenant, user=user, role=Role.ADMIN)
            subject = subject_get_or_create(
                tenant_id=tenant.id,
                kind="user",
                external_id="demo-user",
                user=user,
                display_name="Demo",
            )
            agent = Agent.objects.filter(tenant=tenant, name=DEMO_AGENT).first() or agent_create(
                actor=system, tenant=tenant, name=DEMO_AGENT
            )
            # A key is shown once; each bootstrap retires the previous demo key and prints a new one.
            for old in ApiKey.objects.filter(
                agent=agent, label=DEMO_KEY_LABEL, revoked_at__isnull=True
            ):
                api_key_revoke(actor=system, api_key=old)
            _, plaintext = api_key_issue(
                actor=system, agent=agent, scopes=["read", "write", "admin"], label=DEMO_KEY_LABEL
            )
            token = subject_token_issue(
                tenant_id=tenant.id, agent_id=agent.id, subject_id=subject.id
            )

        max_age = settings.ENGRAM["SUBJECT_TOKEN_MAX_AGE_SECONDS"]
        self.stdout.write(self.style.SUCCESS("\nEngram is ready."))
        self.stdout.write(
            f"  Sign in:        http://127.0.0.1:8000/  user '{DEMO_USER}', password '{DEMO_PASSWORD}'"
        )
        self.stdout.write(f"  Agent API key:  {plaintext}")
        self.stdout.write(
            f"  Subject token:  {token}   (demo user; expires in {max_age}s — get another with POST /api/v1/subject-tokens)"
        )
        self.stdout.write(
            "  Try:\n"
            f"    export ENGRAM_KEY={plaintext}\n"
            "    export ENGRAM_SUBJECT=$(curl -s -X POST http://127.0.0.1:8000/api/v1/subject-tokens \\\n"
            "      -H \"Authorization: Bearer $ENGRAM_KEY\" -H 'Content-Type: application/json' \\\n"
            '      -d \'{"external_id": "demo-user"}\' | python3 -c \'import json,sys; print(json.load(sys.stdin)["token"])\')\n'
        )
