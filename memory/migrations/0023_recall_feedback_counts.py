"""Per-record recall feedback counters (memory.services.recall_feedback). Depends on 0021:
working memory's 0022 is developed alongside; the integrator rechains this one."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("memory", "0021_harden_security_definers")]

    operations = [
        migrations.AddField(
            model_name="memoryrecord",
            name="feedback_used_count",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="memoryrecord",
            name="feedback_unused_streak",
            field=models.PositiveIntegerField(default=0),
        ),
    ]
