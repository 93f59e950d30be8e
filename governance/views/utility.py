"""Memory utility: the share of recalled memories agents report using, per agent and day,
against the seeds' 60 % target (memory.services.recall_feedback). Tenant admins only: it
names the tenant's agents."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from governance import policies

from .base import Console, _page, console_view

DAYS = 14


@require_GET
@console_view(policies.can_administer_tenant)
def utility(request: HttpRequest, console: Console) -> HttpResponse:
    from memory import charts
    from memory.selectors.utility import TARGET_UTILITY, utility_by_agent_day

    rate = utility_by_agent_day(tenant_id=console.tenant.id, days=DAYS)
    target = round(100 * TARGET_UTILITY)
    chart = None
    if rate["agents"]:
        # The target is drawn as one more series, flat at 60 %: a line across the chart,
        # in the legend and in the numbers' table like the agents.
        series = {a["name"]: a["rate"] for a in rate["agents"]}
        series[_("Target (%(n)s %%)") % {"n": target}] = [float(target)] * len(rate["days"])
        chart = charts.lines(
            "utility-rate",
            _("Recalled memories used, per agent and day (%)"),
            rate["days"],
            series,
            unit="%",
            note=_("Only recalls the agent reported on are counted."),
        )
    return _page(
        request,
        console,
        "governance/utility.html",
        {"chart": chart, "agents": rate["agents"], "target": target, "days": DAYS},
    )
