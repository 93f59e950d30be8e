"""One weight set's leave-one-out row, asked in this process: Recall@10, adversarial
abstention, answerable questions left empty and Recall@10 per category, per conversation.

    OMP_NUM_THREADS=1 ENGRAM_TEST_DB_NAME=recq7 .venv/bin/python \
        bench/quality/locomo_variant.py /path/to/locomo-dev "entity_hop 0.6" \
        '{"entity_hop": 0.6}' --out hop6.json

Uses the database ``locomo.py --keepdb`` left (same ``ENGRAM_TEST_DB_NAME``; run that
first). The weights are set in this process (``RecallWeights.for_tenant`` wrapped, as
``locomo_record.py`` does), not in the tenant's policy, so several variants run side by
side on one database. ``--out`` gets the row; ``<out>.perq`` one line per question (its
conversation, category, evidence and the dia_ids of each returned item). Rows of several
variants, the defaults' among them (variant "baseline", weights ``{}``), go to
``bench/quality/loco.py``'s ``leave_one_out``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.quality import locomo  # noqa: E402  (sets up Django)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("folder", type=Path)
    parser.add_argument("variant")
    parser.add_argument("weights", type=json.loads)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()

    from django.conf import settings
    from django.db import connection

    from memory.recall import RecallRequest, recall
    from memory.recall.weights import RecallWeights

    convs = locomo.load_folder(args.folder)
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=True, serialize=False)
    ctx_file = locomo.RESULTS / f"locomo-context-{settings.DATABASES['default']['NAME']}.json"
    ctx = json.loads(ctx_file.read_text())
    os.environ["ENGRAM_RECALL_FREEZE_ACCESS"] = "1"
    plain = RecallWeights.for_tenant.__func__

    def for_tenant(cls, policy, model_id="", reranker_id=""):
        policy = dict(policy or {})
        policy["recall_weights"] = {**(policy.get("recall_weights") or {}), **args.weights}
        return plain(cls, policy, model_id, reranker_id)

    RecallWeights.for_tenant = classmethod(for_tenant)
    row: dict = {"variant": args.variant, "weights": args.weights, "r10": {}, "guard": {}}
    row["cat"] = {}
    per_question = []
    try:
        for name, conv in convs.items():
            actor, scope = locomo.in_process_reader(locomo.credentials(name))
            events = ctx["events"][name]
            table = locomo.Table()
            for q in conv["qa"]:
                result = recall(
                    actor=actor,
                    scope=scope,
                    request=RecallRequest(query=q["question"], purpose=locomo.PURPOSE, k=10),
                    record_trace=False,
                )
                ranked = [
                    [events[str(e)] for e in it.source_event_ids if str(e) in events]
                    for it in result.items
                ]
                table.add(q["category"], q.get("evidence", []), ranked)
                per_question.append(
                    {
                        "conv": name,
                        "cat": q["category"],
                        "ev": q.get("evidence", []),
                        "ranked": ranked,
                    }
                )
            got = table.row()
            row["r10"][name] = round(table.overall(table.r10), 4)
            row["guard"][name] = (got["abstention"], got["empty_answerable"])
            row["cat"][name] = {
                k: v for k, v in got.items() if k.endswith("@10") and k != "recall@10"
            }
            print(name, row["r10"][name], row["guard"][name], row["cat"][name], flush=True)
    finally:
        RecallWeights.for_tenant = classmethod(plain)
    args.out.write_text(json.dumps(row))
    Path(f"{args.out}.perq").write_text("\n".join(json.dumps(x) for x in per_question))


if __name__ == "__main__":
    main()
