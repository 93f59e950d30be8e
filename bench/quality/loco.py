"""Leave one conversation out: how a choice made on some conversations does on another.

A rule, weight or threshold is chosen on two development conversations and checked on the
third, in every rotation. ``bench/quality/locomo.py --loco`` measures each variant on each
conversation (Recall@10 per conversation) and hands the numbers here; this module only does
the arithmetic, so it is tested without the data.

For each rotation (one conversation held out):

- the variant chosen is the one with the best mean Recall@10 on the other conversations
  (ties go to the baseline, then to the earlier variant: a change must earn its place);
- its Recall@10 on the held-out conversation is reported beside the baseline's there.

A variant is *kept* only if it helps in each rotation: better than the baseline on the
mean of the other conversations (where it would be chosen) and on the held-out one, in
every rotation. The leave-one-out figure of the whole procedure is the mean over rotations
of the held-out Recall@10 of what was chosen.
"""

from __future__ import annotations

from dataclasses import dataclass

BASELINE = "baseline"


@dataclass(frozen=True)
class Rotation:
    held_out: str
    chosen: str
    chosen_on_dev: float
    held_out_score: float
    baseline_held_out: float

    @property
    def gain(self) -> float:
        return self.held_out_score - self.baseline_held_out


@dataclass(frozen=True)
class LocoResult:
    rotations: list[Rotation]
    kept: list[str]

    @property
    def mean_held_out(self) -> float:
        return sum(r.held_out_score for r in self.rotations) / len(self.rotations)

    @property
    def mean_baseline_held_out(self) -> float:
        return sum(r.baseline_held_out for r in self.rotations) / len(self.rotations)


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


def leave_one_out(scores: dict[str, dict[str, float]]) -> LocoResult:
    """``scores[variant][conversation]`` is a Recall@10; ``BASELINE`` must be among them.

    Every variant must be scored on the same conversations, at least two of them.
    """
    if BASELINE not in scores:
        raise ValueError(f"the variants must include {BASELINE!r}")
    conversations = sorted(scores[BASELINE])
    if len(conversations) < 2:
        raise ValueError("leave-one-out needs at least two conversations")
    for name, per_conv in scores.items():
        if sorted(per_conv) != conversations:
            raise ValueError(f"variant {name!r} is not scored on {conversations}")
    order = [BASELINE] + [v for v in scores if v != BASELINE]
    rotations = []
    for held_out in conversations:
        dev = [c for c in conversations if c != held_out]
        best = max(order, key=lambda v: (_mean([scores[v][c] for c in dev]), -order.index(v)))
        rotations.append(
            Rotation(
                held_out=held_out,
                chosen=best,
                chosen_on_dev=_mean([scores[best][c] for c in dev]),
                held_out_score=scores[best][held_out],
                baseline_held_out=scores[BASELINE][held_out],
            )
        )
    kept = []
    for v in order[1:]:
        helps = True
        for held_out in conversations:
            dev = [c for c in conversations if c != held_out]
            better_on_dev = _mean([scores[v][c] for c in dev]) > _mean(
                [scores[BASELINE][c] for c in dev]
            )
            helps &= better_on_dev and scores[v][held_out] > scores[BASELINE][held_out]
        if helps:
            kept.append(v)
    return LocoResult(rotations=rotations, kept=kept)


def per_variant_table(scores: dict[str, dict[str, float]]) -> list[str]:
    """Each variant's Recall@10 per conversation, and its gain over the baseline in each."""
    conversations = sorted(scores[BASELINE])
    lines = [f"{'variant':<24}" + "".join(f"{c:>10}" for c in conversations) + "  helps in"]
    for name, per_conv in scores.items():
        cells = "".join(f"{per_conv[c]:>10.3f}" for c in conversations)
        if name == BASELINE:
            lines.append(f"{name:<24}{cells}")
            continue
        helps = sum(per_conv[c] > scores[BASELINE][c] for c in conversations)
        lines.append(f"{name:<24}{cells}  {helps}/{len(conversations)}")
    return lines


def format_result(result: LocoResult) -> list[str]:
    lines = [
        f"{'held out':<10}{'chosen on the others':<26}{'dev R@10':>10}"
        f"{'held-out R@10':>15}{'baseline':>10}{'gain':>9}"
    ]
    for r in result.rotations:
        lines.append(
            f"{r.held_out:<10}{r.chosen:<26}{r.chosen_on_dev:>10.3f}"
            f"{r.held_out_score:>15.3f}{r.baseline_held_out:>10.3f}{r.gain:>+9.3f}"
        )
    lines.append(
        f"{'mean':<10}{'':<26}{'':>10}{result.mean_held_out:>15.3f}"
        f"{result.mean_baseline_held_out:>10.3f}"
        f"{result.mean_held_out - result.mean_baseline_held_out:>+9.3f}"
    )
    lines.append("kept (helps in every rotation): " + (", ".join(result.kept) or "none"))
    return lines
