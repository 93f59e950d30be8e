"""The codes Engram stores and returns: write-policy operations, reason codes and audit
actions.

Values are stored in the database (``MemoryRecord.status_reason``, ``AuditEvent.action``,
``.operation``, ``.reason_code``) and returned by the API, so they never change. Each
label is the text a person reads for that code (translated in ``locale/``); pages show
the label, never the raw code.
"""

from __future__ import annotations

import enum

from django.db import models
from django.utils.translation import gettext_lazy as _


class Operation(models.TextChoices):
    """What the write policy does with one candidate."""

    ADD = "ADD", _("Added")
    CONFIRM = "CONFIRM", _("Confirmed")
    SUPERSEDE = "SUPERSEDE", _("Replaced")
    RETRACT = "RETRACT", _("Marked wrong")
    EXPIRE = "EXPIRE", _("Expired")
    DELETE = "DELETE", _("Deleted")
    REJECT = "REJECT", _("Refused")
    QUARANTINE = "QUARANTINE", _("Held for review")


class ReasonCode(models.TextChoices):
    """Why a record or an audit event is what it is, in words a user understands (the
    write policy's own messages are English sentences for developers)."""

    # The write policy's decisions (memory.write_policy).
    NEW_MEMORY = "new_memory", _("Remembered.")
    NARROWER_SCOPE = (
        "narrower_scope",
        _("Remembered for this narrower topic; the general memory stays."),
    )
    DUPLICATE_CONFIRMED = (
        "duplicate_confirmed",
        _("This was already remembered; it now has one more confirmation."),
    )
    AUTHORITY_UPGRADE = (
        "authority_upgrade",
        _("You confirmed something the assistant had only inferred."),
    )
    HIGHER_AUTHORITY = "higher_authority", _("Your statement replaced a weaker source.")
    NEWER_VALUE = (
        "newer_value",
        _("A newer value replaced the old one; the old one is kept in history."),
    )
    EARLIER_VALUE = (
        "earlier_value",
        _(
            "An earlier value, said before the current one: kept in history, the current value stays."
        ),
    )
    CORRECTION = "correction", _("You corrected this; the old version is kept in history.")
    SUPERSEDED = "superseded", _("Replaced by a newer value.")
    RETRACTED = "retracted", _("Marked as wrong.")
    VALIDITY_ENDED = "validity_ended", _("No longer true.")
    DELETION_REQUESTED = "deletion_requested", _("Deleted at your request.")
    MEMORY_PAUSED = (
        "memory_paused",
        _("Memory is paused, so nothing new is written. Resume it in settings."),
    )
    CONSENT_WITHDRAWN = (
        "consent_withdrawn",
        _("You have withdrawn consent to memory, so nothing is written."),
    )
    FUTURE_NEEDS_CONFIRMATION = (
        "future_needs_confirmation",
        _("This change lies in the future but has no date yet; it waits for confirmation."),
    )
    NO_PURPOSE = "no_purpose", _("A memory needs a purpose.")
    PURPOSE_MISSPELLED = (
        "purpose_misspelled",
        _(
            "This purpose nearly matches one already in use; memories are found only under "
            "their exact purpose. Use the suggested purpose."
        ),
    )
    PURPOSE_NOT_ALLOWED = (
        "purpose_not_allowed",
        _("Your organisation does not allow memories for that purpose."),
    )
    NO_CONSENT_BASIS = "no_consent_basis", _("A memory needs a consent basis.")
    INVALID_VALUE = (
        "invalid_value",
        _("This value does not fit (for a city, write just the city's name)."),
    )
    SECRET_DETECTED = (
        "secret_detected",
        _("This looks like a password, key or token. Secrets are never remembered."),
    )
    ASSERTION_NOT_SUPPORTED_BY_SOURCE = (
        "assertion_not_supported_by_source",
        _("The source does not support this statement."),
    )
    UNTRUSTED_PROCEDURAL = (
        "untrusted_procedural",
        _("Procedures cannot be learned from external content."),
    )
    SUSPECTED_INJECTION = (
        "suspected_injection",
        _(
            "This reads like an instruction to the assistant rather than a fact; "
            "it waits for review."
        ),
    )
    TOOL_DERIVED_INSTRUCTION = (
        "tool_derived_instruction",
        _(
            "This came from a tool or a web page and reads like an instruction or hides "
            "its words; it waits for review."
        ),
    )
    PROCEDURAL_NEEDS_REVIEW = (
        "procedural_needs_review",
        _("Procedures are written only after a reviewer approves them."),
    )
    PROCEDURE_LIKE_CONTENT = (
        "procedure_like_content",
        _("This says how the assistant should act but did not come from you; it waits for review."),
    )
    UNTRUSTED_SOURCE = (
        "untrusted_source",
        _("This came from external content; it waits for review."),
    )
    POLICY_MODEL_UNAVAILABLE = (
        "policy_model_unavailable",
        _("The extra policy check could not run; this waits for review."),
    )
    TRANSIENT = (
        "transient",
        _("This describes a passing state or a one-time value; it is not worth remembering."),
    )
    SYSTEM_OF_RECORD = (
        "system_of_record",
        _("This belongs to a system of record (orders, balances…) that is always checked live."),
    )
    SENSITIVE_PERSONAL_DATA = (
        "sensitive_personal_data",
        _("This contains sensitive personal data, which your organisation does not remember."),
    )
    SENSITIVE_NEEDS_CONFIRMATION = (
        "sensitive_needs_confirmation",
        _("This contains sensitive personal data. It is remembered only if you confirm it."),
    )
    AMBIGUOUS_CONFLICT = (
        "ambiguous_conflict",
        _("Several current values disagree; it waits for review."),
    )
    CONFLICT_EQUAL_AUTHORITY = (
        "conflict_equal_authority",
        _("Two equally strong sources disagree; it waits for review."),
    )
    OUTRANKED_BY_EXISTING = "outranked_by_existing", _("A stronger source already says otherwise.")
    NOTHING_TO_CHANGE = "nothing_to_change", _("There is no current memory to change.")
    INVALID_VALID_TIME = (
        "invalid_valid_time",
        _("The dates do not make sense (the end is before the start)."),
    )
    PROCEDURE_CHANGE_REQUIRES_REVIEW = (
        "procedure_change_requires_review",
        _("Procedures change only through a change request that a reviewer approves."),
    )

    # The write service around the policy (memory.services.writes).
    UNKNOWN_SOURCE_EVENT = "unknown_source_event", _("The cited source does not exist.")
    INVALID_TEXT = (
        "invalid_text",
        _("The text contains characters that cannot be stored. Remove them."),
    )
    STORAGE_CONFLICT = (
        "storage_conflict",
        _("Someone changed this at the same moment. Please try again."),
    )
    TARGET_CHANGED = (
        "target_changed",
        _(
            "Another write changed this memory first. Read its current value, then send "
            "the change again if it still applies."
        ),
    )
    STALE_CHANGE = (
        "stale_change",
        _("A newer message already changed this memory; this older change was ignored."),
    )
    VALIDITY_CLOSED = "validity_closed", _("Closed when a newer value started.")

    # The user's own pages (memory.services.user_memory).
    NOT_PENDING = "not_pending", _("This memory is not waiting for your confirmation.")
    CONFIRMED_BY_USER = "confirmed_by_user", _("You confirmed this.")
    ARCHIVED_BY_USER = (
        "archived_by_user",
        _("You archived this: agents no longer use it until you bring it back."),
    )
    RESTORED_BY_USER = "restored_by_user", _("You brought this back from the archive.")
    DELETION_PENDING = (
        "deletion_pending",
        _("You deleted this. It is erased in a few seconds; until then you can undo it."),
    )

    # Background upkeep: forgetting, retention, consolidation, deletion.
    DECAYED = "decayed", _("Archived because it was no longer used.")
    TTL_EXPIRED = "ttl_expired", _("Expired under the retention rules.")
    RETENTION_EXPIRED = "retention_expired", _("Removed under the retention rules.")
    CONSOLIDATED = "consolidated", _("Merged into a summary of similar memories.")
    NEAR_DUPLICATE = "near_duplicate", _("Merged with an almost identical memory.")
    SOURCE_DELETED = "source_deleted", _("Its source was deleted.")
    LOW_VALUE_ARCHIVED = (
        "low_value_archived",
        _("Archived by an administrator: it was rarely used and of low importance."),
    )

    # Review (governance): procedure change requests and held memories.
    STALE_BASE_VERSION = (
        "stale_base_version",
        _("Another change to this procedure was approved first; this one must be proposed again."),
    )
    REVIEW_APPROVED = "review_approved", _("A reviewer approved this.")
    REVIEW_REJECTED = "review_rejected", _("A reviewer rejected this.")
    REVIEW_ACCEPT = "review_accept", _("A reviewer accepted this.")
    REVIEW_ACCEPT_EDITED = "review_accept_edited", _("A reviewer accepted an edited version.")
    REVIEW_REJECT = "review_reject", _("A reviewer rejected this.")
    REVIEW_KEEP_EXISTING = "review_keep_existing", _("A reviewer kept the existing value.")
    REVIEW_KEEP_NEW = "review_keep_new", _("A reviewer kept the new value.")
    REVIEW_KEEP_BOTH = "review_keep_both", _("A reviewer kept both values.")


class AuditAction(models.TextChoices):
    """What an audit event records, as a dotted verb."""

    MEMORY_WRITE = "memory.write", _("Memory write")
    MEMORY_READ = "memory.read", _("Memory recall")
    MEMORY_ERASE = "memory.erase", _("Memory erased")
    MEMORY_EXPIRE = "memory.expire", _("Memory expired")
    MEMORY_ARCHIVE = "memory.archive", _("Memory archived")
    MEMORY_UNARCHIVE = "memory.unarchive", _("Memory brought back from the archive")
    MEMORY_CONSOLIDATE = "memory.consolidate", _("Memories consolidated")
    MEMORY_CONFIRM = "memory.confirm", _("Sensitive memory confirmed by the user")
    MEMORY_RECALL_FEEDBACK = "memory.recall_feedback", _("Agent reported which memories it used")
    MEMORY_IMPORTANCE_FEEDBACK = (
        "memory.importance_feedback",
        _("Memory importance adjusted by recall feedback"),
    )
    EVENT_APPEND = "event.append", _("Conversation event received")
    EVENT_ERASE = "event.erase", _("Conversation event erased")
    EVENT_RETENTION = "event.retention", _("Old conversation events removed")
    DELETION_REQUEST = "deletion.request", _("Deletion requested")
    DELETION_COMPLETE = "deletion.complete", _("Deletion finished")
    DELETION_CANCEL = "deletion.cancel", _("Deletion undone")
    PROCEDURE_CREATE = "procedure.create", _("Procedure created")
    PROCEDURE_PROPOSE = "procedure.propose", _("Procedure change proposed")
    PROCEDURE_APPROVE = "procedure.approve", _("Procedure change approved")
    PROCEDURE_REJECT = "procedure.reject", _("Procedure change rejected")
    PROCEDURE_REBASE = "procedure.rebase", _("Procedure change rebased")
    PROCEDURE_STALE = "procedure.stale", _("Procedure change went stale")
    QUARANTINE_RESOLVE = "quarantine.resolve", _("Held memory resolved")
    SUBJECT_MEMORY_PAUSED = "subject.memory_paused", _("User paused memory")
    SUBJECT_MEMORY_RESUMED = "subject.memory_resumed", _("User resumed memory")
    SUBJECT_CONSENT_WITHDRAWN = "subject.consent_withdrawn", _("User withdrew consent")
    SUBJECT_CONSENT_GIVEN = "subject.consent_given", _("User gave consent again")
    SUBJECT_EXPORT = "subject.export", _("User exported their memories")
    SUBJECT_IMPORT = "subject.import", _("User imported memories")
    SUBJECT_AGENT_ACCESS = "subject.agent_access", _("User changed an agent's access")
    SUBJECT_TOKEN_ISSUE = "subject_token.issue", _("User token issued")
    APIKEY_ISSUE = "apikey.issue", _("API key issued")
    APIKEY_ROTATE = "apikey.rotate", _("API key rotated")
    APIKEY_REVOKE = "apikey.revoke", _("API key revoked")
    AGENT_CREATE = "agent.create", _("Agent created")
    AGENT_DEACTIVATE = "agent.deactivate", _("Agent deactivated")
    MEMBERSHIP_SET = "membership.set", _("Member role set")
    MEMBERSHIP_REMOVE = "membership.remove", _("Member removed")
    USER_CREATE = "user.create", _("User account created")
    REVIEW_GRANT = "review.grant", _("Review right granted")
    REVIEW_REVOKE = "review.revoke", _("Review right revoked")
    TENANT_CREATE = "tenant.create", _("Organisation created")
    TENANT_POLICY_UPDATE = "tenant.policy_update", _("Policy changed")
    QUALITY_INSPECT = "quality.inspect", _("Memory quality inspected")
    QUALITY_ACTION = "quality.action", _("Quality finding acted on")
    QUALITY_CANARY = "quality.canary", _("Retrieval canary added or removed")


class ErrorCode(enum.StrEnum):
    """Every ``code`` an API error (``{"code", "message", "extra"}``) can carry. Clients
    branch on these, so they never change meaning; the OpenAPI schema lists them as the
    ``Error.code`` enum. ``tests/core/test_error_codes.py`` finds each code raised in the
    source and fails when one is missing here. Clients should still accept codes they do
    not know (a newer server), treating them by HTTP status."""

    # The request itself (core/edge.py, core/api.py).
    MALFORMED_JSON = "malformed_json"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    INVALID_ENCODING = "invalid_encoding"
    INVALID_UNICODE = "invalid_unicode"
    NUL_CHARACTER = "nul_character"
    JSON_TOO_DEEP = "json_too_deep"
    PAYLOAD_TOO_LARGE = "payload_too_large"
    HEADER_TOO_LARGE = "header_too_large"
    INVALID_INPUT = "invalid_input"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    NOT_ACCEPTABLE = "not_acceptable"
    NOT_FOUND = "not_found"
    ERROR = "error"
    # Credentials (accounts/services/credentials.py, memory/api/authentication.py).
    NOT_AUTHENTICATED = "not_authenticated"
    AUTHENTICATION_FAILED = "authentication_failed"
    INVALID_API_KEY = "invalid_api_key"
    REVOKED_API_KEY = "revoked_api_key"
    EXPIRED_API_KEY = "expired_api_key"
    INVALID_SUBJECT_TOKEN = "invalid_subject_token"
    EXPIRED_SUBJECT_TOKEN = "expired_subject_token"
    INVALID_GATEWAY_SUBJECT = "invalid_gateway_subject"
    PERMISSION_DENIED = "permission_denied"
    SUBJECT_REQUIRED = "subject_required"
    SUBJECT_KIND_NOT_ALLOWED = "subject_kind_not_allowed"
    # Writes (memory/api).
    CONSENT_WITHDRAWN = "consent_withdrawn"
    UNKNOWN_SOURCE_EVENT = "unknown_source_event"
    INVALID_IDEMPOTENCY_KEY = "invalid_idempotency_key"
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused"
    IDEMPOTENCY_CONFLICT = "idempotency_conflict"
    PROCEDURE_CHANGE_REQUIRES_REVIEW = "procedure_change_requires_review"
    # Recall feedback (memory/api/recall.py): an id the recall did not return; a second,
    # different report for the same recall.
    UNKNOWN_RECORD_IDS = "unknown_record_ids"
    FEEDBACK_CONFLICT = "feedback_conflict"
    # Working memory and closing a thread (memory/working/, memory/api/working.py); a
    # paused user's or a secret put is refused with the write policy's own reason code.
    INVALID_THREAD_ID = "invalid_thread_id"
    INVALID_WORKING_KEY = "invalid_working_key"
    INVALID_TTL = "invalid_ttl"
    VALUE_TOO_LARGE = "value_too_large"
    THREAD_FULL = "thread_full"
    UNKNOWN_WORKING_KEY = "unknown_working_key"
    MEMORY_PAUSED = "memory_paused"
    SECRET_DETECTED = "secret_detected"
    # Procedures and governance (governance/services).
    STALE_BASE_VERSION = "stale_base_version"
    NO_CHANGE = "no_change"
    NO_PROPOSER = "no_proposer"
    NO_SUCH_VERSION = "no_such_version"
    NOT_OPEN = "not_open"
    NOT_STALE = "not_stale"
    EMPTY_TEXT = "empty_text"
    TEXT_TOO_LONG = "text_too_long"
    INVALID_SOURCE = "invalid_source"
    INVALID_STATEMENT = "invalid_statement"
    INVALID_KIND = "invalid_kind"
    INVALID_RESOLUTION = "invalid_resolution"
    PROCEDURE_PURPOSE_REQUIRED = "procedure_purpose_required"
    WRITE_POLICY_REFUSED = "write_policy_refused"
    DUPLICATE_SLUG = "duplicate_slug"
    REASON_REQUIRED = "reason_required"
    # Administration (governance/services/admin_console.py).
    AGENT_INACTIVE = "agent_inactive"
    DUPLICATE_NAME = "duplicate_name"
    INVALID_CLEARANCE = "invalid_clearance"
    INVALID_EXTERNAL_ID = "invalid_external_id"
    EXTERNAL_ID_TAKEN = "external_id_taken"
    INVALID_NAME = "invalid_name"
    INVALID_OVERLAP = "invalid_overlap"
    INVALID_POLICY = "invalid_policy"
    INVALID_ROLE = "invalid_role"
    INVALID_SCOPE = "invalid_scope"
    INVALID_SCOPES = "invalid_scopes"
    KEY_UNUSABLE = "key_unusable"
    LAST_ADMIN = "last_admin"
    UNKNOWN_MEMBER = "unknown_member"
    UNKNOWN_USER = "unknown_user"
    USERNAME_TAKEN = "username_taken"
    WEAK_PASSWORD = "weak_password"
    # Limits and availability.
    RATE_LIMITED = "rate_limited"
    DATABASE_UNAVAILABLE = "database_unavailable"
    SERVER_ERROR = "server_error"


# ErrorCode as serializer choices (core.serializers.ErrorSerializer; the OpenAPI enum is
# named ErrorCodeEnum after it in SPECTACULAR_SETTINGS).
ERROR_CODE_CHOICES = [(c.value, c.value) for c in ErrorCode]
