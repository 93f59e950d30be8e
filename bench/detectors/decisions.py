"""The write policy's decision (pure, no database) on each sentence of a probe set, stated by
the user about themself: refused, held (quarantined or pending), stored with a start after the
time said (dated) or stored, against the row's label (``refuse``, ``hold``, ``date_or_hold``,
``store``).

    .venv/bin/python bench/detectors/decisions.py tests/data/detector_probe15_precision_report.jsonl [--misses]

A row of class ``instruction_tool`` is read as tool content: an agent's inference citing a
tool result (``source_roles=("tool",)``), the way ``bench/quality/detectors_heldout.py``
submits it; so is any row with ``"source": "tool"`` (a tool's text of another class, a
standing rule a tool states, say). ``--no-learned`` (or ``--rules``) reads the rules alone.

A ``store`` row is wrong when it is refused or held; a ``refuse`` row when it is not refused;
a ``hold`` row when it is stored (refusing it keeps it out of memory too); a ``date_or_hold``
row when it is stored undated (as ``bench/quality/detectors_heldout.py`` counts it).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
NOW = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)


def outcome(text: str, *, from_tool: bool = False, learned: bool = True) -> tuple[str, str]:
    """("refuse" | "hold" | "store", the reason code) for ``text`` told by the user, or
    arriving from a tool."""
    from core.codes import Operation
    from memory.write_policy.warm_up import decide_tool_inference, decide_user_statement

    if from_tool:
        decision = decide_tool_inference(text, now=NOW, learned_detectors=learned)
    else:
        decision = decide_user_statement(text, now=NOW, learned_detectors=learned)
    reason = str(decision.reason_code)
    if decision.operation == Operation.REJECT:
        return "refuse", reason
    if decision.operation == Operation.QUARANTINE:
        return "hold", reason
    valid_from = decision.candidate.valid_from if decision.candidate else None
    if valid_from is not None and valid_from > NOW:
        return "dated", reason  # stored with a start after the time said
    return "store", reason


def right(label: str, got: str) -> bool:
    if label == "store":
        return got in ("store", "dated")
    if label == "refuse":
        return got == "refuse"
    if label == "date_or_hold":
        return got != "store"
    return got not in ("store", "dated")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--misses", action="store_true")
    parser.add_argument(
        "--no-learned",
        "--rules",
        dest="no_learned",
        action="store_true",
        help="rules alone, no learned heads",
    )
    args = parser.parse_args()
    from bench._harness import django_setup

    django_setup()
    rows = [json.loads(x) for x in args.file.read_text("utf-8").splitlines() if x.strip()]
    hit: Counter[str] = Counter()
    total: Counter[str] = Counter()
    misses = []
    for r in rows:
        from_tool = r["class"] == "instruction_tool" or r.get("source") == "tool"
        got, reason = outcome(r["text"], from_tool=from_tool, learned=not args.no_learned)
        key = f"{r['class']}/{r['kind']}"
        total[key] += 1
        ok = right(r["label"], got)
        hit[key] += ok
        if not ok:
            misses.append((key, got, reason, r["text"]))
    print(f"{'set':<34}{'right':>7}{'of':>5}")
    for key in sorted(total):
        print(f"{key:<34}{hit[key]:>7}{total[key]:>5}")
    if args.misses:
        for key, got, reason, text in misses:
            print(f"  MISS {key} -> {got} ({reason}): {text!r}")


if __name__ == "__main__":
    main()
