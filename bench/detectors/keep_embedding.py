"""Retrained n-gram heads with the embedding heads of an earlier weights file.

    .venv/bin/python bench/detectors/train.py --no-embedding --write --out NGRAM.npz
    .venv/bin/python bench/detectors/keep_embedding.py NGRAM.npz OLD.npz --out MERGED.npz

For a round where the corpus's passage embeddings cannot all be computed (about 15,000 e5
passages) but the n-gram heads can be retrained: the merged file has NGRAM's n-gram heads
and lines and OLD's embedding heads, lines and ``embed_classes`` (and, with
``--keep-ngram transient,future``, those classes' n-gram heads and lines from OLD too). The embedding heads then
answer in the *new* n-gram heads' unsure band, so their lines are checked again on the
ordinary turns (LoCoMo dev + tests/security/ordinary_zh.py, bare and after their own
preceding turn, as train.py reads them) and raised, never lowered, until at most
``EMB_BUDGET`` of the ordinary passages in that band reach them. Needs only the ordinary
turns' embeddings (cached in /tmp by ``embedding_heads.embeddings``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def merged_scale(peak: float, old_scale: float, keep_ngram: tuple) -> float:
    """The float16 scale of the merged n-gram weights: OLD's where columns are kept from it
    and the merged peak still fits under float16 at that scale, so that a kept column is
    stored exactly as before (at another scale it is re-rounded, and a text sitting on a
    kept line can cross it); else the peak's (60,000, as train.py writes)."""
    if keep_ngram and peak / old_scale <= 65000.0:
        return old_scale
    return peak / 60000.0


def merge(ngram: Path, old: Path, out: Path, locomo: Path, keep_ngram: tuple = ()) -> dict:
    from bench.detectors.embedding_heads import embeddings, passages
    from bench.detectors.train import EMB_BUDGET, UNSURE_LOGIT, _logit, ordinary_turns
    from memory.detectors.learned import Model

    with np.load(ngram, allow_pickle=False) as a, np.load(old, allow_pickle=False) as b:
        meta, old_meta = json.loads(str(a["meta"])), json.loads(str(b["meta"]))
        assert meta["classes"] == old_meta["classes"] and meta["bits"] == old_meta["bits"]
        classes = meta["classes"]
        # The n-gram heads as float32 columns (2**bits x classes); ``keep_ngram`` classes
        # take OLD's column, bias and line (one-vs-rest heads are independent columns).
        full = np.zeros((1 << meta["bits"], len(classes)), dtype=np.float32)
        full[a["rows"]] = a["weights"].astype(np.float32) * float(meta["scale"])
        bias = a["bias"].astype(np.float32).copy()
        for c in keep_ngram:
            j = classes.index(c)
            col = np.zeros(1 << meta["bits"], dtype=np.float32)
            col[b["rows"]] = b["weights"][:, j].astype(np.float32) * float(old_meta["scale"])
            full[:, j] = col
            bias[j] = b["bias"][j]
            meta["thresholds"][c]["hold"] = old_meta["thresholds"][c]["hold"]
            if "refuse" in old_meta["thresholds"][c]:
                meta["thresholds"][c]["refuse"] = old_meta["thresholds"][c]["refuse"]
        used = np.flatnonzero(np.abs(full).max(1) > 1e-4)
        scale = merged_scale(float(np.abs(full[used]).max()), float(old_meta["scale"]), keep_ngram)
        meta["scale"] = scale
        meta["ngram_kept_from_old"] = sorted(keep_ngram)
        arrays = {
            "rows": used.astype(np.int32),
            "weights": (full[used] / scale).astype(np.float16),
            "bias": bias,
            "emb_weights": b["emb_weights"],
            "emb_bias": b["emb_bias"],
        }
    for c in classes:
        meta["thresholds"][c]["emb_hold"] = old_meta["thresholds"][c]["emb_hold"]
    meta["embed_classes"] = old_meta["embed_classes"]
    meta["embedding"] = f"{old_meta['embedding']} (heads and lines kept from {old.name})"
    meta["unsure_logit"] = UNSURE_LOGIT
    pool = ordinary_turns(locomo)
    texts = [t for t, _ in pool]
    ctx = passages(pool)
    raised: dict = {}
    for _ in range(2):  # write, measure, raise the lines that need it (twice: float rounding)
        arrays["meta"] = np.array(json.dumps(meta))
        np.savez_compressed(out, **arrays)
        model = Model(out)
        ng = np.array([model.ngram_logits(t) for t in texts])  # the same bare or after a turn
        band = (ng < 0) & (ng >= -UNSURE_LOGIT) & model.embed_mask
        # Only the passages in some embedding head's band are embedded (the rest never
        # reach one): bare and after their own preceding turn.
        idx = np.flatnonzero(band.any(1))
        E = (
            np.vstack(
                [
                    embeddings([texts[i] for i in idx], "ordinary in the band"),
                    embeddings([ctx[i] for i in idx], "ordinary in the band, after their turn"),
                ]
            )
            if len(idx)
            else np.zeros((0, model.emb_weights.shape[0]))
        )
        emb = E.astype(np.float64) @ model.emb_weights + model.emb_bias  # raw log-odds
        band2 = np.concatenate([band[idx], band[idx]])
        for j, c in enumerate(classes):
            if not model.embed_mask[j]:
                continue
            in_band = np.sort(emb[band2[:, j], j])[::-1]
            line = _logit(meta["thresholds"][c]["emb_hold"])
            budget = EMB_BUDGET[c]
            if len(in_band) > budget and in_band[budget] >= line:
                new = float(1 / (1 + np.exp(-(in_band[budget] + 1e-4))))
                raised[c] = (meta["thresholds"][c]["emb_hold"], new)
                meta["thresholds"][c]["emb_hold"] = new
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez_compressed(out, **arrays)
    model = Model(out)
    vectors = dict(zip(idx.tolist(), range(len(idx)), strict=True))
    held = dict.fromkeys(classes, 0)
    for i, t in enumerate(texts):
        for k in (0, 1):  # bare, after a turn
            v = E[vectors[i] + k * len(idx)] if i in vectors else None
            for c, p in model.scores(t, vector=v, embedding=v is not None).items():
                held[c] += p >= 0.5
    meta["ordinary_turns"] = {
        "count": len(texts),
        "passages": 2 * len(texts),
        "held_at_threshold": held,
        "share_embedded": round(float(band.any(1).mean()), 4),  # bare or after a turn
    }
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez_compressed(out, **arrays)
    return {"raised": raised, "ordinary_held": held, "thresholds": meta["thresholds"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ngram", type=Path)
    parser.add_argument("old", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--locomo", type=Path, default=None)
    parser.add_argument(
        "--keep-ngram", default="", help="classes whose n-gram head stays OLD's (comma-separated)"
    )
    args = parser.parse_args()
    from bench._harness import django_setup

    django_setup()
    from bench.detectors.train import LOCOMO

    keep = tuple(c for c in args.keep_ngram.split(",") if c)
    print(json.dumps(merge(args.ngram, args.old, args.out, args.locomo or LOCOMO, keep), indent=1))


if __name__ == "__main__":
    main()
