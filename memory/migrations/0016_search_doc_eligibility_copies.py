"""Lexical docs keep copies of what recall's eligibility filter reads of their record
(``memory.models.records.RECALL_ELIGIBILITY_FIELDS``), kept by two triggers: the doc's
copies them from the record on every insert and update of the doc, the record's sends
each change of them to the doc. Existing docs are filled here.

Tables are under row-level security (FORCE, also for the owner): each tenant's docs are
filled with that tenant set (and named, for a superuser, whom row-level security does not
restrict), tenants listed by the SECURITY DEFINER lookup (as in 0009).

``engram_search_docs_matching`` finds a scope's docs that match a full-text query through
the full-text indexes: under row-level security PostgreSQL never uses an index for ``@@``
(not leakproof, so it may not run before the policy's condition), and recall's lexical
route read every doc of a large subject. The function is the policy by hand: it returns
the docs of the transaction's tenant (``engram_current_tenant()``, as the policy) and
nothing else, so it shows the application role nothing row-level security would hide.
It plans each call with its values (``EXECUTE``): a subject's own docs for a small one,
the indexes for a large one. ``engram_search_docs_regex`` and ``engram_search_docs_similar``
do the same for the trigram index (a regular expression, word similarity)."""

import pgtrigger.compiler
import pgtrigger.migrations
from django.db import migrations, models

from memory.migrations import _rls as rls

COPIED = (
    "purpose",
    "sensitivity",
    "memory_type",
    "namespace",
    "predicate",
    "valid_from",
    "valid_to",
    "recorded_at",
    "status",
    "superseded_at",
    "expires_at",
)
FILL_SQL = (
    "UPDATE memory_memorysearchdoc d SET "
    + ", ".join(f"{name} = r.{name}" for name in COPIED)
    + " FROM memory_memoryrecord r WHERE r.id = d.record_id AND d.tenant_id = %s"
)


# The columns the lexical route reads of a doc (``memory.recall.routes``), with their types.
MATCHED_COLUMNS = {
    "record_id": "uuid",
    "tenant_id": "uuid",
    "subject_id": "uuid",
    "search_vector": "tsvector",
    "context_vector": "tsvector",
    "purpose": "varchar",
    "sensitivity": "varchar",
    "memory_type": "varchar",
    "namespace": "varchar",
    "predicate": "varchar",
    "valid_from": "timestamptz",
    "valid_to": "timestamptz",
    "recorded_at": "timestamptz",
    "status": "varchar",
    "superseded_at": "timestamptz",
    "expires_at": "timestamptz",
}
MATCHING_SQL = f"""
CREATE OR REPLACE FUNCTION engram_search_docs_matching(subjects uuid[], query tsquery)
RETURNS TABLE ({", ".join(f"{name} {kind}" for name, kind in MATCHED_COLUMNS.items())})
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public AS $$
BEGIN
    RETURN QUERY EXECUTE
        'SELECT {", ".join(MATCHED_COLUMNS)} FROM memory_memorysearchdoc'
        ' WHERE tenant_id = engram_current_tenant() AND subject_id = ANY($1)'
        ' AND (search_vector @@ $2 OR context_vector @@ $2)'
        USING subjects, query;
END $$"""

# The trigram route's two searches (``memory.recall.routes._trigram_rows``): the docs whose
# text matches a regular expression, and those holding a word at least ``threshold``
# similar to ``word`` (pg_trgm's ``<%``, whose threshold is a setting: set for the search,
# then put back).
TRIGRAM_COLUMNS = "record_id uuid, tenant_id uuid, subject_id uuid, trigram_text text"
REGEX_SQL = f"""
CREATE OR REPLACE FUNCTION engram_search_docs_regex(subjects uuid[], pattern text)
RETURNS TABLE ({TRIGRAM_COLUMNS})
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public AS $$
BEGIN
    RETURN QUERY EXECUTE
        'SELECT record_id, tenant_id, subject_id, trigram_text FROM memory_memorysearchdoc'
        ' WHERE tenant_id = engram_current_tenant() AND subject_id = ANY($1)'
        ' AND trigram_text ~ $2'
        USING subjects, pattern;
END $$"""
SIMILAR_SQL = f"""
CREATE OR REPLACE FUNCTION engram_search_docs_similar(subjects uuid[], word text, threshold real)
RETURNS TABLE ({TRIGRAM_COLUMNS})
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public AS $$
DECLARE
    was text := current_setting('pg_trgm.word_similarity_threshold', true);
BEGIN
    PERFORM set_config('pg_trgm.word_similarity_threshold', threshold::text, true);
    RETURN QUERY EXECUTE
        'SELECT record_id, tenant_id, subject_id, trigram_text FROM memory_memorysearchdoc'
        ' WHERE tenant_id = engram_current_tenant() AND subject_id = ANY($1)'
        ' AND $2 <% trigram_text'
        USING subjects, word;
    -- pg_trgm's default when the setting was not loaded yet.
    PERFORM set_config('pg_trgm.word_similarity_threshold', coalesce(was, '0.6'), true);
END $$"""
# (definition, signature): only the application role may call them — they run as the
# owner, past the tables' grants, so no other role that can connect should.
FUNCTIONS = [
    (MATCHING_SQL, "engram_search_docs_matching(uuid[], tsquery)"),
    (REGEX_SQL, "engram_search_docs_regex(uuid[], text)"),
    (SIMILAR_SQL, "engram_search_docs_similar(uuid[], text, real)"),
]


def create_functions(apps, schema_editor):
    role = rls.app_role()
    with schema_editor.connection.cursor() as cursor:
        for definition, signature in FUNCTIONS:
            cursor.execute(definition)
            cursor.execute(f"REVOKE ALL ON FUNCTION {signature} FROM PUBLIC")
            cursor.execute(f"GRANT EXECUTE ON FUNCTION {signature} TO {rls._q(role)}")


def drop_functions(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        for _, signature in FUNCTIONS:
            cursor.execute(f"DROP FUNCTION IF EXISTS {signature}")


def fill(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT id FROM engram_tenant_ids()")
        for (tenant_id,) in cursor.fetchall():
            cursor.execute("SELECT set_config('engram.tenant_id', %s, true)", [str(tenant_id)])
            cursor.execute(FILL_SQL, [tenant_id])
        cursor.execute("SELECT set_config('engram.tenant_id', '', true)")


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0015_recall_eligible_index_and_scope_statistics"),
    ]

    operations = [
        migrations.AddField(
            model_name="memorysearchdoc",
            name="expires_at",
            field=models.DateTimeField(editable=False, null=True),
        ),
        migrations.AddField(
            model_name="memorysearchdoc",
            name="memory_type",
            field=models.CharField(editable=False, max_length=16, null=True),
        ),
        migrations.AddField(
            model_name="memorysearchdoc",
            name="namespace",
            field=models.CharField(editable=False, max_length=300, null=True),
        ),
        migrations.AddField(
            model_name="memorysearchdoc",
            name="predicate",
            field=models.CharField(editable=False, max_length=200, null=True),
        ),
        migrations.AddField(
            model_name="memorysearchdoc",
            name="purpose",
            field=models.CharField(editable=False, max_length=100, null=True),
        ),
        migrations.AddField(
            model_name="memorysearchdoc",
            name="recorded_at",
            field=models.DateTimeField(editable=False, null=True),
        ),
        migrations.AddField(
            model_name="memorysearchdoc",
            name="sensitivity",
            field=models.CharField(editable=False, max_length=16, null=True),
        ),
        migrations.AddField(
            model_name="memorysearchdoc",
            name="status",
            field=models.CharField(editable=False, max_length=24, null=True),
        ),
        migrations.AddField(
            model_name="memorysearchdoc",
            name="superseded_at",
            field=models.DateTimeField(editable=False, null=True),
        ),
        migrations.AddField(
            model_name="memorysearchdoc",
            name="valid_from",
            field=models.DateTimeField(editable=False, null=True),
        ),
        migrations.AddField(
            model_name="memorysearchdoc",
            name="valid_to",
            field=models.DateTimeField(editable=False, null=True),
        ),
        pgtrigger.migrations.AddTrigger(
            model_name="memoryrecord",
            trigger=pgtrigger.compiler.Trigger(
                name="memory_eligibility_to_search_doc",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    condition='WHEN (OLD."expires_at" IS DISTINCT FROM (NEW."expires_at") OR OLD."memory_type" IS DISTINCT FROM (NEW."memory_type") OR OLD."namespace" IS DISTINCT FROM (NEW."namespace") OR OLD."predicate" IS DISTINCT FROM (NEW."predicate") OR OLD."purpose" IS DISTINCT FROM (NEW."purpose") OR OLD."recorded_at" IS DISTINCT FROM (NEW."recorded_at") OR OLD."sensitivity" IS DISTINCT FROM (NEW."sensitivity") OR OLD."status" IS DISTINCT FROM (NEW."status") OR OLD."superseded_at" IS DISTINCT FROM (NEW."superseded_at") OR OLD."valid_from" IS DISTINCT FROM (NEW."valid_from") OR OLD."valid_to" IS DISTINCT FROM (NEW."valid_to"))',
                    func="UPDATE memory_memorysearchdoc SET purpose = NEW.purpose, sensitivity = NEW.sensitivity, memory_type = NEW.memory_type, namespace = NEW.namespace, predicate = NEW.predicate, valid_from = NEW.valid_from, valid_to = NEW.valid_to, recorded_at = NEW.recorded_at, status = NEW.status, superseded_at = NEW.superseded_at, expires_at = NEW.expires_at WHERE record_id = NEW.id; RETURN NULL;",
                    hash="f90b6d5c75343a9c2a076e26c259446790941c70",
                    operation="UPDATE",
                    pgid="pgtrigger_memory_eligibility_to_search_doc_d604e",
                    table="memory_memoryrecord",
                    when="AFTER",
                ),
            ),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.RunPython(create_functions, drop_functions),
        pgtrigger.migrations.AddTrigger(
            model_name="memorysearchdoc",
            trigger=pgtrigger.compiler.Trigger(
                name="search_doc_copies_eligibility",
                sql=pgtrigger.compiler.UpsertTriggerSql(
                    func="SELECT r.purpose, r.sensitivity, r.memory_type, r.namespace, r.predicate, r.valid_from, r.valid_to, r.recorded_at, r.status, r.superseded_at, r.expires_at INTO NEW.purpose, NEW.sensitivity, NEW.memory_type, NEW.namespace, NEW.predicate, NEW.valid_from, NEW.valid_to, NEW.recorded_at, NEW.status, NEW.superseded_at, NEW.expires_at FROM memory_memoryrecord r WHERE r.id = NEW.record_id; RETURN NEW;",
                    hash="3604217eec8a3beb30512d31d868a8dd7019f512",
                    operation="INSERT OR UPDATE",
                    pgid="pgtrigger_search_doc_copies_eligibility_0b41a",
                    table="memory_memorysearchdoc",
                    when="BEFORE",
                ),
            ),
        ),
    ]
