"""core.sqltemplate's ``sql_with_constants``: the ORM's constants written into the SQL as
literals and only the request's values left as parameters; run, it returns what
``sql_with_params`` returns, for any constant (quotes, percent signs, backslashes, other
scripts) and any value."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.models import Q
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from accounts.models import Tenant
from core.sqltemplate import Placeholders, QueryTemplate

pytestmark = pytest.mark.django_db


def _run(sql: str, params: list) -> list:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return sorted(cursor.fetchall())


def _tenants(p: Placeholders, constant: str):
    """The shape is the constant: each its own SQL, the constant among the parameters."""
    return Tenant.objects.filter(
        Q(name=constant) | Q(slug__startswith=constant) | Q(name=p.text("name")),
        ~Q(id=p.uuid("not")),
    ).values_list("slug", flat=True)


TENANTS = QueryTemplate(_tenants)


def test_constants_are_written_in_and_values_stay_parameters():
    Tenant.objects.create(slug="t1", name="Acme 100% 'real'")
    Tenant.objects.create(slug="t2", name="Other")
    shape = ("Acme 100% 'real'",)
    values = {"name": "Other", "not": Tenant.objects.get(slug="t1").id}
    sql, params = TENANTS.sql_with_constants(shape, values)
    assert params == ["Other", values["not"]]
    assert "'Acme 100%% ''real'''" in sql
    assert _run(sql, params) == _run(*TENANTS.sql_with_params(shape, values)) == [("t2",)]
    # Written once per shape: the same text again.
    assert TENANTS.sql_with_constants(shape, values)[0] is sql


def test_with_templates_off_the_reference_sql(settings):
    settings.ENGRAM_RETRIEVAL = {**settings.ENGRAM_RETRIEVAL, "COMPILED_QUERIES": False}
    values = {"name": "y", "not": Tenant.objects.create(slug="t3", name="z").id}
    assert TENANTS.sql_with_constants(("x",), values) == TENANTS.sql_with_params(("x",), values)


@hypothesis_settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    constant=st.text(
        alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
        max_size=12,
    ),
    name=st.text(
        alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
        max_size=12,
    ),
)
def test_any_constant_returns_what_the_parameters_return(constant, name):
    Tenant.objects.get_or_create(
        slug="s-" + str(abs(hash(constant)))[:12], defaults={"name": constant}
    )
    Tenant.objects.get_or_create(slug="n-" + str(abs(hash(name)))[:12], defaults={"name": name})
    values = {"name": name, "not": Tenant.objects.order_by("slug").first().id}
    written = TENANTS.sql_with_constants((constant,), values)
    assert _run(*written) == _run(*TENANTS.sql_with_params((constant,), values))
