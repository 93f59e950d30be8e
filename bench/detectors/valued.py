"""The credential head's second line, for sentences that carry a secret-shaped value
(``memory.detectors.values``): ``thresholds["credential"]["refuse_valued"]``.

    .venv/bin/python bench/detectors/valued.py [--main-split] [--write]

Chosen like every line of ``train.py``, on the n-gram heads trained on the training split:
the lowest line at which, with the head's own line (``hold``) kept for every other
sentence, the credential head's validation precision stays >= PRECISION, no ordinary
validation sentence and at most HARD_NEGATIVE_RATE of the credential hard negatives are
refused; then raised until at most BUDGET ordinary turns (LoCoMo dev + our Chinese
conversation) *that carry such a value themselves* reach it. The ordinary budget is counted
over those turns because only they can meet the lower line.

Then carried over to the shipped heads (``weights.npz``, trained on all the data): raised,
never lowered, until the shipped head keeps the same budget on those ordinary turns.
``--main-split`` reproduces the split and corpus the shipped weights of 2026-12-05 were
chosen on (the first-pass files, a per-stratum shuffle with seed 0) so that the line is
chosen for those heads; ``--write`` adds the line to ``weights.npz``'s metadata.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def valued(texts: list[str]) -> np.ndarray:
    from memory.detectors.learned import value_text
    from memory.detectors.values import carries_secret_value

    return np.array([carries_secret_value(value_text(t)) for t in texts])


def choose_valued(p, y, has_value, plain, hard, p_ord, ord_value, hold: float) -> dict:
    """(line, figures): ``p`` the credential head's validation scores, ``y`` its labels,
    ``has_value``/``ord_value`` which validation rows / ordinary turns carry a value."""
    from bench.detectors.train import (
        BUDGET,
        HARD_NEGATIVE_RATE,
        PRECISION,
        VAL_ORDINARY_BUDGET,
    )

    base = p >= hold
    line = hold
    for t in np.arange(0.05, hold, 0.005):
        hit = base | (has_value & (p >= t))
        if y[hit].mean() < PRECISION["credential"]:
            continue
        if int((hit & plain).sum()) > VAL_ORDINARY_BUDGET["credential"]:
            continue
        if hard.sum() and (hit & hard).sum() / hard.sum() > HARD_NEGATIVE_RATE:
            continue
        line = float(round(t, 4))
        break
    ranked = np.sort(p_ord[ord_value])[::-1]
    budget = BUDGET["credential"]
    t_fr = float(ranked[budget]) if len(ranked) > budget else 0.0
    line = float(min(max(line, (np.floor(t_fr * 1e4) + 1) / 1e4), hold))
    hit = base | (has_value & (p >= line))
    pos = max(int(y.sum()), 1)
    return {
        "refuse_valued": line,
        "validation_recall_before": round(int((base & (y > 0)).sum()) / pos, 3),
        "validation_recall_after": round(int((hit & (y > 0)).sum()) / pos, 3),
        "validation_fp_after": int((hit & (y == 0)).sum()),
        "validation_with_value": int(has_value.sum()),
        "validation_positives_with_value": int((has_value & (y > 0)).sum()),
        "ordinary_with_value": int(ord_value.sum()),
        "ordinary_top_with_value": [round(float(x), 4) for x in ranked[:3]],
    }


def _curve(p, y, has_value, plain, hard, hold: float) -> None:
    base = p >= hold
    hv = hard & has_value
    print(
        f"hard negatives {int(hard.sum())}, with a value {int(hv.sum())}; plain with a value "
        f"{int((plain & has_value).sum())}"
    )
    print(f"{'line':>6}{'recall':>8}{'FP':>4}{'hard':>6}{'hard/v':>8}{'plain':>6}")
    for t in np.arange(0.30, hold + 0.001, 0.05):
        hit = base | (has_value & (p >= t))
        print(
            f"{t:6.2f}{(hit & (y > 0)).sum() / max(y.sum(), 1):8.3f}{int((hit & (y == 0)).sum()):4}"
            f"{int((hit & hard).sum()):6}{int((hit & hv).sum()):8}{int((hit & plain).sum()):6}"
        )


def carry_over(line: float, p_ord_final, ord_value) -> float:
    """Raised, never lowered, to keep the budget with the shipped heads."""
    from bench.detectors.train import BUDGET

    ranked = np.sort(p_ord_final[ord_value])[::-1]
    budget = BUDGET["credential"]
    t_fr = float(ranked[budget]) if len(ranked) > budget else 0.0
    return float(min(max(line, (np.floor(t_fr * 1e4) + 1) / 1e4), 0.999))


def _main_split(rows, seed: int = 0, share: float = 0.2):
    """train.py's split before 2026-12-06: 20 % of each (class, label, language) stratum
    by a seeded shuffle of file order."""
    by: dict[str, list[int]] = defaultdict(list)
    for i, r in enumerate(rows):
        by[r[2]].append(i)
    rng = random.Random(seed)
    val: set[int] = set()
    for key in sorted(by):
        items = by[key][:]
        rng.shuffle(items)
        val.update(items[: int(round(len(items) * share))])
    return [i for i in range(len(rows)) if i not in val], sorted(val)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--main-split", action="store_true")
    parser.add_argument("--weights", type=Path, default=None)
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--curve", action="store_true", help="validation figures per line")
    args = parser.parse_args()
    from bench.detectors import train as T

    T._setup()
    from memory.detectors.learned import CLASSES, WEIGHTS, Model

    path = args.weights or WEIGHTS
    corpus = T.CORPUS
    if args.main_split:  # the first-pass corpus files only (no <class>_<n>.jsonl)
        corpus = Path(tempfile.mkdtemp(prefix="engram-valued-"))
        for f in T.CORPUS.glob("*.jsonl"):
            if not re.search(r"_\d+$", f.stem):
                (corpus / f.name).symlink_to(f)
    rows = T.load_corpus(corpus) + T.load_rule_corpora()
    tr, va = _main_split(rows) if args.main_split else T.split(rows)
    texts = [r[0] for r in rows]
    y = np.array([[1.0 if r[1] == c else 0.0 for c in CLASSES] for r in rows], dtype=np.float32)
    ordinary = [t for t, _ in T.ordinary_turns(T.LOCOMO)]
    print(f"{len(rows)} sentences, {len(tr)} train, {len(va)} validation, {len(ordinary)} ordinary")
    X_tr = T.featurise([texts[i] for i in tr], T.BITS)
    X_va = T.featurise([texts[i] for i in va], T.BITS)
    X_ord = T.featurise(ordinary, T.BITS)
    W, b = T.train(X_tr, y[tr], len(tr), T.BITS)
    j = CLASSES.index("credential")
    p_va = T.predict(W, b, X_va, len(va))[:, j]
    p_ord = T.predict(W, b, X_ord, len(ordinary))[:, j]
    plain = np.array([rows[i][2].startswith(("ordinary/", "rules/negative")) for i in va])
    hard = np.array([rows[i][2].startswith("credential/") for i in va]) & (y[va][:, j] == 0)
    hold = T.choose_threshold(
        p_va, y[va][:, j], p_ord, T.PRECISION["credential"], T.BUDGET["credential"],
        plain, hard, "credential",
    )  # fmt: skip
    figures = choose_valued(
        p_va,
        y[va][:, j],
        valued([texts[i] for i in va]),
        plain,
        hard,
        p_ord,
        valued(ordinary),
        hold,
    )
    figures["hold_on_split"] = hold
    if args.curve:
        _curve(p_va, y[va][:, j], valued([texts[i] for i in va]), plain, hard, hold)
    model = Model(path)
    # The shipped head's own score of each ordinary turn (its logit, unshifted).
    p_final = np.array(
        [1 / (1 + np.exp(-(model.ngram_logits(t, valued=False)[j] + model.hold_logit[j])))
         for t in ordinary]
    )  # fmt: skip
    figures["refuse_valued_shipped"] = carry_over(
        figures["refuse_valued"], p_final, valued(ordinary)
    )
    figures["shipped_hold"] = model.meta["thresholds"]["credential"]["hold"]
    print(json.dumps(figures, indent=1))
    if args.write:
        _write(path, figures)


def _write(path: Path, figures: dict) -> None:
    with np.load(path, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(str(arrays["meta"]))
    meta["thresholds"]["credential"]["refuse_valued"] = figures["refuse_valued_shipped"]
    meta["valued_line"] = {k: v for k, v in figures.items() if k != "refuse_valued_shipped"}
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez_compressed(path, **arrays)
    print(f"wrote refuse_valued={figures['refuse_valued_shipped']} into {path}")


if __name__ == "__main__":
    main()
