"""The client's hand-written models against the server's OpenAPI schema (generated in
process from the views): a field added, removed or made optional on either side fails here."""

from __future__ import annotations

import dataclasses

import pytest
from drf_spectacular.generators import SchemaGenerator
from engramhq_client import models


@pytest.fixture(scope="module")
def components() -> dict:
    return SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"]


@pytest.mark.parametrize(
    "model, name", list(models.SCHEMA_COMPONENTS.items()), ids=lambda x: getattr(x, "__name__", x)
)
def test_model_matches_schema_component(components, model, name):
    component = components[name]
    fields = {f.name: f for f in dataclasses.fields(model)}
    names = set(fields) - set(getattr(model, "_client_only", ()))
    assert names == set(component["properties"]), f"{model.__name__} drifted from {name}"
    required = set(component.get("required", []))
    if name.endswith("Request"):
        # A request field without a default must be one the server requires, and back.
        no_default = {
            n
            for n, f in fields.items()
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        }
        no_default |= set(getattr(model, "_client_filled", ()))
        assert no_default == required, f"{model.__name__}: required fields differ from {name}"
    else:
        assert names == required, f"{name} has optional fields the model would miss"


def test_every_operation_has_a_client_method():
    from engramhq_client import AsyncEngramClient, AsyncSubjectClient, EngramClient, SubjectClient

    schema = SchemaGenerator().get_schema(request=None, public=True)
    operations = {op["operationId"] for path in schema["paths"].values() for op in path.values()}
    implemented = {
        "events_append": (SubjectClient, "append_events"),
        "candidates_submit": (SubjectClient, "submit_candidates"),
        "memory_list": (SubjectClient, "list_memories"),
        "memory_retrieve": (SubjectClient, "get_memory"),
        "memory_delete": (SubjectClient, "delete"),
        "memory_retract": (SubjectClient, "retract"),
        "memory_supersede": (SubjectClient, "supersede"),
        "recall": (SubjectClient, "recall"),
        "recall_feedback": (SubjectClient, "recall_feedback"),
        "procedure_retrieve": (EngramClient, "get_procedure"),
        "procedure_change_request_create": (EngramClient, "propose_procedure_change"),
        "procedure_change_request_retrieve": (EngramClient, "get_change_request"),
        "subject_token_issue": (EngramClient, "issue_subject_token"),
        "subject_erase": (SubjectClient, "erase"),
        "subject_export": (SubjectClient, "export"),
        "memory_history": (SubjectClient, "history"),
        "conversation_turn": (SubjectClient, "add"),
        "memory_slots_write": (SubjectClient, "put_slots"),
        "memory_slots_lookup": (SubjectClient, "get_slots"),
        "working_put": (SubjectClient, "working_put"),
        "working_get": (SubjectClient, "working_get"),
        "working_delete": (SubjectClient, "working_delete"),
        "working_list": (SubjectClient, "working_list"),
        "thread_close": (SubjectClient, "close_thread"),
    }
    assert operations == set(implemented), "a new API operation needs a client method"
    twins = {SubjectClient: AsyncSubjectClient, EngramClient: AsyncEngramClient}
    for cls, method in implemented.values():
        assert callable(getattr(cls, method))
        assert callable(getattr(twins[cls], method)), f"no async {method}"
