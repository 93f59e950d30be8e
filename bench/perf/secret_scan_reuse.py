"""Could the event's secret scan stand in for the candidate's? (issue 39, ingest10)

In the turn form an event's text is ``m`` and its candidate's ``"Speaker: m"``; the policy
reads ``"Speaker: m\\n"`` (statement, newline, no value). This checks, on every text of the
LoCoMo folder (with its own speaker) and of the probe and security corpora (each with a few
ordinary speaker names), whether an event scan that redacts nothing implies a candidate scan
that finds nothing, and the reverse, and then tries speakers that are labels ("PIN",
"Key"). The held-out set (tests/data/detector_heldout.jsonl) is never read.

    .venv/bin/python bench/perf/secret_scan_reuse.py [/work/shared/data/locomo-dev]
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path.cwd()
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

CORPORA = (
    "detector_corpus",
    "obfuscated_corpus",
    "poisoning_corpus",
    "special_category_corpus",
    "ordinary_zh",
)
SPEAKERS = ("Caroline", "Melanie", "Jon", "Gina", "user", "Assistant", "王芳", "Dr. Ortiz")
# Speakers that read as a label: the candidate's text becomes "label: value".
LABELS = ("PIN", "Key", "token", "密码")
VALUES = ("4821", "hunter2", "k7Lm9pQ2")


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)


def texts(folder: Path) -> list[tuple[str, str | None, str]]:
    from bench.quality.locomo import load_folder, turns_of

    out = []
    for conv in load_folder(folder).values():
        out += [("locomo", t["speaker"], t["text"]) for t in turns_of(conv)]
    for path in sorted((ROOT / "tests" / "data").glob("*.jsonl")):
        if "heldout" in path.name:
            continue  # never read
        out += [
            (path.name, None, json.loads(line)["text"])
            for line in path.read_text().splitlines()
            if line.strip()
        ]
    for name in CORPORA:
        module = importlib.import_module(f"tests.security.{name}")
        for key, value in vars(module).items():
            if key.isupper() and not key.startswith("_"):
                out += [(name, None, s) for s in _strings(value) if len(s) > 3]
    return list(dict.fromkeys(out))


def main() -> None:
    import django

    django.setup()
    from memory.content_rules import find_secrets, redact_secrets

    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/work/shared/data/locomo-dev")
    corpus = texts(folder)
    unsafe, redacted_only, pairs, clean = [], Counter(), 0, 0
    event_cpu = candidate_cpu = 0.0
    for source, speaker, text in corpus:
        c = time.thread_time()
        _, count = redact_secrets(text)
        event_cpu += time.thread_time() - c
        for name in [speaker] if speaker else SPEAKERS:
            pairs += 1
            c = time.thread_time()
            found = find_secrets(f"{name}: {text}\n")
            candidate_cpu += time.thread_time() - c
            if count == 0:
                clean += 1
                if found:
                    unsafe.append((source, name, found))
            elif not found:
                redacted_only[source] += 1
    print(f"{len(corpus)} texts, {pairs} (speaker, text) pairs; event scan clean: {clean}")
    print(f"clean event, candidate finds a secret: {len(unsafe)} {Counter(u[0] for u in unsafe)}")
    print(f"event redacted, candidate finds none: {dict(redacted_only)}")
    print(
        f"thread CPU: event scan {event_cpu * 1000 / len(corpus):.3f} ms a text, "
        f"candidate scan {candidate_cpu * 1000 / pairs:.3f} ms a pair"
    )
    print("speakers that are labels (clean event, candidate refused):")
    for label in LABELS:
        for value in VALUES:
            if redact_secrets(value)[1] == 0 and (found := find_secrets(f"{label}: {value}\n")):
                print(f"  {label!r} + {value!r}: {found}")


if __name__ == "__main__":
    main()
