"""What the audit log's "What" filter offers: a few kinds of event a person looks for,
which never overlap. Each audit event — an action, and for memory writes the write
policy's operation — belongs to exactly one group (tests/governance/test_audit_groups.py
checks every action and operation Engram has), so the groups' counts add up to the log.
"""

from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from core.codes import AuditAction, Operation

A = AuditAction

# (group, label, actions, write-policy operations of ``memory.write`` events)
GROUPS: list[tuple[str, object, tuple[str, ...], tuple[str, ...]]] = [
    (
        "written",
        _("Memories added or changed"),
        (),
        (Operation.ADD, Operation.CONFIRM, Operation.SUPERSEDE, Operation.RETRACT),
    ),
    ("refused", _("Writes refused"), (), (Operation.REJECT,)),
    ("held", _("Held for review or the user's confirmation"), (), (Operation.QUARANTINE,)),
    ("resolved", _("Held memories resolved"), (A.QUARANTINE_RESOLVE, A.MEMORY_CONFIRM), ()),
    (
        "recalled",
        _("Memories recalled by agents"),
        (A.MEMORY_READ, A.MEMORY_RECALL_FEEDBACK, A.MEMORY_IMPORTANCE_FEEDBACK),
        (),
    ),
    (
        "deleted",
        _("Deletions"),
        (
            A.MEMORY_ERASE,
            A.EVENT_ERASE,
            A.DELETION_REQUEST,
            A.DELETION_COMPLETE,
            A.DELETION_CANCEL,
        ),
        (Operation.DELETE,),
    ),
    (
        "forgetting",
        _("Forgetting, archiving and retention"),
        (
            A.MEMORY_EXPIRE,
            A.MEMORY_ARCHIVE,
            A.MEMORY_UNARCHIVE,
            A.MEMORY_CONSOLIDATE,
            A.EVENT_RETENTION,
        ),
        (Operation.EXPIRE,),
    ),
    ("events", _("Conversation events received"), (A.EVENT_APPEND,), ()),
    (
        "user",
        _("People's own settings, exports and imports"),
        (
            A.SUBJECT_MEMORY_PAUSED,
            A.SUBJECT_MEMORY_RESUMED,
            A.SUBJECT_CONSENT_WITHDRAWN,
            A.SUBJECT_CONSENT_GIVEN,
            A.SUBJECT_EXPORT,
            A.SUBJECT_IMPORT,
            A.SUBJECT_AGENT_ACCESS,
        ),
        (),
    ),
    (
        "procedures",
        _("Procedures and their reviews"),
        (
            A.PROCEDURE_CREATE,
            A.PROCEDURE_PROPOSE,
            A.PROCEDURE_APPROVE,
            A.PROCEDURE_REJECT,
            A.PROCEDURE_REBASE,
            A.PROCEDURE_STALE,
            A.REVIEW_GRANT,
            A.REVIEW_REVOKE,
        ),
        (),
    ),
    (
        "admin",
        _("Agents, keys, members and policy"),
        (
            A.SUBJECT_TOKEN_ISSUE,
            A.APIKEY_ISSUE,
            A.APIKEY_ROTATE,
            A.APIKEY_REVOKE,
            A.AGENT_CREATE,
            A.AGENT_DEACTIVATE,
            A.MEMBERSHIP_SET,
            A.MEMBERSHIP_REMOVE,
            A.USER_CREATE,
            A.TENANT_CREATE,
            A.TENANT_POLICY_UPDATE,
        ),
        (),
    ),
    (
        "quality",
        _("Quality inspections, their actions and canaries"),
        (A.QUALITY_INSPECT, A.QUALITY_ACTION, A.QUALITY_CANARY),
        (),
    ),
]

CHOICES = [(key, label) for key, label, _actions, _operations in GROUPS]


def group_q(key: str) -> Q | None:
    """The audit events of one group; None for an unknown key."""
    for name, _label, actions, operations in GROUPS:
        if name == key:
            q = Q(action__in=actions) if actions else Q(pk__in=[])
            if operations:
                q |= Q(action=AuditAction.MEMORY_WRITE, operation__in=operations)
            return q
    return None


def group_of(action: str, operation: str = "") -> str | None:
    """The group an event belongs to (None: no group knows it)."""
    for name, _label, actions, operations in GROUPS:
        if action in actions:
            return name
        if action == AuditAction.MEMORY_WRITE and operation in operations:
            return name
    return None
