"""Metric helpers of the operations tests: read a process metric, scrape /metrics."""

from __future__ import annotations

from django.test import Client, override_settings
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

METRICS_TOKEN = "test-scrape-token-0123456789"


def sample(name: str, **labels: str) -> float:
    """A process metric's current value (0 when never observed)."""
    return REGISTRY.get_sample_value(name, labels) or 0.0


def _scrape_text() -> str:
    with override_settings(
        ENGRAM_OBSERVABILITY={
            "METRICS_TOKEN": METRICS_TOKEN,
            "METRICS_ALLOW_FROM": [],
            "METRICS_MAX_TENANTS": 1000,
            "WORKER_METRICS_PORT": 0,
            "WORKER_METRICS_ADDR": "127.0.0.1",
        }
    ):
        r = Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {METRICS_TOKEN}")
    assert r.status_code == 200, r.content
    return r.content.decode()


def scrape_families() -> set[str]:
    return {family.name for family in text_string_to_metric_families(_scrape_text())}


def scrape() -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """GET /metrics as the scraper: {(sample name, sorted labels): value}."""
    out = {}
    for family in text_string_to_metric_families(_scrape_text()):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def scraped(values: dict, name: str, **labels: str) -> float:
    return values.get((name, tuple(sorted(labels.items()))), 0.0)
