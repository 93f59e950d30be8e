"""Forms for the end-user pages. They validate input only; the services decide."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from memory.models import MemoryStatus, MemoryType
from memory.selectors import USER_VISIBLE_STATUSES
from memory.services.user_memory import DEFAULT_NAMESPACE, DEFAULT_PURPOSE

MAX_TEXT = settings.ENGRAM["MAX_TEXT_CHARS"]

TOPIC_CHOICES = [
    (DEFAULT_NAMESPACE, _("Me in general")),
    ("preferences", _("How I like things done")),
    ("work", _("Work")),
    ("travel", _("Travel")),
    ("food", _("Food and drink")),
    ("family", _("Family and friends")),
    ("health", _("Health")),
]

PURPOSE_CHOICES = [
    ("personalization", _("Personalise answers to me")),
    ("task_continuity", _("Continue my tasks where I left off")),
    ("support", _("Customer support")),
]


class MemoryFilterForm(forms.Form):
    q = forms.CharField(
        label=_("Search"),
        required=False,
        max_length=200,
        widget=forms.TextInput(attrs={"type": "search", "autocomplete": "off"}),
    )
    type = forms.ChoiceField(
        label=_("Type"),
        required=False,
        choices=[("", _("All types")), *MemoryType.choices],
    )
    namespace = forms.CharField(label=_("Topic"), required=False, max_length=300)
    status = forms.ChoiceField(
        label=_("Status"),
        required=False,
        choices=[(s, MemoryStatus(s).label) for s in USER_VISIBLE_STATUSES],
    )

    def cleaned(self) -> dict[str, str]:
        """The filters to apply; invalid values fall back to "no filter"."""
        if not self.is_valid():
            return {"q": "", "type": "", "namespace": "", "status": MemoryStatus.ACTIVE}
        data = self.cleaned_data
        return {
            "q": data["q"],
            "type": data["type"],
            "namespace": data["namespace"].strip(),
            "status": data["status"] or MemoryStatus.ACTIVE,
        }


class RememberForm(forms.Form):
    statement = forms.CharField(
        label=_("What should be remembered?"),
        max_length=MAX_TEXT,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_('Write it as a statement, e.g. "I prefer answers in Chinese".'),
    )
    # People are not asked for a memory type or a topic path: what they tell us is a fact
    # or preference (procedures go through review in the console), and the topic is one of
    # a few plain choices.
    topic = forms.ChoiceField(
        label=_("What is it about?"),
        choices=TOPIC_CHOICES,
        initial=DEFAULT_NAMESPACE,
        required=False,
    )
    purpose = forms.ChoiceField(
        label=_("What may it be used for?"), choices=PURPOSE_CHOICES, initial=DEFAULT_PURPOSE
    )
    confirm_sensitive = forms.BooleanField(
        label=_("Yes, remember this even though it contains sensitive personal data."),
        required=False,
    )

    def clean_statement(self) -> str:
        statement = self.cleaned_data["statement"].strip()
        if not statement:
            raise forms.ValidationError(_("Write what should be remembered."))
        return statement

    def to_service(self) -> dict:
        """The arguments of ``memory_remember``."""
        data = self.cleaned_data
        return {
            "statement": data["statement"],
            "memory_type": MemoryType.SEMANTIC,
            "namespace": data["topic"] or DEFAULT_NAMESPACE,
            "purpose": data["purpose"],
            "confirm_sensitive": data["confirm_sensitive"],
        }


class CorrectForm(forms.Form):
    statement = forms.CharField(
        label=_("Corrected statement"),
        max_length=MAX_TEXT,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    confirm_sensitive = forms.BooleanField(
        label=_("Yes, remember this even though it contains sensitive personal data."),
        required=False,
    )

    def clean_statement(self) -> str:
        statement = self.cleaned_data["statement"].strip()
        if not statement:
            raise forms.ValidationError(_("Write the corrected statement."))
        return statement


class WithdrawConsentForm(forms.Form):
    # Kept for old clients of the form; the page itself sends people to the "delete
    # everything" page, which shows what goes and asks for an explicit confirmation.
    erase_everything = forms.BooleanField(
        label=_("Also delete everything that is remembered about me"), required=False
    )


class EraseAllForm(forms.Form):
    """'Delete everything': nothing happens without the ticked confirmation."""

    understood = forms.BooleanField(
        label=_("I understand that everything listed above is deleted for good."),
        error_messages={"required": _("Tick the box to confirm that everything may be deleted.")},
    )
