# Re-apply row-level security (idempotent): the membership lookup now also returns the
# tenants' names for the tenant switcher. Later migrations that add tenant tables do the same.
from django.db import migrations

from governance.migrations import _rls as rls


def forwards(apps, schema_editor):
    rls.apply_all(schema_editor)


class Migration(migrations.Migration):
    dependencies = [("governance", "0003_row_level_security")]
    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
