"""Stored lexical docs get the trigram text rule of ``memory.lexical.trigram_text``: a
space where Chinese script meets Latin letters or digits, so an id inside Chinese text
is a word of its own for pg_trgm. Derived data only; records are untouched.

Tables are under row-level security (FORCE, also for the owner): each tenant's docs are
rewritten with that tenant set (and named, for a superuser, whom row-level security does
not restrict), tenants listed by the SECURITY DEFINER lookup."""

from django.db import migrations

CJK = "[\u3400-\u9fff\uf900-\ufaff]"

REWRITE_SQL = f"""
UPDATE memory_memorysearchdoc
SET trigram_text = regexp_replace(
    regexp_replace(trigram_text, '({CJK})([a-z0-9])', '\\1 \\2', 'g'),
    '([a-z0-9])({CJK})', '\\1 \\2', 'g'
)
WHERE tenant_id = %s AND trigram_text ~ '{CJK}[a-z0-9]|[a-z0-9]{CJK}'
"""


def rewrite(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT id FROM engram_tenant_ids()")
        for (tenant_id,) in cursor.fetchall():
            cursor.execute("SELECT set_config('engram.tenant_id', %s, true)", [str(tenant_id)])
            cursor.execute(REWRITE_SQL, [tenant_id])
        cursor.execute("SELECT set_config('engram.tenant_id', '', true)")


class Migration(migrations.Migration):
    dependencies = [("memory", "0008_embedding_index")]

    operations = [migrations.RunPython(rewrite, migrations.RunPython.noop)]
