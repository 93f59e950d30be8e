# The PostgreSQL extensions Engram needs, created before any model that uses them:
# vector (pgvector embeddings), pg_trgm (names, ids, error codes), btree_gist (the
# exclusion constraint on single-valued facts mixes equality and range overlap).
from django.contrib.postgres.operations import BtreeGistExtension, TrigramExtension
from django.db import migrations
from pgvector.django import VectorExtension


class Migration(migrations.Migration):
    initial = True
    dependencies = []
    operations = [VectorExtension(), TrigramExtension(), BtreeGistExtension()]
