"""OpenAPI: our API-key authentication, and the post-processing that keeps the schema
strict (``openapi-spec-validator`` passes, typed clients generated from it compile).

``strict_schema`` (a drf-spectacular post-processing hook, see SPECTACULAR_SETTINGS):

- documents on every operation the answers any request can get besides its own: 429
  (``rate_limited``, with ``retry_after_seconds``), 431 (``header_too_large``) and 503
  (``database_unavailable``, with ``retry_after_seconds``), all in the one error shape;
- puts every ``default`` where it is valid: drf-spectacular describes an ``allow_blank``
  field as ``oneOf: [{pattern …, default: ""}, {maxLength: 0}]``, so the default sits on
  the alternative that refuses it; it moves up to the property, whose ``oneOf`` accepts
  it. A default that still does not fit its own ``pattern`` or ``enum`` fails the schema
  build (a bug to fix, not to publish);
- states the defaults of request fields in words instead of ``default``: a client may omit
  such a field, but generators such as ``openapi-typescript`` (default options) type a
  field that has a ``default`` as always present, so a request that omits it would not
  compile. Responses keep theirs (the server always fills them in).
"""

from __future__ import annotations

import json
import re
from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class ApiKeyAuthenticationScheme(OpenApiAuthenticationExtension):
    target_class = "memory.api.authentication.ApiKeyAuthentication"
    name = "AgentApiKey"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "bearerFormat": "egk_<prefix>_<secret>",
            "description": "An agent API key. Subject-scoped calls also need X-Engram-Subject-Token.",
        }


ERROR_REF = {"$ref": "#/components/schemas/Error"}
COMMON_ERRORS = {
    "429": "Rate limited (code rate_limited): wait extra.retry_after_seconds, then retry.",
    "431": "A header, or all headers together, are too large (code header_too_large).",
    "503": (
        "Engram cannot serve the request right now (code database_unavailable): retry after "
        "extra.retry_after_seconds."
    ),
}
HTTP_METHODS = ("get", "put", "post", "delete", "patch", "head", "options")


class SchemaDefaultInvalid(Exception):
    pass


def _hoist_defaults(node: Any) -> None:
    """Move defaults from ``oneOf``/``anyOf`` alternatives up to the node holding them."""
    if isinstance(node, list):
        for item in node:
            _hoist_defaults(item)
        return
    if not isinstance(node, dict):
        return
    for value in node.values():
        _hoist_defaults(value)
    for combinator in ("oneOf", "anyOf"):
        for alternative in node.get(combinator) or ():
            if isinstance(alternative, dict) and "default" in alternative:
                default = alternative.pop("default")
                node.setdefault("default", default)


def _check_defaults(name: str, node: Any) -> None:
    if isinstance(node, list):
        for item in node:
            _check_defaults(name, item)
        return
    if not isinstance(node, dict):
        return
    if "default" in node:
        default, pattern, enum = node["default"], node.get("pattern"), node.get("enum")
        if isinstance(default, str) and pattern and not re.search(pattern, default):
            raise SchemaDefaultInvalid(f"{name}: default {default!r} does not match {pattern!r}")
        if enum is not None and default not in enum:
            raise SchemaDefaultInvalid(f"{name}: default {default!r} is not in its enum")
    for value in node.values():
        _check_defaults(name, value)


def _defaults_in_words(node: Any) -> None:
    if isinstance(node, list):
        for item in node:
            _defaults_in_words(item)
        return
    if not isinstance(node, dict):
        return
    for prop in (node.get("properties") or {}).values():
        if isinstance(prop, dict) and "default" in prop:
            default = json.dumps(prop.pop("default"), ensure_ascii=False)
            words = f"Default when omitted: {default}."
            prop["description"] = (
                f"{prop['description']} {words}" if prop.get("description") else words
            )
    for value in node.values():
        _defaults_in_words(value)


def _request_components(result: dict[str, Any]) -> set[str]:
    """Components used by request bodies only (drf-spectacular's COMPONENT_SPLIT_REQUEST
    names them ``…Request``), with the components they refer to."""
    schemas = result.get("components", {}).get("schemas", {})
    names = {n for n in schemas if n.endswith("Request")}
    pending = list(names)
    while pending:
        for ref in re.findall(r"#/components/schemas/(\w+)", json.dumps(schemas[pending.pop()])):
            if ref not in names and ref in schemas:
                names.add(ref)
                pending.append(ref)
    return names


def strict_schema(result: dict[str, Any], generator, request, public) -> dict[str, Any]:
    schemas = result.get("components", {}).get("schemas", {})
    for name, schema in schemas.items():
        _hoist_defaults(schema)
        _check_defaults(name, schema)
    for name in _request_components(result):
        _defaults_in_words(schemas[name])
    for path_item in result.get("paths", {}).values():
        for method, operation in path_item.items():
            if method not in HTTP_METHODS:
                continue
            responses = operation.setdefault("responses", {})
            for status, description in COMMON_ERRORS.items():
                responses.setdefault(
                    status,
                    {
                        "description": description,
                        "content": {"application/json": {"schema": ERROR_REF}},
                    },
                )
    return result
