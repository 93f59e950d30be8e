# Row-level security on the lifecycle tables (they carry tenant_id), and one SECURITY
# DEFINER lookup for the periodic jobs: the list of tenant ids (ids only), which a worker
# running as the application role could not otherwise see before choosing a tenant.
from django.db import migrations

from memory.migrations import _rls as rls

TENANT_IDS_SQL = """CREATE OR REPLACE FUNCTION engram_tenant_ids() RETURNS TABLE(id uuid)
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS
    $$ SELECT id FROM accounts_tenant ORDER BY created_at, id $$"""


def forwards(apps, schema_editor):
    rls.apply_all(schema_editor)
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(TENANT_IDS_SQL)


def backwards(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("DROP FUNCTION IF EXISTS engram_tenant_ids()")


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0004_lifecycle"),
        ("governance", "0004_rls_refresh"),
    ]
    operations = [migrations.RunPython(forwards, backwards)]
