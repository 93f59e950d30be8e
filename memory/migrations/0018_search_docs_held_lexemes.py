"""``engram_search_docs_held`` takes the place of ``engram_search_docs_matching`` (0016) in
the lexical route of a large scope (``memory.recall.routes.route_lexical``): it finds the
scope's docs that match the question through the full-text indexes as that one did, and
returns for each, instead of its two text vectors, which of the question's lexemes its
own words and its context hold (bit ``i`` of ``own`` and ``ctx`` for ``lexemes[i + 1]``)
and its BM25 length (``length(search_vector) + context_weight * length(context_vector)``),
next to the copies of its record's columns that recall's eligibility filter reads.

A function's rows are written out whole before the statement reads them: at 50,000 turns
a question's ~8,500 matches with their vectors cost about a quarter of the lexical route.
Like 0016's, it runs as the owner, returns the transaction's tenant's docs and nothing
else (the row-level security policy's condition, by hand), and only the application role
may call it.

``engram_search_docs_matching`` stays for now: a web process still running the code before
this migration (an upgrade in progress) calls it. A later migration drops it."""

from importlib import import_module

from django.db import migrations

from memory.migrations import _rls as rls

# The columns 0016's function returns, but the two text vectors: the doc and the copies of
# its record's columns that recall's eligibility filter reads.
COPIED_COLUMNS = {
    name: kind
    for name, kind in import_module(
        "memory.migrations.0016_search_doc_eligibility_copies"
    ).MATCHED_COLUMNS.items()
    if kind != "tsvector"
}
# int8 bit masks: at most this many lexemes (the route asks for no more:
# ``memory.recall.routes.MAX_LEXEMES``).
MAX_LEXEMES = 62
HELD_SQL = f"""
CREATE OR REPLACE FUNCTION engram_search_docs_held(
    subjects uuid[], query tsquery, lexemes tsquery[], context_weight float8
)
RETURNS TABLE (
    {", ".join(f"{name} {kind}" for name, kind in COPIED_COLUMNS.items())},
    own int8, ctx int8, len float8
)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public AS $$
DECLARE
    own_sql text := '0::int8';
    ctx_sql text := '0::int8';
BEGIN
    IF coalesce(array_length(lexemes, 1), 0) > {MAX_LEXEMES} THEN
        RAISE EXCEPTION 'at most {MAX_LEXEMES} lexemes, not %', array_length(lexemes, 1);
    END IF;
    FOR i IN 1 .. coalesce(array_length(lexemes, 1), 0) LOOP
        own_sql := own_sql || format(
            ' + CASE WHEN search_vector @@ $3[%s] THEN %s::int8 ELSE 0 END', i, 1::int8 << (i - 1)
        );
        ctx_sql := ctx_sql || format(
            ' + CASE WHEN context_vector @@ $3[%s] THEN %s::int8 ELSE 0 END', i, 1::int8 << (i - 1)
        );
    END LOOP;
    RETURN QUERY EXECUTE
        'SELECT {", ".join(COPIED_COLUMNS)}, ' || own_sql || ', ' || ctx_sql
        || ', length(search_vector) + $4 * coalesce(length(context_vector), 0)'
        ' FROM memory_memorysearchdoc'
        ' WHERE tenant_id = engram_current_tenant() AND subject_id = ANY($1)'
        ' AND (search_vector @@ $2 OR context_vector @@ $2)'
        USING subjects, query, lexemes, context_weight;
END $$"""
HELD_SIGNATURE = "engram_search_docs_held(uuid[], tsquery, tsquery[], float8)"


def create_held(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(HELD_SQL)
        cursor.execute(f"REVOKE ALL ON FUNCTION {HELD_SIGNATURE} FROM PUBLIC")
        cursor.execute(f"GRANT EXECUTE ON FUNCTION {HELD_SIGNATURE} TO {rls._q(rls.app_role())}")


def drop_held(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(f"DROP FUNCTION IF EXISTS {HELD_SIGNATURE}")


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0017_embedding_scope_ids_and_read_only_vectors"),
    ]

    operations = [migrations.RunPython(create_held, drop_held)]
