"""Against real servers started here from the bundled PostgreSQL binaries (127.0.0.1):
- the read-replica router and its deletion rule (primary + ``pg_basebackup -R`` replica);
- the operator's backup: ``pg_dump`` -> a fresh server -> ``pg_restore`` keeps row-level
  security, its policies, the protection triggers and the SECURITY DEFINER lookups, and
  they still refuse what they refused before.

One primary for the module (migrated and seeded by ``engram_bootstrap``, ~20 s)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ops.pgcluster import BIN, Cluster, run

ROOT = Path(__file__).resolve().parents[2]


def _env(primary_url: str, **extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("ENGRAM_DB_NAME", "DATABASE_", "PROMETHEUS_MULTIPROC"))
    }
    env.update(
        DATABASE_URL=primary_url,
        ENGRAM_DB_CONNECT_AS="owner",
        ENGRAM_EMBED_AFTER_COMMIT="none",
        LOG_LEVEL="WARNING",
        **extra,
    )
    return env


@pytest.fixture(scope="module")
def cluster():
    c = Cluster()
    try:
        primary = c.primary()
        primary.psql("CREATE DATABASE engram")
        replica = c.replica_of(primary)
        out = subprocess.run(
            [sys.executable, "manage.py", "engram_bootstrap"],
            cwd=ROOT,
            env=_env(f"{primary.url}/engram"),
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert out.returncode == 0, out.stderr[-3000:]
        yield c, primary, replica
    finally:
        c.close()


def test_replica_router_and_the_deletion_rule(cluster):
    _, primary, replica = cluster
    out = subprocess.run(
        [sys.executable, str(ROOT / "tests/ops/replica_scenario.py")],
        cwd=ROOT,
        env=_env(
            f"{primary.url}/engram",
            DATABASE_REPLICA_URL=f"{replica.url}/engram",
            REDIS_URL="redis://127.0.0.1:6379/13",
        ),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0 and "ALL CHECKS PASSED" in out.stdout, (
        out.stdout[-3000:] + out.stderr[-3000:]
    )


# --- backup and restore -----------------------------------------------------------------

CATALOG = {
    "rls": "SELECT relname || ':' || relrowsecurity || ':' || relforcerowsecurity FROM pg_class "
    "WHERE relkind IN ('r', 'p') AND relnamespace = 'public'::regnamespace AND relrowsecurity ORDER BY 1",
    "policies": "SELECT tablename || ':' || policyname || ':' || coalesce(qual, '') || ':' || "
    "coalesce(with_check, '') FROM pg_policies ORDER BY 1",
    "triggers": "SELECT tgrelid::regclass::text || ':' || tgname || ':' || tgenabled::text FROM pg_trigger "
    "WHERE NOT tgisinternal ORDER BY 1",
    "definer_functions": "SELECT proname FROM pg_proc WHERE prosecdef AND "
    "pronamespace = 'public'::regnamespace ORDER BY 1",
    "extensions": "SELECT extname FROM pg_extension ORDER BY 1",
    "counts": "SELECT (SELECT count(*) FROM memory_memoryrecord) || ':' || "
    "(SELECT count(*) FROM governance_auditevent) || ':' || (SELECT count(*) FROM accounts_tenant)",
}


def test_backup_round_trip_keeps_row_level_security_and_triggers(cluster):
    c, primary, _ = cluster
    dump = c.root / "engram.dump"
    roles = c.root / "roles.sql"
    run(
        [
            str(BIN / "pg_dumpall"),
            "-h",
            "127.0.0.1",
            "-p",
            str(primary.port),
            "-U",
            "postgres",
            "--roles-only",
            "-f",
            str(roles),
        ]
    )
    run(
        [
            str(BIN / "pg_dump"),
            "-h",
            "127.0.0.1",
            "-p",
            str(primary.port),
            "-U",
            "postgres",
            "-Fc",
            "-d",
            "engram",
            "-f",
            str(dump),
        ]
    )

    restored = c.primary("restored")
    # Roles are global objects: restore them first (the app role owns nothing).
    run(
        [
            str(BIN / "psql"),
            "-h",
            "127.0.0.1",
            "-p",
            str(restored.port),
            "-U",
            "postgres",
            "-d",
            "postgres",
            "-q",
            "-f",
            str(roles),
        ]
    )
    restored.psql("CREATE DATABASE engram")
    run(
        [
            str(BIN / "pg_restore"),
            "-h",
            "127.0.0.1",
            "-p",
            str(restored.port),
            "-U",
            "postgres",
            "-d",
            "engram",
            "--exit-on-error",
            str(dump),
        ]
    )

    for name, sql in CATALOG.items():
        before, after = primary.psql(sql, "engram"), restored.psql(sql, "engram")
        assert before == after, name
        assert after, name  # there is something to compare
    assert "memory_memoryrecord:true:true" in restored.psql(CATALOG["rls"], "engram")

    # Behaviour, not just catalog: the app role sees nothing without a tenant, its tenant's
    # rows with one, and the protection trigger refuses an in-place content change.
    tenant = restored.psql("SELECT tenant_id FROM memory_memoryrecord LIMIT 1", "engram")
    as_app = "SET ROLE engram_app; "
    assert restored.psql(as_app + "SELECT count(*) FROM memory_memoryrecord", "engram").endswith(
        "0"
    )
    seen = restored.psql(
        as_app + f"SELECT set_config('engram.tenant_id', '{tenant}', false); "
        "SELECT count(DISTINCT tenant_id) FROM memory_memoryrecord",
        "engram",
    )
    assert seen.splitlines()[-1] == "1"
    with pytest.raises(subprocess.CalledProcessError) as refused:
        restored.psql(
            "UPDATE memory_memoryrecord SET statement = 'rewritten' "
            "WHERE id = (SELECT id FROM memory_memoryrecord LIMIT 1)",
            "engram",
        )
    assert "pgtrigger" in refused.value.stderr.lower() or "protect" in refused.value.stderr.lower()


# --- partitioning by tenant, on a copy --------------------------------------------------

PARTITIONED = (
    "memory_memoryrecord",
    "memory_sourceevent",
    "memory_memoryembedding",
    "governance_auditevent",
)  # memory_memorysearchdoc waits for an upsert change (see the SQL file)


def test_partitioning_migration_on_a_copy(cluster):
    _, primary, _ = cluster
    primary.psql("CREATE DATABASE engram_copy TEMPLATE engram")
    counts = primary.psql(CATALOG["counts"], "engram_copy")
    run(
        [
            str(BIN / "psql"),
            "-h",
            "127.0.0.1",
            "-p",
            str(primary.port),
            "-U",
            "postgres",
            "-d",
            "engram_copy",
            "-q",
            "-v",
            "modulus=4",
            "-f",
            str(ROOT / "deploy/partitioning/partition_by_tenant.sql"),
        ]
    )

    parents = primary.psql(
        "SELECT partrelid::regclass::text FROM pg_partitioned_table ORDER BY 1", "engram_copy"
    ).splitlines()
    assert sorted(parents) == sorted(PARTITIONED)
    assert primary.psql(CATALOG["counts"], "engram_copy") == counts
    rls = primary.psql(CATALOG["rls"], "engram_copy")
    for table in PARTITIONED:
        assert f"{table}:true:true" in rls and f"{table}_p03:true:true" in rls, table
    assert "memory_memoryrecord_p00:tenant_isolation" in primary.psql(
        CATALOG["policies"], "engram_copy"
    )
    # The partition a query would hit directly applies the policy too.
    tenant = primary.psql("SELECT tenant_id FROM memory_memoryrecord LIMIT 1", "engram_copy")
    as_app = "SET ROLE engram_app; "
    for rel in ("memory_memoryrecord", "memory_memoryrecord_p00", "memory_memoryrecord_p01"):
        assert primary.psql(as_app + f"SELECT count(*) FROM {rel}", "engram_copy").endswith("0")
    seen = primary.psql(
        as_app + f"SELECT set_config('engram.tenant_id', '{tenant}', false); "
        "SELECT count(DISTINCT tenant_id) FROM memory_memoryrecord",
        "engram_copy",
    )
    assert seen.splitlines()[-1] == "1"
    with pytest.raises(subprocess.CalledProcessError):
        primary.psql(
            "UPDATE memory_memoryrecord SET statement = 'rewritten' "
            "WHERE id = (SELECT id FROM memory_memoryrecord LIMIT 1)",
            "engram_copy",
        )
    # The application runs on the partitioned copy: self-test, then write/recall/delete.
    env = _env(f"{primary.url}/engram_copy")
    for args in (["manage.py", "engram_selftest"], ["tests/ops/smoke_scenario.py"]):
        out = subprocess.run(
            [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
        )
        assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
