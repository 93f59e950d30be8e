from django.apps import AppConfig


class MemoryConfig(AppConfig):
    name = "memory"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Wire the retrieval side into the lifecycle side: its derived stores join the
        # deletion workflow, and the operations page shows its index lag.
        from memory import ops_views
        from memory.services import derived_stores, indexing

        derived_stores.register()
        ops_views.index_lag_provider = indexing.index_lag
