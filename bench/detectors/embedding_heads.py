"""The passage embeddings the learned detectors' embedding heads read, for training
(bench/detectors/train.py): cached, with the context augmentation, and the dense heads'
logistic regression."""

from __future__ import annotations

import random
import time
from pathlib import Path

import numpy as np

SEED = 0
# Positives weigh (negatives / positives) times more, at most this much (both kinds of head).
POS_WEIGHT_CAP = 3.0


# Speakers a random preceding turn is attributed to in the context augmentation (a context
# is "Speaker: what they said", or the words alone without a speaker).
CONTEXT_SPEAKERS = ("User", "Assistant", "")


def with_context(texts: list[str], lines: list[str], seed: int = SEED) -> list[str]:
    """Each text as the index would embed it after a random ordinary preceding turn (one
    of the training corpus's ordinary lines, never the held-out set nor LoCoMo): at write
    time a memory's passage carries the turn before it (memory.neighbourhood).

    The draw is seeded by each text (with ``seed``), so that adding corpus lines never
    changes another sentence's context (and its cached embedding stays valid).
    """
    import hashlib

    from memory.neighbourhood import CONTEXT_MAX_CHARS, passage_text

    out = []
    for text in texts:
        digest = hashlib.sha1(f"{seed}\n{text}".encode()).digest()
        rng = random.Random(int.from_bytes(digest[:8], "big"))
        line = rng.choice(lines)
        speaker = rng.choice(CONTEXT_SPEAKERS)
        context = (f"{speaker}: {line}" if speaker else line)[:CONTEXT_MAX_CHARS]
        out.append(passage_text(text, None, context))
    return out


def passages(pool: list[tuple[str, str | None]]) -> list[str]:
    from memory.neighbourhood import CONTEXT_MAX_CHARS, passage_text

    return [passage_text(t, None, c[:CONTEXT_MAX_CHARS] if c else None) for t, c in pool]


EMBEDDINGS_CACHE = Path("/tmp/engram-learned-passages.npz")


def embeddings(texts: list[str], label: str = "") -> np.ndarray:
    """The passage embedding of each text as the runtime computes it
    (``memory.detectors.learned.embed``), cached by model and text in /tmp (never in git)."""
    import hashlib

    from memory.detectors.learned import EMBEDDING_MODEL_ID, embed

    key = [hashlib.sha1(f"{EMBEDDING_MODEL_ID}\n{t}".encode()).hexdigest() for t in texts]
    cached: dict[str, np.ndarray] = {}
    if EMBEDDINGS_CACHE.exists():
        with np.load(EMBEDDINGS_CACHE) as data:
            cached = dict(zip(data["keys"].tolist(), data["vectors"], strict=True))
    missing = sorted({k: t for k, t in zip(key, texts, strict=True) if k not in cached}.items())
    print(f"embedding {label}: {len(texts)} passages, {len(missing)} not cached", flush=True)
    t0 = time.perf_counter()
    for start in range(0, len(missing), 64):
        part = missing[start : start + 64]
        for (k, _), v in zip(part, embed([t for _, t in part]), strict=True):
            cached[k] = v
        done = start + len(part)
        if done % 1024 < 64 or done == len(missing):
            print(f"  {done}/{len(missing)} in {time.perf_counter() - t0:.0f} s", flush=True)
            # Written beside and renamed: a run stopped mid-write keeps the previous cache.
            partial = EMBEDDINGS_CACHE.with_suffix(".partial.npz")
            np.savez(
                partial, keys=np.array(list(cached.keys())), vectors=np.stack(list(cached.values()))
            )
            partial.replace(EMBEDDINGS_CACHE)
    return np.stack([cached[k] for k in key]).astype(np.float32)


def train_dense(E: np.ndarray, y: np.ndarray, epochs: int = 600, seed: int = SEED):
    """Logistic regression per head on the embeddings: full-batch Adam, balanced, L2."""
    n, d = E.shape
    k = y.shape[1]
    W = np.zeros((d, k), dtype=np.float64)
    b = np.zeros(k, dtype=np.float64)
    pos = y.sum(0)
    w_pos = np.minimum((n - pos) / np.maximum(pos, 1), POS_WEIGHT_CAP)
    sample_w = np.where(y > 0, w_pos, 1.0)
    sample_w /= sample_w.mean(0)
    m = [np.zeros_like(W), np.zeros_like(b)]
    v = [np.zeros_like(W), np.zeros_like(b)]
    for t in range(1, epochs + 1):
        p = 1 / (1 + np.exp(-(E @ W + b)))
        g = (p - y) * sample_w / n
        grads = [E.T @ g + 1e-4 * W, g.sum(0)]
        for i, (param, grad) in enumerate(zip((W, b), grads, strict=True)):
            m[i] = 0.9 * m[i] + 0.1 * grad
            v[i] = 0.999 * v[i] + 0.001 * grad * grad
            param -= 0.05 * (m[i] / (1 - 0.9**t)) / (np.sqrt(v[i] / (1 - 0.999**t)) + 1e-8)
    return W.astype(np.float32), b.astype(np.float32)


def predict_dense(W, b, E) -> np.ndarray:
    return 1 / (1 + np.exp(-(E.astype(np.float64) @ W + b)))
