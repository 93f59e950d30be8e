"""Many rows in one INSERT whose values travel as one JSON document: a speed-up of
``QuerySet.bulk_create`` for the write path's flush (records, source links, lexical docs,
entity mentions, audit rows), behind ``ENGRAM_WRITE_BATCH["JSON_INSERTS"]``; off, or for
anything this module does not know how to carry exactly, ``bulk_create`` itself (the
reference). The stored rows are the same either way (tests/core/test_json_rows.py).

Why not ``bulk_create``: on PostgreSQL it sends each column as an array (``UNNEST``), and
most of its client CPU goes to Django preparing every value field by field and psycopg
quoting each array in Python (~0.15 ms a candidate in all, docs/performance.md). Here the
rows are plain dicts encoded by the C JSON encoder and quoted as one string, and the server
unpacks them with ``json_populate_recordset`` against the table's own row type.

Why not ``COPY``: PostgreSQL refuses ``COPY FROM`` on a table with row-level security for a
role subject to it ("COPY FROM not supported with row-level security"), and the web
workers' application role is (core/rls.py); an ``INSERT ... SELECT`` is checked by the
policies as any insert is. Triggers fire as for any insert.

What is carried: concrete, non-generated columns of the types below, read from the
instance's attribute as ``bulk_create`` would store it (``pre_save`` for fields that
override it, such as ``auto_now_add``). A model with another type, a JSON field with its
own encoder, or a value JSON cannot carry exactly (a naive datetime, a non-finite float,
anything not str/int/float/bool/None/UUID/aware datetime/date/JSON) goes to the reference.
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
from collections.abc import Sequence

from django.conf import settings
from django.db import connections, router
from django.db.models import Field, JSONField, Model

from core.process_state import memoized

# Internal types whose stored value is the attribute itself (or its JSON form).
_PLAIN = frozenset(
    {
        "CharField",
        "TextField",
        "SlugField",
        "EmailField",
        "URLField",
        "UUIDField",
        "BooleanField",
        "IntegerField",
        "BigIntegerField",
        "SmallIntegerField",
        "PositiveIntegerField",
        "PositiveBigIntegerField",
        "PositiveSmallIntegerField",
        "FloatField",
        "DateTimeField",
        "DateField",
        "JSONField",
        "ForeignKey",
        "OneToOneField",
        "AutoField",
        "BigAutoField",
        "SmallAutoField",
    }
)
_AUTO = frozenset({"AutoField", "BigAutoField", "SmallAutoField"})


class _Unfit(Exception):
    """A value JSON cannot carry exactly: the reference inserts the rows."""


def _default(value):
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, dt.datetime):
        if value.tzinfo is None:
            raise _Unfit  # bulk_create makes it aware (with a warning): leave that to it
        return value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    raise _Unfit


class _Plan:
    def __init__(self, model: type[Model], fields: list[Field], auto_pk: Field | None):
        self.model = model
        self.fields = fields
        self.auto_pk = auto_pk
        self.table = model._meta.db_table
        self.attnames = [f.attname for f in fields]
        self.columns = [f.column for f in fields]
        self.pairs = list(zip(self.columns, self.attnames, strict=True))
        # Fields whose pre_save does more than read the attribute (auto_now_add, say).
        self.pre_save = [f for f in fields if type(f).pre_save is not Field.pre_save]

    def payload(self, objs: Sequence[Model]) -> str:
        rows = []
        pre_save = self.pre_save
        pairs = self.pairs
        for obj in objs:
            for f in pre_save:
                f.pre_save(obj, True)  # sets the attribute, as bulk_create's compiler does
            d = obj.__dict__
            try:
                rows.append({c: d[a] for c, a in pairs})
            except KeyError as e:  # a deferred field
                raise _Unfit from e
        try:
            # ensure_ascii=False: a lone surrogate then fails to encode in psycopg, as it
            # does for bulk_create (not as a JSON escape the server refuses differently).
            return json.dumps(
                rows, default=_default, allow_nan=False, ensure_ascii=False, separators=(",", ":")
            )
        except ValueError as e:  # a NaN or an infinity
            raise _Unfit from e

    def sql(self, q, *, returning: bool, conflict: str) -> str:
        cols = ", ".join(q(c) for c in self.columns)
        out = (
            f"INSERT INTO {q(self.table)} ({cols}) SELECT {cols} "
            f"FROM json_populate_recordset(NULL::{q(self.table)}, %s::json) {conflict}"
        )
        if returning:
            out += f" RETURNING {q(self.auto_pk.column)}"
        return out


@memoized("core.db.json_rows.plan", maxsize=64)  # a model's fields: fixed after import
def _plan(model: type[Model]) -> _Plan | None:
    opts = model._meta
    if opts.parents or opts.proxy:
        return None
    fields = [f for f in opts.concrete_fields if not f.generated]
    if any(f.get_internal_type() not in _PLAIN for f in fields):
        return None
    if any(isinstance(f, JSONField) and f.encoder is not None for f in fields):
        return None
    for f in fields:
        if f.is_relation:
            target = f.target_field.get_internal_type()
            if target not in _PLAIN or target in ("ForeignKey", "OneToOneField"):
                return None
    auto_pk = opts.pk if opts.pk.get_internal_type() in _AUTO else None
    if auto_pk is not None:
        fields = [f for f in fields if f is not auto_pk]
    return _Plan(model, fields, auto_pk)


def rows_insert(
    model: type[Model],
    objs: Sequence[Model],
    *,
    ignore_conflicts: bool = False,
    update_conflicts: bool = False,
    unique_fields: Sequence[str] = (),
    update_fields: Sequence[str] = (),
) -> Sequence[Model]:
    """``model.objects.bulk_create(objs, ...)`` with the same arguments and the same rows
    stored; auto ids are set on ``objs`` as bulk_create sets them (none with
    ``ignore_conflicts``, as there). ``update_conflicts`` with ``unique_fields`` and
    ``update_fields`` as bulk_create takes them (field names)."""
    kwargs = {}
    if ignore_conflicts:
        kwargs["ignore_conflicts"] = True
    if update_conflicts:
        kwargs.update(
            update_conflicts=True, unique_fields=unique_fields, update_fields=update_fields
        )
    if not objs:
        return objs
    plan = _plan(model) if settings.ENGRAM_WRITE_BATCH.get("JSON_INSERTS", True) else None
    if plan is None or (plan.auto_pk is not None and any(o.pk is not None for o in objs)):
        return model.objects.bulk_create(objs, **kwargs)
    for obj in objs:
        if obj.pk is None and plan.auto_pk is None:
            obj.pk = obj._meta.pk.get_pk_value_on_save(obj)
        obj._prepare_related_fields_for_save(operation_name="bulk_create")
    try:
        payload = plan.payload(objs)
    except _Unfit:
        return model.objects.bulk_create(objs, **kwargs)
    db = router.db_for_write(model)
    connection = connections[db]
    if ignore_conflicts:
        conflict = "ON CONFLICT DO NOTHING"
    elif update_conflicts:
        fields = {f.name: f for f in model._meta.concrete_fields}
        q = connection.ops.quote_name
        target = ", ".join(q(fields[n].column) for n in unique_fields)
        sets = ", ".join(
            f"{q(fields[n].column)} = EXCLUDED.{q(fields[n].column)}" for n in update_fields
        )
        conflict = f"ON CONFLICT({target}) DO UPDATE SET {sets}"
    else:
        conflict = ""
    # As bulk_create on PostgreSQL: ids come back, except where a conflict skips a row.
    returning = plan.auto_pk is not None and not ignore_conflicts
    with connection.cursor() as cursor:
        cursor.execute(
            plan.sql(connection.ops.quote_name, returning=returning, conflict=conflict), [payload]
        )
        if returning:
            for obj, (pk,) in zip(objs, cursor.fetchall(), strict=True):
                setattr(obj, plan.auto_pk.attname, pk)
    for obj in objs:
        obj._state.adding = False
        obj._state.db = db
    return objs
