"""Every SECURITY DEFINER function gets ``search_path = pg_catalog, public, pg_temp`` and
EXECUTE for the application role only (core/rls.py ``harden_security_definers``; raw SQL
because Django has no declarative function privileges). Reversal leaves them hardened."""

from django.db import migrations

from memory.migrations import _rls as rls


def forwards(apps, schema_editor):
    from core.rls import harden_security_definers

    with schema_editor.connection.cursor() as cursor:
        harden_security_definers(cursor, rls.app_role())


class Migration(migrations.Migration):
    dependencies = [("memory", "0020_event_ids_per_subject")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
