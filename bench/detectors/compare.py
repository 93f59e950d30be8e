"""Two sets of learned-detector weights compared through the real write path on labelled
probe sets (the format of tests/data/detector_probe*_report.jsonl: ``class``, ``label``,
``kind``), each row a fresh subject as ``bench/quality/detectors_heldout.py`` proposes it.

    .venv/bin/python bench/detectors/compare.py OLD.npz NEW.npz [FILE ...] [--misses]

Without files: every ``tests/data/detector_probe*_report.jsonl`` (the report halves) and
``tests/data/detector_probe3.jsonl``/``detector_probe4.jsonl``. Never the held-out set
(``bench/quality/detectors_heldout.py`` measures that, at most a few runs a round).
Each weights file is scored in its own process (the heads are loaded once per process).
Needs the configured database (``manage.py migrate`` first).

``--heads``: no database, the learned heads alone (both files in one process, one
embedding per text shared by both): per class, the positives each file's head of that class
detects and the negatives it wrongly detects; for credentials and special categories also
with the rules' verdicts joined (``bench/detectors/probe.py``), what the write policy refuses
or holds from the two.
"""

from __future__ import annotations

import argparse
import json
import logging
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
DATA = ROOT / "tests" / "data"


def default_files() -> list[Path]:
    files = sorted(DATA.glob("detector_probe*_report.jsonl"))
    return files + [DATA / "detector_probe3.jsonl", DATA / "detector_probe4.jsonl"]


def score(weights: Path, files: list[Path]) -> dict:
    """{file: {key: [right, total, [missed texts]]}} with ``weights`` as the heads."""
    from bench._harness import django_setup

    django_setup()
    logging.getLogger("celery").setLevel(logging.WARNING)
    import memory.detectors.learned as learned

    learned.WEIGHTS = weights
    learned.Model.__init__.__defaults__ = (weights,)
    from accounts.models import Agent, Tenant
    from accounts.services.tenants import agent_create, tenant_create
    from bench.quality.detectors_heldout import load, submit_all
    from core.actor import Actor

    tenant = Tenant.objects.filter(slug="bench-compare").first() or tenant_create(
        slug="bench-compare", name="Benchmarks (learned weights compared)"
    )
    agent = Agent.objects.filter(tenant=tenant, name="bench").first() or agent_create(
        actor=Actor.system(tenant.id, "bench"), tenant=tenant, name="bench"
    )
    out: dict = {}
    for path in files:
        summary: dict = defaultdict(lambda: [0, 0, []])
        for r in submit_all(tenant, agent, load(path)):
            key = r.row["class"] + ("/negative" if r.row["label"] == "store" else "")
            summary[key][0] += r.correct
            summary[key][1] += 1
            if not r.correct:
                summary[key][2].append(r.row["text"])
        out[path.name] = dict(summary)
    return out


HEAD_OF = {
    "credential": "credential",
    "special_category": "special_category",
    "instruction_tool": "instruction",
    "future_change": "future",
    "transient": "transient",
}


def heads(old: Path, new: Path, files: list[Path]) -> dict:
    """{file: {key: [old right, new right, total, [changed texts]]}} by the heads alone."""
    from bench._harness import django_setup

    django_setup()
    from bench.detectors.probe import verdicts
    from bench.quality.detectors_heldout import load
    from memory.detectors.learned import Model, embed

    models = Model(old), Model(new)
    out: dict = {}
    for path in files:
        summary: dict = defaultdict(lambda: [0, 0, 0, []])
        for row in load(path):
            text = row["text"]
            logits = [m.ngram_logits(text) for m in models]
            need = any(m.needs_embedding(text, lg) for m, lg in zip(models, logits, strict=True))
            vector = embed([text])[0] if need else None
            found = [
                {c for c, p in m.scores(text, vector=vector, logits=lg).items() if p >= 0.5}
                for m, lg in zip(models, logits, strict=True)
            ]
            rules = verdicts(text, learned=False)
            negative = row["label"] == "store"
            for cls, head in HEAD_OF.items():
                if row["class"] != cls and not (negative and row["class"] == "ordinary"):
                    continue
                ok = [(head in f) != negative for f in found]
                key = head + ("/negative" if negative else "")
                if row["class"] == "ordinary":
                    key = f"ordinary, {head} head"
                if head in ("credential", "special_category"):
                    rule = rules[0] if head == "credential" else rules[1]
                    ok2 = [((head in f) or rule) != negative for f in found]
                    s2 = summary[key + " +rules"]
                    s2[0], s2[1], s2[2] = s2[0] + ok2[0], s2[1] + ok2[1], s2[2] + 1
                s = summary[key]
                s[0], s[1], s[2] = s[0] + ok[0], s[1] + ok[1], s[2] + 1
                if ok[0] != ok[1]:
                    s[3].append(("now right: " if ok[1] else "now wrong: ") + text[:100])
        out[path.name] = dict(summary)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--misses", action="store_true", help="print what changed")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--heads", action="store_true", help="the learned heads alone, no DB")
    args = parser.parse_args()
    files = args.files or default_files()
    if args.heads:
        result = heads(args.old, args.new, files)
        totals: dict = defaultdict(lambda: [0, 0, 0])
        print(f"{'file / head (right of total)':<62}{'old':>9}{'new':>9}")
        for name, summary in result.items():
            for key, (a, b, n, changed) in sorted(summary.items()):
                mark = "" if a == b else ("  +" if b > a else "  -")
                print(
                    f"{name.removesuffix('.jsonl') + ' ' + key:<62}{a:>5}/{n:<3}{b:>5}/{n:<3}{mark}"
                )
                for t in changed if args.misses else ():
                    print(f"    {t}")
                totals[key][0] += a
                totals[key][1] += b
                totals[key][2] += n
        print("totals:")
        for key, (a, b, n) in sorted(totals.items()):
            print(f"  {key:<58}{a:>5}/{n:<4}{b:>5}/{n:<4}")
        return
    if args.one:  # the child process: score args.old alone, JSON on stdout
        print(json.dumps(score(args.old, files)))
        return
    results = []
    for weights in (args.old, args.new):
        cmd = [sys.executable, __file__, "--one", str(weights), str(weights), *map(str, files)]
        done = subprocess.run(cmd, capture_output=True, text=True, check=True)
        results.append(json.loads(done.stdout.strip().splitlines()[-1]))
    old, new = results
    print(f"{'file / set (right of total)':<62}{'old':>8}{'new':>8}")
    totals: dict = defaultdict(lambda: [0, 0, 0])
    for name in old:
        for key in sorted(old[name]):
            a, n, missed_a = old[name][key]
            b, _, missed_b = new[name][key]
            mark = "" if a == b else ("  +" if b > a else "  -")
            print(f"{name.removesuffix('.jsonl') + ' ' + key:<62}{a:>5}/{n:<3}{b:>5}/{n:<3}{mark}")
            totals[key][0] += a
            totals[key][1] += b
            totals[key][2] += n
            if args.misses:
                for text in sorted(set(missed_a) ^ set(missed_b)):
                    print(f"    {'now right' if text in missed_a else 'now wrong'}: {text[:110]}")
    print("totals:")
    for key, (a, b, n) in sorted(totals.items()):
        print(f"  {key:<58}{a:>5}/{n:<4}{b:>5}/{n:<4}")


if __name__ == "__main__":
    main()
