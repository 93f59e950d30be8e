"""The two ORM lookups every write request makes before its decisions, from SQL compiled
once (``core.sqltemplate``) with ``ENGRAM_WRITE_COMPILED_LOOKUPS`` (default on): the
request's subject (``SubjectScopedView.subject``, every subject-scoped endpoint) and the
tenant's policy (``writes.candidates_submit``). Building and compiling such a queryset
cost about 0.7–1.1 ms of CPU each on the benchmark machine, ten times running it
(docs/performance.md, "A write request at the HTTP level"). The SQL is the ORM's own;
off, each call builds its queryset as the reference did (``.first()`` / ``.get()``).
tests/memory/test_write_lookups.py compares both."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db.models import QuerySet

from accounts.models import Tenant
from core.sqltemplate import ModelColumns, Placeholders, QueryTemplate, read_connection
from memory.models import Subject


def _enabled() -> bool:
    return bool(settings.ENGRAM_WRITE_BATCH.get("COMPILED_LOOKUPS"))


_SUBJECT_COLUMNS = ModelColumns(Subject)


def _subject_query(p: Placeholders) -> QuerySet:
    # What ``.first()`` asks of the reference's queryset: ordered by the key, one row.
    return (
        Subject.objects.filter(tenant_id=p.uuid("tenant"), id=p.uuid("subject"))
        .order_by("pk")
        .values_list(*_SUBJECT_COLUMNS.names)[:1]
    )


_SUBJECT = QueryTemplate(_subject_query, enabled=_enabled)


def subject_of_tenant(tenant_id: uuid.UUID, subject_id: uuid.UUID) -> Subject | None:
    """Subject ``subject_id`` if it is ``tenant_id``'s, else None."""
    if not _enabled():
        return Subject.objects.filter(tenant_id=tenant_id, id=subject_id).first()
    rows = _SUBJECT.rows((), {"tenant": tenant_id, "subject": subject_id})
    return _SUBJECT_COLUMNS.instance(rows[0], read_connection()) if rows else None


def _policy_query(p: Placeholders) -> QuerySet:
    return Tenant.objects.filter(pk=p.uuid("tenant")).values_list("policy")


_POLICY = QueryTemplate(_policy_query, enabled=_enabled)
_POLICY_FIELD = Tenant._meta.get_field("policy")


def tenant_policy_json(tenant_id: uuid.UUID):
    """Tenant ``tenant_id``'s ``policy`` as stored; ``Tenant.DoesNotExist`` without one."""
    if not _enabled():
        return Tenant.objects.only("policy").get(pk=tenant_id).policy
    rows = _POLICY.rows((), {"tenant": tenant_id})
    if not rows:
        raise Tenant.DoesNotExist("Tenant matching query does not exist.")
    value = rows[0][0]
    if value is None:
        return None
    return _POLICY_FIELD.from_db_value(value, None, read_connection())
