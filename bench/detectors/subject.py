"""The special-category embedding head's second reading, for every sentence that names the
user in the first person (``memory.detectors.first_person``), not only in the n-gram
head's unsure band: ``thresholds["special_category"]["subject_hold"]``.

    .venv/bin/python bench/detectors/subject.py [--main-split] [--write]

Chosen like the lines of ``train.py``, on heads trained on the training split (n-gram and
embedding heads, passages bare and after a random ordinary turn): the lowest line at which,
with the cascade kept as it is, validation precision stays >= PRECISION, no ordinary
validation sentence and at most HARD_NEGATIVE_RATE of the special-category hard negatives
(other people, fiction, news, a job in the field, a past cold) are held; then raised until
at most SUBJECT_BUDGET more ordinary turns (LoCoMo dev + our Chinese conversation, bare
and after their own turn) that name the user reach it. Then carried over to the shipped
embedding head (raised, never lowered, to keep that budget). ``--main-split``: the split
and corpus the shipped weights of 2026-12-05 were chosen on (``valued.py``).
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

# Ordinary turns naming the user that the second reading may hold, over what the cascade
# holds: one (3 of 1,607 turns are held today, 1.9 per 1,000; four would be 2.5).
SUBJECT_BUDGET = 1


def names_user(texts: list[str]) -> np.ndarray:
    from memory.detectors.first_person import first_person
    from memory.detectors.learned import value_text

    return np.array([first_person(value_text(t)) for t in texts])


def choose_subject(held, pe, y, subj, plain, hard, pe_ord, ord_subj, ord_held) -> dict:
    from bench.detectors.train import HARD_NEGATIVE_RATE, PRECISION, VAL_ORDINARY_BUDGET

    line = 0.999
    for t in np.arange(0.05, 0.999, 0.005):
        hit = held | (subj & (pe >= t))
        if y[hit].mean() < PRECISION["special_category"]:
            continue
        if int((hit & plain).sum()) > VAL_ORDINARY_BUDGET["special_category"]:
            continue
        if hard.sum() and (hit & hard).sum() / hard.sum() > HARD_NEGATIVE_RATE:
            continue
        line = float(round(t, 4))
        break
    line = max(line, _ordinary_line(pe_ord, ord_subj & ~ord_held))
    hit = held | (subj & (pe >= line))
    pos = max(int(y.sum()), 1)
    return {
        "subject_hold": line,
        "validation_recall_before": round(int((held & (y > 0)).sum()) / pos, 3),
        "validation_recall_after": round(int((hit & (y > 0)).sum()) / pos, 3),
        "validation_fp_before": int((held & (y == 0)).sum()),
        "validation_fp_after": int((hit & (y == 0)).sum()),
        "validation_hard_after": f"{int((hit & hard).sum())}/{int(hard.sum())}",
        "validation_naming_user": int(subj.sum()),
        "ordinary_passages_naming_user": int(ord_subj.sum()),
    }


def _curve(held, pe, y, subj, hard, pe_ord, ord_pool) -> None:
    print(f"{'line':>6}{'recall':>8}{'FP':>5}{'hard':>6}{'ordinary':>10}")
    for t in np.arange(0.5, 1.0, 0.05):
        hit = held | (subj & (pe >= t))
        print(
            f"{t:6.2f}{(hit & (y > 0)).sum() / max(y.sum(), 1):8.3f}{int((hit & (y == 0)).sum()):5}"
            f"{int((hit & hard).sum()):6}{int((ord_pool & (pe_ord >= t)).sum()):10}"
        )


def _ordinary_line(pe_ord, pool) -> float:
    ranked = np.sort(pe_ord[pool])[::-1]
    t_fr = float(ranked[SUBJECT_BUDGET]) if len(ranked) > SUBJECT_BUDGET else 0.0
    return float(min((np.floor(t_fr * 1e4) + 1) / 1e4, 0.999))


def _main_split(rows, seed: int = 0, share: float = 0.2):
    """train.py's split before 2026-12-06: 20 % of each (class, label, language) stratum
    by a seeded shuffle of file order (the split the shipped weights were chosen on)."""
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


def _write(path: Path, figures: dict) -> None:
    """Adds the line (and how it was chosen) to the weights' metadata."""
    with np.load(path, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(str(arrays["meta"]))
    meta["thresholds"]["special_category"]["subject_hold"] = figures["subject_hold_shipped"]
    meta["subject_line"] = figures
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez_compressed(path, **arrays)
    print(f"wrote subject_hold={figures['subject_hold_shipped']} into {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--main-split", action="store_true")
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--curve", action="store_true", help="validation figures per line")
    args = parser.parse_args()
    from bench.detectors import train as T

    T._setup()
    from memory.detectors.learned import CLASSES, WEIGHTS, Model

    corpus = T.CORPUS
    if args.main_split:
        corpus = Path(tempfile.mkdtemp(prefix="engram-subject-"))
        for f in T.CORPUS.glob("*.jsonl"):
            if not re.search(r"_\d+$", f.stem):
                (corpus / f.name).symlink_to(f)
    rows = T.load_corpus(corpus) + T.load_rule_corpora()
    tr, va = _main_split(rows) if args.main_split else T.split(rows)
    texts = [r[0] for r in rows]
    y = np.array([[1.0 if r[1] == c else 0.0 for c in CLASSES] for r in rows], dtype=np.float32)
    pool = T.ordinary_turns(T.LOCOMO)
    ordinary = [t for t, _ in pool]
    j = CLASSES.index("special_category")
    X_tr = T.featurise([texts[i] for i in tr], T.BITS)
    X_va = T.featurise([texts[i] for i in va], T.BITS)
    X_ord = T.featurise(ordinary, T.BITS)
    W, b = T.train(X_tr, y[tr], len(tr), T.BITS)
    p_va = T.predict(W, b, X_va, len(va))
    p_ord = T.predict(W, b, X_ord, len(ordinary))
    plain = np.array([rows[i][2].startswith(("ordinary/", "rules/negative")) for i in va])
    hard = np.array([rows[i][2].startswith("special_category/") for i in va]) & (y[va][:, j] == 0)
    model = Model(WEIGHTS)
    th = {c: dict(model.meta["thresholds"][c]) for c in CLASSES}
    th[CLASSES[j]]["hold"] = T.choose_threshold(
        p_va[:, j], y[va][:, j], p_ord[:, j], T.PRECISION["special_category"],
        T.BUDGET["special_category"], plain, hard[:], "special_category",
    )  # fmt: skip
    lines = [r[0] for r in rows if r[2].startswith("ordinary/")]
    E_bare = T.embeddings(texts, "corpus")
    E_ctx = T.embeddings(T.with_context(texts, lines), "corpus after a random ordinary turn")
    E_ord = np.vstack(
        [T.embeddings(ordinary, "ordinary"), T.embeddings(T.passages(pool), "ordinary after")]
    )
    two = lambda a: np.concatenate([a, a])  # noqa: E731
    We, be = T.train_dense(np.vstack([E_bare[tr], E_ctx[tr]]), two(y[tr]))
    E_va = np.vstack([E_bare[va], E_ctx[va]])
    pe_va = T.predict_dense(We, be, E_va)
    final, _ = T.cascade(two(p_va), pe_va, th, CLASSES, T.UNSURE_LOGIT, model.meta["embed_classes"])
    held = final[:, j] >= 0.5
    pe_ord = T.predict_dense(We, be, E_ord)
    ord_final, _ = T.cascade(
        two(p_ord), pe_ord, th, CLASSES, T.UNSURE_LOGIT, model.meta["embed_classes"]
    )
    ord_subj = two(names_user(ordinary))
    figures = choose_subject(
        held, pe_va[:, j], two(y[va][:, j]), two(names_user([texts[i] for i in va])),
        two(plain), two(hard), pe_ord[:, j], ord_subj, ord_final[:, j] >= 0.5,
    )  # fmt: skip
    if args.curve:
        _curve(held, pe_va[:, j], two(y[va][:, j]), two(names_user([texts[i] for i in va])),
               two(hard), pe_ord[:, j], ord_subj & ~(ord_final[:, j] >= 0.5))  # fmt: skip
    # Carried over to the shipped embedding head.
    shipped = 1 / (1 + np.exp(-(E_ord.astype(np.float64) @ model.emb_weights + model.emb_bias)))
    ord_logits = np.array([model.ngram_logits(t) for t in ordinary])
    ord_held = two(ord_logits[:, j] >= 0)
    figures["subject_hold_shipped"] = max(
        figures["subject_hold"], _ordinary_line(shipped[:, j], ord_subj & ~ord_held)
    )
    print(json.dumps(figures, indent=1))
    if args.write:
        _write(WEIGHTS, figures)


if __name__ == "__main__":
    main()
