"""Write-policy precision bench: how well the content detectors find what they
must, and how rarely they refuse ordinary conversation.

    .venv/bin/python bench/quality/policy_precision.py                       # labelled corpora only
    .venv/bin/python bench/quality/policy_precision.py --locomo ../shared/data/locomo-dev
    .venv/bin/python bench/quality/policy_precision.py --locomo DIR --via api   # through HTTP

(a) Precision and recall per detector and per special category on the bilingual labelled
    corpora in tests/security/ (each detector's positives against its own negatives plus
    every other detector's negatives).
(b) Wrongly refused or held turns per 1,000 ordinary turns: every turn of a LoCoMo-format
    folder (one JSON file per conversation; the data is never copied into this repository)
    plus our own Chinese conversation (tests/security/ordinary_zh.py), each proposed as a
    user-stated episodic memory "Speaker: text" citing its own source event. ``--via policy``
    (default) calls the write policy engine directly; ``--via api`` starts gunicorn on
    loopback and sends every turn through POST /api/v1/events and /api/v1/candidates on the
    configured database (a fresh bench subject per conversation), as an agent would.
    Every non-ADD decision is listed with its reason and findings, so a person can judge
    which were right to hold (e.g. a turn disclosing the speaker's own religion).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import uuid
from collections import Counter, defaultdict
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench._harness import (  # noqa: E402
    Client,
    Server,
    bench_credentials,
    django_setup,
    machine,
)


def _ratio(a: int, b: int) -> str:
    return f"{a / b:.3f}" if b else "n/a"


# --- (a) labelled corpora ----------------------------------------------------------------


def corpora_report() -> None:
    from memory.content_rules import (
        find_injection,
        find_secrets,
        find_system_of_record,
        find_transient,
    )
    from memory.detectors.special_categories import CATEGORIES, find_special_categories
    from tests.security import detector_corpus as dc
    from tests.security.obfuscated_corpus import CLEAN_TOOL_OUTPUT, OBFUSCATED
    from tests.security.ordinary_zh import ORDINARY_ZH
    from tests.security.special_category_corpus import NEGATIVE, POSITIVE

    ordinary = (
        dc.SECRET_NEGATIVE
        + dc.TRANSIENT_NEGATIVE
        + dc.SOR_NEGATIVE
        + dc.INJECTION_NEGATIVE
        + NEGATIVE
        + ORDINARY_ZH
    )
    print("== (a) detectors on the labelled corpora ==")
    print(f"{'detector':<28}{'pos':>5}{'neg':>6}{'TP':>5}{'FP':>5}{'precision':>11}{'recall':>8}")

    def row(name: str, positives: list[str], negatives: list[str], found) -> None:
        tp = sum(1 for t in positives if found(t))
        fp = sum(1 for t in negatives if found(t))
        print(
            f"{name:<28}{len(positives):>5}{len(negatives):>6}{tp:>5}{fp:>5}"
            f"{_ratio(tp, tp + fp):>11}{_ratio(tp, len(positives)):>8}"
        )

    secrets = [t for t, _ in dc.SECRET_POSITIVE]
    row("secrets", secrets, ordinary, find_secrets)
    row("transient", dc.TRANSIENT_POSITIVE, ordinary, find_transient)
    row("system_of_record", dc.SOR_POSITIVE, ordinary, find_system_of_record)
    # Injection alone on the obfuscated corpus; the policy result below adds step 7a.
    row("injection (any source)", [t for _, _, t in OBFUSCATED], ordinary, find_injection)
    for category in CATEGORIES:
        positives = [t for t, c in POSITIVE if c == category]
        negatives = [t for t, c in POSITIVE if c != category] + ordinary
        row(
            f"special: {category}",
            positives,
            negatives,
            lambda t, c=category: c in find_special_categories(t),
        )
    all_pos = [t for t, _ in POSITIVE]
    row("special: any category", all_pos, ordinary, find_special_categories)

    # Class 8 through the engine: tool-derived, as an agent inference citing a tool event.
    from accounts.policies import TenantPolicy
    from memory.write_policy import Candidate, SubjectState, decide

    def held(text: str, role: str) -> bool:
        c = Candidate(
            memory_type="semantic",
            namespace="assistant/profile",
            statement=text,
            assertion_kind="agent_inference",
            confidence=0.8,
            purpose="personalization",
            consent_basis="explicit_consent",
            source_roles=(role,),
        )
        d = decide(c, existing=[], subject=SubjectState(), tenant=TenantPolicy(), now=_now())
        return d.operation != "ADD"

    role = {"tool": "tool", "web": "external"}
    tp = sum(1 for _, ch, t in OBFUSCATED if held(t, role[ch]))
    fp = sum(1 for ch, t in CLEAN_TOOL_OUTPUT if held(t, role[ch]))
    print(
        f"{'policy: tool-derived instr.':<28}{len(OBFUSCATED):>5}{len(CLEAN_TOOL_OUTPUT):>6}"
        f"{tp:>5}{fp:>5}{_ratio(tp, tp + fp):>11}{_ratio(tp, len(OBFUSCATED)):>8}"
    )


def _now() -> datetime:
    return datetime.now(UTC)


# --- (b) ordinary conversation ------------------------------------------------------------


def locomo_turns(folder: Path) -> dict[str, list[tuple[str, datetime]]]:
    """conversation id -> [("Speaker: text", session time)] in order."""
    conversations: dict[str, list[tuple[str, datetime]]] = {}
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text())
        conv = data.get("conversation", data)
        turns: list[tuple[str, datetime]] = []
        n = 1
        while f"session_{n}" in conv or f"session_{n}_date_time" in conv:
            when = conv.get(f"session_{n}_date_time")
            try:
                at = datetime.strptime(when, "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)
            except (TypeError, ValueError):
                at = _now()
            for turn in conv.get(f"session_{n}", []) or []:
                text = turn["text"]
                if turn.get("blip_caption"):
                    text += f" [shares a photo: {turn['blip_caption']}]"
                turns.append((f"{turn['speaker']}: {text}", at))
            n += 1
        conversations[path.stem] = turns
    return conversations


def own_zh_turns() -> dict[str, list[tuple[str, datetime]]]:
    from tests.security.ordinary_zh import ORDINARY_ZH

    return {"ordinary_zh": [(t, _now()) for t in ORDINARY_ZH]}


def via_policy(conversations) -> list[tuple[str, str, str, tuple[str, ...], str]]:
    from django.conf import settings

    from accounts.policies import TenantPolicy
    from memory.write_policy import Candidate, SubjectState, decide

    out = []
    for conv_id, turns in conversations.items():
        for text, at in turns:
            c = Candidate(
                memory_type="episodic",
                namespace="conversation",
                statement=text,
                assertion_kind="user_explicit",
                confidence=1.0,
                purpose="personalization",
                consent_basis="explicit_consent",
                valid_from=at,
                source_roles=("user",),
            )
            d = decide(
                c,
                existing=[],
                subject=SubjectState(),
                tenant=TenantPolicy(),
                now=_now(),
                learned_detectors=settings.ENGRAM["LEARNED_DETECTORS"],
            )
            out.append((conv_id, d.operation, d.reason_code, d.findings, text))
    return out


def via_api(conversations) -> list[tuple[str, str, str, tuple[str, ...], str]]:
    out = []
    run = uuid.uuid4().hex[:8]
    with Server(workers=1, env={"ENGRAM_EMBED_AFTER_COMMIT": "none"}) as server:
        for conv_id, turns in conversations.items():
            key, token = bench_credentials("bench-precision", f"{conv_id}-{run}")
            client = Client(server.port, key, token)
            for start in range(0, len(turns), 50):
                chunk = turns[start : start + 50]
                ids = [f"{conv_id}-{run}-{start + i}" for i in range(len(chunk))]
                events = [
                    {
                        "client_event_id": cid,
                        "kind": "message",
                        "role": "user",
                        "content": text,
                        "occurred_at": at.isoformat(),
                    }
                    for cid, (text, at) in zip(ids, chunk, strict=True)
                ]
                status, body, _ = client.post("/api/v1/events", {"events": events})
                assert status == 200, body
                candidates = [
                    {
                        "memory_type": "episodic",
                        "namespace": "conversation",
                        "statement": text,
                        "assertion_kind": "user_explicit",
                        "confidence": 1.0,
                        "purpose": "personalization",
                        "consent_basis": "explicit_consent",
                        "valid_from": at.isoformat(),
                        "source_client_event_ids": [cid],
                    }
                    for cid, (text, at) in zip(ids, chunk, strict=True)
                ]
                status, body, _ = client.post("/api/v1/candidates", {"candidates": candidates})
                assert status == 200, body
                for (text, _), result in zip(chunk, body["results"], strict=True):
                    out.append(
                        (
                            conv_id,
                            result["operation"],
                            result["reason_code"],
                            tuple(result.get("findings", ())),
                            text,
                        )
                    )
    return out


def ordinary_report(folder: Path | None, via: str) -> None:
    conversations = locomo_turns(folder) if folder else {}
    conversations.update(own_zh_turns())
    started = time.perf_counter()
    results = via_policy(conversations) if via == "policy" else via_api(conversations)
    elapsed = time.perf_counter() - started
    print(f"\n== (b) ordinary turns wrongly refused or held (via {via}) ==")
    by_conv: dict[str, list] = defaultdict(list)
    for r in results:
        by_conv[r[0]].append(r)
    total_turns = total_bad = 0
    for conv_id, rows in by_conv.items():
        bad = [r for r in rows if r[1] not in ("ADD", "CONFIRM")]
        total_turns += len(rows)
        total_bad += len(bad)
        print(
            f"  {conv_id:<14} {len(rows):>5} turns  {len(bad):>3} refused/held  "
            f"{1000 * len(bad) / len(rows):6.2f} per 1,000"
        )
    print(
        f"  {'all':<14} {total_turns:>5} turns  {total_bad:>3} refused/held  "
        f"{1000 * total_bad / max(total_turns, 1):6.2f} per 1,000   ({elapsed:.1f} s)"
    )
    reasons = Counter((r[1], r[2]) for r in results if r[1] not in ("ADD", "CONFIRM"))
    for (op, reason), n in reasons.most_common():
        print(f"    {n:>3} {op} {reason}")
    print("  each refused or held turn (judge whether it was right):")
    for conv_id, op, reason, findings, text in results:
        if op not in ("ADD", "CONFIRM"):
            print(f"    [{conv_id}] {op} {reason} {list(findings)}: {text[:160]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--locomo", type=Path, help="a LoCoMo-format folder (*.json)")
    parser.add_argument("--via", choices=("policy", "api"), default="policy")
    parser.add_argument("--skip-corpora", action="store_true")
    args = parser.parse_args()
    django_setup()
    print(f"machine: {machine()}")
    if not args.skip_corpora:
        corpora_report()
    ordinary_report(args.locomo, args.via)


if __name__ == "__main__":
    main()
