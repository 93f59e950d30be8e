"""Obfuscation variants for the detector training corpus.

Reads the hand-written lines of each <class>.jsonl (those whose note does not start
with "variant:"), and appends machine-made variants of a random sample of them:
fullwidth ASCII, zero-width characters, spaced-out letters, Cyrillic homoglyphs.
The label and kind stay those of the source line, so obfuscation alone never
decides the outcome (hard negatives and ordinary lines get variants too).

Idempotent: old variant lines are dropped and regenerated with a fixed seed.
Run:  python bench/detectors/corpus/augment.py
"""

import json
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
CLASSES = ["credential", "special_category", "instruction", "transient", "future", "ordinary"]
# share of hand-written lines that get one variant; overall variants stay under 20 %
SHARE = {
    "credential": 0.26,
    "special_category": 0.22,
    "instruction": 0.26,
    "transient": 0.2,
    "future": 0.2,
    "ordinary": 0.12,
}
HOMOGLYPHS = {
    "a": "а",
    "e": "е",
    "o": "о",
    "p": "р",
    "c": "с",
    "x": "х",
    "i": "і",
    "y": "у",
    "A": "А",
    "E": "Е",
    "O": "О",
    "P": "Р",
    "C": "С",
}
ZERO_WIDTH = ["\u200b", "\u200c", "\u200d", "\u2060"]


def fullwidth(text, rng):
    out = "".join(chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" else ch for ch in text)
    return out if out != text else None


def zero_width(text, rng):
    chars = list(text)
    if len(chars) < 4:
        return None
    for pos in sorted(
        rng.sample(range(1, len(chars)), k=min(len(chars) - 1, rng.randint(2, 6))), reverse=True
    ):
        chars.insert(pos, rng.choice(ZERO_WIDTH))
    return "".join(chars)


def spaced(text, rng):
    if len(text) < 8:
        return None
    start = rng.randrange(0, max(1, len(text) - 8))
    end = min(len(text), start + rng.randint(6, 16))
    segment = " ".join(text[start:end])
    return text[:start] + segment + text[end:]


def homoglyph(text, rng):
    chars = [HOMOGLYPHS[ch] if ch in HOMOGLYPHS and rng.random() < 0.6 else ch for ch in text]
    out = "".join(chars)
    return out if out != text else None


TRANSFORMS = [
    ("fullwidth", fullwidth),
    ("zero-width", zero_width),
    ("spaced", spaced),
    ("homoglyph", homoglyph),
]


def main():
    rng = random.Random(32)
    for cls in CLASSES:
        path = HERE / f"{cls}.jsonl"
        rows = [
            json.loads(line)
            for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()
        ]
        base = [r for r in rows if not r["note"].startswith("variant:")]
        seen = {r["text"] for r in base}
        variants = []
        for row in rng.sample(base, k=int(len(base) * SHARE[cls])):
            for name, fn in rng.sample(TRANSFORMS, k=len(TRANSFORMS)):
                text = fn(row["text"], rng)
                if text and text not in seen:
                    seen.add(text)
                    variants.append({**row, "text": text, "note": f"variant:{name}"})
                    break
        with path.open("w", encoding="utf-8") as f:
            for r in base + variants:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
        print(cls, len(base), "hand-written,", len(variants), "variants")


if __name__ == "__main__":
    main()
