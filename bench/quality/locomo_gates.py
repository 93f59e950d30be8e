"""Record what recall's two gates read, once per question, so abstention rules are chosen
leave one conversation out offline.

    OMP_NUM_THREADS=1 ENGRAM_TEST_DB_NAME=r34 .venv/bin/python \
        bench/quality/locomo_gates.py /path/to/locomo-dev --out gates.jsonl [--weights '{...}']

Uses the database ``locomo.py --keepdb`` left (same ``ENGRAM_TEST_DB_NAME``). Each question
is asked in this process with the defaults plus ``--weights``, and the speaker gate's
share at 0, so that gate never abstains: what it would have read is recorded instead
(``locomo_record.py`` records only its ratio). Per question (one JSON line):

- ``gate``: what the relevance gate read (``rank.fuse_and_rerank``'s candidates before
  it): how many anchors, whether every anchor is about someone else, the best lexical
  coverage, vector similarity and margin;
- ``speaker``: for a question naming one speaker, the speaker's own statements and the
  statements by others that the speaker gate weighs, each summarised (best fused
  relevance, best lexical coverage, best vector margin, whether any is an anchor);
- ``items``: the dia_ids of each returned item (with the share at 0).

A gate that only decides *whether* to answer (given these readings) gives exactly the
recorded items or nothing, so ``bench/quality/gate_rules.py`` scores any such rule from
this file.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.quality import locomo  # noqa: E402  (sets up Django)
from bench.quality.locomo_record import weights_in_this_process  # noqa: E402


def _best(cands, attr: str) -> float:
    return max((getattr(c.signals, attr) or 0.0 for c in cands), default=0.0)


def summary(cands, w, rank) -> dict:
    return {
        "n": len(cands),
        "fused": _best(cands, "fused"),
        "coverage": _best(cands, "lexical_coverage"),
        "margin": _best(cands, "vector_margin"),
        "vector": _best(cands, "vector"),
        "anchor": any(rank.is_anchor(c, w) for c in cands),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--weights", type=json.loads, default={})
    parser.add_argument("--only", default="")
    args = parser.parse_args()

    from django.conf import settings
    from django.db import connection

    from memory.recall import RecallRequest, pipeline, rank, recall
    from memory.recall.weights import RecallWeights

    convs = locomo.load_folder(args.folder)
    if args.only:
        convs = {n: c for n, c in convs.items() if n in args.only.split(",")}
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=True, serialize=False)
    ctx_file = locomo.RESULTS / f"locomo-context-{settings.DATABASES['default']['NAME']}.json"
    ctx = json.loads(ctx_file.read_text())
    os.environ["ENGRAM_RECALL_FREEZE_ACCESS"] = "1"

    seen: dict = {}
    plain_fuse = pipeline.fuse_and_rerank
    plain_scope = rank.scope_to_speaker

    def fusing(candidates, w, **kwargs):
        if "gate" not in seen:  # the whole question (parts come later, if any)
            anchors = [c for c in candidates.values() if rank.is_anchor(c, w)]
            seen["gate"] = {
                "candidates": len(candidates),
                "anchors": len(anchors),
                "coverage": _best(candidates.values(), "lexical_coverage"),
                "vector": _best(candidates.values(), "vector"),
                "margin": _best(candidates.values(), "vector_margin"),
            }
            out = plain_fuse(candidates, w, **kwargs)
            seen["gate"]["ranked"] = len(out)
            return out
        return plain_fuse(candidates, w, **kwargs)

    def scoping(kept, speaker, w, *, question="", names=frozenset()):
        said = [c for c in kept if speaker in c.record.source_speakers]
        by_others = [
            c
            for c in kept
            if speaker not in c.record.source_speakers and any(c.record.source_speakers)
        ]
        asked = question if w.addressed_sentence else ""

        def to_other(c):
            return bool(w.addressed_turns) and rank.addressed(c.record.statement, asked, names)

        own = [c for c in said if not rank.asks(c.record.statement, w.asking_share)]
        own = [c for c in own if not to_other(c)]
        against = [c for c in by_others if not to_other(c)]
        if "speaker" not in seen:
            seen["speaker"] = {
                "own": summary(own, w, rank),
                "said": summary(said, w, rank),
                "against": summary(against, w, rank),
                # the others' turns that state something (not asking): what a premise
                # test reads, since a question someone asks tells nothing
                "stating": summary(
                    [c for c in against if not rank.asks(c.record.statement)], w, rank
                ),
            }
        return plain_scope(kept, speaker, w, question=question, names=names)

    pipeline.fuse_and_rerank = fusing
    rank.scope_to_speaker = scoping
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
                    result = recall(
                        actor=actor,
                        scope=scope,
                        request=RecallRequest(query=q["question"], purpose=locomo.PURPOSE, k=10),
                        record_trace=False,
                    )
                    items = [
                        [events[str(e)] for e in it.source_event_ids if str(e) in events]
                        for it in result.items
                    ]
                    row = {
                        "conversation": name,
                        "category": q["category"],
                        "evidence": q.get("evidence", []),
                        "gate": seen.get("gate"),
                        "speaker": seen.get("speaker"),
                        "items": items,
                    }
                    out.write(json.dumps(row) + "\n")
                    n += 1
                    if n % 100 == 0:
                        print(f"  {n} questions, {time.perf_counter() - t0:.0f}s", flush=True)
    finally:
        RecallWeights.for_tenant = classmethod(plain_for_tenant)
        pipeline.fuse_and_rerank = plain_fuse
        rank.scope_to_speaker = plain_scope
    print(f"{n} questions in {time.perf_counter() - t0:.0f}s", flush=True)


if __name__ == "__main__":
    main()
