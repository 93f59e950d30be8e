"""Forms for the end-user pages. They validate input only; the services decide."""

from __future__ import annotations

import json
import uuid
from datetime import date, datetime, time

from django import forms
from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from memory.importers import (
    SOURCE_CHATGPT,
    ImportFormatError,
    parse_file,
    parse_pasted_list,
)
from memory.models import MemoryStatus, MemoryType
from memory.selectors import (
    ORIGIN_AGENTS,
    ORIGIN_ME,
    SHOW_ARCHIVED,
    SHOW_CURRENT,
    SHOW_EARLIER,
    SHOW_WAITING,
    SORT_NEWEST,
    SORT_OLDEST,
    USER_VISIBLE_STATUSES,
)
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


SHOW_CHOICES = [
    (SHOW_CURRENT, _("Current")),
    (SHOW_WAITING, _("Waiting for you or for review")),
    (SHOW_EARLIER, _("Earlier versions")),
    (SHOW_ARCHIVED, _("Archived")),
]
ORIGIN_CHOICES = [
    ("", _("Anyone")),
    (ORIGIN_ME, _("Said by me")),
    (ORIGIN_AGENTS, _("Created by an agent")),
]
SORT_CHOICES = [
    ("", _("Best match, else newest")),
    (SORT_NEWEST, _("Newest first")),
    (SORT_OLDEST, _("Oldest first")),
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
    # The buckets the page offers, and (for old links) any single status.
    status = forms.ChoiceField(
        label=_("Show"),
        required=False,
        choices=[
            *SHOW_CHOICES,
            *((s, MemoryStatus(s).label) for s in USER_VISIBLE_STATUSES if s != "active"),
        ],
    )
    agent = forms.UUIDField(label=_("Agent"), required=False)
    origin = forms.ChoiceField(label=_("Who said it"), required=False, choices=ORIGIN_CHOICES)
    since = forms.DateField(
        label=_("Recorded from"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    until = forms.DateField(
        label=_("Recorded until"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    sort = forms.ChoiceField(label=_("Order"), required=False, choices=SORT_CHOICES)

    FIELDS = ("q", "type", "namespace", "status", "agent", "origin", "since", "until", "sort")

    def cleaned(self) -> dict:
        """The filters to apply; an invalid value falls back to "no filter" for that
        field only (a stale link still shows something sensible)."""
        self.is_valid()
        data = getattr(self, "cleaned_data", {})
        out = {name: data.get(name) for name in self.FIELDS}
        for name in ("q", "type", "namespace", "origin", "sort"):
            out[name] = (out[name] or "").strip()
        out["status"] = out["status"] or SHOW_CURRENT
        if out["since"] and out["until"] and out["until"] < out["since"]:
            out["since"], out["until"] = out["until"], out["since"]
        return out

    @property
    def advanced(self) -> bool:
        """Some filter beyond search, type, topic and what to show is set."""
        return any(self.data.get(n) for n in ("agent", "origin", "since", "until", "sort"))


def _day_start(day: date | None) -> datetime | None:
    """A date as the start of that day in the active time zone."""
    if day is None:
        return None
    return timezone.make_aware(datetime.combine(day, time.min))


class _ValidTimeFields(forms.Form):
    """Optional "true since" and "true until" for the user's own statements."""

    valid_from = forms.DateField(
        label=_("True since (optional)"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("When it became true. Empty: from now on."),
    )
    valid_to = forms.DateField(
        label=_("True until (optional)"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("The day it stops being true. Empty: no end known."),
    )

    def clean(self):
        data = super().clean()
        start, end = data.get("valid_from"), data.get("valid_to")
        if start and end and end <= start:
            self.add_error("valid_to", _("The end must be after the start."))
        return data

    def valid_time(self) -> dict:
        return {
            "valid_from": _day_start(self.cleaned_data.get("valid_from")),
            "valid_to": _day_start(self.cleaned_data.get("valid_to")),
        }


class RememberForm(_ValidTimeFields):
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
            **self.valid_time(),
        }


class CorrectForm(_ValidTimeFields):
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

    def to_service(self) -> dict:
        """The arguments of ``memory_correct`` (besides the record)."""
        return {
            "statement": self.cleaned_data["statement"],
            "confirm_sensitive": self.cleaned_data["confirm_sensitive"],
            **self.valid_time(),
        }


class WithdrawConsentForm(forms.Form):
    # Withdrawing takes a second step: the first post shows what it does and asks again;
    # only a post with ``confirmed`` acts.
    confirmed = forms.BooleanField(required=False)
    # Kept for old clients of the form; the page itself sends people to the "delete
    # everything" page, which shows what goes and asks for an explicit confirmation.
    erase_everything = forms.BooleanField(
        label=_("Also delete everything that is remembered about me"), required=False
    )


BULK_ACTIONS = [("delete", _("Delete")), ("archive", _("Archive"))]


class BulkForm(forms.Form):
    """Several memories at once, chosen with the list's checkboxes (``ids``; values that
    are not ids are ignored; the view looks each id up among the user's own)."""

    action = forms.ChoiceField(choices=BULK_ACTIONS)
    confirmed = forms.BooleanField(required=False)

    def clean(self):
        data = super().clean()
        raw = self.data.getlist("ids") if hasattr(self.data, "getlist") else []
        ids = []
        for value in raw[:MAX_BULK]:
            try:
                ids.append(uuid.UUID(str(value)))
            except ValueError:
                continue
        if not ids:
            raise forms.ValidationError(_("Tick at least one memory first."))
        data["ids"] = ids
        return data


MAX_BULK = 200


class AgentAccessForm(forms.Form):
    agent = forms.UUIDField()
    access = forms.ChoiceField(
        choices=[("paused", "paused"), ("revoked", "revoked"), ("allowed", "allowed")]
    )
    confirmed = forms.BooleanField(required=False)


class ImportForm(forms.Form):
    """Paste a list (ChatGPT's memories), or upload a Mem0 / OpenMemory / Engram export."""

    text = forms.CharField(
        label=_("Paste a list of memories"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 8}),
        max_length=200_000,
        help_text=_(
            "One memory per line, e.g. copied from ChatGPT's Settings › Personalization › "
            "Manage memories."
        ),
    )
    file = forms.FileField(
        label=_("Or upload an export file (JSON)"),
        required=False,
        help_text=_("A Mem0 or OpenMemory export, or a file exported from Engram."),
    )
    purpose = forms.ChoiceField(
        label=_("What may they be used for?"), choices=PURPOSE_CHOICES, initial=DEFAULT_PURPOSE
    )

    MAX_FILE_BYTES = 5 * 1024 * 1024

    def clean(self):
        data = super().clean()
        text, upload = data.get("text") or "", data.get("file")
        if not text.strip() and upload is None:
            raise forms.ValidationError(_("Paste a list or choose a file to import."))
        try:
            if upload is not None:
                if upload.size > self.MAX_FILE_BYTES:
                    raise ImportFormatError(_("The file is larger than 5 MB; split it."))
                try:
                    parsed = json.loads(upload.read().decode("utf-8-sig"))
                except (UnicodeDecodeError, ValueError):
                    raise ImportFormatError(
                        _("The file is not JSON. Export JSON from Mem0, OpenMemory or Engram.")
                    ) from None
                data["source"], data["items"] = parse_file(parsed)
            else:
                data["source"], data["items"] = SOURCE_CHATGPT, parse_pasted_list(text)
        except ImportFormatError as e:
            raise forms.ValidationError(e.message) from None
        return data


class EraseAllForm(forms.Form):
    """'Delete everything': nothing happens without the ticked confirmation."""

    understood = forms.BooleanField(
        label=_("I understand that everything listed above is deleted for good."),
        error_messages={"required": _("Tick the box to confirm that everything may be deleted.")},
    )
