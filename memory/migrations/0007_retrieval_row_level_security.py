# Row-level security on the retrieval tables (search docs, embeddings, recall traces):
# rls.apply_all is idempotent and covers every table with a tenant_id.
from django.db import migrations

from memory.migrations import _rls as rls


def forwards(apps, schema_editor):
    rls.apply_all(schema_editor)


class Migration(migrations.Migration):
    dependencies = [("memory", "0006_retrieval")]
    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
