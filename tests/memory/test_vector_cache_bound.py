"""A deleted memory's vector leaves every process's memory within a stated bound
(``VectorCache.bound()``: ``ENGRAM_RECALL_VECTOR_CACHE_SECONDS`` and one sweep), also a
process that never recalls for the subject again and never ran the deletion: a real
second process holds a scope's vectors, and is watched until they are gone."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# A web worker that recalled for a subject once (its cache holds the scope's vectors)
# and then serves other requests: it reports how many vectors it holds, every 50 ms.
WORKER = """
import json, sys, time, uuid
import django
django.setup()
import numpy as np
from memory.recall.accel.vector_cache import ScopeVectors, cache
key = (uuid.uuid4(), (uuid.uuid4(),), "m")
records = [uuid.uuid4() for _ in range(3)]
cache.put(key, ScopeVectors.build(np.arange(3), records, np.eye(3, 4, dtype=np.float32)))
print(json.dumps({"bound": cache.bound(), "held": cache.held()}), flush=True)
started = time.monotonic()
while cache.held() and time.monotonic() - started < 30:
    time.sleep(0.05)
print(json.dumps({"held": cache.held(), "after": time.monotonic() - started}), flush=True)
"""


def test_a_process_that_never_recalls_again_forgets_the_vectors_within_the_bound():
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "ENGRAM_RECALL_VECTOR_CACHE_SECONDS": "1",
    }
    done = subprocess.run(
        [sys.executable, "-c", WORKER],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    first, last = (json.loads(line) for line in done.stdout.splitlines()[-2:])
    assert first["held"] == 3 and first["bound"] == 1.25
    assert last["held"] == 0
    # Gone by the bound (a sweep runs every quarter of the setting), give or take how
    # late a loaded machine wakes the sweeper and the watcher.
    assert last["after"] <= first["bound"] + 2.0, last
