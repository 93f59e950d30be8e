-- Hash-partition Engram's largest tables by tenant_id, in place, keeping every index,
-- constraint, foreign key, row-level security policy, trigger and grant.
--
--   psql "$DATABASE_OWNER_URL" -v modulus=16 -f deploy/partitioning/partition_by_tenant.sql
--
-- Run as the owner, in a maintenance window (each table is copied under an exclusive
-- lock), after a backup, and first on a restored copy (tests/ops/test_cluster.py does
-- exactly that). What changes (PostgreSQL requires the partition key in every unique
-- constraint of a partitioned table):
--   * primary keys and unique constraints/indexes gain tenant_id as their first column;
--   * foreign keys INTO a converted table become (tenant_id, x_id) -> (tenant_id, id);
--   * row-level security is enabled, forced and given the same policies on the parent AND
--     on every partition (a partition queried directly does not apply the parent's).
-- Django keeps `id` as the model's primary key (it never reads the database constraint),
-- so the application does not change.

\set ON_ERROR_STOP on
\if :{?modulus}
\else
  \set modulus 16
\endif

CREATE OR REPLACE PROCEDURE engram_partition_by_tenant(tbl text, modulus int)
LANGUAGE plpgsql AS $proc$
DECLARE
  old text := tbl || '_unpartitioned';
  rec record;
  cols text;
  def text;
  part text;
  i int;
BEGIN
  IF EXISTS (SELECT 1 FROM pg_partitioned_table WHERE partrelid = tbl::regclass) THEN
    RAISE NOTICE '% is already partitioned', tbl;
    RETURN;
  END IF;

  -- 1. What the table has, before anything moves.
  CREATE TEMP TABLE _constraints ON COMMIT DROP AS
    SELECT conname, contype, pg_get_constraintdef(oid) AS def
      FROM pg_constraint
     -- conparentid: constraints a foreign key to a partitioned table cloned per partition
     WHERE conrelid = tbl::regclass AND conparentid = 0;
  CREATE TEMP TABLE _indexes ON COMMIT DROP AS
    SELECT pg_get_indexdef(i.indexrelid) AS def, i.indisunique
      FROM pg_index i
     WHERE i.indrelid = tbl::regclass
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid);
  CREATE TEMP TABLE _incoming ON COMMIT DROP AS
    SELECT conrelid::regclass::text AS src, conname, pg_get_constraintdef(oid) AS def
      FROM pg_constraint
     WHERE confrelid = tbl::regclass AND contype = 'f' AND conrelid <> tbl::regclass
       AND conparentid = 0;
  CREATE TEMP TABLE _triggers ON COMMIT DROP AS
    SELECT pg_get_triggerdef(oid) AS def FROM pg_trigger
     WHERE tgrelid = tbl::regclass AND NOT tgisinternal;
  CREATE TEMP TABLE _policies ON COMMIT DROP AS
    SELECT policyname, permissive, roles, cmd, qual, with_check
      FROM pg_policies WHERE schemaname = 'public' AND tablename = tbl;
  CREATE TEMP TABLE _grants ON COMMIT DROP AS
    SELECT grantee, string_agg(privilege_type, ', ') AS privileges
      FROM information_schema.role_table_grants
     WHERE table_schema = 'public' AND table_name = tbl
       AND grantee <> (SELECT tableowner FROM pg_tables WHERE schemaname = 'public' AND tablename = tbl)
     GROUP BY grantee;

  -- 2. Foreign keys pointing at the table are re-made against the new one (step 6).
  FOR rec IN SELECT * FROM _incoming LOOP
    EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', rec.src, rec.conname);
  END LOOP;

  -- 3. The new partitioned table and its partitions; the rows move across.
  EXECUTE format('ALTER TABLE %I RENAME TO %I', tbl, old);
  EXECUTE format(
    'CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING IDENTITY INCLUDING GENERATED '
    'INCLUDING STORAGE INCLUDING COMMENTS) PARTITION BY HASH (tenant_id)', tbl, old);
  FOR i IN 0 .. modulus - 1 LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES WITH (MODULUS %s, REMAINDER %s)',
                   tbl || '_p' || lpad(i::text, 2, '0'), tbl, modulus, i);
  END LOOP;
  SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) INTO cols
    FROM pg_attribute
   WHERE attrelid = old::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = '';
  EXECUTE format('INSERT INTO %I (%s) OVERRIDING SYSTEM VALUE SELECT %s FROM %I', tbl, cols, cols, old);
  FOR rec IN
    SELECT a.attname FROM pg_attribute a
     WHERE a.attrelid = tbl::regclass AND a.attidentity <> '' AND a.attnum > 0
  LOOP
    EXECUTE format('SELECT setval(pg_get_serial_sequence(%L, %L), coalesce(max(%I), 0) + 1, false) FROM %I',
                   tbl, rec.attname, rec.attname, tbl);
  END LOOP;
  EXECUTE format('DROP TABLE %I', old);

  -- 4. Constraints and indexes; unique ones lead with tenant_id.
  FOR rec IN SELECT * FROM _constraints ORDER BY contype = 'f', conname LOOP
    def := rec.def;
    IF rec.contype IN ('p', 'u') AND def !~ '\mtenant_id\M' THEN
      def := regexp_replace(def, '^(PRIMARY KEY|UNIQUE( NULLS NOT DISTINCT)?) \(', '\1 (tenant_id, ');
    END IF;
    -- A foreign key to the table itself (supersedes, conflicts_with) becomes composite.
    IF rec.contype = 'f' AND def ~ ('REFERENCES (public\.)?' || tbl || '\(')
       AND def !~ '^FOREIGN KEY \(tenant_id' THEN
      def := regexp_replace(def, '^FOREIGN KEY \((\w+)\) REFERENCES (\S+)\((\w+)\)',
                            'FOREIGN KEY (tenant_id, \1) REFERENCES \2(tenant_id, \3)');
    END IF;
    EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I %s', tbl, rec.conname, def);
  END LOOP;
  FOR rec IN SELECT * FROM _indexes LOOP
    def := rec.def;
    IF rec.indisunique AND def !~ '\(tenant_id[,)]' THEN
      def := regexp_replace(def, 'USING (\w+) \(', 'USING \1 (tenant_id, ');
    END IF;
    EXECUTE def;
  END LOOP;

  -- 5. Row-level security on the parent and on every partition; triggers; grants.
  FOR part IN
    SELECT tbl UNION ALL
    SELECT inhrelid::regclass::text FROM pg_inherits WHERE inhparent = tbl::regclass
  LOOP
    EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', part);
    EXECUTE format('ALTER TABLE %s FORCE ROW LEVEL SECURITY', part);
    FOR rec IN SELECT * FROM _policies LOOP
      EXECUTE format('CREATE POLICY %I ON %s AS %s FOR %s TO %s%s%s', rec.policyname, part,
                     rec.permissive, rec.cmd, array_to_string(rec.roles, ', '),
                     CASE WHEN rec.qual IS NULL THEN '' ELSE ' USING (' || rec.qual || ')' END,
                     CASE WHEN rec.with_check IS NULL THEN '' ELSE ' WITH CHECK (' || rec.with_check || ')' END);
    END LOOP;
    FOR rec IN SELECT * FROM _grants LOOP
      EXECUTE format('GRANT %s ON %s TO %I', rec.privileges, part, rec.grantee);
    END LOOP;
  END LOOP;
  FOR rec IN SELECT * FROM _triggers LOOP
    EXECUTE rec.def;  -- row triggers on the parent are cloned onto the partitions
  END LOOP;

  -- 6. Foreign keys into the table, now composite: (tenant_id, x_id) -> (tenant_id, id).
  FOR rec IN SELECT * FROM _incoming LOOP
    def := regexp_replace(rec.def, '^FOREIGN KEY \((\w+)\) REFERENCES (\S+)\((\w+)\)',
                          'FOREIGN KEY (tenant_id, \1) REFERENCES \2(tenant_id, \3)');
    EXECUTE format('ALTER TABLE %s ADD CONSTRAINT %I %s', rec.src, rec.conname, def);
  END LOOP;
  DROP TABLE _constraints, _indexes, _incoming, _triggers, _policies, _grants;
END
$proc$;

BEGIN;
-- Records first: the other tables' foreign keys point at it.
CALL engram_partition_by_tenant('memory_memoryrecord', :modulus);
CALL engram_partition_by_tenant('memory_sourceevent', :modulus);
CALL engram_partition_by_tenant('memory_memoryembedding', :modulus);
-- memory_memorysearchdoc (lexical docs, derived data) waits for one application change:
-- search_docs_write upserts ON CONFLICT (record_id), and a partitioned table cannot have a
-- unique index on record_id alone. Give MemorySearchDoc a UniqueConstraint(tenant,
-- record) and upsert on unique_fields=["tenant", "record"], then add:
-- CALL engram_partition_by_tenant('memory_memorysearchdoc', :modulus);
CALL engram_partition_by_tenant('governance_auditevent', :modulus);
COMMIT;
DROP PROCEDURE engram_partition_by_tenant(text, int);
