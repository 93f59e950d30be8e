"""Tenant administration: agents and their keys, members, the tenant policy."""

from __future__ import annotations

import uuid

from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.models import Agent, ApiKey, Membership, Role, Tenant
from governance import policies, selectors
from governance.forms import (
    AgentForm,
    GrantForm,
    KeyIssueForm,
    KeyRotateForm,
    MemberForm,
    MemberRemoveForm,
    PolicyForm,
    UserCreateForm,
)
from governance.services import admin_console as admin_svc
from governance.services.errors import GovernanceError

from .base import Console, _done, _error, _page, console_view


class _AskFirst(Exception):
    """A destructive action's first post: show the confirmation instead of acting."""


# --- tenant administration --------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@console_view(policies.can_administer_tenant)
def admin_agents(request: HttpRequest, console: Console) -> HttpResponse:
    """Agents and keys. A new key's plaintext is rendered once in the POST response itself
    (never redirected through a URL or stored in the session)."""
    new_key = None
    confirm = None
    status = 200
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "create_agent":
                form = AgentForm(request.POST)
                if not form.is_valid():
                    raise GovernanceError("invalid_input", _("Check the agent name and clearance."))
                admin_svc.console_agent_create(
                    actor=console.actor, user=request.user, **form.cleaned_data
                )
                return _done(request, request.path, _("Agent created. Issue it a key below."))
            if action == "issue":
                form = KeyIssueForm(request.POST)
                if not form.is_valid():
                    raise GovernanceError("invalid_input", _("Pick at least one scope."))
                key, plaintext = admin_svc.console_api_key_issue(
                    actor=console.actor,
                    user=request.user,
                    agent_id=form.cleaned_data["agent"],
                    scopes=form.cleaned_data["scopes"],
                    label=form.cleaned_data["label"],
                )
                new_key = {"key": key, "plaintext": plaintext}
            elif action == "rotate":
                form = KeyRotateForm(request.POST)
                if not form.is_valid():
                    raise GovernanceError("invalid_input", _("Overlap must be 0–720 hours."))
                key, plaintext = admin_svc.console_api_key_rotate(
                    actor=console.actor,
                    user=request.user,
                    key_id=_uuid(request.POST.get("key")),
                    overlap_hours=form.cleaned_data["overlap_hours"],
                )
                new_key = {"key": key, "plaintext": plaintext, "rotated": True}
            elif action == "revoke":
                key_id = _uuid(request.POST.get("key"))
                if request.POST.get("confirmed") != "yes":
                    # Every revoke is confirmed on a page of its own (works without JS).
                    confirm = {"kind": "revoke", "key": _console_key(console, key_id)}
                else:
                    admin_svc.console_api_key_revoke(
                        actor=console.actor, user=request.user, key_id=key_id
                    )
                    return _done(request, request.path, _("Key revoked."))
            elif action == "deactivate_agent":
                agent_id = _uuid(request.POST.get("agent"))
                if request.POST.get("confirmed") != "yes":
                    confirm = {"kind": "deactivate", "agent": _console_agent(console, agent_id)}
                else:
                    admin_svc.console_agent_deactivate(
                        actor=console.actor, user=request.user, agent_id=agent_id
                    )
                    return _done(
                        request, request.path, _("Agent deactivated. None of its keys work now.")
                    )
            else:
                raise GovernanceError("invalid_input", _("Unknown action."))
        except GovernanceError as e:
            if e.status in (403, 404):
                raise
            _error(request, e)
            status = e.status
    agents = Agent.objects.filter(tenant_id=console.tenant.id).order_by("-is_active", "name")
    keys = ApiKey.objects.filter(tenant_id=console.tenant.id).order_by("agent__name", "-created_at")
    by_agent: dict = {}
    for key in keys:
        by_agent.setdefault(key.agent_id, []).append(key)
    context = {
        "agents": [{"agent": a, "keys": key_rows(by_agent.get(a.id, []))} for a in agents],
        "confirm": confirm,
        "agent_form": AgentForm(),
        "rotate_form": KeyRotateForm(),
        "scopes": KeyIssueForm.base_fields["scopes"].choices,
        "new_key": new_key,
    }
    template = (
        "governance/admin_agents.html#newkey"
        if (request.htmx and new_key)
        else "governance/admin_agents.html"
    )
    response = _page(request, console, template, context, status)
    response["Cache-Control"] = "no-store"
    return response


def key_rows(keys: list[ApiKey]) -> list[dict]:
    """One agent's keys for the table, usable ones first, each with its place in a
    rotation: ``new`` (the replacement) or ``old`` (still working until it expires), so
    two keys with one label are never mistaken for each other."""
    now = timezone.now()
    usable = [k for k in keys if k.is_usable(now)]
    rows = []
    for key in sorted(keys, key=lambda k: (not k.is_usable(now), -k.created_at.timestamp())):
        role = ""
        if key.is_usable(now):
            same = [k for k in usable if k.label == key.label and k.id != key.id]
            if key.expires_at and any(k.created_at > key.created_at for k in same):
                role = "old"
            elif any(k.expires_at and k.created_at < key.created_at for k in same):
                role = "new"
        state = "revoked" if key.revoked_at else ("usable" if key.is_usable(now) else "expired")
        rows.append({"key": key, "role": role, "state": state})
    return rows


def _console_key(console: Console, key_id: uuid.UUID) -> ApiKey:
    key = ApiKey.objects.select_related("agent").filter(tenant_id=console.tenant.id, id=key_id)
    found = key.first()
    if found is None:
        raise Http404
    return found


def _console_agent(console: Console, agent_id: uuid.UUID) -> Agent:
    agent = Agent.objects.filter(tenant_id=console.tenant.id, id=agent_id).first()
    if agent is None:
        raise Http404
    return agent


def _uuid(raw: str | None) -> uuid.UUID:
    try:
        return uuid.UUID(str(raw))
    except ValueError:
        raise GovernanceError("not_found", "No such key.", status=404) from None


@require_http_methods(["GET", "POST"])
@console_view(policies.can_administer_tenant)
def admin_members(request: HttpRequest, console: Console) -> HttpResponse:
    status = 200
    confirm_remove = None
    if request.method == "POST":
        try:
            if request.POST.get("action") == "remove":
                remove = MemberRemoveForm(request.POST)
                if not remove.is_valid():
                    raise GovernanceError("invalid_input", _("Name a member."))
                username = remove.cleaned_data["username"]
                if not remove.cleaned_data["confirmed"]:
                    # Removing someone is asked twice, on a page of its own (no JS needed).
                    confirm_remove = username
                    raise _AskFirst
                admin_svc.console_member_set_role(
                    actor=console.actor, user=request.user, username=username, role=None
                )
                return _done(
                    request,
                    request.path,
                    _("%(name)s is no longer a member of this organisation.") % {"name": username},
                )
            if request.POST.get("action") == "create_user":
                create_form = UserCreateForm(request.POST)
                if not create_form.is_valid():
                    raise GovernanceError(
                        "invalid_input", _("Give a username, a first password and a role.")
                    )
                admin_svc.console_user_create(
                    actor=console.actor, user=request.user, **create_form.cleaned_data
                )
                return _done(
                    request,
                    request.path,
                    _("User %(name)s created and added to this organisation.")
                    % {"name": create_form.cleaned_data["username"]},
                )
            if request.POST.get("action") == "grant":
                form = GrantForm(request.POST)
                if not form.is_valid():
                    raise GovernanceError("invalid_input", _("Name a member."))
                admin_svc.console_review_grant(
                    actor=console.actor,
                    user=request.user,
                    document_id=form.cleaned_data["document"],
                    username=form.cleaned_data["username"],
                    grant=form.cleaned_data["grant"],
                )
                return _done(request, request.path, _("Review rights updated."))
            form = MemberForm(request.POST)
            if not form.is_valid():
                raise GovernanceError("invalid_input", _("Name a user and a role."))
            admin_svc.console_member_set_role(
                actor=console.actor,
                user=request.user,
                username=form.cleaned_data["username"],
                role=form.cleaned_data["role"],
            )
            return _done(request, request.path, _("Membership updated."))
        except _AskFirst:
            pass
        except GovernanceError as e:
            if e.status == 403:
                raise
            _error(request, e)
            status = e.status
    members = list(
        Membership.objects.filter(tenant_id=console.tenant.id)
        .select_related("user")
        .order_by("user__username")
    )
    from memory.models import Subject, SubjectKind

    external_ids = dict(
        Subject.objects.filter(
            tenant_id=console.tenant.id,
            kind=SubjectKind.USER,
            user_id__in=[m.user_id for m in members],
        ).values_list("user_id", "external_id")
    )
    for member in members:
        member.external_id = external_ids.get(member.user_id, "")
    documents = list(selectors.procedure_list_for(access=console.access))
    grants = selectors.review_grants_for(documents=documents)
    return _page(
        request,
        console,
        "governance/admin_members.html",
        {
            "members": members,
            "confirm_remove": confirm_remove,
            "roles": Role.choices,
            "member_form": MemberForm(),
            "create_form": UserCreateForm(),
            "documents": [{"document": d, "reviewers": grants.get(d.id, [])} for d in documents],
        },
        status,
    )


@require_http_methods(["GET", "POST"])
@console_view(policies.can_administer_tenant)
def admin_policy(request: HttpRequest, console: Console) -> HttpResponse:
    tenant = Tenant.objects.get(pk=console.tenant.id)
    form = PolicyForm(request.POST or None, initial=PolicyForm.initial_from(tenant.policy or {}))
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                admin_svc.tenant_policy_update(
                    actor=console.actor, user=request.user, data=form.to_policy()
                )
                return _done(request, request.path, _("Policy saved."))
            except GovernanceError as e:
                form.add_error(None, e.message)
        status = 400
    return _page(request, console, "governance/admin_policy.html", {"form": form}, status)
