"""Train the learned detectors (memory/detectors/learned): one logistic-regression head per
class over hashed character n-grams, numpy only, deterministic (seed 0).

    .venv/bin/python bench/detectors/train.py [--corpus DIR] [--locomo DIR] [--write]

Data (never the held-out set, tests/data/detector_heldout.jsonl, which only measures):
- the training corpus, ``bench/detectors/corpus/<class>.jsonl`` (``{"text", "lang",
  "class", "label", "kind": "positive" | "hard_negative"}``): a positive is a positive of
  its class; a hard negative and every ordinary sentence are negatives of every class;
- the labelled corpora the rule detectors were written with (``tests/security``).
Each head is one-vs-rest: another class's positives are its negatives.

Split: about 80/20 by a hash of each sentence's text (``split``), so that an addition to
the corpus never moves an existing sentence between training and validation. Trained on
the 80 %, thresholds chosen on the 20 % and on ordinary conversation (LoCoMo dev turns,
``--locomo``, as ``bench/quality/policy_precision.py`` reads them, plus
tests/security/ordinary_zh.py):
- ``hold``: the lowest threshold with validation precision >= PRECISION[class], raised
  until at most BUDGET[class] ordinary turns reach it (a held ordinary turn is a false
  refusal of the write policy);
- credential ``refuse`` = ``hold`` (a held secret would be stored; it is refused or not);
- ``unsure`` = UNSURE_FRACTION x ``hold``: the band below ``hold`` that ``unsure()`` names.
Then the heads are retrained on all the data (train + validation) with the same settings
and the chosen thresholds, and with ``--write`` saved to weights.npz with its figures in
the metadata (CARD.md quotes them).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

CORPUS = ROOT / "bench" / "detectors" / "corpus"
LOCOMO = ROOT.parent.parent / "shared" / "data" / "locomo-dev"
BITS = 18
EPOCHS = 400
L2 = 2e-5
LEARNING_RATE = 0.05
# Precision asked of each head on validation; a credential refuses, so it asks the most.
PRECISION = {
    "credential": 0.97,
    "special_category": 0.90,
    "instruction": 0.90,
    "transient": 0.90,
    "future": 0.90,
}
# Ordinary turns (LoCoMo dev + our Chinese conversation) a head may hold at its threshold.
# The write policy's budget is 3 per 1,000 in all, about 1.9 used by the rules.
# Instructions are held only from tool or web content, never from a user's turn, so their
# budget does not count against ordinary conversation.
BUDGET = {"credential": 0, "special_category": 1, "instruction": 2, "transient": 0, "future": 0}
# The unsure band: up to this many log-odds below an n-gram head's hold threshold (x8 odds).
UNSURE_LOGIT = 2.08
# Ordinary turns an embedding head may hold, among those in the n-gram head's unsure band.
MIN_GAIN = 0.05
# Ordinary sentences of the validation split (about 320) a head may hold: none, i.e. under
# about 3 per 1,000; instructions are held only from tool content.
VAL_ORDINARY_BUDGET = {
    "credential": 0,
    "special_category": 0,
    "instruction": 1,
    "transient": 0,
    "future": 0,
}
# At most this share of a class's own hard negatives (the topic without the person, other
# people, fiction, "password" as a plain word) held.
HARD_NEGATIVE_RATE = 0.02
EMB_BUDGET = {"credential": 0, "special_category": 0, "instruction": 1, "transient": 0, "future": 0}
CLASS_OF = {
    "credential": "credential",
    "special_category": "special_category",
    "special": "special_category",
    "instruction": "instruction",
    "instruction_tool": "instruction",
    "transient": "transient",
    "future": "future",
    "future_change": "future",
}


from bench.detectors.embedding_heads import (  # noqa: E402
    POS_WEIGHT_CAP,
    SEED,
    embeddings,
    passages,
    predict_dense,
    train_dense,
    with_context,
)


def _setup() -> None:
    from bench._harness import django_setup

    django_setup()


def load_corpus(folder: Path) -> list[tuple[str, str | None, str, str]]:
    """[(text, class or None for a negative, stratum, source)]."""
    rows = []
    for path in sorted(folder.glob("*.jsonl")):
        for line in path.read_text("utf-8").splitlines():
            if not line.strip():
                continue
            r = json.loads(line)
            cls = CLASS_OF.get(r.get("class", ""))
            positive = r.get("kind", "positive") == "positive" and r.get("label") != "store"
            label = cls if (positive and cls) else None
            rows.append(
                (r["text"], label, f"{r.get('class')}/{r.get('label')}/{r.get('lang')}", "corpus")
            )
    return rows


def load_rule_corpora() -> list[tuple[str, str | None, str, str]]:
    from tests.security import detector_corpus as dc
    from tests.security import poisoning_corpus as pc
    from tests.security.obfuscated_corpus import CLEAN_TOOL_OUTPUT, OBFUSCATED
    from tests.security.special_category_corpus import NEGATIVE, POSITIVE

    rows = []
    add = lambda text, label, stratum: rows.append((text, label, stratum, "rules"))  # noqa: E731
    for text, _ in dc.SECRET_POSITIVE:
        add(text, "credential", "rules/credential")
    for _, _, text, _ in pc.SECRETS:
        add(text, "credential", "rules/credential")
    for text in dc.TRANSIENT_POSITIVE:
        add(text, "transient", "rules/transient")
    for text in dc.INJECTION_POSITIVE:
        add(text, "instruction", "rules/instruction")
    for _, _, text in OBFUSCATED:
        add(text, "instruction", "rules/instruction")
    for _, _, text, _ in pc.INJECTIONS + pc.FAKE_SYSTEM_NOTES:
        add(text, "instruction", "rules/instruction")
    for text, _ in POSITIVE:
        add(text, "special_category", "rules/special")
    for text in (
        dc.SECRET_NEGATIVE
        + dc.TRANSIENT_NEGATIVE
        + dc.SOR_NEGATIVE
        + dc.SOR_POSITIVE
        + dc.INJECTION_NEGATIVE
        + NEGATIVE
        + [t for _, t in CLEAN_TOOL_OUTPUT]
    ):
        add(text, None, "rules/negative")
    return rows


def ordinary_turns(locomo: Path | None) -> list[tuple[str, str | None]]:
    """The false-refusal pool: LoCoMo dev turns as policy_precision.py proposes them, and
    our Chinese conversation, each with the turn before it in its conversation (the
    context the index would embed it with; None for a first turn). Used for thresholds
    only, never trained on."""
    from bench.quality.policy_precision import locomo_turns
    from tests.security.ordinary_zh import ORDINARY_ZH

    conversations: list[list[str]] = []
    if locomo and locomo.is_dir():
        conversations.extend([text for text, _ in conv] for conv in locomo_turns(locomo).values())
    conversations.append(list(ORDINARY_ZH))
    return [
        (text, conv[i - 1] if i else None) for conv in conversations for i, text in enumerate(conv)
    ]


def split(rows, share: int = 5):
    """(train, validation) indices: a sentence is in validation when the SHA-1 of its text,
    as an integer, is 0 modulo ``share`` (one in five). The draw depends on the text only,
    so adding corpus lines never moves an existing sentence between the two."""
    val = [i for i, r in enumerate(rows) if _in_validation(r[0], share)]
    chosen = set(val)
    return [i for i in range(len(rows)) if i not in chosen], val


def _in_validation(text: str, share: int = 5) -> bool:
    return int.from_bytes(hashlib.sha1(text.encode("utf-8")).digest(), "big") % share == 0


def featurise(texts: list[str], bits: int):
    from memory.detectors.learned import hashed

    rows, cols, vals = [], [], []
    for i, t in enumerate(texts):
        idx, val = hashed(t, bits)
        rows.append(np.full(len(idx), i, dtype=np.int64))
        cols.append(idx)
        vals.append(val)
    return np.concatenate(rows), np.concatenate(cols), np.concatenate(vals).astype(np.float32)


def train(X, y: np.ndarray, n: int, bits: int, epochs: int = EPOCHS, seed: int = SEED):
    """Full-batch Adam on the mean logistic loss per head, positives weighted to balance
    the classes (capped at 10x), L2 on the weights."""
    r, c, v = X
    k = y.shape[1]
    dim = 1 << bits
    rng = np.random.default_rng(seed)
    W = (rng.standard_normal((dim, k)) * 0.0).astype(np.float32)
    b = np.zeros(k, dtype=np.float32)
    pos = y.sum(0)
    w_pos = np.minimum((n - pos) / np.maximum(pos, 1), POS_WEIGHT_CAP).astype(np.float32)
    sample_w = np.where(y > 0, w_pos, 1.0).astype(np.float32)
    sample_w /= sample_w.mean(0)
    mW = np.zeros_like(W)
    vW = np.zeros_like(W)
    mb = np.zeros_like(b)
    vb = np.zeros_like(b)
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    used = np.unique(c)
    for t in range(1, epochs + 1):
        logits = np.zeros((n, k), dtype=np.float32)
        np.add.at(logits, r, v[:, None] * W[c])
        logits += b
        p = 1 / (1 + np.exp(-logits))
        g = (p - y) * sample_w / n
        gW = np.zeros_like(W)
        np.add.at(gW, c, v[:, None] * g[r])
        gW[used] += L2 * W[used]
        gb = g.sum(0)
        for param, grad, m_, v_ in ((W, gW, mW, vW), (b, gb, mb, vb)):
            m_ *= beta1
            m_ += (1 - beta1) * grad
            v_ *= beta2
            v_ += (1 - beta2) * grad * grad
            mhat = m_ / (1 - beta1**t)
            vhat = v_ / (1 - beta2**t)
            param -= LEARNING_RATE * mhat / (np.sqrt(vhat) + eps)
    return W, b


NGRAM_CACHE = Path("/tmp/engram-learned-ngram")


def cached_train(texts: list[str], X, y: np.ndarray, bits: int, epochs: int):
    """``train``, kept in /tmp (never in git) under a digest of all it depends on: a run
    with ``--no-embedding`` and a later one with the embeddings (deterministic, full-batch)
    train the same n-gram heads, so the second reads them instead of training again."""
    from memory.detectors import learned

    h = hashlib.sha1(repr((bits, epochs, L2, LEARNING_RATE, SEED, POS_WEIGHT_CAP)).encode())
    h.update(Path(learned.__file__).read_bytes() + "\x00".join(texts).encode("utf-8"))
    h.update(np.ascontiguousarray(y, dtype=np.float32).tobytes())
    path = NGRAM_CACHE / f"{h.hexdigest()}.npz"
    if not path.exists():
        NGRAM_CACHE.mkdir(exist_ok=True)
        np.savez(path, **dict(zip("Wb", train(X, y, len(texts), bits, epochs), strict=True)))
    print(f"n-gram heads: {path}", flush=True)
    with np.load(path) as data:
        return data["W"], data["b"]


def predict(W, b, X, n: int) -> np.ndarray:
    r, c, v = X
    logits = np.zeros((n, W.shape[1]), dtype=np.float64)
    np.add.at(logits, r, (v[:, None] * W[c]).astype(np.float64))
    return 1 / (1 + np.exp(-(logits + b)))


def choose_threshold(
    scores, labels, ordinary, precision: float, budget: int, plain=None, hard=None, cls=""
) -> float:
    """Lowest threshold with validation precision >= ``precision``, at most
    VAL_ORDINARY_BUDGET[cls] of the validation's ordinary sentences (``plain``) and at
    most HARD_NEGATIVE_RATE of the class's own hard negatives (``hard``) reaching it;
    raised until at most ``budget`` ordinary turns reach it."""
    t_val = 0.999 if len(scores) else 0.0
    for t in np.arange(0.05, 0.999, 0.005) if len(scores) else ():
        hit = scores >= t
        if not hit.sum() or labels[hit].mean() < precision:
            continue
        if plain is not None and int((hit & plain).sum()) > VAL_ORDINARY_BUDGET[cls]:
            continue
        if hard is not None and hard.sum() and (hit & hard).sum() / hard.sum() > HARD_NEGATIVE_RATE:
            continue
        t_val = float(t)
        break
    ranked = np.sort(ordinary)[::-1]
    t_fr = float(ranked[budget]) if len(ranked) > budget else 0.0
    # Strictly above the (budget+1)-th ordinary turn, in four decimals.
    return float(min(max(round(t_val, 4), (np.floor(t_fr * 1e4) + 1) / 1e4), 0.999))


def _logit(p):
    p = np.clip(np.asarray(p, dtype=np.float64), 1e-9, 1 - 1e-9)
    return np.log(p) - np.log1p(-p)


def cascade(p_ngram, p_emb, thresholds, classes, unsure_logit: float, embed_classes=None):
    """Calibrated scores as the runtime computes them (0.5 = hold), and the share of rows
    that needed an embedding."""
    ln = _logit(p_ngram) - _logit([thresholds[c]["hold"] for c in classes])
    band = (ln < 0) & (ln >= -unsure_logit)
    if embed_classes is not None:
        band &= np.array([c in embed_classes for c in classes])
    out = ln
    if p_emb is not None:
        le = _logit(p_emb) - _logit([thresholds[c]["emb_hold"] for c in classes])
        out = np.where(band, le, ln)
    return 1 / (1 + np.exp(-out)), band.any(1).mean()


def report(classes, probs, y, title: str, line: float = 0.5) -> dict:
    print(f"\n{title}")
    print(f"{'class':<18}{'pos':>6}{'neg':>6}{'TP':>6}{'FP':>5}{'prec':>8}{'recall':>8}")
    figures = {}
    for j, cls in enumerate(classes):
        hit = probs[:, j] >= line
        tp = int((hit & (y[:, j] > 0)).sum())
        fp = int((hit & (y[:, j] == 0)).sum())
        pos = int(y[:, j].sum())
        prec, rec = tp / max(tp + fp, 1), tp / max(pos, 1)
        figures[cls] = {
            "pos": pos,
            "tp": tp,
            "fp": fp,
            "precision": round(prec, 3),
            "recall": round(rec, 3),
        }
        print(f"{cls:<18}{pos:>6}{len(y) - pos:>6}{tp:>6}{fp:>5}{prec:>8.3f}{rec:>8.3f}")
    return figures


def embedding_step(E_tr, y_tr, E_va, y_va, p_va, plain_va, hard_va, E_ord, p_ord, thresholds):
    """Embedding heads trained on ``E_tr``, consulted in the n-gram heads' unsure band;
    each class's ``emb_hold`` chosen like the n-gram heads' on the validation rows and
    ordinary turns that reach the band (what the n-gram head already holds counts against
    the budgets). Then the classes where the cascade catches more on validation (by
    MIN_GAIN of recall) at no loss of precision: each consultation costs an embedding on
    the write path. Returns (We, be, emb_hold per class, embed_classes)."""
    from memory.detectors.learned import CLASSES

    We, be = train_dense(E_tr, y_tr)
    pe_va, pe_ord = predict_dense(We, be, E_va), predict_dense(We, be, E_ord)
    ln_va = _logit(p_va) - _logit([thresholds[c]["hold"] for c in CLASSES])
    ln_ord = _logit(p_ord) - _logit([thresholds[c]["hold"] for c in CLASSES])
    th = {c: dict(thresholds[c]) for c in CLASSES}
    for j, cls in enumerate(CLASSES):
        in_va = (ln_va[:, j] < 0) & (ln_va[:, j] >= -UNSURE_LOGIT)
        in_ord = (ln_ord[:, j] < 0) & (ln_ord[:, j] >= -UNSURE_LOGIT)
        held = p_va[:, j] >= th[cls]["hold"]
        th[cls]["emb_hold"] = choose_threshold(
            np.where(in_va, pe_va[:, j], np.where(held, 1.0, 0.0)),
            y_va[:, j],
            pe_ord[in_ord, j],
            PRECISION[cls],
            EMB_BUDGET[cls],
            plain_va,
            hard_va[:, j],
            cls,
        )
    cut = [th[c]["emb_hold"] for c in CLASSES]
    report(CLASSES, (pe_va >= cut).astype(float), y_va, "embedding heads alone, validation")
    base = report(
        CLASSES,
        (p_va >= [th[c]["hold"] for c in CLASSES]).astype(float),
        y_va,
        "(n-gram, for the choice)",
    )
    embed_classes = []
    # A credential refuses: only the n-gram head, the surer one on validation, decides it.
    for cls in (c for c in CLASSES if c != "credential"):
        one, _ = cascade(p_va, pe_va, th, CLASSES, UNSURE_LOGIT, {cls})
        j = CLASSES.index(cls)
        hit = one[:, j] >= 0.5
        tp = int((hit & (y_va[:, j] > 0)).sum())
        prec = tp / max(int(hit.sum()), 1)
        rec = tp / max(int(y_va[:, j].sum()), 1)
        if rec >= base[cls]["recall"] + MIN_GAIN and prec >= min(
            base[cls]["precision"], PRECISION[cls]
        ):
            embed_classes.append(cls)
    print(f"embedding consulted for: {embed_classes}")
    return We, be, {c: th[c]["emb_hold"] for c in CLASSES}, embed_classes


def cascade_report(p, We, be, E, y, thresholds, embed_classes, title: str) -> tuple:
    from memory.detectors.learned import CLASSES

    pe = predict_dense(We, be, E) if We is not None else None
    final, share = cascade(p, pe, thresholds, CLASSES, UNSURE_LOGIT, embed_classes)
    return report(CLASSES, final, y, title), final, share


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--locomo", type=Path, default=LOCOMO)
    parser.add_argument("--bits", type=int, default=BITS)
    parser.add_argument("--epochs", type=int, default=EPOCHS)
    parser.add_argument("--no-embedding", action="store_true", help="n-gram heads only")
    parser.add_argument(
        "--write", action="store_true", help="save memory/detectors/learned/weights.npz"
    )
    parser.add_argument(
        "--out", type=Path, default=None, help="with --write: save there instead (to compare)"
    )
    args = parser.parse_args()
    _setup()
    from memory.detectors.learned import CLASSES, WEIGHTS

    started = time.perf_counter()
    rows = load_corpus(args.corpus) + load_rule_corpora()
    counts = Counter(r[1] or "negative" for r in rows)
    print(f"{len(rows)} sentences: " + ", ".join(f"{k} {n}" for k, n in sorted(counts.items())))
    texts = [r[0] for r in rows]
    y = np.array([[1.0 if r[1] == c else 0.0 for c in CLASSES] for r in rows], dtype=np.float32)
    tr, va = split(rows)
    pool = ordinary_turns(args.locomo)
    ordinary = [t for t, _ in pool]
    print(
        f"split: {len(tr)} train, {len(va)} validation; {len(ordinary)} ordinary turns", flush=True
    )
    X_all = featurise(texts, args.bits)
    X_tr, X_va = (
        featurise([texts[i] for i in tr], args.bits),
        featurise([texts[i] for i in va], args.bits),
    )
    X_ord = featurise(ordinary, args.bits)
    use_emb = not args.no_embedding
    if use_emb:
        # Every sentence as a bare passage and after a random ordinary preceding turn (the
        # corpus's ordinary lines); ordinary turns bare and after their own preceding turn.
        t0 = time.perf_counter()
        lines = [r[0] for r in rows if r[2].startswith("ordinary/")]
        E_bare = embeddings(texts, "corpus")
        E_ctx = embeddings(with_context(texts, lines), "corpus after a random ordinary turn")
        E_ord = np.vstack(
            [
                embeddings(ordinary, "ordinary"),
                embeddings(passages(pool), "ordinary after their turn"),
            ]
        )
        print(f"embeddings ready in {time.perf_counter() - t0:.1f} s", flush=True)

    # 1. n-gram heads on the training split; thresholds on validation + ordinary turns.
    W, b = cached_train([texts[i] for i in tr], X_tr, y[tr], args.bits, args.epochs)
    p_va = predict(W, b, X_va, len(va))
    p_ord = predict(W, b, X_ord, len(ordinary))
    thresholds = {}
    plain_va = np.array([rows[i][2].startswith(("ordinary/", "rules/negative")) for i in va])
    hard_va = np.stack(
        [
            np.array([rows[i][2].startswith(cls + "/") for i in va]) & (y[va][:, j] == 0)
            for j, cls in enumerate(CLASSES)
        ],
        axis=1,
    )
    for j, cls in enumerate(CLASSES):
        hold = choose_threshold(
            p_va[:, j],
            y[va][:, j],
            p_ord[:, j],
            PRECISION[cls],
            BUDGET[cls],
            plain_va,
            hard_va[:, j],
            cls,
        )
        thresholds[cls] = {"hold": hold}
    report(
        CLASSES,
        (p_va >= [thresholds[c]["hold"] for c in CLASSES]).astype(float),
        y[va],
        f"n-gram heads alone, validation ({len(va)}; trained on {len(tr)})",
    )

    # 2. Embedding heads on passage embeddings, bare and after a preceding turn (both in
    #    training and in the choice of thresholds). For comparison first, heads trained
    #    and thresholded on bare passages alone (the heads before the context
    #    augmentation), measured on both kinds of validation passage.
    We = be = None
    embed_classes: list[str] = []
    two = lambda a: np.concatenate([a, a])  # noqa: E731 - each row twice, bare and in context
    if use_emb:
        print("\n== embedding heads on bare passages only (comparison) ==")
        n_ord = len(ordinary)
        We0, be0, emb0, cls0 = embedding_step(
            E_bare[tr], y[tr], E_bare[va], y[va], p_va, plain_va, hard_va,
            E_ord[:n_ord], p_ord, thresholds,
        )  # fmt: skip
        th0 = {c: {**thresholds[c], "emb_hold": emb0[c]} for c in CLASSES}
        for E, kind in ((E_bare, "bare"), (E_ctx, "after a turn")):
            cascade_report(
                p_va, We0, be0, E[va], y[va], th0, cls0, f"cascade, bare-trained, validation {kind}"
            )
        print("\n== embedding heads on passages bare and after a turn (shipped) ==")
        We, be, emb, embed_classes = embedding_step(
            np.vstack([E_bare[tr], E_ctx[tr]]), two(y[tr]),
            np.vstack([E_bare[va], E_ctx[va]]), two(y[va]), two(p_va), two(plain_va),
            two(hard_va), E_ord, two(p_ord), thresholds,
        )  # fmt: skip
        for c in CLASSES:
            thresholds[c]["emb_hold"] = emb[c]
        for E, kind in ((E_bare, "bare"), (E_ctx, "after a turn")):
            cascade_report(
                p_va, We, be, E[va], y[va], thresholds, embed_classes, f"cascade, validation {kind}"
            )
    E_va = np.vstack([E_bare[va], E_ctx[va]]) if use_emb else None
    p_va2 = two(p_va) if use_emb else p_va
    val_figures, _, share_va = cascade_report(
        p_va2, We, be, E_va, two(y[va]) if use_emb else y[va], thresholds, embed_classes,
        "the cascade (what the write policy reads), validation" + (" bare + after a turn" if use_emb else ""),
    )  # fmt: skip
    p_ord2 = two(p_ord) if use_emb else p_ord
    pe_ord = predict_dense(We, be, E_ord) if use_emb else None
    final_ord, share_ord = cascade(p_ord2, pe_ord, thresholds, CLASSES, UNSURE_LOGIT, embed_classes)
    ord_hits = {c: int((final_ord[:, j] >= 0.5).sum()) for j, c in enumerate(CLASSES)}
    print(
        f"ordinary passages reaching hold ({len(p_ord2)}): {ord_hits}; "
        f"share needing an embedding: validation {share_va:.3f}, ordinary {share_ord:.3f}"
    )
    print(json.dumps(thresholds))

    # 3. Final heads on all the data, same settings, the thresholds chosen above.
    print("\ntraining the final heads on all the data", flush=True)
    W, b = cached_train(texts, X_all, y, args.bits, args.epochs)
    #    As saved and read at run time (float16 rows, scaled), so that the budgets below are
    #    checked on what the runtime computes (an ordinary turn once sat on the line).
    used = np.flatnonzero(np.abs(W).max(1) > 1e-4)
    scale = float(np.abs(W[used]).max() / 60000.0) if len(used) else 1.0
    Wq = np.zeros_like(W)
    Wq[used] = (W[used] / scale).astype(np.float16).astype(np.float32) * scale
    W = Wq
    if use_emb:
        We, be = train_dense(np.vstack([E_bare, E_ctx]), two(y))
    p_ord = predict(W, b, X_ord, len(ordinary))
    p_ord2 = two(p_ord) if use_emb else p_ord
    pe_ord = predict_dense(We, be, E_ord) if use_emb else None
    #    The final heads score ordinary turns a little differently: each threshold is
    #    raised, if need be, to keep the same budget on them (never lowered).
    for j, cls in enumerate(CLASSES):
        t_fr = choose_threshold(np.zeros(0), np.zeros(0), p_ord[:, j], 0.0, BUDGET[cls])
        thresholds[cls]["hold"] = max(thresholds[cls]["hold"], t_fr)
        if use_emb:
            ln = _logit(p_ord2[:, j]) - _logit(thresholds[cls]["hold"])
            band = (ln < 0) & (ln >= -UNSURE_LOGIT)
            t_fr = choose_threshold(np.zeros(0), np.zeros(0), pe_ord[band, j], 0.0, EMB_BUDGET[cls])
            thresholds[cls]["emb_hold"] = max(thresholds[cls]["emb_hold"], t_fr)
    thresholds["credential"]["refuse"] = thresholds["credential"]["hold"]
    print(json.dumps(thresholds))
    final_ord, share_ord = cascade(p_ord2, pe_ord, thresholds, CLASSES, UNSURE_LOGIT, embed_classes)
    ord_final = {c: int((final_ord[:, j] >= 0.5).sum()) for j, c in enumerate(CLASSES)}
    print(
        f"final heads (all {len(rows)}): ordinary passages reaching hold: {ord_final}; "
        f"share needing an embedding {share_ord:.3f}"
    )
    print(f"trained in {time.perf_counter() - started:.1f} s")
    if args.write:
        used = np.flatnonzero(np.abs(W).max(1) > 1e-4)
        scale = float(np.abs(W[used]).max() / 60000.0) if len(used) else 1.0
        meta = {
            "bits": args.bits,
            "classes": list(CLASSES),
            "scale": scale,
            "thresholds": thresholds,
            "unsure_logit": UNSURE_LOGIT,
            "embed_classes": embed_classes,
            "validation": val_figures,
            "ordinary_turns": {
                "count": len(ordinary),
                "passages": len(p_ord2),
                "held_at_threshold": ord_final,
                "share_embedded": round(float(share_ord), 4),
            },
            "sentences": len(rows),
            "embedding": "passage, bare and after an ordinary preceding turn",
            "seed": SEED,
            "epochs": args.epochs,
            "l2": L2,
        }
        extra = (
            {"emb_weights": We.astype(np.float32), "emb_bias": be.astype(np.float32)}
            if use_emb
            else {}
        )
        out = args.out or WEIGHTS
        np.savez_compressed(
            out,
            rows=used.astype(np.int32),
            weights=(W[used] / scale).astype(np.float16),
            bias=b.astype(np.float32),
            meta=np.array(json.dumps(meta)),
            **extra,
        )
        print(f"wrote {out} ({out.stat().st_size / 1e6:.2f} MB, {len(used)} buckets)")


if __name__ == "__main__":
    main()
