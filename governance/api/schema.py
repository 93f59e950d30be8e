"""OpenAPI description of the API-key authentication (drf-spectacular extension).

Lives here because the governance API needed it for ``spectacular --fail-on-warn``; it
describes ``accounts.authentication.ApiKeyAuthentication`` for every app's views and
belongs in accounts/ if that app grows a schema module (move it, don't duplicate it).
"""

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class ApiKeyAuthenticationScheme(OpenApiAuthenticationExtension):
    target_class = "accounts.authentication.ApiKeyAuthentication"
    name = "ApiKey"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "bearerFormat": "egk_<prefix>_<secret>",
            "description": "An agent's API key from the tenant admin console.",
        }
