"""The secret scan's thread CPU per LoCoMo dev text (``find_secrets``, each text once, so
cold as in a request), for A/B runs of two trees (run it from each tree's root in turn).

    cd <tree> && OMP_NUM_THREADS=1 .venv/bin/python bench/perf/secret_scan_locomo_cpu.py [n]
"""

import os
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.path.join(os.getcwd(), "bench", "perf"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
import django  # noqa: E402

django.setup()
from pathlib import Path  # noqa: E402

from detector_prefilter_ab import locomo_statements  # noqa: E402

from memory.detectors.secrets import find_secrets  # noqa: E402

texts = locomo_statements(Path("/work/shared/data/locomo-dev"))
n = int(sys.argv[1]) if len(sys.argv) > 1 else len(texts)
texts = texts[:n]
find_secrets("warm up: password is x")
t = time.thread_time()
hits = sum(bool(find_secrets(x)) for x in texts)
ms = (time.thread_time() - t) * 1000 / len(texts)
print(f"{os.getcwd()} n={len(texts)} hits={hits} cpu_ms_per_text={ms:.3f}")
