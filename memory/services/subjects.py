"""Subjects: whom memories are about."""

from __future__ import annotations

import uuid

from django.db import IntegrityError, transaction

from memory.models import Subject, SubjectKind


def subject_get_or_create(
    *, tenant_id: uuid.UUID, kind: str, external_id: str, user=None, display_name: str = ""
) -> Subject:
    if kind not in SubjectKind.values:
        raise ValueError(f"subject kind must be one of {SubjectKind.values}")
    external_id = external_id.strip()
    if not external_id or len(external_id) > 200:
        raise ValueError("subject external id must be 1–200 characters")
    defaults = {"user": user, "display_name": display_name}
    try:
        with transaction.atomic():
            subject, _ = Subject.objects.get_or_create(
                tenant_id=tenant_id, kind=kind, external_id=external_id, defaults=defaults
            )
    except IntegrityError:  # a concurrent request created it first
        subject = Subject.objects.get(tenant_id=tenant_id, kind=kind, external_id=external_id)
    return subject


def subject_from_gateway_header(*, tenant_id: uuid.UUID, header: str) -> Subject:
    """``X-Engram-Gateway-Subject: user:alice`` from a trusted gateway (behind a setting)."""
    kind, sep, external_id = header.partition(":")
    if not sep:
        raise ValueError("gateway subject header must look like 'user:<external id>'")
    return subject_get_or_create(tenant_id=tenant_id, kind=kind.strip(), external_id=external_id)
