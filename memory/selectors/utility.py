"""The utility rate: per agent and day, the items agents reported using ÷ the items
returned by the recalls they reported on (``POST /api/v1/recall/{id}/feedback``). A recall
without feedback is left out of both sides: it says nothing about use, and counting it as
unused would punish agents that do not report."""

from __future__ import annotations

import uuid
from datetime import date, timedelta

from django.db.models import Func, IntegerField, Sum
from django.db.models.functions import TruncDate
from django.utils import timezone

# The seeds' target: more than 60 % of recalled memories are used.
TARGET_UTILITY = 0.6


class _Cardinality(Func):
    function = "cardinality"
    output_field = IntegerField()


def utility_by_agent_day(*, tenant_id: uuid.UUID, days: int = 14) -> dict:
    """Per agent and day of the last ``days`` days (the recall's day): items returned by
    recalls with feedback, items used, and the rate in % (None: no feedback that day)."""
    from accounts.models import Agent
    from memory.models import RecallTrace

    today = timezone.localdate()
    dates = [today - timedelta(days=days - 1 - i) for i in range(days)]
    rows = (
        RecallTrace.objects.filter(
            tenant_id=tenant_id, created_at__date__gte=dates[0], feedback_at__isnull=False
        )
        .annotate(day=TruncDate("created_at"))
        .order_by()
        .values_list("agent_id", "day")
        .annotate(
            recalled=Sum(_Cardinality("record_ids")),
            used=Sum(_Cardinality("used_record_ids")),
        )
    )
    per: dict[uuid.UUID | None, dict[date, tuple[int, int]]] = {}
    for agent_id, day, recalled, used in rows:
        per.setdefault(agent_id, {})[day] = (recalled or 0, used or 0)
    names = dict(Agent.objects.filter(id__in=[a for a in per if a]).values_list("id", "name"))
    agents = []
    for agent_id, by_day in sorted(per.items(), key=lambda kv: names.get(kv[0], "")):
        recalled = [by_day.get(d, (0, 0))[0] for d in dates]
        used = [by_day.get(d, (0, 0))[1] for d in dates]
        agents.append(
            {
                "agent_id": agent_id,
                "name": names.get(agent_id, "—"),
                "recalled": recalled,
                "used": used,
                "rate": [
                    round(100 * u / r, 1) if r else None
                    for r, u in zip(recalled, used, strict=True)
                ],
                "recalled_total": sum(recalled),
                "used_total": sum(used),
                "total_rate": round(100 * sum(used) / sum(recalled), 1) if sum(recalled) else None,
            }
        )
    return {"days": dates, "agents": agents}
