"""Console forms: parse and validate input only; the services decide and act."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from accounts.models import Role, Scope, Sensitivity
from accounts.policies import SENSITIVE_HANDLING
from governance.models import ProcedureKind
from memory.models import MemoryType

NAMESPACE_RE = r"^[\w.\-]+(/[\w.\-]+)*$"


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
    actor = forms.CharField(
        label=_("Actor"), required=False, max_length=80, help_text=_("id or type:id")
    )
    subject = forms.UUIDField(label=_("Subject id"), required=False)
    operation = forms.CharField(
        label=_("Operation or action"),
        required=False,
        max_length=64,
        help_text=_("e.g. QUARANTINE or procedure.approve"),
    )
    since = forms.DateTimeField(label=_("From"), required=False)
    until = forms.DateTimeField(label=_("Until"), required=False)


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
    role = forms.ChoiceField(
        label=_("Role"), choices=[*Role.choices, ("remove", _("remove from tenant"))]
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
    allowed_purposes = forms.CharField(
        label=_("Allowed purposes"),
        required=False,
        help_text=_("comma-separated; empty allows any stated purpose"),
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
        return {
            "sensitive_personal_data": policy.get("sensitive_personal_data", "quarantine"),
            "allowed_purposes": ", ".join(policy.get("allowed_purposes") or []),
            **{f"retention_{t}": retention.get(t) for t in MemoryType.values},
            "weight_relevance": weights.get("relevance", 1.0),
            "weight_recency": weights.get("recency", 0.0),
            "weight_importance": weights.get("importance", 0.0),
        }

    def to_policy(self) -> dict:
        d = self.cleaned_data
        return {
            "sensitive_personal_data": d["sensitive_personal_data"],
            "allowed_purposes": [p.strip() for p in d["allowed_purposes"].split(",") if p.strip()],
            "retention_days": {t: d[f"retention_{t}"] for t in MemoryType.values},
            "recall_weights": {
                "relevance": d["weight_relevance"],
                "recency": d["weight_recency"],
                "importance": d["weight_importance"],
            },
        }
