"""The records recall loads for its candidates (``signals.load_records``, read in
PostgreSQL's binary form) are the ORM's records: every field as ``objects.get`` gives it,
with the sources, speakers and vector state recall needs — and only the request's
tenant's."""

from __future__ import annotations

import pytest

from core.tenancy import tenant_context
from memory.models import MemoryRecord
from memory.recall.signals import load_records
from memory.selectors import active_model_id
from tests.helpers.conversation import converse
from tests.helpers.retrieval import remember


@pytest.mark.parametrize(
    "value",
    ["Hangzhou", {"city": "杭州", "since": 2021}, ["tea", "chess"], 42, 3.5, True, None],
    ids=["text", "object", "list", "int", "float", "bool", "none"],
)
def test_loaded_records_are_the_orms_field_for_field(read_agent, owner_subject, value):
    outcome = remember(
        owner_subject,
        "User keeps a note of their favourite things",
        predicate="favourite_things",
        value=value,
        embed=value is None,
    )
    assert outcome.record_id is not None, outcome
    with tenant_context(owner_subject.tenant_id):
        [loaded] = load_records(
            [outcome.record_id], with_speakers=True, model_id=active_model_id()
        ).values()
        expected = MemoryRecord.objects.get(pk=outcome.record_id)
    for field in MemoryRecord._meta.concrete_fields:
        assert getattr(loaded, field.attname) == getattr(expected, field.attname), field.name
        assert type(getattr(loaded, field.attname)) is type(getattr(expected, field.attname))
    assert loaded._state.db == expected._state.db and not loaded._state.adding
    assert loaded.has_vector is (value is None)
    assert loaded.source_speakers == [] and isinstance(loaded.source_event_ids, list)


def test_loaded_records_carry_their_events_and_speakers(
    write_agent, owner_subject, other_tenant_user
):
    [rid] = converse(write_agent.agent, owner_subject, [("Caroline", "I went camping by the lake")])
    with tenant_context(owner_subject.tenant_id):
        [record] = load_records([rid], with_speakers=True, model_id="").values()
        assert not hasattr(record, "has_vector")
        assert record.source_speakers == ["Caroline"] and len(record.source_event_ids) == 1
    # Another tenant's transaction loads nothing of it.
    with tenant_context(other_tenant_user[1].tenant_id):
        assert load_records([rid], with_speakers=True) == {}
