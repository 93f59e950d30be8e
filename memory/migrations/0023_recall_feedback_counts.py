"""Per-record recall feedback counters (memory.services.recall_feedback)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("memory", "0022_working_memory")]

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
