"""The entity index: which record (each version its own row set) names which entity.

A derived store like the lexical doc (``memory.services.mentions``): written in the same
transaction as the record, rebuilt from the record's statement by
``manage.py engram_mentions``, erased with the record (the deletion workflow's
``entity_mentions`` store), exported with it. Recall reads it only through the records it
may return (``memory.recall.entities``).
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from .records import MemoryRecord
from .subjects import Subject


class EntityKind(models.TextChoices):
    PERSON = "person", _("person")
    PLACE = "place", _("place")
    ORGANISATION = "organisation", _("organisation")
    THING = "thing", _("thing")
    DATE = "date", _("date")


class MemoryMention(models.Model):
    """One entity one record names: its normalised form (``memory.entities.normalise``),
    the words the record wrote, and, for another name of it (a bracketed or "aka" form, the
    pinyin of a Chinese name), the normalised form it stands for."""

    id = models.BigAutoField(primary_key=True)
    tenant = models.ForeignKey("accounts.Tenant", on_delete=models.CASCADE)
    subject = models.ForeignKey(Subject, on_delete=models.CASCADE)
    record = models.ForeignKey(MemoryRecord, on_delete=models.CASCADE, related_name="mentions")
    norm = models.CharField(max_length=120)
    surface = models.CharField(max_length=120)
    kind = models.CharField(max_length=16, choices=EntityKind.choices)
    alias_of = models.CharField(max_length=120, blank=True, default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["record", "norm"], name="memory_mention_once"),
        ]
        indexes = [
            # Serves recall: the records of a subject that name an entity.
            models.Index(fields=["tenant", "subject", "norm"], name="memory_mention_norm"),
        ]

    def __str__(self) -> str:
        return f"mention:{self.record_id}:{self.norm}"
