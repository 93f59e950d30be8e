"""A queryset's SQL, compiled once per shape and run again with other values.

Building and compiling a queryset costs Python time on every request: for the few
complex queries of a recall, more than PostgreSQL takes to run them
(docs/performance.md). A ``QueryTemplate`` builds the queryset once, with a stand-in
value (a *placeholder*) wherever a request supplies one, compiles it, and remembers where
each placeholder went in the parameters. Later calls substitute the real values and run
the same SQL. The query is still written once, with the ORM: the SQL a template runs is
the ORM's own, so the filters it applies are exactly those of the queryset. With
``ENGRAM_RECALL_COMPILED_QUERIES`` off, every call builds and compiles the queryset with
its values, as the ORM would (the reference the tests hold templates to).

What changes the SQL's text rather than a parameter (how many items an ``__in`` list
holds, whether an optional filter applies at all) is part of the *shape*: the caller
passes a key for it, and each key gets its own compiled SQL.

A placeholder must reach the parameters unchanged. Compiling checks that: a placeholder
that was inlined into the SQL, transformed (a ``__contains`` pattern wraps its value in
``%``) or dropped makes its shape a *literal* one: built and compiled with the real
values on every call, as the ORM would (``Literals``) — slower, never wrong. Rows
come back as the database driver returns them, without Django's field converters: a
``jsonb`` column arrives as text (``json.loads`` it); ``ModelColumns`` builds model
instances from such rows as the ORM's own iteration would."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Hashable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connections, router
from django.db.models import Model, Q, QuerySet
from django.db.models.expressions import RawSQL
from psycopg import sql as psycopg_sql

from core.process_state import Cache

__all__ = [
    "Literals",
    "ModelColumns",
    "Placeholders",
    "QueryTemplate",
    "TemplateError",
    "insert_new",
    "pk_in_array",
    "read_connection",
    "uuid_array",
]

_MARK = "\x1eplaceholder-"
_UUID_MARK = 0x5E7E1
_LITERAL = object()  # a shape that cannot be a template: built with its values each time
_CONSTANTS = object()  # a shape's SQL with its constants written in (``sql_with_constants``)
# A parameter's place in Django's SQL, or an escaped percent sign (which stays as it is).
_PARAMETER_OR_PERCENT = re.compile(r"%s|%%")


class TemplateError(Exception):
    """The queryset cannot be a template (a placeholder did not reach its parameters)."""


class Placeholders:
    """Stand-in values of the right type, one per name (asking for a name again gives the
    same value), distinct from any real value."""

    _EPOCH = datetime(1901, 3, 7, tzinfo=UTC)

    def __init__(self) -> None:
        self.by_value: dict[Any, str] = {}
        self.by_name: dict[str, Any] = {}

    def _add(self, name: str, value: Any) -> Any:
        if name in self.by_name:  # the same name twice is the same value
            return self.by_name[name]
        self.by_value[value] = name
        self.by_name[name] = value
        return value

    def uuid(self, name: str) -> uuid.UUID:
        return self._add(name, uuid.UUID(int=(_UUID_MARK << 96) | len(self.by_value)))

    def datetime(self, name: str) -> datetime:
        return self._add(name, self._EPOCH + timedelta(seconds=len(self.by_value) + 1))

    def text(self, name: str) -> str:
        return self._add(name, f"{_MARK}{len(self.by_value)}\x1e")


class Literals(Placeholders):
    """The real values in the placeholders' places: builds the queryset of a shape that
    cannot be a template, for one call."""

    def __init__(self, values: Mapping[str, Any]) -> None:
        super().__init__()
        self.values = values

    def _add(self, name: str, value: Any) -> Any:
        return self.values[name]


class QueryTemplate:
    """``build(placeholders, *shape)`` returns the queryset; ``rows(shape, values)`` runs
    its SQL for ``shape`` (a hashable key, passed on to ``build``) with ``values`` (name →
    value) in the placeholders' places."""

    def __init__(
        self, build: Callable[..., QuerySet], enabled: Callable[[], bool] | None = None
    ) -> None:
        """``enabled()``: whether templates are used now (by default recall's setting,
        ``ENGRAM_RECALL_COMPILED_QUERIES``); when not, every call builds its queryset."""
        self._build = build
        self._enabled = enabled or _recall_compiled_queries
        # Shapes are few (a handful per query): the bound is never reached in use.
        self._compiled: Cache[Hashable, Any] = Cache(
            f"sqltemplate.{build.__module__}.{build.__qualname__}", max_items=256, pure=True
        )

    def compile(self, shape: tuple = ()) -> tuple[str, tuple, tuple[tuple[int, str], ...]]:
        held = self._compiled.get(shape)
        if held is not None:
            if held is _LITERAL:
                raise TemplateError(f"shape {shape!r} cannot be a template")
            return held
        placeholders = Placeholders()
        queryset = self._build(placeholders, *shape)
        sql, params = queryset.query.get_compiler(queryset.db).as_sql()
        slots = []
        seen = set()
        transformed = False
        for position, value in enumerate(params):
            name = _placeholder_name(placeholders, value)
            if name is not None:
                slots.append((position, name))
                seen.add(name)
            elif _holds_placeholder(value):
                # Part of a parameter (a LIKE pattern built from the value): substituting
                # whole parameters would leave the stand-in there.
                transformed = True
        missing = set(placeholders.by_value.values()) - seen
        problem = ""
        if missing:
            problem = f"placeholders not passed as parameters: {sorted(missing)}"
        elif transformed:
            problem = "a placeholder was transformed into another parameter"
        elif _MARK in sql or f"{_UUID_MARK:x}" in sql.lower():
            problem = "a placeholder was inlined into the SQL"
        compiled = (sql, tuple(params), tuple(slots))
        self._compiled.put(shape, _LITERAL if problem else compiled)
        if problem:
            raise TemplateError(problem)
        return compiled

    def sql_with_params(self, shape: tuple, values: Mapping[str, Any]) -> tuple[str, list]:
        """The SQL for ``shape`` with ``values``: the compiled template's, or — for a shape
        that cannot be a template — the queryset built and compiled with the values."""
        try:
            if not self._enabled():
                raise TemplateError("compiled queries are off")
            sql, params, slots = self.compile(shape)
        except TemplateError:
            queryset = self._build(Literals(values), *shape)
            sql, params = queryset.query.get_compiler(queryset.db).as_sql()
            return sql, list(params)
        bound = list(params)
        for position, name in slots:
            bound[position] = values[name]
        return sql, bound

    def sql_with_constants(self, shape: tuple, values: Mapping[str, Any]) -> tuple[str, list]:
        """``sql_with_params``, with the parameters no request supplies (the ORM's
        constants: a status, an empty predicate, a cardinality) written into the SQL as
        literals, as a client-side cursor writes every value, and only ``values`` left as
        parameters. For a statement prepared once and run on a generic plan: PostgreSQL
        plans it knowing its constants (a partial index whose condition they meet, their
        columns' statistics), as it plans the same SQL sent as text. The SQL of a shape
        that cannot be a template, or with templates off, is ``sql_with_params``'."""
        held = self._compiled.get((_CONSTANTS, shape))
        if held is None:
            try:
                if not self._enabled():
                    raise TemplateError("compiled queries are off")
                held = _constants_written(*self.compile(shape))
            except TemplateError:
                return self.sql_with_params(shape, values)
            self._compiled.put((_CONSTANTS, shape), held)
        elif not self._enabled():
            return self.sql_with_params(shape, values)
        sql, names = held
        return sql, [values[name] for name in names]

    def rows(self, shape: tuple, values: Mapping[str, Any]) -> Sequence[tuple]:
        sql, params = self.sql_with_params(shape, values)
        with read_connection().cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchall()


class ModelColumns:
    """A model's concrete fields, read by a template's ``values_list`` (``names``: through
    ``path``, a lookup like ``"agent__"``), and the instance the ORM builds from their
    values: each field's ``from_db_value`` applied (a ``jsonb`` column arrives as text),
    then ``Model.from_db`` — what a queryset's iteration does with the same row."""

    def __init__(self, model: type[Model], path: str = "") -> None:
        self.model = model
        self.fields = _columns(model)
        self.names = tuple(path + f.attname for f in self.fields)
        self._attnames = [f.attname for f in self.fields]
        self._converted = tuple(
            (i, f) for i, f in enumerate(self.fields) if hasattr(f, "from_db_value")
        )

    def __len__(self) -> int:
        return len(self.fields)

    def instance(self, values: Sequence[Any], connection) -> Model:
        """The instance of ``values`` (the fields' columns in ``names``' order, as the
        database driver returns them) read on ``connection``."""
        values = list(values)
        for i, field in self._converted:
            if values[i] is not None:
                values[i] = field.from_db_value(values[i], None, connection)
        return self.model.from_db(connection.alias, self._attnames, values)


def insert_new(instances: Sequence[Model], connection, *, cursor=None) -> None:
    """Insert ``instances`` (new rows of any models, each with its primary key set unless
    the database assigns it) in one statement, as ``save(force_insert=True)`` inserts each
    (every concrete field's ``pre_save`` and ``get_db_prep_save``), without building the
    ORM's insert query every time: the SQL is written once per sequence of models. No
    signals are sent (a caller's models have no receivers) and a database-assigned key is
    not read back. ``cursor``: the cursor factory on ``connection`` to run it with
    (``connection.cursor`` by default)."""
    models = tuple(type(i) for i in instances)
    sql, columns = _INSERTS.get_or_compute(models, lambda: _insert_sql(models, connection))
    params = []
    for instance, fields in zip(instances, columns, strict=True):
        params += [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in fields]
    with (cursor or connection.cursor)() as running:
        running.execute(sql, params)


_INSERTS: Cache[tuple, tuple[str, tuple]] = Cache("sqltemplate.inserts", max_items=64, pure=True)


def _insert_sql(models: tuple[type[Model], ...], connection) -> tuple[str, tuple]:
    quote = connection.ops.quote_name
    statements, columns = [], []
    for model in models:
        fields = tuple(
            f
            for f in _columns(model)
            if not (f.primary_key and f.get_internal_type() in _AUTO_KEYS)
            and not getattr(f, "generated", False)
        )
        names = ", ".join(quote(f.column) for f in fields)
        values = ", ".join(["%s"] * len(fields))
        statements.append(f"INSERT INTO {quote(model._meta.db_table)} ({names}) VALUES ({values})")
        columns.append(fields)
    # Data-modifying statements in WITH all run, once each: one round trip for all rows.
    first = [f"i{n} AS ({sql})" for n, sql in enumerate(statements[:-1])]
    sql = (f"WITH {', '.join(first)} " if first else "") + statements[-1]
    return sql, tuple(columns)


_AUTO_KEYS = frozenset({"AutoField", "BigAutoField", "SmallAutoField"})  # the database assigns


def _columns(model: type[Model]) -> tuple:
    """``model``'s fields that are columns of its table, in the order ``Model.from_db``
    takes their values (the documented ``_meta`` API: forward fields first)."""
    return tuple(f for f in model._meta.get_fields() if f.concrete and not f.many_to_many)


def uuid_array(ids: Sequence[uuid.UUID]) -> str:
    """``ids`` as one ``uuid[]`` literal: a single parameter however many ids there are."""
    return "{" + ",".join(str(i) for i in ids) + "}"


def pk_in_array(placeholders: Placeholders, name: str) -> Q:
    """The row's primary key is among the ids of placeholder ``name`` (a ``uuid_array``
    literal): the shape does not depend on how many ids there are."""
    return Q(pk__in=RawSQL("SELECT unnest(%s::uuid[])", [placeholders.text(name)]))


def read_connection():
    """The connection reads go to now (the database router's choice: a replica that has
    replayed this subject's writes inside ``core.db_router.replica_reads``)."""
    return connections[router.db_for_read(None)]


def _constants_written(
    sql: str, params: tuple, slots: tuple[tuple[int, str], ...]
) -> tuple[str, tuple[str, ...]]:
    """``sql`` with each parameter that is not a placeholder (``slots``: position, name)
    written in as its literal (psycopg's quoting, a percent sign escaped for the
    parameters still to come), and the names of the parameters left, in order."""
    names = dict(slots)
    position = 0
    left: list[str] = []

    def written(match: re.Match) -> str:
        nonlocal position
        if match.group() == "%%":
            return "%%"
        at, position = position, position + 1
        if at in names:
            left.append(names[at])
            return "%s"
        return psycopg_sql.Literal(params[at]).as_string(None).replace("%", "%%")

    text = _PARAMETER_OR_PERCENT.sub(written, sql)
    if position != len(params):  # never for the ORM's SQL: one %s per parameter
        raise TemplateError(f"{position} parameter places for {len(params)} parameters")
    return text, tuple(left)


def _recall_compiled_queries() -> bool:
    return settings.ENGRAM_RETRIEVAL["COMPILED_QUERIES"]


def _holds_placeholder(value: Any) -> bool:
    if isinstance(value, str):
        return _MARK in value
    if isinstance(value, list | tuple):
        return any(_holds_placeholder(v) for v in value)
    return isinstance(value, uuid.UUID) and value.int >> 96 == _UUID_MARK


def _placeholder_name(placeholders: Placeholders, value: Any) -> str | None:
    try:
        return placeholders.by_value.get(value)
    except TypeError:  # an unhashable parameter (a list): never a placeholder
        return None
