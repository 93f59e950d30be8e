"""OpenAPI description of our API-key authentication (drf-spectacular)."""

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
