"""Detectors on the held-out set: what the real write path does with sentences written
before any tuning (tests/data/detector_heldout.jsonl, described in DETECTOR_HELDOUT.md).

    .venv/bin/python bench/quality/detectors_heldout.py [--misses] [--set PATH]

Every sentence is appended as an event of a fresh subject and proposed as a candidate
citing it, through ``candidates_submit`` (the service behind POST /api/v1/candidates) on
the configured database: instructions as an agent inference drawn from a tool event, every
other class as the user's own statement. The outcome counts as
- credential: refused (REJECT, nothing stored);
- special category (user as subject), instruction through a tool, transient: not stored
  as an active memory (held, quarantined or refused);
- future change: held, or stored with a start after the time it was said (dated);
- ordinary and the special-category negatives: stored (ADD or CONFIRM); anything else is a
  false refusal, reported per 1,000.
``--misses`` prints the sentences each class missed. The set measures; it must never be
mined for words to add to a detector (DETECTOR_HELDOUT.md).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench._harness import django_setup, machine  # noqa: E402

HELDOUT = Path(__file__).resolve().parents[2] / "tests" / "data" / "detector_heldout.jsonl"
CLASSES = (
    "credential",
    "special_category",
    "instruction_tool",
    "future_change",
    "transient",
    "ordinary",
)


def load(path: Path = HELDOUT) -> list[dict]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


@dataclass(frozen=True)
class Result:
    row: dict
    operation: str
    reason_code: str
    findings: tuple[str, ...]
    dated: bool  # stored with a start later than when it was said

    @property
    def correct(self) -> bool:
        label = self.row["label"]
        stored = self.operation in ("ADD", "CONFIRM")
        if label == "refuse":
            return self.operation == "REJECT"
        if label in ("hold", "not_stored"):
            return not stored
        if label == "date_or_hold":
            return not stored or self.dated
        return stored  # "store"


def submit_all(tenant, agent, rows: list[dict], run: str = "") -> list[Result]:
    """Each row through the real write path, one fresh subject per row."""
    from django.utils import timezone

    from core.actor import Actor
    from core.tenancy import tenant_context
    from memory.models import MemoryRecord
    from memory.services.events import EventInput, events_append
    from memory.services.subjects import subject_get_or_create
    from memory.services.writes import candidates_submit
    from memory.write_policy import Candidate

    run = run or uuid.uuid4().hex[:8]
    actor = Actor.agent(agent.id, tenant.id)
    results = []
    with tenant_context(tenant.id):
        for n, row in enumerate(rows):
            subject = subject_get_or_create(
                tenant_id=tenant.id, kind="user", external_id=f"heldout-{run}-{n}"
            )
            from_tool = row["class"] == "instruction_tool"
            said_at = timezone.now()
            [event] = events_append(
                actor=actor,
                agent_id=agent.id,
                subject=subject,
                items=[
                    EventInput(
                        client_event_id=f"heldout-{run}-{n}",
                        kind="tool_result" if from_tool else "message",
                        role="tool" if from_tool else "user",
                        content=row["text"],
                        occurred_at=said_at,
                    )
                ],
            )
            candidate = Candidate(
                memory_type="semantic",
                namespace="assistant/profile",
                statement=row["text"],
                assertion_kind="agent_inference" if from_tool else "user_explicit",
                confidence=0.8 if from_tool else 1.0,
                purpose="personalization",
                consent_basis="explicit_consent",
                source_event_ids=(event.event_id,),
            )
            [outcome] = candidates_submit(
                actor=actor, subject=subject, candidates=[candidate], agent_id=agent.id
            )
            dated = False
            if outcome.record_id is not None:
                record = MemoryRecord.objects.get(pk=outcome.record_id)
                dated = record.valid_from is not None and record.valid_from > said_at
            results.append(
                Result(row, outcome.operation, outcome.reason_code, outcome.findings, dated)
            )
    return results


def summarise(results: list[Result]) -> dict[str, tuple[int, int]]:
    """key -> (right, total). Positives by class ("credential", ...); the sentences that must
    be stored as "ordinary" and "special_category_negative", where right = stored."""
    out: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in results:
        key = r.row["class"]
        if r.row["label"] == "store" and key != "ordinary":
            key = f"{key}_negative"
        out[key][0] += r.correct
        out[key][1] += 1
    return {k: (a, b) for k, (a, b) in out.items()}


def report(results: list[Result], misses: bool = False) -> None:
    summary = summarise(results)
    print(f"{'class':<30}{'caught/total':>14}{'rate':>8}")
    for key in CLASSES[:-1]:
        if key in summary:
            right, total = summary[key]
            print(f"{key:<30}{right:>7}/{total:<6}{right / total:>8.3f}")
    negatives = sorted(k for k in summary if k.endswith("_negative"))
    for key in ("ordinary", *negatives):
        if key in summary:
            right, total = summary[key]
            print(
                f"{key + ' refused/held':<30}{total - right:>7}/{total:<6}"
                f"{1000 * (total - right) / total:>8.1f} per 1,000"
            )
    by_lang: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in results:
        if r.row["label"] != "store":
            by_lang[r.row["lang"]][0] += r.correct
            by_lang[r.row["lang"]][1] += 1
    print(
        "positives caught by language: "
        + ", ".join(f"{k} {a}/{b}" for k, (a, b) in sorted(by_lang.items()))
    )
    # Each class by language (totals, no text): where a class is weak, without its sentences.
    by_class_lang: dict[str, dict[str, list[int]]] = defaultdict(
        lambda: defaultdict(lambda: [0, 0])
    )
    for r in results:
        key = r.row["class"] if r.row["label"] != "store" else r.row["class"] + "_negative"
        by_class_lang[key][r.row["lang"]][0] += r.correct
        by_class_lang[key][r.row["lang"]][1] += 1
    for key, langs in sorted(by_class_lang.items()):
        print(f"  {key:<32} " + ", ".join(f"{k} {a}/{b}" for k, (a, b) in sorted(langs.items())))
    # Outcomes by reason code (no text): enough to see the bench itself is sound.
    reasons: dict[str, Counter] = defaultdict(Counter)
    for r in results:
        reasons[r.row["class"] + "/" + r.row["label"]][f"{r.operation}:{r.reason_code}"] += 1
    for key, counts in sorted(reasons.items()):
        print(f"  {key:<32} " + ", ".join(f"{k} {n}" for k, n in counts.most_common(5)))
    if misses:
        for r in results:
            if not r.correct:
                print(
                    f"  MISS [{r.row['class']}/{r.row['label']}] {r.operation} {r.reason_code}: {r.row['text'][:120]!r}"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--misses", action="store_true", help="print every wrong outcome")
    parser.add_argument(
        "--set",
        type=Path,
        default=HELDOUT,
        help="another labelled set in the same format (a probe set of your own)",
    )
    args = parser.parse_args()
    django_setup()
    # Each appended event runs the (eager) extraction task, which logs a line per event.
    logging.getLogger("celery").setLevel(logging.WARNING)
    from accounts.models import Agent, Tenant
    from accounts.services.tenants import agent_create, tenant_create
    from core.actor import Actor

    tenant = Tenant.objects.filter(slug="bench-heldout").first() or tenant_create(
        slug="bench-heldout", name="Benchmarks (held-out detectors)"
    )
    agent = Agent.objects.filter(tenant=tenant, name="bench").first() or agent_create(
        actor=Actor.system(tenant.id, "bench"), tenant=tenant, name="bench"
    )
    rows = load(args.set)
    print(f"machine: {machine()}")
    started = time.perf_counter()
    results = submit_all(tenant, agent, rows)
    print(
        f"{len(rows)} sentences through candidates_submit in {time.perf_counter() - started:.1f} s"
    )
    report(results, misses=args.misses)


if __name__ == "__main__":
    main()
