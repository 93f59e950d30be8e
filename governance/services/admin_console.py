"""Tenant administration from the console: agents and API keys, members and roles,
per-document review grants, and the tenant policy. Every change is audited; every
function checks that ``user`` administers ``actor.tenant_id`` (defence in depth — the
views check too)."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from guardian.shortcuts import assign_perm, remove_perm

from accounts.models import Agent, ApiKey, Membership, Role, Sensitivity, Tenant
from accounts.policies import SENSITIVE_HANDLING
from accounts.services.credentials import api_key_issue, api_key_revoke, api_key_rotate
from accounts.services.tenants import agent_create, membership_set
from core.actor import Actor
from core.audit import audit_record
from core.codes import AuditAction
from governance.models import ProceduralDocument
from governance.policies import can_administer_tenant, can_change_role
from governance.selectors import REVIEW_PERM, console_access_get
from governance.services.errors import GovernanceError
from governance.services.procedures import PROCEDURE_PURPOSE
from memory.models import MemoryType, Subject, SubjectKind
from memory.services.subjects import subject_get_or_create

RECALL_WEIGHT_KEYS = ("relevance", "recency", "importance")


def _require_admin(user: User, actor: Actor) -> None:
    access = console_access_get(user=user, tenant_id=actor.tenant_id)
    if access is None:
        raise GovernanceError("not_found", _("No such tenant."), status=404)
    if not can_administer_tenant(access):
        raise GovernanceError("permission_denied", _("Only tenant admins may do this."), status=403)


def _agent(actor: Actor, agent_id: uuid.UUID) -> Agent:
    agent = Agent.objects.filter(tenant_id=actor.tenant_id, id=agent_id).first()
    if agent is None:
        raise GovernanceError("not_found", _("No such agent."), status=404)
    return agent


def _key(actor: Actor, key_id: uuid.UUID) -> ApiKey:
    key = (
        ApiKey.objects.select_related("agent").filter(tenant_id=actor.tenant_id, id=key_id).first()
    )
    if key is None:
        raise GovernanceError("not_found", _("No such API key."), status=404)
    return key


# --- agents and keys --------------------------------------------------------------------


def console_agent_create(*, actor: Actor, user: User, name: str, clearance: str) -> Agent:
    _require_admin(user, actor)
    name = name.strip()
    if not name or len(name) > 100:
        raise GovernanceError("invalid_name", _("Give the agent a name (1–100 characters)."))
    if clearance not in Sensitivity.values:
        raise GovernanceError("invalid_clearance", _("Unknown clearance."))
    if Agent.objects.filter(tenant_id=actor.tenant_id, name=name).exists():
        raise GovernanceError("duplicate_name", _("An agent with this name exists."), status=409)
    return agent_create(
        actor=actor, tenant=Tenant.objects.get(pk=actor.tenant_id), name=name, clearance=clearance
    )


@transaction.atomic
def console_agent_deactivate(*, actor: Actor, user: User, agent_id: uuid.UUID) -> Agent:
    """Deactivate an agent: every key of it stops working at once (authentication checks
    the agent too) and no new key can be issued. Its memories and audit trail stay."""
    _require_admin(user, actor)
    agent = Agent.objects.select_for_update().filter(tenant_id=actor.tenant_id, id=agent_id).first()
    if agent is None:
        raise GovernanceError("not_found", _("No such agent."), status=404)
    if agent.is_active:
        agent.is_active = False
        agent.revoked_at = timezone.now()
        agent.save(update_fields=["is_active", "revoked_at"])
        audit_record(
            actor=actor, action=AuditAction.AGENT_DEACTIVATE, extra={"agent_id": str(agent.id)}
        )
    return agent


def console_api_key_issue(
    *, actor: Actor, user: User, agent_id: uuid.UUID, scopes: list[str], label: str = ""
) -> tuple[ApiKey, str]:
    """Returns the key and its plaintext, which the caller shows once and never stores."""
    _require_admin(user, actor)
    agent = _agent(actor, agent_id)
    if not agent.is_active:
        raise GovernanceError("agent_inactive", _("This agent is deactivated."), status=409)
    try:
        return api_key_issue(actor=actor, agent=agent, scopes=scopes, label=label.strip()[:100])
    except ValueError:
        raise GovernanceError(
            "invalid_scopes", _("Pick at least one of read, write, admin.")
        ) from None


def console_api_key_rotate(
    *, actor: Actor, user: User, key_id: uuid.UUID, overlap_hours: int = 24
) -> tuple[ApiKey, str]:
    _require_admin(user, actor)
    key = _key(actor, key_id)
    if not key.is_usable():
        raise GovernanceError("key_unusable", _("Only a usable key can be rotated."), status=409)
    if not 0 <= overlap_hours <= 24 * 30:
        raise GovernanceError("invalid_overlap", _("Overlap must be 0–720 hours."))
    return api_key_rotate(actor=actor, api_key=key, overlap=timedelta(hours=overlap_hours))


def console_api_key_revoke(*, actor: Actor, user: User, key_id: uuid.UUID) -> ApiKey:
    _require_admin(user, actor)
    return api_key_revoke(actor=actor, api_key=_key(actor, key_id))


# --- members ----------------------------------------------------------------------------


@transaction.atomic
def console_member_set_role(
    *, actor: Actor, user: User, username: str, role: str | None
) -> Membership | None:
    """Add a member, change a role, or (``role=None``) remove the membership."""
    _require_admin(user, actor)
    if role is not None and role not in Role.values:
        raise GovernanceError("invalid_role", _("Unknown role."))
    target = User.objects.filter(username=username.strip()).first()
    if target is None:
        raise GovernanceError("unknown_user", _("No user with that username."), status=404)
    # Lock the tenant's admin memberships: two admins demoting each other concurrently
    # must not leave the tenant without one.
    admins = list(
        Membership.objects.select_for_update().filter(tenant_id=actor.tenant_id, role=Role.ADMIN)
    )
    current = Membership.objects.filter(tenant_id=actor.tenant_id, user=target).first()
    if current is None and role is None:
        raise GovernanceError("not_found", _("That user is not a member."), status=404)
    if current is not None and not can_change_role(
        admin_count=len(admins), current_role=current.role, new_role=role
    ):
        raise GovernanceError(
            "last_admin",
            _("A tenant needs at least one admin; promote someone else first."),
            status=409,
        )
    if role is None:
        assert current is not None
        current.delete()
        audit_record(
            actor=actor, action=AuditAction.MEMBERSHIP_REMOVE, extra={"user_id": target.pk}
        )
        return None
    return membership_set(
        actor=actor, tenant=Tenant.objects.get(pk=actor.tenant_id), user=target, role=role
    )


@transaction.atomic
def console_user_create(
    *,
    actor: Actor,
    user: User,
    username: str,
    password: str,
    role: str,
    email: str = "",
    external_id: str = "",
) -> Membership:
    """Create a user account and make it a member of the admin's tenant with ``role``.
    The admin hands the first password over; Django's password validators apply.

    The new member gets their own memory subject at once, named ``external_id`` — the
    id the organisation's agents use for this person (default: the username) — so they
    can add, pause, export and delete from their first page, and what agents remember
    about them under that id is theirs to see. An existing subject of that id that
    belongs to nobody yet is linked to them (the admin vouches that it is this person);
    one that belongs to another user is refused."""
    from django.contrib.auth.password_validation import validate_password
    from django.core.exceptions import ValidationError

    _require_admin(user, actor)
    username = username.strip()
    if role not in Role.values:
        raise GovernanceError("invalid_role", _("Unknown role."))
    if not username or User.objects.filter(username__iexact=username).exists():
        raise GovernanceError(
            "username_taken",
            _("That username is taken. Add the existing user as a member instead."),
            status=409,
        )
    candidate = User(username=username, email=email.strip())
    try:
        validate_password(password, candidate)
    except ValidationError as e:
        raise GovernanceError("weak_password", " ".join(e.messages)) from None
    external_id = (external_id or username).strip()
    if not external_id or len(external_id) > 200:
        raise GovernanceError(
            "invalid_external_id", _("The id your agents use is 1–200 characters.")
        )
    existing = Subject.objects.filter(
        tenant_id=actor.tenant_id, kind=SubjectKind.USER, external_id=external_id
    ).first()
    if existing is not None and existing.user_id is not None:
        raise GovernanceError(
            "external_id_taken",
            _("Another member already has the id “%(id)s”. Give this person their own id.")
            % {"id": external_id},
            status=409,
        )
    candidate.set_password(password)
    candidate.save()
    audit_record(actor=actor, action=AuditAction.USER_CREATE, extra={"user_id": candidate.pk})
    membership = membership_set(
        actor=actor, tenant=Tenant.objects.get(pk=actor.tenant_id), user=candidate, role=role
    )
    if existing is not None:
        existing.user = candidate
        existing.save(update_fields=["user"])
    else:
        subject_get_or_create(
            tenant_id=actor.tenant_id,
            kind=SubjectKind.USER,
            external_id=external_id,
            user=candidate,
            display_name=candidate.get_username(),
        )
    return membership


# --- per-document review grants ----------------------------------------------------------


def console_review_grant(
    *, actor: Actor, user: User, document_id: uuid.UUID, username: str, grant: bool
) -> None:
    _require_admin(user, actor)
    document = ProceduralDocument.objects.filter(tenant_id=actor.tenant_id, id=document_id).first()
    if document is None:
        raise GovernanceError("not_found", _("No such procedure."), status=404)
    grantee = User.objects.filter(
        username=username.strip(), memberships__tenant_id=actor.tenant_id
    ).first()
    if grantee is None:
        raise GovernanceError("unknown_member", _("No member with that username."), status=404)
    if grant:
        assign_perm(REVIEW_PERM, grantee, document)
    else:
        remove_perm(REVIEW_PERM, grantee, document)
    audit_record(
        actor=actor,
        action=AuditAction.REVIEW_GRANT if grant else AuditAction.REVIEW_REVOKE,
        extra={"user_id": grantee.pk, "document_id": str(document.id)},
    )


# --- tenant policy ----------------------------------------------------------------------


def tenant_policy_validate(data: dict[str, Any]) -> dict[str, Any]:
    """Normalise the console's policy fields into the JSON stored on Tenant.policy.

    Keys: ``sensitive_personal_data`` (reject|quarantine), ``allowed_purposes`` (list),
    ``retention_days`` ({memory_type: days or null}), ``recall_weights``
    ({relevance, recency, importance: 0..1}).
    """
    handling = data.get("sensitive_personal_data")
    if handling not in SENSITIVE_HANDLING:
        raise GovernanceError(
            "invalid_policy", _("sensitive_personal_data must be reject or quarantine.")
        )
    purposes = sorted({str(p).strip() for p in data.get("allowed_purposes", []) if str(p).strip()})
    if any(len(p) > 100 for p in purposes):
        raise GovernanceError("invalid_policy", _("A purpose is at most 100 characters."))
    if purposes and PROCEDURE_PURPOSE not in purposes:
        # Procedure versions are written (and recalled) under this purpose by Engram
        # itself; without it every approval would be refused by the write policy.
        raise GovernanceError(
            "procedure_purpose_required",
            _(
                "Procedures are stored for the purpose “Agent procedures”. Without it no "
                "procedure change could be approved. Allow it, or allow any purpose."
            ),
        )
    retention: dict[str, int | None] = {}
    for memory_type in MemoryType.values:
        days = (data.get("retention_days") or {}).get(memory_type)
        if days is not None and (not isinstance(days, int) or not 1 <= days <= 36500):
            raise GovernanceError(
                "invalid_policy", _("Retention is 1–36500 days, or empty for no limit.")
            )
        retention[memory_type] = days
    weights: dict[str, float] = {}
    for key in RECALL_WEIGHT_KEYS:
        weight = (data.get("recall_weights") or {}).get(key, 1.0 if key == "relevance" else 0.0)
        if not isinstance(weight, int | float) or not 0 <= weight <= 1:
            raise GovernanceError("invalid_policy", _("Recall weights are between 0 and 1."))
        weights[key] = float(weight)
    return {
        "sensitive_personal_data": handling,
        "allowed_purposes": purposes,
        "retention_days": retention,
        "recall_weights": weights,
    }


@transaction.atomic
def tenant_policy_update(*, actor: Actor, user: User, data: dict[str, Any]) -> Tenant:
    _require_admin(user, actor)
    cleaned = tenant_policy_validate(data)
    tenant = Tenant.objects.select_for_update().get(pk=actor.tenant_id)
    policy = dict(tenant.policy or {})
    changed = sorted(k for k, v in cleaned.items() if policy.get(k) != v)
    policy.update(cleaned)  # keys other areas own are kept as they were
    tenant.policy = policy
    tenant.save(update_fields=["policy"])
    audit_record(actor=actor, action=AuditAction.TENANT_POLICY_UPDATE, extra={"changed": changed})
    return tenant
