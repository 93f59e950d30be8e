"""Prepare a working Engram: database started and migrated, a demo tenant with a user who
can sign in, an agent with an API key, and sample memories written through the real write
path. Idempotent: run it as often as you like.

The demo agent's key is kept across runs: its plaintext is stored (mode 0600) in
``ENGRAM_DATA_DIR/demo-agent-key`` and used again while it still authenticates, so an agent
a builder left running keeps working after ``./dev run`` restarts. ``--new-key`` (``./dev run
--new-key``) revokes it and makes a new one."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from accounts.models import Agent, ApiKey, Role, Tenant
from accounts.services.credentials import (
    CredentialError,
    api_key_authenticate,
    api_key_issue,
    api_key_revoke,
)
from accounts.services.tenants import agent_create, membership_set, tenant_create
from core.actor import Actor
from core.database import SelfTestFailed, self_test
from core.tenancy import tenant_context
from memory.models import MemoryRecord, Subject
from memory.services.events import EventInput, events_append
from memory.services.subject_tokens import subject_token_issue
from memory.services.subjects import subject_get_or_create
from memory.services.user_memory import memory_correct
from memory.services.writes import candidates_submit
from memory.write_policy import Candidate

DEMO_TENANT = "demo"
DEMO_USER = "demo"
DEMO_PASSWORD = "engram-demo"  # noqa: S105 - a documented demo credential, local only
DEMO_AGENT = "demo-agent"
DEMO_KEY_LABEL = "bootstrap"
DEMO_REVIEWER = "reviewer"
DEMO_REVIEWER_PASSWORD = "engram-review"  # noqa: S105 - a documented demo credential, local only
DEMO_RUNBOOK = "refunds"
DEMO_RUNBOOK_V1 = (
    "1. Check the order in the order system (never from memory).\n"
    "2. Refund to the original payment method.\n"
    "3. Tell the customer when the money arrives."
)
DEMO_RUNBOOK_V2 = (
    "1. Check the order in the order system (never from memory).\n"
    "2. Refund to the original payment method within 7 days.\n"
    "3. Tell the customer when the money arrives.\n"
    "4. Above 500 EUR, ask a supervisor first."
)


class Command(BaseCommand):
    help = "Migrate and seed the demo tenant; prints how to sign in and the demo agent's API key."

    def add_arguments(self, parser):
        parser.add_argument("--no-migrate", action="store_true", help="Skip migrations.")
        parser.add_argument(
            "--new-key",
            action="store_true",
            help="Revoke the demo agent's key and make a new one (default: keep it).",
        )
        parser.add_argument(
            "--key-file",
            default=None,
            help="Where the demo key is kept (default ENGRAM_DATA_DIR/demo-agent-key).",
        )

    def handle(self, *args, **options):
        if not options["no_migrate"]:
            self.stdout.write("Applying migrations…")
            call_command("migrate", interactive=False, verbosity=0)
        try:
            self_test()
        except SelfTestFailed as exc:
            raise CommandError(str(exc)) from None
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
            key_file = Path(options["key_file"] or settings.ENGRAM_DATA_DIR / "demo-agent-key")
            plaintext = None if options["new_key"] else _kept_key(key_file, agent)
            revoked = []
            if plaintext is None:
                # A new key: the previous demo keys are retired.
                for old in ApiKey.objects.filter(
                    agent=agent, label=DEMO_KEY_LABEL, revoked_at__isnull=True
                ):
                    api_key_revoke(actor=system, api_key=old)
                    revoked.append(old.prefix)
                _, plaintext = api_key_issue(
                    actor=system,
                    agent=agent,
                    scopes=["read", "write", "admin"],
                    label=DEMO_KEY_LABEL,
                )
                _keep_key(key_file, plaintext)
            token = subject_token_issue(
                tenant_id=tenant.id, agent_id=agent.id, subject_id=subject.id
            )
            with tenant_context(tenant.id):
                seeded = seed_demo_memories(agent=agent, subject=subject, user=user)
                reviewer = seed_demo_review(tenant=tenant, admin=user)

        max_age = settings.ENGRAM["SUBJECT_TOKEN_MAX_AGE_SECONDS"]
        base = "http://" + os.environ.get("ENGRAM_BIND", "127.0.0.1:8000")
        self.stdout.write(self.style.SUCCESS("\nEngram is ready."))
        if seeded:
            self.stdout.write(f"  Seeded {seeded} sample memories for the demo user.")
        self.stdout.write(
            f"  Sign in:        {base}/  user '{DEMO_USER}', password '{DEMO_PASSWORD}'"
        )
        self.stdout.write(
            f"  Reviewer:       {base}/console/  user '{reviewer.username}', password "
            f"'{DEMO_REVIEWER_PASSWORD}' (one change request waits for review)"
        )
        self.stdout.write(f"  Agent API key:  {plaintext}")
        self.stdout.write(
            f"                  (kept in {key_file} across restarts; ./dev run --new-key "
            "makes a new one)"
        )
        if revoked:
            self.stdout.write(
                f"                  (new key; the previous demo key{'s' if len(revoked) > 1 else ''} "
                f"{', '.join(f'egk_{p}_…' for p in revoked)} {'were' if len(revoked) > 1 else 'was'} "
                "revoked: update any client that used it)"
            )
        self.stdout.write(
            f"  Subject token:  {token}   (demo user; expires in {max_age}s — get another with POST /api/v1/subject-tokens)"
        )
        self.stdout.write(
            "  Try:\n"
            f"    export ENGRAM_KEY={plaintext}\n"
            f"    export ENGRAM_SUBJECT=$(curl -s -X POST {base}/api/v1/subject-tokens \\\n"
            "      -H \"Authorization: Bearer $ENGRAM_KEY\" -H 'Content-Type: application/json' \\\n"
            '      -d \'{"external_id": "demo-user"}\' | python3 -c \'import json,sys; print(json.load(sys.stdin)["token"])\')\n'
        )


def _kept_key(key_file: Path, agent: Agent) -> str | None:
    """The stored demo key, if it still authenticates as the demo agent's bootstrap key."""
    try:
        plaintext = key_file.read_text().strip()
    except OSError:
        return None
    try:
        key = api_key_authenticate(plaintext)
    except CredentialError:
        return None
    if key.agent_id != agent.id or key.label != DEMO_KEY_LABEL:
        return None
    return plaintext


def _keep_key(key_file: Path, plaintext: str) -> None:
    key_file.parent.mkdir(parents=True, exist_ok=True)
    # Created private before the secret is written into it.
    fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(plaintext + "\n")
    key_file.chmod(0o600)


def _at(year: int, month: int, day: int, hour: int = 9) -> datetime:
    return datetime(year, month, day, hour, tzinfo=UTC)


# (said by, what was said, memory type, namespace, predicate, statement, assertion kind,
#  confidence, when). Bilingual on purpose: the demo shows search in both languages.
DEMO_MEMORIES = [
    (
        "user",
        "以后回答我请先给结论，再给依据。",
        "semantic",
        "assistant/style",
        "answer_style",
        "我希望回答先给结论，再给依据",
        "user_explicit",
        1.0,
        _at(2025, 6, 3),
    ),
    (
        "user",
        "Please answer in Chinese, but keep technical terms in English.",
        "semantic",
        "assistant/style",
        "language",
        "Prefers answers in Chinese, with technical terms in English",
        "user_explicit",
        1.0,
        _at(2025, 6, 3, 10),
    ),
    (
        "user",
        "我住在上海。",
        "semantic",
        "personal/profile",
        "home_city",
        "住在上海",
        "user_explicit",
        1.0,
        _at(2024, 3, 1),
    ),
    (
        "user",
        "I moved to Hangzhou last month, 我现在住在杭州。",
        "semantic",
        "personal/profile",
        "home_city",
        "Lives in Hangzhou (住在杭州)",
        "user_explicit",
        1.0,
        _at(2025, 9, 15),
    ),
    (
        "user",
        "Window seat please, I always like to look outside when flying.",
        "semantic",
        "travel/flights",
        "seat",
        "Prefers window seats on flights (喜欢靠窗座位)",
        "user_explicit",
        1.0,
        _at(2025, 4, 12),
    ),
    (
        "user",
        "放点 Bill Evans 吧，我写代码的时候喜欢听爵士。",
        "semantic",
        "music",
        "",
        "Likes jazz while coding, especially Bill Evans",
        "agent_inference",
        0.7,
        _at(2025, 7, 8),
    ),
    (
        "user",
        "我在 PyCon China 2025 杭州站做了关于记忆系统的演讲，反响不错。",
        "episodic",
        "events",
        "",
        "2025 年在 PyCon China 杭州站做了关于记忆系统的演讲",
        "user_explicit",
        1.0,
        _at(2025, 10, 18),
    ),
    (
        "tool",
        "Calendar: 'Team offsite, Moganshan' 2025-11-06 to 2025-11-07 (accepted).",
        "episodic",
        "events",
        "",
        "Attended the team offsite in Moganshan on 6–7 November 2025",
        "tool_confirmed",
        1.0,
        _at(2025, 11, 7, 18),
    ),
    (
        "user",
        "上午十点以前别给我约会议。",
        "semantic",
        "calendar",
        "meeting_time",
        "会议安排在上午十点以后",
        "user_explicit",
        1.0,
        _at(2025, 5, 20),
    ),
    (
        "user",
        "In the finance report, show amounts in 万元, not yuan.",
        "semantic",
        "assistant/style/finance-report",
        "units",
        "财务报告里金额以万元为单位",
        "user_explicit",
        1.0,
        _at(2025, 8, 1),
    ),
    (
        "user",
        "My cat Niangao (年糕) knocked my coffee over again.",
        "semantic",
        "personal",
        "",
        "Has a cat named Niangao (年糕)",
        "agent_inference",
        0.8,
        _at(2025, 2, 14),
    ),
    (
        "user",
        "澳白，不加糖，谢谢。",
        "semantic",
        "food",
        "coffee",
        "咖啡喜欢澳白，不加糖",
        "user_explicit",
        1.0,
        _at(2025, 3, 9),
    ),
    (
        "user",
        "I mostly write Python at work.",
        "semantic",
        "work",
        "main_language",
        "Works mostly with Python 2.7",
        "agent_inference",
        0.6,
        _at(2025, 1, 20),
    ),
]


def seed_demo_memories(*, agent: Agent, subject: Subject, user: User) -> int:
    """Write the demo user's sample memories through the real write path: an event per
    memory (so the detail page shows a source), a move from Shanghai to Hangzhou (a
    superseded chain), and a wrong inference the user corrected. Runs once: a subject
    that already has memories is left alone."""
    if MemoryRecord.objects.filter(tenant_id=subject.tenant_id, subject=subject).exists():
        return 0
    actor = Actor.agent(agent.id, subject.tenant_id)
    written = 0
    for index, (role, said, mtype, ns, predicate, statement, kind, confidence, when) in enumerate(
        DEMO_MEMORIES
    ):
        [event] = events_append(
            actor=actor,
            agent_id=agent.id,
            subject=subject,
            items=[
                EventInput(
                    client_event_id=f"demo-seed-{index:02d}",
                    kind="tool_result" if role == "tool" else "message",
                    role=role,
                    content=said,
                    thread_id="demo-thread",
                    occurred_at=when,
                )
            ],
        )
        [outcome] = candidates_submit(
            actor=actor,
            subject=subject,
            agent_id=agent.id,
            candidates=[
                Candidate(
                    memory_type=mtype,
                    namespace=ns,
                    predicate=predicate,
                    statement=statement,
                    assertion_kind=kind,
                    confidence=confidence,
                    purpose="personalization",
                    consent_basis="explicit_consent",
                    valid_from=when,
                    source_event_ids=(event.event_id,) if event.event_id else (),
                )
            ],
        )
        written += outcome.record_id is not None
    # The user corrects a wrong inference on their page: history shows both versions.
    wrong = (
        MemoryRecord.objects.active()
        .filter(tenant_id=subject.tenant_id, subject=subject, predicate="main_language")
        .first()
    )
    if wrong is not None:
        memory_correct(
            user=user, subject=subject, record=wrong, statement="工作中主要用 Python 3.11 和 Django"
        )
    return written


def seed_demo_review(*, tenant: Tenant, admin: User) -> User:
    """A demo reviewer and one reviewed runbook with a change waiting for review, so the
    reviewer sees the diff flow on first sign-in. Idempotent: an existing runbook is left
    as it is."""
    from governance.models import ChangeRequestStatus, ProceduralDocument, ProposalSource
    from governance.services.procedures import (
        change_request_approve,
        change_request_propose,
        procedure_document_create,
    )

    system = Actor.system(tenant.id, "bootstrap")
    reviewer = User.objects.filter(username=DEMO_REVIEWER).first()
    if reviewer is None:
        reviewer = User.objects.create_user(
            DEMO_REVIEWER, password=DEMO_REVIEWER_PASSWORD, first_name="Rita"
        )
    membership_set(actor=system, tenant=tenant, user=reviewer, role=Role.REVIEWER)
    if ProceduralDocument.objects.filter(tenant=tenant, slug=DEMO_RUNBOOK).exists():
        return reviewer
    admin_actor = Actor.user(admin.pk, tenant.id)
    document = procedure_document_create(
        actor=admin_actor,
        user=admin,
        slug=DEMO_RUNBOOK,
        title="Refunds",
        kind="runbook",
        namespace="support/refunds",
    )
    first = change_request_propose(
        actor=admin_actor,
        document=document,
        proposed_text=DEMO_RUNBOOK_V1,
        base_version=0,
        source=ProposalSource.USER,
        rationale="How support handles refunds today.",
        proposer_user=admin,
    )
    change_request_approve(
        actor=Actor.user(reviewer.pk, tenant.id),
        user=reviewer,
        change_request_id=first.id,
        comment="Matches what the team does.",
    )
    pending = change_request_propose(
        actor=admin_actor,
        document=ProceduralDocument.objects.get(pk=document.pk),
        proposed_text=DEMO_RUNBOOK_V2,
        base_version=1,
        source=ProposalSource.USER,
        rationale="Customers asked for a deadline; large refunds need a second look.",
        proposer_user=admin,
    )
    assert pending.status == ChangeRequestStatus.OPEN
    return reviewer
