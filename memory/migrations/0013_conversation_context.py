# Conversation context of a memory (memory.neighbourhood): the preceding turn's words
# in the lexical doc, and which turn was used, on the lexical doc and the embedding.

import django.contrib.postgres.indexes
import django.contrib.postgres.search
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
        ("memory", "0012_idempotency_keys"),
    ]

    operations = [
        migrations.AddField(
            model_name="memoryembedding",
            name="context_event_id",
            field=models.UUIDField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="memorysearchdoc",
            name="context_event_id",
            field=models.UUIDField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="memorysearchdoc",
            name="context_text",
            field=models.TextField(blank=True, default=""),
        ),
        migrations.AddField(
            model_name="memorysearchdoc",
            name="context_vector",
            field=models.GeneratedField(
                db_persist=True,
                expression=django.contrib.postgres.search.SearchVector(
                    "context_text", config="english"
                ),
                output_field=django.contrib.postgres.search.SearchVectorField(),
            ),
        ),
        migrations.AddIndex(
            model_name="memoryembedding",
            index=models.Index(
                fields=["tenant", "context_event_id"], name="memory_embedding_ctx_event"
            ),
        ),
        migrations.AddIndex(
            model_name="memorysearchdoc",
            index=django.contrib.postgres.indexes.GinIndex(
                fields=["context_vector"], name="memory_search_doc_ctx_fts"
            ),
        ),
        migrations.AddIndex(
            model_name="memorysearchdoc",
            index=models.Index(
                fields=["tenant", "context_event_id"], name="memory_search_doc_ctx_event"
            ),
        ),
    ]
