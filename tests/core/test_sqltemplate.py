"""core.sqltemplate: a queryset compiled once per shape returns what the ORM returns for
every value, refuses (and then builds per call) a shape whose values do not reach the
parameters unchanged, and never lets a placeholder reach the database."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.db.models import Q
from django.utils import timezone

from accounts.models import Tenant
from core.sqltemplate import Literals, Placeholders, QueryTemplate, TemplateError
from core.tenancy import tenant_context
from memory.models import MemoryRecord
from memory.recall.scope import Eligible, RecallRequest, RecallScope, eligible_q
from tests.helpers.retrieval import PURPOSE, remember

pytestmark = pytest.mark.django_db


def _tenants(p: Placeholders, with_name: bool):
    q = Q(slug__startswith="t")  # a constant: stays in the SQL's parameters as it is
    if with_name:
        q &= Q(name=p.text("name"))
    return Tenant.objects.filter(q, id=p.uuid("id")).values_list("slug", flat=True)


def test_the_template_returns_what_the_orm_returns_for_each_value():
    a = Tenant.objects.create(slug="ta", name="A")
    b = Tenant.objects.create(slug="tb", name="B")
    template = QueryTemplate(_tenants)
    assert template.rows((True,), {"id": a.id, "name": "A"}) == [("ta",)]
    assert template.rows((True,), {"id": b.id, "name": "B"}) == [("tb",)]
    # The same SQL both times: compiled once.
    assert template.compile((True,)) is template.compile((True,))
    # A wrong value for one placeholder finds nothing (nothing is left bound to the first).
    assert template.rows((True,), {"id": b.id, "name": "A"}) == []
    # Another shape compiles its own SQL.
    assert template.rows((False,), {"id": a.id}) == [("ta",)]
    assert template.compile((False,))[0] != template.compile((True,))[0]


def test_a_transformed_placeholder_makes_its_shape_literal_not_wrong():
    Tenant.objects.create(slug="tx", name="Acme Corp")
    # __contains wraps the value in %…%: the placeholder does not reach the parameters
    # unchanged, so this shape is built with the real values on every call.
    template = QueryTemplate(
        lambda p: Tenant.objects.filter(name__contains=p.text("part")).values_list("slug")
    )
    with pytest.raises(TemplateError):
        template.compile(())
    assert template.rows((), {"part": "Acme"}) == [("tx",)]
    assert template.rows((), {"part": "100%"}) == []  # the ORM escapes %: still no match
    with pytest.raises(TemplateError):  # remembered as literal
        template.compile(())


def test_a_placeholder_used_whole_and_transformed_is_literal_too():
    Tenant.objects.create(slug="ty", name="eu/west")
    # Whole in one parameter, part of another ("eu/%"): both must carry the real value.
    template = QueryTemplate(
        lambda p: Tenant.objects.filter(
            Q(name=p.text("ns")) | Q(name__startswith=p.text("ns") + "/")
        ).values_list("slug")
    )
    with pytest.raises(TemplateError):
        template.compile(())
    assert template.rows((), {"ns": "eu"}) == [("ty",)]


def test_placeholders_are_distinct_typed_and_stable_by_name():
    p = Placeholders()
    u, t, d = p.uuid("u"), p.text("t"), p.datetime("d")
    assert isinstance(u, uuid.UUID) and isinstance(t, str) and d.tzinfo is not None
    assert p.uuid("u") is u and p.uuid("v") != u
    literal = Literals({"u": "real"})
    assert literal.uuid("u") == "real"


def test_the_eligible_template_matches_the_orm_filters_for_every_request_shape(
    read_agent, owner_subject, other_tenant_user
):
    """Steps 1–2 compiled as a template return exactly the records the ORM's own
    ``scope_q`` & ``filter_q`` return, for the request shapes recall sees."""
    mine = [
        remember(owner_subject, "User lives in Hangzhou", predicate="home_city", value="Hangzhou"),
        remember(owner_subject, "User likes oolong tea"),
        remember(
            owner_subject, "User's badge expires soon", valid_to=timezone.now() + timedelta(days=1)
        ),
    ]
    remember(other_tenant_user[1], "Someone else's note")
    now = timezone.now()
    scope = RecallScope(
        owner_subject.tenant_id, owner_subject.id, read_agent.agent.id, read_agent.agent.clearance
    )
    requests = [
        RecallRequest(query="", purpose=PURPOSE),
        RecallRequest(query="", purpose="another purpose"),
        RecallRequest(query="", purpose=PURPOSE, predicates=("home_city",)),
        RecallRequest(query="", purpose=PURPOSE, memory_types=("semantic", "episodic")),
        RecallRequest(query="", purpose=PURPOSE, namespaces=("assistant",)),  # literal shape
        RecallRequest(query="", purpose=PURPOSE, known_at=now - timedelta(days=1)),
        RecallRequest(query="", purpose=PURPOSE, include_future=True),
        RecallRequest(
            query="",
            purpose=PURPOSE,
            valid_during_start=now - timedelta(days=30),
            valid_during_end=now + timedelta(days=1),
        ),
    ]
    template = QueryTemplate(
        lambda p, shape: MemoryRecord.objects.filter(*eligible_q(p, shape)).values_list(
            "id", flat=True
        )
    )
    with tenant_context(owner_subject.tenant_id):
        for request in requests:
            eligible = Eligible.of(scope, request, as_of=now, now=now)
            from_orm = set(eligible.queryset.values_list("id", flat=True))
            from_template = {row[0] for row in template.rows((eligible.shape,), eligible.values)}
            assert from_template == from_orm, request
    # The plain request finds this subject's memories, and only those.
    plain = Eligible.of(scope, requests[0], as_of=now, now=now)
    with tenant_context(owner_subject.tenant_id):
        assert {r[0] for r in template.rows((plain.shape,), plain.values)} == {
            m.record_id for m in mine
        }
