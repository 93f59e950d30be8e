"""A default secret cannot reach production, and the documented production environment
passes Django's deployment checks. Real processes: each case imports the settings, or
runs ``manage.py check --deploy``, in a fresh interpreter with its own environment."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def _clean_env(**extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "ENGRAM_", "DATABASE_", "REDIS_", "CELERY_"))
        and k not in {"ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS"}
    }
    return {**env, **extra}


def _load(module: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            sys.executable,
            "-c",
            f"import django, os; os.environ['DJANGO_SETTINGS_MODULE']="
            f"'config.settings.{module}'; django.setup(); print('ok')",
        ],
        cwd=ROOT,
        env=_clean_env(**env),
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("module", ["web", "worker"])
@pytest.mark.parametrize(
    "key",
    [
        None,
        "django-insecure-anything-at-all-0123456789-0123456789-0123456789",
        "change-me-50-random-characters",
    ],
    ids=["development default", "django-insecure key", "env.example placeholder"],
)
def test_production_roles_refuse_a_known_secret_key(module, key):
    env = {"DJANGO_SECRET_KEY": key} if key else {}
    done = _load(module, **env)
    assert done.returncode != 0
    assert "DJANGO_SECRET_KEY" in done.stderr and "ImproperlyConfigured" in done.stderr
    assert "secrets.token_urlsafe" in done.stderr  # says how to make one


@pytest.mark.parametrize("module", ["web", "worker"])
def test_production_roles_start_with_a_real_key_or_in_debug(module):
    assert _load(module, DJANGO_SECRET_KEY=secrets.token_urlsafe(50)).stdout.strip() == "ok"
    assert _load(module, ENGRAM_DEBUG="true").stdout.strip() == "ok"


def test_the_development_key_is_flagged_by_check_deploy():
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=_clean_env(DJANGO_SETTINGS_MODULE="config.settings.base"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    assert "security.W009" in done.stderr


def _production_env() -> dict[str, str]:
    """The web containers' environment from deploy/compose.yaml, with deploy/env.example's
    variables given real values, as its comments ask."""
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    environment = compose["services"]["web"]["environment"]
    example = dict(
        line.split("=", 1)
        for line in (DEPLOY / "env.example").read_text().splitlines()
        if line and not line.startswith("#")
    )
    filled = {
        name: (secrets.token_urlsafe(50) if value.startswith("change-me") else value)
        for name, value in example.items()
    }

    def substitute(value: str) -> str:
        return re.sub(
            r"\$\{(\w+)(?::[-?][^}]*)?\}", lambda m: filled.get(m.group(1), ""), str(value)
        )

    return {name: substitute(value) for name, value in environment.items()}


def test_the_documented_production_environment_passes_check_deploy(tmp_path):
    env = {**_production_env(), "PROMETHEUS_MULTIPROC_DIR": str(tmp_path)}  # the image's
    assert env["ENGRAM_SSL_REDIRECT"] == "true" and int(env["ENGRAM_HSTS_SECONDS"]) > 0
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=_clean_env(**env, DJANGO_SETTINGS_MODULE="config.settings.web"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout
