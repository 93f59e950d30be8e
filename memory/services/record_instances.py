"""A new record's ``MemoryRecord`` instance, built once a candidate on the write path
(``ENGRAM_WRITE_BATCH["POSITIONAL_RECORDS"]``, issue 39; off: ``MemoryRecord(**values)``).

Django's ``Model.__init__`` with keyword arguments walks the model's 37 fields, and for each
one it pops the keyword, checks whether the field is a relation, and calls ``get_default``.
Measured at about 80 µs a record, it was the write path's largest single Python call
outside the detectors. Given one value per concrete field in order, the same ``__init__``
sets each attribute in one pass instead (about 30 µs). ``Model.from_db`` does the same
for rows read from the database.

``record_instance(**values)`` takes the keywords ``MemoryRecord(**values)`` would take and
produces the same instance: each field it does not name gets ``field.get_default()``, as
the keyword path gives it (a constant default is read once; a callable one is called each
time). A relation named by its instance (``subject=…``, ``supersedes=…``) is then set
through the model's descriptor, as the keyword path sets it: its id, its cached instance
and the instance's database (``_state.db``). Keywords the fast path does not know (not a
field, or a relation named both ways), a model with generated fields, or the switch off
all take ``MemoryRecord(**values)`` itself. tests/memory/test_record_instances.py compares
the two instances attribute by attribute."""

from __future__ import annotations

from typing import Any

from django.conf import settings

from core.process_state import memoized
from memory.models import MemoryRecord

_CALL = object()  # a default called at each build


@memoized("memory.services.record_instances.layout", maxsize=1)
def _layout() -> tuple[tuple, frozenset[str]] | None:
    """Each concrete field's (attname, name, whether a relation, constant default or
    ``_CALL``, field), and the keywords the fast path knows; None: build by keyword."""
    fields, known = [], set()
    for f in MemoryRecord._meta.concrete_fields:
        if getattr(f, "generated", False) or f.column is None:
            return None
        if f.has_db_default() or (f.has_default() and callable(f.default)):
            default = _CALL
        else:  # the same object ``get_default`` returns on each call
            default = f.get_default()
        fields.append((f.attname, f.name, f.is_relation, default, f))
        known.add(f.attname)
        if f.is_relation:
            known.add(f.name)
    return tuple(fields), frozenset(known)


def record_instance(**values: Any) -> MemoryRecord:
    """``MemoryRecord(**values)``, built by the positional ``__init__`` (module docstring)."""
    layout = _layout() if settings.ENGRAM_WRITE_BATCH.get("POSITIONAL_RECORDS") else None
    if layout is None or not values.keys() <= layout[1]:
        return MemoryRecord(**values)
    args: list[Any] = []
    related: list[tuple[str, Any]] = []
    for attname, name, is_relation, default, field in layout[0]:
        if is_relation and name in values:
            if attname in values:  # named both ways: the keyword path's own rules
                return MemoryRecord(**values)
            related.append((name, values[name]))
            args.append(None)  # set through the descriptor below
        elif attname in values:
            args.append(values[attname])
        else:
            args.append(field.get_default() if default is _CALL else default)
    record = MemoryRecord(*args)
    for name, instance in related:
        setattr(record, name, instance)
    return record
