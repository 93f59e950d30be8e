"""Settings for the gunicorn process of bench/perf/recall_perf.py: production settings on the
bench database (the embedded server, database named by ENGRAM_BENCH_DB)."""

import os

from config.settings.base import *  # noqa: F403

DATABASES["default"]["NAME"] = os.environ["ENGRAM_BENCH_DB"]  # noqa: F405
