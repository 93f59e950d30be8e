"""Are the learned heads' passage vectors computed in a write request used? (issue 39, ingest10)

Sends LoCoMo turns (and generated Chinese ones) through ``POST /conversation`` as
``ingest_http.py`` does and counts, per set, the candidates whose passage
``memory/services/write_vectors.prepare`` embedded, how many of those vectors a head then
read (``policy.decide`` passing it to the learned scores) and how many were stored in the
index (``WriteVectors.store``, so the indexer does not embed them again). Wraps the
functions for the run only; edits nothing.

    ENGRAM_EMBED_AFTER_COMMIT=none .venv/bin/python bench/perf/ingest_vectors_used.py \
        [--turns 100000] [--chinese 400]
"""

from __future__ import annotations

import argparse
import os
import sys
import uuid
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("ENGRAM_SUBJECT_TOKEN_MAX_AGE", "3600")
ROOT = Path.cwd()
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench" / "perf"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=Path("/work/shared/data/locomo-dev"))
    parser.add_argument("--turns", type=int, default=100000)
    parser.add_argument("--chinese", type=int, default=400)
    args = parser.parse_args()
    from bench._harness import bench_credentials, django_setup

    django_setup()
    import logging

    for noisy in ("celery", "kombu", "engram.request"):
        logging.getLogger(noisy).setLevel(logging.ERROR)
    from django.test import Client
    from ingest_http import chinese_turns
    from write_api import chunks, turn_bodies

    from bench.quality.locomo import load_folder, turns_of
    from memory.services import write_vectors
    from memory.write_policy import policy

    locomo = []
    for name, conv in load_folder(args.data).items():
        locomo += [{**t, "dia_id": f"{name}:{t['dia_id']}"} for t in turns_of(conv)]
    sets = {
        "locomo": locomo[: args.turns],
        "chinese": chinese_turns(args.chinese, datetime(2026, 11, 2, 9, tzinfo=UTC)),
    }
    prepared: list[int] = []
    read: set[int] = set()
    stored = [0]
    prepare, scores = write_vectors.prepare, policy.learned_scores

    def counting_prepare(**kw):
        out = prepare(**kw)
        prepared.extend(id(v) for _, v in out.passages.values())
        store = out.store

        def counting_store(ids):
            n = store(ids)
            stored[0] += n
            return n

        out.store = counting_store
        return out

    def counting_scores(words, passage=None, vector=None, **kw):
        if vector is not None:
            read.add(id(vector))
        return scores(words, passage=passage, vector=vector, **kw)

    write_vectors.prepare, policy.learned_scores = counting_prepare, counting_scores
    client, run = Client(), uuid.uuid4().hex[:8]
    try:
        for set_name, turns in sets.items():
            key, token = bench_credentials("bench", f"vectors-{run}-{set_name}")
            headers = {"HTTP_AUTHORIZATION": f"Bearer {key}", "HTTP_X_ENGRAM_SUBJECT_TOKEN": token}
            prepared.clear(), read.clear()
            stored[0] = 0
            decisions: Counter = Counter()
            for chunk in chunks(turns, 100):
                thread_id, messages, candidates = turn_bodies(chunk, f"{set_name}-{run}")
                body = {"thread_id": thread_id, "messages": messages, "candidates": candidates}
                response = client.post(
                    "/api/v1/conversation", body, content_type="application/json", **headers
                )
                assert response.status_code == 200, response.content[:300]
                decisions.update(o["operation"] for o in response.json()["candidates"])
            used = sum(1 for v in prepared if v in read)
            print(
                f"{set_name}: {len(turns)} turns, {len(prepared)} passages embedded, "
                f"{used} read by a head, {stored[0]} stored in the index; {dict(decisions)}"
            )
    finally:
        write_vectors.prepare, policy.learned_scores = prepare, scores


if __name__ == "__main__":
    main()
