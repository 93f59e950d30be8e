"""What the golden-set builder uses beside its own modules: the file format (``dumps``: the
committed bench/golden/recall_v4.json is exactly this of ``build()``, tests/test_bench.py
checks it), small helpers (``other``, ``iso``, ``norm``, ``full_years``), the content-rule
check of ``--check`` and the summary it prints. Run it from the repository root:
``python -m bench.golden.builders.v4 [--check]``.

Golden sets v1-v3 (bench/golden/recall_v1..v3.json) are kept as committed data; their
builders were retired and stay in git history (``git log -- bench/golden/builders/v1.py``)."""

from __future__ import annotations

import functools
import json
import os
import sys
import unicodedata
from collections import Counter
from datetime import UTC, date, datetime
from pathlib import Path


def other(lang: str) -> str:
    return "zh" if lang == "en" else "en"


def iso(x: date) -> str:
    """Midnight UTC of a day, as the golden sets write ``valid_from``."""
    return datetime(x.year, x.month, x.day, tzinfo=UTC).isoformat()


@functools.cache  # v4's background dedupe compares every new line with all earlier ones
def norm(text: str) -> str:
    """Text as the builders compare it: NFKC, casefolded, no spaces, punctuation or symbols."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return "".join(c for c in text if not (c.isspace() or unicodedata.category(c)[0] in "PS"))


def full_years(start: date, end: date) -> list[int]:
    """Calendar years lying wholly inside [start, end)."""
    return [
        y
        for y in range(start.year, end.year + 1)
        if date(y, 1, 1) >= start and date(y, 12, 31) < end
    ]


def dumps(data: dict) -> str:
    """A golden set as committed: UTF-8 text, one-space indent, a final newline."""
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def write(data: dict, out: Path) -> None:
    out.parent.mkdir(exist_ok=True)
    out.write_text(dumps(data), encoding="utf-8")


def check_content_rules(data: dict) -> dict:
    """Run the write policy's detectors over every statement (needs the project's venv):
    relevant and deleted memories must pass clean; injected ones must read as injection."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    import django

    django.setup()
    from memory import content_rules as cr

    problems: Counter = Counter()
    for s in data["subjects"]:
        for m in s["memories"]:
            text = f"{m['statement']}\n{m.get('value') if m.get('value') is not None else ''}"
            found = {
                "secret": cr.find_secrets(text),
                "injection": cr.find_injection(text),
                "transient": cr.find_transient(text),
                "system_of_record": cr.find_system_of_record(text, m.get("predicate", "")),
                "sensitive": cr.find_sensitive_personal_data(text),
            }
            if m["role"] == "injected":
                if not found["injection"] or found["secret"]:
                    problems["injected not flagged as injection"] += 1
                    print("  injected:", m["statement"], found)
                continue
            for name, hits in found.items():
                if hits:
                    problems[name] += 1
                    print(f"  {name}: {m['statement']!r} {hits}")
    return dict(problems)


def summary(data: dict, split: str = "heldout") -> str:
    mem = [m for s in data["subjects"] for m in s["memories"]]
    qs = data["queries"]
    lines = [
        f"{len(data['subjects'])} subjects ({dict(Counter(s['lang'] for s in data['subjects']))}, "
        f"{sum(s['mixed'] for s in data['subjects'])} mixed, {sum(s['moved'] for s in data['subjects'])} moved), "
        f"{len(mem)} memories (roles {dict(Counter(m['role'] for m in mem))}, "
        f"languages {dict(Counter(m['lang'] for m in mem))})",
        f"memories per subject {min(len(s['memories']) for s in data['subjects'])}-"
        f"{max(len(s['memories']) for s in data['subjects'])}; profile "
        f"{sum(1 for m in mem if not m['key'].startswith(('bg:', 'deleted', 'injected')))}, background "
        f"{sum(1 for m in mem if m['key'].startswith('bg:'))}",
        f"{len(qs)} queries (all {split})",
    ]
    kinds = Counter(q["kind"] for q in qs)
    kl = Counter((q["kind"], q["lang"]) for q in qs)
    for kind in sorted(kinds):
        lines.append(
            f"  {kind:<14}{kinds[kind]:>4}   en {kl[(kind, 'en')]:>3}  zh {kl[(kind, 'zh')]:>3}"
        )
    lines.append(f"  query languages: {dict(Counter(q['lang'] for q in qs))}")
    return "\n".join(lines)
