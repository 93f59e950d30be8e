from django.apps import AppConfig


class MemoryConfig(AppConfig):
    name = "memory"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from memory.api import schema  # noqa: F401  (registers the OpenAPI auth extension)
