"""The abstention gates' thresholds chosen leave one conversation out, offline, from what
``locomo_record.py`` recorded (each question asked once; no database).

    .venv/bin/python bench/quality/gate_loco.py run.jsonl [--empty-target 0.04]

A threshold pair is (``share``: the speaker gate's ``named_speaker_share``; ``floor``:
abstain when the best returned item's ``final`` score is under it, 0: off). For each
rotation the pair is chosen on the other conversations by one rule, then read on the
held-out one beside the defaults (share 0.6, floor 0). Three rules:

- ``guard``: the most adversarial questions abstained with Recall@10 no lower and no more
  answerable questions left empty than the defaults' on those conversations (round 3's
  condition for a change to the speaker gate); ties: higher Recall@10, lower thresholds;

- ``target``: the most adversarial questions abstained while the answerable questions
  left empty stay within ``--empty-target`` of them (the issue's 4 %); ties: higher
  Recall@10, then the lower thresholds;
- ``utility``: the best mean over all questions of Recall@10 (answerable) and 1 for an
  abstention (adversarial), each question counted once.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

CATS = {1: "multi-hop", 2: "temporal", 3: "inference", 4: "open"}
DEFAULT = (0.6, 0.0, 0.0)


def load(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def answered(row: dict, share: float, floor: float, band: float = 0.0) -> list[list[str]]:
    if row["ratio"] is not None and row["ratio"] < share:
        return []
    # ``band``: under that ratio, also abstain when another speaker's turn holds more of
    # the question's words than any of the speaker's own statements.
    cover = row.get("cover")
    ratio = row["ratio"]
    if band and cover is not None and ratio is not None and ratio < band and cover[0] < cover[1]:
        return []
    items = row["items"]
    if floor and (not items or max(it["scores"].get("final", 0.0) for it in items) < floor):
        return []
    return [it["dia"] for it in items]


def r10(evidence: list[str], ranked: list[list[str]]) -> float:
    wanted = set(evidence)
    if not wanted:
        return 0.0
    got = {d for ids in ranked[:10] for d in ids}
    return len(wanted & got) / len(wanted)


def measure(rows: list[dict], share: float, floor: float, band: float = 0.0) -> dict:
    recall, cats = [], defaultdict(list)
    abstained = adversarial = empty = 0
    for row in rows:
        ranked = answered(row, share, floor, band)
        if row["category"] == 5:
            adversarial += 1
            abstained += not ranked
            continue
        empty += not ranked
        value = r10(row["evidence"], ranked)
        recall.append(value)
        cats[row["category"]].append(value)
    n = len(recall)
    return {
        "r10": sum(recall) / n,
        "recall_sum": sum(recall),
        "answerable": n,
        "adversarial": adversarial,
        "abstained": abstained,
        "empty": empty,
        "cats": {CATS[c]: sum(v) / len(v) for c, v in sorted(cats.items())},
    }


def pooled(ms: list[dict]) -> dict:
    n = sum(m["answerable"] for m in ms)
    a = sum(m["adversarial"] for m in ms)
    return {
        "r10": sum(m["recall_sum"] for m in ms) / n,
        "abstention": sum(m["abstained"] for m in ms) / a,
        "empty_rate": sum(m["empty"] for m in ms) / n,
        "utility": (sum(m["recall_sum"] for m in ms) + sum(m["abstained"] for m in ms)) / (n + a),
    }


def choose(by_conv: dict, pairs: list, train: list[str], rule: str, target: float) -> tuple:
    def key(pair):
        p = pooled([by_conv[c][pair] for c in train])
        if rule == "utility":
            return (p["utility"], *(-x for x in pair))
        if rule == "guard":
            d = pooled([by_conv[c][DEFAULT] for c in train])
            ok = p["r10"] >= d["r10"] - 1e-9 and p["empty_rate"] <= d["empty_rate"] + 1e-9
            return (ok, p["abstention"], p["r10"], *(-x for x in pair))
        ok = p["empty_rate"] <= target
        return (ok, p["abstention"] if ok else -p["empty_rate"], p["r10"], *(-x for x in pair))

    return max(pairs, key=key)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("records", type=Path)
    parser.add_argument("--empty-target", type=float, default=0.04)
    parser.add_argument("--no-floor", action="store_true", help="the share alone")
    parser.add_argument("--band", action="store_true", help="also the cover band")
    args = parser.parse_args()
    rows = load(args.records)
    convs = sorted({r["conversation"] for r in rows})
    finals = sorted(
        max(it["scores"].get("final", 0.0) for it in r["items"]) for r in rows if r["items"]
    )
    floors = [0.0]
    if not args.no_floor:
        floors += sorted(
            {
                round(finals[int(q * len(finals))], 3)
                for q in (0.01, 0.02, 0.03, 0.05, 0.08, 0.1, 0.15, 0.2)
            }
        )
    shares = [round(0.4 + 0.025 * i, 3) for i in range(17)]
    bands = [0.0]
    if args.band:
        bands += [round(0.7 + 0.05 * i, 2) for i in range(8)]
    pairs = [(s, f, b) for s in shares for f in floors for b in bands]
    if DEFAULT not in pairs:
        pairs.append(DEFAULT)
    by_conv = {
        c: {p: measure([r for r in rows if r["conversation"] == c], *p) for p in pairs}
        for c in convs
    }

    def cell(m: dict) -> str:
        return f"{m['r10']:.3f} · {m['abstained'] / m['adversarial']:.3f} · {m['empty']}"

    print("defaults (share 0.6, floor 0): R@10 · abstention · empty per conversation")
    print("  " + "  ".join(f"{c}: {cell(by_conv[c][DEFAULT])}" for c in convs))
    for rule in ("guard", "target", "utility"):
        print(f"\nrule {rule}:")
        print(
            "| held out | chosen (share, floor) | held-out R@10 · abstention · empty | defaults |"
        )
        gains = []
        for held in convs:
            train = [c for c in convs if c != held]
            pair = choose(by_conv, pairs, train, rule, args.empty_target)
            m, d = by_conv[held][pair], by_conv[held][DEFAULT]
            gains.append((m, d))
            print(f"| {held} | {pair} | {cell(m)} | {cell(d)} |")
            print(f"|   | categories | {m['cats']} | {d['cats']} |")
        ms, ds = [g[0] for g in gains], [g[1] for g in gains]
        pm, pd = pooled(ms), pooled(ds)
        print(
            f"pooled held-out: R@10 {pm['r10']:.3f} (defaults {pd['r10']:.3f}), abstention "
            f"{pm['abstention']:.3f} ({pd['abstention']:.3f}), empty {pm['empty_rate']:.3f} "
            f"({pd['empty_rate']:.3f}); mean of rotations' R@10 "
            f"{sum(m['r10'] for m in ms) / 3:.3f} ({sum(d['r10'] for d in ds) / 3:.3f})"
        )
    print("\nshare alone, floor 0: R@10 · abstention · empty per conversation")
    for s in shares:
        print(f"  {s:<6}" + "  ".join(f"{c}: {cell(by_conv[c][(s, 0.0, 0.0)])}" for c in convs))
    for b in bands[1:]:
        print(
            f"  share 0.6, band {b}: "
            + "  ".join(f"{c}: {cell(by_conv[c][(0.6, 0.0, b)])}" for c in convs)
        )


if __name__ == "__main__":
    main()
