# Row-level security on every tenant-owned table, the application role and the two
# SECURITY DEFINER lookups. Raw SQL because Django has no declarative RLS; see
# core/rls.py for the design. Later migrations that add tenant tables call
# rls.apply_all again (it is idempotent).
from django.db import migrations

from governance.migrations import _rls as rls


def forwards(apps, schema_editor):
    rls.apply_all(schema_editor)


def backwards(apps, schema_editor):
    rls.remove_all(schema_editor)


class Migration(migrations.Migration):
    dependencies = [
        ("governance", "0002_procedural_documents_change_requests"),
        ("accounts", "0001_initial"),
        ("memory", "0003_active_content_index"),
    ]
    operations = [migrations.RunPython(forwards, backwards)]
