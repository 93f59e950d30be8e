"""Working memory runs against both of its stores: the UNLOGGED PostgreSQL table (the
embedded default) and a real Redis on 127.0.0.1:6379 (``./dev test`` starts it)."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

REDIS_URL = "redis://127.0.0.1:6379/0"


def _redis_up() -> bool:
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=1).close()
    except OSError:
        return False
    return True


@pytest.fixture(params=["postgres", "redis"])
def wm_store(request, settings, tenant, other_tenant) -> Iterator[str]:
    """Point working memory at one store; leave none of this test's Redis keys behind."""
    if request.param == "redis" and not _redis_up():
        pytest.fail("Working memory tests need Redis on 127.0.0.1:6379 (./dev test starts it).")
    url = REDIS_URL if request.param == "redis" else "postgres"
    settings.ENGRAM_WORKING_MEMORY = {**settings.ENGRAM_WORKING_MEMORY, "URL": url}
    yield request.param
    if request.param == "redis":
        import redis

        client = redis.Redis.from_url(REDIS_URL)
        for t in (tenant, other_tenant):
            names = list(client.scan_iter(match=f"engram:wm:{t.id}:*", count=1000))
            if names:
                client.delete(*names)
        client.close()
