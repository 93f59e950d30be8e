"""The governance console (``/console/``): adapters only — resolve the tenant and the
user's rights, parse a form, call one service or selector, render.

Tenant: a console page acts in one tenant the user is a member of. With one membership
that is the tenant; with several, the one chosen on the console home (stored in the
session under ``engram.tenant_id``, shared with the request middleware), else the oldest membership. A signed-in user
without any membership gets a 404 on every console URL, as does a URL naming another
tenant's object; a member asking for a page or action their role does not allow gets a
403 (see governance.policies for the matrix).

HTMX: forms post normally (post/redirect/get) and work without JavaScript; with htmx the
same view returns the page's fragment (``page.html#fragment``).

One module per area (base, home, procedures, audit with the quarantine queue, admin); the
URLconf names views through this package.
"""

from .admin import admin_agents, admin_members, admin_policy
from .audit import audit_csv, audit_list, quarantine_list, quarantine_resolve
from .base import Console, console_view
from .home import home, tenant_switch
from .procedures import (
    change_decide,
    change_detail,
    change_list,
    procedure_detail,
    procedure_list,
    procedure_rollback,
    procedure_version,
)
from .quality import (
    quality,
    quality_canary_add,
    quality_canary_remove,
    quality_finding_apply,
)
from .utility import utility

__all__ = [
    "Console",
    "admin_agents",
    "admin_members",
    "admin_policy",
    "audit_csv",
    "audit_list",
    "change_decide",
    "change_detail",
    "change_list",
    "console_view",
    "home",
    "procedure_detail",
    "procedure_list",
    "procedure_rollback",
    "procedure_version",
    "quality",
    "quality_canary_add",
    "quality_canary_remove",
    "quality_finding_apply",
    "quarantine_list",
    "quarantine_resolve",
    "tenant_switch",
    "utility",
]
