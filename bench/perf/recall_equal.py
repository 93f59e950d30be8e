"""Recall's answers with a speed-up off and on, over LoCoMo's real questions: every
question of the conversations in ``--questions-dir``, asked through the whole web stack in
process (``POST /api/v1/recall``, all at one ``as_of``) of every subject of the database ``bench/perf/recall_perf.py
--keepdb --memories-per-subject N`` loaded, with the settings named by ``--toggle`` off
(the reference) and then on. The whole answer must be equal (items: ids, order, scores,
flags; the context pack; the empty reason) but for the trace's id, and so must each
route's hits (``--routes``: the trigram and exact routes' ranked ids and scores). Prints
how many answers were compared and each difference; exits 1 on any.

    OMP_NUM_THREADS=1 ENGRAM_BENCH_DB=bench_lat .venv/bin/python bench/perf/recall_equal.py \\
        --memories-per-subject 600 --questions-dir /work/shared/data/locomo-dev \\
        --toggle ONE_TRIGRAM_READ
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("ENGRAM_BENCH_DB", "bench_perf")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.perf.perf_settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.test import Client  # noqa: E402

from bench.perf.recall_perf import (  # noqa: E402
    PURPOSE,
    loaded_per_subject_tenant,
    locomo_questions,
    subject_tokens,
)
from bench.perf.recall_timeline import toggle  # noqa: E402
from memory.recall import routes  # noqa: E402
from memory.recall.routes import exact  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--memories-per-subject", type=int, required=True)
    parser.add_argument("--subjects", type=int, default=2)
    parser.add_argument("--questions-dir", type=Path, required=True)
    parser.add_argument("--toggle", required=True, help="settings, joined by commas")
    args = parser.parse_args()
    names = args.toggle.split(",")
    settings.ENGRAM_RETRIEVAL = {**settings.ENGRAM_RETRIEVAL, "FREEZE_ACCESS": True}
    questions = sorted(set(locomo_questions(args.questions_dir)))
    tenant = loaded_per_subject_tenant(args.memories_per_subject, args.subjects)
    tokens = subject_tokens(tenant)
    client = Client(HTTP_HOST="127.0.0.1")
    hits: list = []
    exact.search = recording(exact.search, "exact", hits)
    routes.search_trigram = recording(routes.search_trigram, "trigram", hits)
    as_of = datetime.now(UTC).isoformat()  # one time point for every answer
    compared = differences = routes_found = 0
    for subject in tenant["subjects"]:
        for question in questions:
            answers = []
            for state in (False, True):
                toggle(names, state)
                hits.clear()
                body = ask(client, tenant, tokens[subject], question, as_of)
                body.pop("trace_id", None)
                answers.append((body, list(hits)))
            compared += 1
            routes_found += sum(1 for _, found in answers[0][1] if found)
            if answers[0] != answers[1]:
                differences += 1
                print(f"DIFFERENT: {question!r}")
                print(f"  off: {answers[0][1]}\n  on:  {answers[1][1]}")
    print(
        f"{compared} answers compared ({len(questions)} questions x {len(tenant['subjects'])} "
        f"subjects), {routes_found} route results with hits; {differences} different"
    )
    sys.exit(1 if differences else 0)


def ask(client, tenant: dict, token: str, question: str, as_of: str) -> dict:
    response = client.post(
        "/api/v1/recall",
        data=json.dumps({"query": question, "purpose": PURPOSE, "k": 10, "as_of": as_of}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {tenant['key']}",
        HTTP_X_ENGRAM_SUBJECT_TOKEN=token,
    )
    if response.status_code != 200:
        raise SystemExit(f"recall answered {response.status_code}: {response.content[:300]!r}")
    return response.json()


def recording(search, name: str, into: list):
    def recorded(q):
        found = search(q)
        into.append((name, found))
        return found

    return recorded


if __name__ == "__main__":
    main()
