"""Credential and special-category detectors on a probe set written before tuning
(``tests/data/detector_probe2.jsonl`` by default), the way the write policy reads them:

- credential: refused by a rule (``content_rules.find_secrets``) or the learned head;
- special category: a rule's special-category finding or the learned head's (user as
  subject, step 11/18 of the write policy);
- a hard negative or an ordinary turn must be neither (a credential negative: not refused;
  a special-category negative: no special-category finding).

    .venv/bin/python bench/detectors/probe.py [FILE] [--misses] [--no-learned]

No database: the detectors only (``bench/quality/detectors_heldout.py`` runs the real write
path on the held-out set).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
PROBE = ROOT / "tests" / "data" / "detector_probe2.jsonl"


def verdicts(text: str, learned: bool = True) -> tuple[bool, bool]:
    """(refused as a credential, held as the user's special-category data)."""
    from memory import content_rules
    from memory.detectors.learned import detected, scores

    found = detected(scores(text)) if learned else frozenset()
    credential = bool(content_rules.find_secrets(text)) or "credential" in found
    sensitive = content_rules.find_sensitive_personal_data(text)
    special = "special_category" in sensitive or "special_category" in found
    return credential, special


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", nargs="?", type=Path, default=PROBE)
    parser.add_argument("--misses", action="store_true")
    parser.add_argument("--no-learned", action="store_true")
    args = parser.parse_args()
    from bench._harness import django_setup

    django_setup()
    rows = [json.loads(x) for x in args.file.read_text("utf-8").splitlines() if x.strip()]
    hit: Counter[str] = Counter()
    total: Counter[str] = Counter()
    misses = []
    for r in rows:
        credential, special = verdicts(r["text"], learned=not args.no_learned)
        key = f"{r['class']}/{r.get('kind', 'positive')}"
        total[key] += 1
        if r["class"] == "credential":
            ok = credential if r["kind"] == "positive" else not credential
        elif r["class"] == "special_category":
            ok = special if r["kind"] == "positive" else not special
        else:
            ok = not credential and not special
        hit[key] += ok
        if not ok:
            misses.append((key, r["text"]))
    print(f"{'set':<34}{'right':>7}{'of':>5}")
    for key in sorted(total):
        print(f"{key:<34}{hit[key]:>7}{total[key]:>5}")
    if args.misses:
        for key, text in misses:
            print(f"  MISS {key}: {text}")


if __name__ == "__main__":
    main()
