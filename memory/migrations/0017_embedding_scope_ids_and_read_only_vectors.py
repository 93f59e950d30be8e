"""Recall keeps a scope's vectors in process memory (memory/recall/vector_cache.py) and
checks, in every recall's own transaction, that they are still the scope's by the ids of
its embedding rows: ``memory_embedding_scope`` gains ``id`` as its last column, so those
ids come in order from the index alone. A row's vector and record may no longer change
(a trigger refuses it), so the same id is always the same vector; nothing updated them."""

import pgtrigger.compiler
import pgtrigger.migrations
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0001_initial'),
        ('memory', '0016_search_doc_eligibility_copies'),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name='memoryembedding',
            name='memory_embedding_scope',
        ),
        migrations.AddIndex(
            model_name='memoryembedding',
            index=models.Index(fields=['tenant', 'subject', 'model_id', 'id'], name='memory_embedding_scope'),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name='memoryembedding',
            trigger=pgtrigger.compiler.Trigger(name='embedding_vector_read_only', sql=pgtrigger.compiler.UpsertTriggerSql(func="IF NEW.vector IS DISTINCT FROM OLD.vector OR NEW.record_id IS DISTINCT FROM OLD.record_id THEN RAISE EXCEPTION 'an embedding row''s vector and record never change: store a new row'; END IF; RETURN NEW;", hash='95b4545b88b6442523bf793347e93c14128bd875', operation='UPDATE', pgid='pgtrigger_embedding_vector_read_only_3d754', table='memory_memoryembedding', when='BEFORE')),
        ),
    ]
