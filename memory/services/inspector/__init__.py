"""The quality inspector (docs/quality-inspector.md): a scheduled pass per tenant that
finds near-duplicates worded differently, stale values, low-value density, index health
problems and retrieval canaries that stopped finding what they should; stores them as
findings (ids and numbers only) for the console, where a tenant administrator acts on
each through the policy.

- ``run.tenant_inspect``: one inspection of one tenant;
- ``detectors`` and ``index_health``: the detectors (read only);
- ``canaries``: saving canaries and measuring their Recall@k;
- ``actions.finding_apply``: merge, expire, archive, re-index, vacuum or dismiss;
- ``report``: what the console and the metrics read.
"""

from .actions import ACTIONS, ActionResult, finding_apply
from .canaries import (
    QualityError,
    canaries_around_index_change,
    canary_add,
    canary_remove,
)
from .run import tenant_inspect

__all__ = [
    "ACTIONS",
    "ActionResult",
    "QualityError",
    "canaries_around_index_change",
    "canary_add",
    "canary_remove",
    "finding_apply",
    "tenant_inspect",
]
