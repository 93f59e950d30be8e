"""The write policy's decision on real texts with ``ENGRAM_FAST_DETECTION_TEXT`` off and on.

    cd <worktree> && DJANGO_SETTINGS_MODULE=config.settings.base .venv/bin/python \\
        bench/perf/fast_decisions_equal.py [--data /work/shared/data/locomo-dev] [--key KEY]

Every LoCoMo dev turn (``"Speaker: text"``) and every sentence of the probe corpora in
``tests/data`` (the held-out set is not read), each as the user's own statement and as
external content, both sensitive-data handlings: the whole decision (operation, reason,
findings, everything ``decide`` returns) must be the same with the fast detection paths
(the text shortcuts, the n-gram cache, the literal prefilter) as with their references.
Prints the count of decisions compared and each difference; exits 1 on any.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path.cwd()
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.test import override_settings  # noqa: E402
from write_cpu import locomo_statements  # noqa: E402

from accounts.policies import TenantPolicy  # noqa: E402
from memory.detectors import learned  # noqa: E402
from memory.text_normalize import detection_form  # noqa: E402
from memory.write_policy import Candidate, SubjectState, decide  # noqa: E402

NOW = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)


def corpus_texts(data: Path) -> list[str]:
    texts = locomo_statements(data)
    for path in sorted((ROOT / "tests" / "data").glob("*.jsonl")):
        if "heldout" in path.name:
            continue  # never read: its figures come only from the aggregate bench
        texts += [json.loads(line)["text"] for line in path.read_text().splitlines() if line]
    return texts


def decisions(texts: list[str], fast: bool, key: str = "FAST_DETECTION_TEXT") -> list[dict]:
    batch = {**settings.ENGRAM_WRITE_BATCH, **dict.fromkeys(key.split(","), fast)}
    out = []
    with override_settings(ENGRAM_WRITE_BATCH=batch):
        detection_form.cache_clear()
        learned._ngram.cache_clear()
        learned._scores.cache_clear()
        for text in texts:
            for kind in ("user_explicit", "external_untrusted"):
                for handling in ("quarantine", "reject"):
                    candidate = Candidate(
                        memory_type="semantic",
                        namespace="assistant/profile",
                        statement=text,
                        assertion_kind=kind,
                        confidence=1.0,
                        purpose="personalization",
                        consent_basis="explicit_consent",
                    )
                    decision = decide(
                        candidate,
                        existing=[],
                        subject=SubjectState(),
                        tenant=TenantPolicy(sensitive_personal_data=handling),
                        now=NOW,
                        learned_detectors=True,
                    )
                    out.append(asdict(decision))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=Path("/work/shared/data/locomo-dev"))
    parser.add_argument(
        "--key",
        default="FAST_DETECTION_TEXT",
        help="the ENGRAM_WRITE_BATCH switch turned off and on (PHONE_RUNS, PREFILTER_INDEX, "
        "SWITCHES_ONCE: issue 39's detector plumbing; the others stay as configured; several, "
        "comma-separated, turn together)",
    )
    args = parser.parse_args()
    texts = corpus_texts(args.data)
    reference = decisions(texts, False, args.key)
    fast = decisions(texts, True, args.key)
    differ = [i for i, (a, b) in enumerate(zip(reference, fast, strict=True)) if a != b]
    for i in differ:
        print("DIFFERENT:", texts[i // 4][:120], reference[i], fast[i], sep="\n  ")
    print(f"{len(texts)} texts, {len(reference)} decisions, {len(differ)} different")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
