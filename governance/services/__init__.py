"""Governance services. The audit writers are re-exported here so existing imports
(``from governance.services import Actor, audit_record``) keep working."""

from governance.services.audit import Actor, audit_record, audit_record_many

__all__ = ["Actor", "audit_record", "audit_record_many"]
