"""Validate the detector training corpus and print its counts as Markdown tables.

Run:  python bench/detectors/corpus/check.py
Reads ``<class>.jsonl`` and the later passes ``<class>_<n>.jsonl`` (train.py reads them all).
Exits non-zero when a line does not parse, a field is out of range, a label does
not match its class and kind, or a text occurs twice (across all files).
"""

import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
LABELS = {
    "credential": "refuse",
    "special_category": "hold",
    "instruction": "hold",
    "transient": "hold",
    "future": "hold_or_date",
    "ordinary": "store",
}
LANGS = ["zh", "en", "zh-hant", "ja", "ko", "mixed"]
KINDS = {"positive", "hard_negative"}


def main():
    errors, texts = [], Counter()
    by_class, by_lang, by_label, by_class_kind, by_class_lang = (
        Counter(),
        Counter(),
        Counter(),
        Counter(),
        Counter(),
    )
    variants = Counter()
    for cls in LABELS:
        files = [HERE / f"{cls}.jsonl", *sorted(HERE.glob(f"{cls}_*.jsonl"))]
        for path, n, line in (
            (f, n, line)
            for f in files
            for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1)
        ):
            where = f"{path.name}:{n}"
            try:
                row = json.loads(line)
            except ValueError as exc:
                errors.append(f"{where}: {exc}")
                continue
            if set(row) != {"text", "lang", "class", "label", "kind", "note"}:
                errors.append(f"{where}: fields {sorted(row)}")
                continue
            want = LABELS[cls] if row["kind"] == "positive" else "store"
            if row["class"] != cls or row["lang"] not in LANGS or row["kind"] not in KINDS:
                errors.append(
                    f"{where}: class/lang/kind {row['class']}/{row['lang']}/{row['kind']}"
                )
            if row["label"] != want:
                errors.append(f"{where}: label {row['label']} != {want}")
            if not row["text"].strip():
                errors.append(f"{where}: empty text")
            texts[row["text"]] += 1
            by_class[cls] += 1
            by_lang[row["lang"]] += 1
            by_label[row["label"]] += 1
            by_class_kind[cls, row["kind"]] += 1
            by_class_lang[cls, row["lang"]] += 1
            variants[cls] += row["note"].startswith("variant:")
    errors += [f"duplicate text: {t!r}" for t, c in texts.items() if c > 1]
    total = sum(by_class.values())
    print("| class | lines | positive | hard_negative | variants | " + " | ".join(LANGS) + " |")
    print("|---|---|---|---|---|" + "---|" * len(LANGS))
    for cls in LABELS:
        cells = [
            by_class[cls],
            by_class_kind[cls, "positive"],
            by_class_kind[cls, "hard_negative"],
            variants[cls],
        ]
        cells += [by_class_lang[cls, lang] for lang in LANGS]
        print(f"| {cls} | " + " | ".join(map(str, cells)) + " |")
    cells = [
        total,
        sum(v for (c, k), v in by_class_kind.items() if k == "positive"),
        sum(v for (c, k), v in by_class_kind.items() if k == "hard_negative"),
        sum(variants.values()),
    ]
    cells += [by_lang[lang] for lang in LANGS]
    print("| **total** | " + " | ".join(map(str, cells)) + " |")
    print()
    print("| label | lines |")
    print("|---|---|")
    for label, count in sorted(by_label.items()):
        print(f"| {label} | {count} |")
    print()
    print("language shares: " + ", ".join(f"{lang} {by_lang[lang] / total:.1%}" for lang in LANGS))
    print(f"variant share: {sum(variants.values()) / total:.1%}")
    for e in errors[:50]:
        print("ERROR", e, file=sys.stderr)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
