# AuditEvent now lives in the core app (core/migrations/0001_initial.py). State only: the
# table, its indexes and its append-only trigger stay exactly where they are.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("governance", "0004_rls_refresh"),
        ("core", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[migrations.DeleteModel(name="AuditEvent")],
        ),
    ]
