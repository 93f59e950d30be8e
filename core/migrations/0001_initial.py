# AuditEvent moved here from governance without touching the database: the table keeps
# its name (governance_auditevent), its indexes and its append-only trigger, whose
# Postgres id is pinned (core/models.py) so nothing is dropped or re-created.

import django.db.models.deletion
import django.utils.timezone
import pgtrigger.compiler
import pgtrigger.migrations
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("accounts", "0001_initial"),
        # The table is created by governance's migrations on a fresh database.
        ("governance", "0004_rls_refresh"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name="AuditEvent",
                    fields=[
                        ("id", models.BigAutoField(primary_key=True, serialize=False)),
                        ("occurred_at", models.DateTimeField(default=django.utils.timezone.now)),
                        (
                            "actor_type",
                            models.CharField(
                                choices=[
                                    ("agent", "Agent"),
                                    ("user", "User"),
                                    ("system", "System"),
                                ],
                                max_length=8,
                            ),
                        ),
                        ("actor_id", models.CharField(max_length=64)),
                        ("action", models.CharField(max_length=64)),
                        ("operation", models.CharField(blank=True, max_length=16)),
                        ("reason_code", models.CharField(blank=True, max_length=64)),
                        ("subject_id", models.UUIDField(blank=True, null=True)),
                        ("record_id", models.UUIDField(blank=True, null=True)),
                        ("event_id", models.UUIDField(blank=True, null=True)),
                        ("request_id", models.CharField(blank=True, max_length=64)),
                        ("extra", models.JSONField(blank=True, default=dict)),
                        (
                            "tenant",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT, to="accounts.tenant"
                            ),
                        ),
                    ],
                    options={
                        "db_table": "governance_auditevent",
                        "indexes": [
                            models.Index(
                                fields=["tenant", "-occurred_at"], name="audit_tenant_time"
                            ),
                            models.Index(
                                fields=["tenant", "subject_id", "occurred_at"], name="audit_subject"
                            ),
                            models.Index(fields=["tenant", "record_id"], name="audit_record"),
                        ],
                    },
                ),
                pgtrigger.migrations.AddTrigger(
                    model_name="auditevent",
                    trigger=pgtrigger.compiler.Trigger(
                        name="audit_append_only",
                        sql=pgtrigger.compiler.UpsertTriggerSql(
                            func="RAISE EXCEPTION 'pgtrigger: Cannot update or delete rows from % table', TG_TABLE_NAME;",  # noqa: E501
                            hash="a1a1c1c0e62c19baddcd49dcdacb15be98a27d95",
                            operation="UPDATE OR DELETE",
                            pgid="pgtrigger_audit_append_only_c59aa",
                            table="governance_auditevent",
                            when="BEFORE",
                        ),
                    ),
                ),
            ],
        ),
    ]
