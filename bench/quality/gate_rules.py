"""Abstention rules scored offline, leave one conversation out, from what
``locomo_gates.py`` recorded (the items each question gets with the speaker gate open, and
what the gates read).

    .venv/bin/python bench/quality/gate_rules.py gates.jsonl

A rule sees one recorded question and says whether recall abstains on it; an abstaining
rule turns the recorded items into nothing, which is exactly what recall would return. The
grid: the speaker gate's share (``named_speaker_share``) 0.4-0.65, each with and without
``named_speaker_outweighed`` (``rank.outweighed``). Each member's row: Recall@10,
adversarial abstention and answerable questions left empty per conversation. Then, in each
rotation, the member chosen on the other two conversations by round 3's guard (the most
abstention with Recall@10 no lower and no more answerable questions empty than the
defaults on each of them), checked on the one held out.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

Rule = Callable[[dict], bool]


def speaker_ratio(row: dict) -> float | None:
    """The speaker gate's ratio (own best fused over the others' best), None when that
    gate does not weigh the question (no speaker, or no statement by another)."""
    s = row.get("speaker")
    if not s or not s["against"]["n"]:
        return None
    best_other = s["against"]["fused"]
    return s["own"]["fused"] / best_other if best_other else None


_EVIDENCE = ("fused", "coverage", "vector", "margin")


def gate_rule(share: float, outweighed: bool = False) -> Rule:
    """The speaker gate at ``share``, with ``named_speaker_outweighed`` on or off (the same
    reading as ``rank.outweighed``: every best reading of the other speaker's stating
    turns above the speaker's own best)."""

    def rule(row: dict) -> bool:
        ratio = speaker_ratio(row)
        if ratio is None:
            return False
        if ratio < share:
            return True
        if not outweighed:
            return False
        own, stating = row["speaker"]["own"], row["speaker"].get("stating")
        if stating is None:
            raise SystemExit("recorded before 'stating' was: record again")
        return bool(stating["n"]) and all(own[k] < stating[k] for k in _EVIDENCE)

    return rule


def _recall10(evidence: list[str], items: list[list[str]]) -> float:
    """Evidence Recall@10, as ``locomo.evidence_recall`` counts it."""
    wanted = set(evidence)
    got = {dia for ids in items[:10] for dia in ids}
    return len(wanted & got) / len(wanted) if wanted else 0.0


def score(rows: list[dict], rule: Rule) -> dict[str, dict]:
    """Per conversation: Recall@10 over the answerable questions (categories 1-4),
    adversarial abstention (category 5 answered empty) and answerable questions left
    empty, with ``rule`` deciding which questions abstain."""
    recalls: dict[str, list[float]] = defaultdict(list)
    abstained: dict[str, list[bool]] = defaultdict(list)
    empty: dict[str, int] = defaultdict(int)
    for row in rows:
        items = [] if rule(row) else row["items"]
        conv = row["conversation"]
        if row["category"] == 5:
            abstained[conv].append(not items)
            continue
        empty[conv] += not items
        recalls[conv].append(_recall10(row["evidence"], items))
    return {
        conv: {
            "r10": round(sum(values) / len(values), 4),
            "abst": round(sum(abstained[conv]) / len(abstained[conv]), 3)
            if abstained[conv]
            else 0.0,
            "empty": empty[conv],
        }
        for conv, values in sorted(recalls.items())
    }


def guard_choice(results: dict[str, dict[str, dict]], baseline: str, dev: list[str]) -> str:
    """Round 3's rule for an abstention change, on the conversations ``dev``: the most
    adversarial abstention (mean) among the members whose Recall@10 is no lower and that
    leave no more answerable questions empty than the baseline on each of them; ties go
    to the higher Recall@10, then the baseline, then the earlier member."""
    base = results[baseline]

    def allowed(name: str) -> bool:
        r = results[name]
        return all(r[c]["r10"] >= base[c]["r10"] and r[c]["empty"] <= base[c]["empty"] for c in dev)

    def value(name: str) -> tuple[float, float]:
        r = results[name]
        return (
            round(sum(r[c]["abst"] for c in dev), 6),
            round(sum(r[c]["r10"] for c in dev), 6),
        )

    best = baseline
    for name in results:
        if allowed(name) and value(name) > value(best):
            best = name
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("records", type=Path, help="a locomo_gates.py --out file")
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.records.read_text().splitlines() if line]
    baseline = "share 0.6"
    grid = {baseline: gate_rule(0.6)}
    for share in (0.4, 0.45, 0.5, 0.55, 0.6, 0.65):
        if share != 0.6:
            grid[f"share {share}"] = gate_rule(share)
        grid[f"share {share} + outweighed"] = gate_rule(share, outweighed=True)
    results = {name: score(rows, rule) for name, rule in grid.items()}
    convs = sorted(next(iter(results.values())))
    print("Recall@10 · adversarial abstained · answerable left empty")
    print(f"{'rule':<28}" + "".join(f"{c:>22}" for c in convs))
    for name, per in results.items():
        cells = "".join(
            f"{per[c]['r10']:>10.4f} · {per[c]['abst']:.3f} · {per[c]['empty']:<2}" for c in convs
        )
        print(f"{name:<28}{cells}")
    print("\nheld out  chosen on the other two (guard)   held-out R@10 · abst · empty  (baseline)")
    for held in convs:
        dev = [c for c in convs if c != held]
        chosen = guard_choice(results, baseline, dev)
        h, b = results[chosen][held], results[baseline][held]
        print(
            f"{held:<10}{chosen:<34}{h['r10']:.4f} · {h['abst']:.3f} · {h['empty']:<3}"
            f"({b['r10']:.4f} · {b['abst']:.3f} · {b['empty']})"
        )


if __name__ == "__main__":
    main()
