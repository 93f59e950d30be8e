"""Record once, decide offline: every LoCoMo question asked once per weight set, with what
the gates read, so thresholds are chosen leave one conversation out without asking again.

    ENGRAM_TEST_DB_NAME=recq5_x OMP_NUM_THREADS=1 .venv/bin/python \
        bench/quality/locomo_record.py /path/to/locomo-dev --out run.jsonl \
        [--weights '{"entity_mention": 0.8}']

Uses the database ``locomo.py --keepdb`` left (same ``ENGRAM_TEST_DB_NAME``; run that
first). Each question is asked in this process with the tenant's weights, plus
``--weights``, and ``named_speaker_share`` 0, so the speaker gate never abstains; the
gate's ratio (the speaker's best statement's fused relevance over the best other
speaker's, ``rank.scope_to_speaker``) is recorded instead. For any share ``t`` the answer
recall gives is then exactly: empty if the ratio is under ``t``, else the recorded items
(the share decides nothing else). Each line of ``--out``: conversation, category,
evidence, the ratio (null: no speaker, or no other speaker's turn to weigh against),
and per returned item its dia_ids and scores. ``bench/quality/gate_loco.py`` reads it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.quality import locomo  # noqa: E402  (sets up Django)


def weights_in_this_process(RecallWeights, weights: dict):  # noqa: N803
    """Every tenant's recall weights read as ``weights`` in this process, with both share
    gates off (the ratio and the coverage are recorded instead and decided on offline): set
    here, not in the tenant's policy, since another run may ask the same database with the
    tenant's own. Returns the plain ``for_tenant`` function, to put back."""
    overrides = {**weights, "named_speaker_share": 0.0, "named_speaker_cover": 0.0}
    plain_for_tenant = RecallWeights.for_tenant.__func__

    def for_tenant(cls, policy, model_id="", reranker_id=""):
        policy = dict(policy or {})
        policy["recall_weights"] = {**(policy.get("recall_weights") or {}), **overrides}
        return plain_for_tenant(cls, policy, model_id, reranker_id)

    RecallWeights.for_tenant = classmethod(for_tenant)
    return plain_for_tenant


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--weights", type=json.loads, default={})
    parser.add_argument("--only", default="")
    args = parser.parse_args()

    from django.conf import settings
    from django.db import connection

    from memory.recall import RecallRequest, rank, recall
    from memory.recall.weights import RecallWeights

    convs = locomo.load_folder(args.folder)
    if args.only:
        convs = {n: c for n, c in convs.items() if n in args.only.split(",")}
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=True, serialize=False)
    ctx_file = locomo.RESULTS / f"locomo-context-{settings.DATABASES['default']['NAME']}.json"
    ctx = json.loads(ctx_file.read_text())
    import os

    os.environ["ENGRAM_RECALL_FREEZE_ACCESS"] = "1"

    seen: list[float | None] = []
    covers: list[tuple[float, float]] = []
    plain = rank.scope_to_speaker

    def recording(kept, speaker, w, *, question="", names=frozenset()):
        # The ratio the gate compares with ``named_speaker_share`` (same reading as
        # ``rank.scope_to_speaker``; its share is 0 here, so it never abstains).
        said = [c for c in kept if speaker in c.record.source_speakers]
        by_others = [
            c
            for c in kept
            if speaker not in c.record.source_speakers and any(c.record.source_speakers)
        ]
        asked = question if w.addressed_sentence else ""

        def to_other(c):
            return bool(w.addressed_turns) and rank.addressed(c.record.statement, asked, names)

        own = [
            c for c in said if not rank.asks(c.record.statement, w.asking_share) and not to_other(c)
        ]
        against = [c for c in by_others if not to_other(c)]
        if against:
            best_other = max(c.signals.fused or 0.0 for c in against)
            best_said = max((c.signals.fused or 0.0 for c in own), default=0.0)
            seen.append(best_said / best_other if best_other else None)
            # What a second gate could read: how much of the question's words the
            # speaker's own statements and the others' hold (lexical route's coverage).
            covers.append(
                (
                    max((c.signals.lexical_coverage or 0.0 for c in own), default=0.0),
                    max(c.signals.lexical_coverage or 0.0 for c in against),
                )
            )
        return plain(kept, speaker, w, question=question, names=names)

    rank.scope_to_speaker = recording
    plain_for_tenant = weights_in_this_process(RecallWeights, args.weights)
    t0 = time.perf_counter()
    n = 0
    try:
        with args.out.open("w") as out:
            for name, conv in convs.items():
                actor, scope = locomo.in_process_reader(locomo.credentials(name))
                events = ctx["events"][name]
                for q in conv["qa"]:
                    seen.clear()
                    covers.clear()
                    result = recall(
                        actor=actor,
                        scope=scope,
                        request=RecallRequest(query=q["question"], purpose=locomo.PURPOSE, k=10),
                        record_trace=False,
                    )
                    items = [
                        {
                            "dia": [
                                events[str(e)] for e in it.source_event_ids if str(e) in events
                            ],
                            "scores": {k: v for k, v in it.scores.items() if isinstance(v, float)},
                        }
                        for it in result.items
                    ]
                    row = {
                        "conversation": name,
                        "category": q["category"],
                        "question": q["question"],
                        "evidence": q.get("evidence", []),
                        "ratio": seen[0] if seen else None,
                        "cover": covers[0] if covers else None,
                        "items": items,
                    }
                    out.write(json.dumps(row) + "\n")
                    n += 1
                    if n % 50 == 0:
                        print(f"  {n} questions, {time.perf_counter() - t0:.0f}s", flush=True)
    finally:
        RecallWeights.for_tenant = classmethod(plain_for_tenant)
    print(f"{n} questions in {time.perf_counter() - t0:.0f}s", flush=True)


if __name__ == "__main__":
    main()
