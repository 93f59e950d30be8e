"""OpenAPI (drf-spectacular) description of Engram's API-key authentication, so the schema
validates with --fail-on-warn. Imported by the API modules that need it."""

from __future__ import annotations

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class ApiKeyAuthenticationScheme(OpenApiAuthenticationExtension):
    target_class = "accounts.authentication.ApiKeyAuthentication"
    name = "ApiKeyAuth"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "bearerFormat": "egk_<prefix>_<secret>",
            "description": "An agent API key: 'Authorization: Bearer egk_…'.",
        }
