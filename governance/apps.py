from django.apps import AppConfig


class GovernanceConfig(AppConfig):
    name = "governance"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Registers the OpenAPI extension for API-key authentication.
        from governance.api import schema  # noqa: F401
