"""The OpenAPI schema is strict: it validates under ``openapi-spec-validator``, every
operation documents the answers any request can get (429, 431, 503) in the one error
shape, error codes are an enum, every default fits its own property, and request fields
carry no ``default`` (typed generators would make them required). The TypeScript side —
``openapi-typescript`` with default options, then ``tsc --strict`` — is
tests/clients/test_typescript.py."""

from __future__ import annotations

import json

import pytest
from drf_spectacular.generators import SchemaGenerator
from openapi_spec_validator import OpenAPIV30SpecValidator

from core.codes import ErrorCode
from memory.api.schema import SchemaDefaultInvalid, strict_schema


@pytest.fixture(scope="module")
def schema() -> dict:
    # Through JSON, as clients read it (UUIDs, lazy strings and the like become text).
    generated = SchemaGenerator().get_schema(request=None, public=True)
    return json.loads(json.dumps(generated, default=str))


def test_validates_under_openapi_spec_validator(schema):
    errors = [e.message for e in OpenAPIV30SpecValidator(schema).iter_errors()]
    assert errors == []


def test_every_operation_documents_429_431_503(schema):
    operations = [
        (path, method, op)
        for path, item in schema["paths"].items()
        for method, op in item.items()
        if method in ("get", "post", "put", "delete", "patch")
    ]
    assert len(operations) > 15
    for path, method, op in operations:
        for status in ("429", "431", "503"):
            response = op["responses"].get(status)
            assert response, (path, method, status)
            ref = response["content"]["application/json"]["schema"]["$ref"]
            assert ref == "#/components/schemas/Error"


def test_error_codes_are_an_enum(schema):
    components = schema["components"]["schemas"]
    code = components["Error"]["properties"]["code"]
    ref = (code.get("allOf") or [code])[0]["$ref"]
    assert set(components[ref.rsplit("/", 1)[1]]["enum"]) == set(ErrorCode)


def _walk(node):
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for item in node:
            yield from _walk(item)


def test_request_fields_state_defaults_in_words(schema):
    components = schema["components"]["schemas"]
    requests = {n: s for n, s in components.items() if n.endswith("Request")}
    assert requests
    for name, component in requests.items():
        for prop, sub in component.get("properties", {}).items():
            assert "default" not in sub, (name, prop)
    predicate = requests["CandidateInputRequest"]["properties"]["predicate"]
    assert 'Default when omitted: ""' in predicate["description"]


def test_a_default_that_does_not_fit_fails_the_build():
    broken = {
        "paths": {},
        "components": {
            "schemas": {"X": {"properties": {"p": {"default": "a b", "pattern": "^\\w+$"}}}}
        },
    }
    with pytest.raises(SchemaDefaultInvalid):
        strict_schema(broken, None, None, True)
    # An allow_blank field as drf-spectacular writes it: the default moves to the oneOf.
    blank = {
        "paths": {},
        "components": {
            "schemas": {
                "Y": {
                    "properties": {
                        "p": {"oneOf": [{"default": "", "pattern": "^\\w+$"}, {"maxLength": 0}]}
                    }
                }
            }
        },
    }
    prop = strict_schema(blank, None, None, True)["components"]["schemas"]["Y"]["properties"]["p"]
    assert prop["default"] == "" and "default" not in prop["oneOf"][0]
