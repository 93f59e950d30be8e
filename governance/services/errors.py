"""The one exception governance services raise for a refused action."""

from __future__ import annotations

from typing import Any


class GovernanceError(Exception):
    """A refused console/API action with a stable code; views map ``status`` to HTTP."""

    def __init__(
        self, code: str, message: str, *, status: int = 400, extra: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.extra = extra or {}
