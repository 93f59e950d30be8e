"""Console forms: parse and validate input only; the services decide and act."""

from __future__ import annotations

from datetime import timedelta

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from accounts.models import Role, Scope, Sensitivity
from accounts.policies import SENSITIVE_HANDLING
from governance.audit_groups import CHOICES as AUDIT_GROUPS
from governance.models import ProcedureKind
from governance.services.procedures import PROCEDURE_PURPOSE
from memory.models import MemoryType

NAMESPACE_RE = r"^[\w.\-]+(/[\w.\-]+)*$"

# The purposes the policy page offers by name. Procedures are written and recalled under
# PROCEDURE_PURPOSE by Engram itself: a policy without it would make every approval fail.
PURPOSE_CHOICES = [
    ("personalization", _("Personalising answers")),
    ("task_continuity", _("Continuing tasks where the user left off")),
    ("support", _("Customer support")),
    (PROCEDURE_PURPOSE, _("Agent procedures (runbooks and skills) — needed by Engram itself")),
]
PROCEDURE_PURPOSE_MISSING = _(
    "Procedures are stored for the purpose “Agent procedures”. Without it no procedure "
    "change could be approved and agents could not recall procedures. Tick it, or allow "
    "any purpose."
)


class DocumentForm(forms.Form):
    slug = forms.SlugField(label=_("Slug"), max_length=100)
    title = forms.CharField(label=_("Title"), max_length=200)
    kind = forms.ChoiceField(label=_("Kind"), choices=ProcedureKind.choices)
    namespace = forms.RegexField(label=_("Namespace"), regex=NAMESPACE_RE, max_length=300)


class ProposeForm(forms.Form):
    base_version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    proposed_text = forms.CharField(
        label=_("Full proposed text"),
        widget=forms.Textarea(attrs={"rows": 12}),
        max_length=settings.ENGRAM["MAX_TEXT_CHARS"],
    )
    rationale = forms.CharField(
        label=_("Why this change?"), widget=forms.Textarea(attrs={"rows": 3}), required=False
    )


class RollbackForm(forms.Form):
    to_version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    rationale = forms.CharField(label=_("Why roll back?"), required=False, max_length=2000)


class DecisionForm(forms.Form):
    comment = forms.CharField(
        label=_("Comment"), widget=forms.Textarea(attrs={"rows": 2}), required=False
    )
    acknowledge_warnings = forms.BooleanField(
        label=_("I checked the warnings above and this text is safe for agents to follow"),
        required=False,
    )
    # A rejection is posted twice: with a reason, then confirmed.
    confirmed = forms.BooleanField(required=False)


RESOLUTIONS = [
    ("accept", _("Accept as is")),
    ("accept_edited", _("Accept edited")),
    ("reject", _("Reject")),
    ("keep_existing", _("Keep existing (A)")),
    ("keep_new", _("Keep new (B)")),
    ("keep_both", _("Keep both with scopes")),
]


class ResolveForm(forms.Form):
    resolution = forms.ChoiceField(choices=RESOLUTIONS)
    edited_statement = forms.CharField(
        label=_("Edited text"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        max_length=settings.ENGRAM["MAX_TEXT_CHARS"],
    )
    scope = forms.CharField(
        label=_("Narrower scope for the new value"), required=False, max_length=100
    )


class AuditFilterForm(forms.Form):
    """The audit log's filters. The page offers pickers (an actor by name, an action from
    the list, dates from a calendar); typed values still work (``type:id``, a dotted
    action or an operation, an ISO date or date-time). Invalid values are reported, never
    silently dropped."""

    actor = forms.CharField(label=_("Who"), required=False, max_length=80)
    subject = forms.UUIDField(label=_("Subject id"), required=False)
    record = forms.UUIDField(label=_("Memory id"), required=False)
    # The page's picker: one of a few kinds of event that never overlap
    # (governance.audit_groups). ``operation`` still takes a typed action or operation.
    what = forms.ChoiceField(label=_("What"), required=False, choices=[("", ""), *AUDIT_GROUPS])
    operation = forms.CharField(label=_("Action or operation"), required=False, max_length=64)
    since = forms.DateTimeField(
        label=_("From"),
        required=False,
        error_messages={"invalid": _("Enter a date such as 2025-09-15.")},
    )
    until = forms.DateTimeField(
        label=_("Until (inclusive)"),
        required=False,
        error_messages={"invalid": _("Enter a date such as 2025-09-15.")},
    )

    def clean_until(self):
        until = self.cleaned_data.get("until")
        raw = str(self.data.get("until") or "").strip()
        if until is not None and len(raw) == 10:  # a whole day: up to its end
            until += timedelta(days=1)
        return until

    def clean(self):
        data = super().clean()
        since, until = data.get("since"), data.get("until")
        if since and until and until <= since:
            self.add_error("until", _("The end date is before the start date."))
        return data


class AgentForm(forms.Form):
    name = forms.CharField(label=_("Agent name"), max_length=100)
    clearance = forms.ChoiceField(
        label=_("Clearance"), choices=Sensitivity.choices, initial=Sensitivity.INTERNAL
    )


class KeyIssueForm(forms.Form):
    agent = forms.UUIDField(widget=forms.HiddenInput)
    scopes = forms.MultipleChoiceField(
        label=_("Scopes"), choices=Scope.choices, widget=forms.CheckboxSelectMultiple
    )
    label = forms.CharField(label=_("Label"), max_length=100, required=False)


class KeyRotateForm(forms.Form):
    overlap_hours = forms.IntegerField(
        label=_("Old key keeps working for (hours)"), min_value=0, max_value=720, initial=24
    )


class MemberForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices)


class MemberRemoveForm(forms.Form):
    """Removing a member is its own action, asked twice (not a role)."""

    username = forms.CharField(max_length=150)
    confirmed = forms.BooleanField(required=False)


class UserCreateForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)
    email = forms.EmailField(label=_("Email (optional)"), required=False)
    password = forms.CharField(
        label=_("First password"),
        widget=forms.PasswordInput(render_value=False),
        help_text=_("Give it to the person; they can change it after signing in."),
        max_length=128,
    )
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices, initial=Role.MEMBER)
    external_id = forms.CharField(
        label=_("The id your agents use for this person (optional)"),
        required=False,
        max_length=200,
        help_text=_(
            "What your agents call this person when they remember things about them. "
            "Empty: the username."
        ),
    )


class GrantForm(forms.Form):
    document = forms.UUIDField(widget=forms.HiddenInput)
    username = forms.CharField(label=_("Member username"), max_length=150)
    grant = forms.TypedChoiceField(
        choices=[("1", _("grant")), ("0", _("revoke"))], coerce=lambda v: v == "1", initial="1"
    )


class PolicyForm(forms.Form):
    sensitive_personal_data = forms.ChoiceField(
        label=_("Sensitive personal data"),
        choices=[(h, h) for h in SENSITIVE_HANDLING],
        help_text=_("reject: never stored; quarantine: kept only if the user confirms"),
    )
    purposes = forms.MultipleChoiceField(
        label=_("Allowed purposes"),
        required=False,
        choices=PURPOSE_CHOICES,
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "Memories may only be written for the purposes ticked here. Tick none (and "
            "leave the field below empty) to allow any purpose an agent states."
        ),
    )
    allowed_purposes = forms.CharField(
        label=_("Other purposes your agents use"),
        required=False,
        help_text=_("Their codes, separated by commas, e.g. billing_questions."),
        max_length=2000,
    )
    retention_semantic = forms.IntegerField(
        label=_("Retention of facts and preferences (days)"),
        required=False,
        min_value=1,
        max_value=36500,
    )
    retention_episodic = forms.IntegerField(
        label=_("Retention of experiences (days)"), required=False, min_value=1, max_value=36500
    )
    retention_procedural = forms.IntegerField(
        label=_("Retention of procedures (days)"), required=False, min_value=1, max_value=36500
    )
    weight_relevance = forms.FloatField(
        label=_("Recall weight: relevance"), min_value=0, max_value=1
    )
    weight_recency = forms.FloatField(label=_("Recall weight: recency"), min_value=0, max_value=1)
    weight_importance = forms.FloatField(
        label=_("Recall weight: importance"), min_value=0, max_value=1
    )

    @classmethod
    def initial_from(cls, policy: dict) -> dict:
        retention = policy.get("retention_days") or {}
        weights = policy.get("recall_weights") or {}
        allowed = policy.get("allowed_purposes") or []
        known = {value for value, _label in PURPOSE_CHOICES}
        return {
            "sensitive_personal_data": policy.get("sensitive_personal_data", "quarantine"),
            "purposes": [p for p in allowed if p in known],
            "allowed_purposes": ", ".join(p for p in allowed if p not in known),
            **{f"retention_{t}": retention.get(t) for t in MemoryType.values},
            "weight_relevance": weights.get("relevance", 1.0),
            "weight_recency": weights.get("recency", 0.0),
            "weight_importance": weights.get("importance", 0.0),
        }

    def clean(self):
        data = super().clean()
        purposes = self._purposes(data)
        if purposes and PROCEDURE_PURPOSE not in purposes:
            raise forms.ValidationError(PROCEDURE_PURPOSE_MISSING, code="procedure_purpose")
        return data

    @staticmethod
    def _purposes(data: dict) -> list[str]:
        other = [p.strip() for p in (data.get("allowed_purposes") or "").split(",") if p.strip()]
        return sorted({*data.get("purposes", []), *other})

    def to_policy(self) -> dict:
        d = self.cleaned_data
        return {
            "sensitive_personal_data": d["sensitive_personal_data"],
            "allowed_purposes": self._purposes(d),
            "retention_days": {t: d[f"retention_{t}"] for t in MemoryType.values},
            "recall_weights": {
                "relevance": d["weight_relevance"],
                "recency": d["weight_recency"],
                "importance": d["weight_importance"],
            },
        }
