"""Golden set v2: assemble (see __init__.py)."""

from __future__ import annotations

import random
import sys
from collections import Counter
from datetime import date
from pathlib import Path

from bench.golden.builders.common import check_content_rules, full_years, iso, norm, other, write

from .background import CODES_USED, bg_date
from .background_2 import BG_COUNTS, INJECTED
from .background_vocabulary import HELP_TASKS
from .background_vocabulary_2 import FILMS, PROJECT_COMPONENTS, PURCHASE_ITEMS
from .helpers import Subject
from .params import N_SUBJECTS, SEED, SPLITS
from .profile_2 import ABSTAIN_EXCLUDE, ALWAYS, ORDER, PROFILE_GEN, STALE_KEYS
from .questions import PROFILE_Q
from .questions_2 import AS_OF_Q, BG_Q, CODE_Q, GENERIC_ABSTAIN_Q, SAME_NAME_Q
from .vocabulary import SIBLINGS, SUBJECT_NAMES_EN, SUBJECT_NAMES_ZH
from .vocabulary_2 import PROJECTS


def gen_background(s: Subject) -> None:
    r = s.r
    jobs: list[tuple] = []
    for cat, (_, lo, hi) in BG_COUNTS.items():
        jobs += [(cat, i) for i in range(r.randint(lo, hi))]
    helps = r.sample(HELP_TASKS, sum(1 for c, _ in jobs if c == "help"))
    purchases = r.sample(PURCHASE_ITEMS, sum(1 for c, _ in jobs if c == "purchase"))
    films = r.sample(FILMS, sum(1 for c, _ in jobs if c == "media"))
    combos = [(p, c) for p in s.projects for c in PROJECT_COMPONENTS]
    notes = r.sample(combos, sum(1 for c, _ in jobs if c == "project_note"))
    r.shuffle(jobs)
    counters: Counter = Counter()
    for cat, _ in jobs:
        fn = BG_COUNTS[cat][0]
        for _attempt in range(50):
            L = s.pick_lang()
            if cat == "help":
                m = fn(s, L, helps[counters[cat]])
            elif cat == "purchase":
                m = fn(s, L, purchases[counters[cat]])
            elif cat == "media":
                m = fn(s, L, films[counters[cat]])
            elif cat == "project_note":
                m = fn(s, L, *notes[counters[cat]])
            else:
                m = fn(s, L)
            if norm(m["statement"]) not in s.seen:
                break
        else:  # pragma: no cover - the pools are large enough
            raise RuntimeError(f"could not make a unique {cat} memory for {s.sid}")
        key = f"bg:{cat}:{counters[cat]}"
        counters[cat] += 1
        s.add(key, m["statement"], L, m["start"], memory_type=m["memory_type"], code=m["code"])
        s.bg.append({**m, "key": key, "lang": L})


def typo(code: str, r: random.Random, taken: set[str]) -> str:
    digits = [i for i, c in enumerate(code) if c.isdigit()][-4:]
    while True:
        i = r.choice(digits)
        new = code[:i] + str((int(code[i]) + r.randint(1, 9)) % 10) + code[i + 1 :]
        if new not in taken:
            return new


def fill(text: str, slots: dict, lang: str) -> str:
    return text.format(
        **{
            k: (v[0] if lang == "en" else v[1]) if isinstance(v, tuple) else v
            for k, v in slots.items()
        }
    )


def gen_queries(s: Subject, split: str, deleted_key: str) -> list[dict]:
    r = s.r
    out: list[dict] = []
    texts: set[str] = set()

    def ask(
        kind: str, key: str, pool: dict, qlang: str, slots: dict | None = None, **extra
    ) -> None:
        options = [fill(t, slots or {}, qlang) for t in pool[split][qlang]]
        fresh = [t for t in options if t not in texts] or options
        text = r.choice(fresh)
        texts.add(text)
        q = {
            "subject": s.sid,
            "split": split,
            "kind": kind,
            "key": key,
            "query": text,
            "lang": qlang,
        }
        q.update({k: v for k, v in extra.items() if v is not None})
        out.append(q)

    # Profile facts: paraphrases in the subject's language, then cross-lingual questions.
    keys = sorted(s.meta)
    for i, key in enumerate(r.sample(keys, 7)):
        meta = s.meta[key]
        qlang = s.lang if i < 5 else other(meta["lang"])
        kind = "paraphrase" if qlang == meta["lang"] else "cross_lingual"
        ask(kind, key, PROFILE_Q[key], qlang, meta["slots"])
    # Keys whose old values were superseded: the current one must win.
    stale = [k for k in STALE_KEYS if s.meta.get(k, {}).get("stale")]
    for key in r.sample(stale, min(2, len(stale))):
        ask("stale_current", key, PROFILE_Q[key], s.lang, s.meta[key]["slots"])
    # What was true back then (only years lying wholly inside an old value's validity).
    for key in ("home_city", "employer"):
        if not s.meta[key]["stale"]:
            continue
        start, end = r.choice(s.meta[key]["periods"])
        years = full_years(start, end)
        if years:
            y = r.choice(years)
            ask("as_of", key, AS_OF_Q[key], s.lang, {"year": str(y)}, as_of=iso(date(y, 7, 1)))
    # Ids and error codes, one exact and one with a digit wrong.
    coded = [m for m in s.bg if m["code"]]
    taken = {m["code"] for m in coded}
    exact, wrong = r.sample(coded, 2)
    ask("code", exact["key"], CODE_Q, s.lang, {"code": exact["code"]})
    ask("code_typo", wrong["key"], CODE_Q, s.lang, {"code": typo(wrong["code"], r, taken)})
    # Background memories named by an anchor unique within the subject.
    anchors = Counter(m["anchor"] for m in s.bg)
    askable = [m for m in s.bg if anchors[m["anchor"]] == 1 and m["qcat"]]
    by_cat: dict[str, list] = {}
    for m in askable:
        by_cat.setdefault(m["qcat"], []).append(m)
    for qcat in r.sample(sorted(by_cat), min(4, len(by_cat))):
        m = r.choice(by_cat[qcat])
        ask("background", m["key"], BG_Q[qcat], m["lang"], m["slots"])
    # The subject's own name; another subject has the same one.
    if r.random() < 0.6:
        key = r.choice([k for k in SAME_NAME_Q if k in s.meta])
        ask("same_name", key, SAME_NAME_Q[key], s.lang, {"name": s.name})

    # Questions that must get nothing.
    def abstain_lang() -> str:
        return other(s.lang) if r.random() < 0.25 else s.lang

    rel = {"rel": r.choice(SIBLINGS)}
    ask("abstain", "", PROFILE_Q[deleted_key], abstain_lang(), rel, asks=f"deleted:{deleted_key}")
    missing = [
        k
        for k in sorted(PROFILE_Q)
        if k not in s.meta and k not in ABSTAIN_EXCLUDE and k != deleted_key
    ]
    for key in r.sample(missing, min(len(missing), 2 if r.random() < 0.5 else 1)):
        ask("abstain", "", PROFILE_Q[key], abstain_lang(), rel, asks=key)
    if r.random() < 0.5:
        ask("abstain", "", GENERIC_ABSTAIN_Q, abstain_lang(), asks="generic")
    # The deleted-key abstain question uses that key's phrasings.
    out_deleted = [q for q in out if q.get("asks") == f"deleted:{deleted_key}"]
    assert len(out_deleted) == 1
    return out


def build() -> dict:
    r = random.Random(SEED)
    CODES_USED.clear()
    subjects, queries = [], []
    for n in range(N_SUBJECTS):
        lang = "zh" if n % 4 in (0, 1) else "en"
        if lang == "zh":
            mix = 0.3 if r.random() < 0.5 else 0.0
        else:
            mix = 0.12 if r.random() < 0.3 else 0.0
        names = SUBJECT_NAMES_ZH if lang == "zh" else SUBJECT_NAMES_EN
        s = Subject(r, n, lang, mix, names[(n // 4) % len(names)])
        split = SPLITS[n % 2]
        s.projects = r.sample(PROJECTS, r.randint(2, 3))

        # Profile facts.
        others = [k for k in PROFILE_GEN if k not in ALWAYS]
        chosen = set(ALWAYS) | set(r.sample(others, r.randint(19, 26)))
        for key in ORDER:
            if key not in chosen:
                continue
            L = s.pick_lang()
            facts, meta = PROFILE_GEN[key](s, L)
            for f in facts:
                s.add(
                    key,
                    f["statement"],
                    L,
                    f["start"],
                    predicate=f.get("predicate"),
                    value=f.get("value"),
                )
            s.meta[key] = {
                "lang": L,
                "slots": meta.get("slots", {}),
                "stale": meta.get("stale", False),
                "periods": meta.get("periods", []),
            }
        # A fact the user later asked to forget (a key this subject otherwise lacks).
        candidates = [
            k
            for k in sorted(PROFILE_Q)
            if k not in s.meta and k not in ABSTAIN_EXCLUDE and k != "sibling"
        ]
        deleted_key = r.choice(candidates)
        L = s.pick_lang()
        f = PROFILE_GEN[deleted_key](s, L)[0][0]
        s.add(
            f"deleted:{deleted_key}",
            f["statement"],
            L,
            f["start"],
            role="deleted",
            predicate=f.get("predicate"),
            value=f.get("value"),
        )
        # Injected instruction text (quarantined by the write policy).
        for text in r.sample(INJECTED[s.lang], r.randint(1, 2)):
            s.add("injected", text, s.lang, bg_date(s), role="injected")
        gen_background(s)
        # Memories arrive in the order they were learnt (a newer home city after the old one).
        s.mem.sort(key=lambda m: m["valid_from"])

        subjects.append(
            {
                "id": s.sid,
                "lang": s.lang,
                "mixed": s.mix > 0,
                "moved": s.meta["home_city"]["stale"],
                "name": s.name[0],
                "memories": [{k: v for k, v in m.items()} for m in s.mem],
            }
        )
        queries += gen_queries(s, split, deleted_key)
    return {"version": 2, "subjects": subjects, "queries": queries}


def validate(data: dict) -> None:
    """Invariants the benchmark relies on."""
    by_sid = {s["id"]: s for s in data["subjects"]}
    for s in data["subjects"]:
        norms = [norm(m["statement"]) for m in s["memories"]]
        assert len(norms) == len(set(norms)), f"duplicate statement in {s['id']}"
        assert 200 <= len(s["memories"]) <= 300, (s["id"], len(s["memories"]))
        # A predicate is single-valued: only a supersede chain (newer value, later start)
        # may reuse one, else the write policy quarantines the conflict.
        chains: dict[str, list[str]] = {}
        for m in s["memories"]:
            if m.get("predicate"):
                chains.setdefault(m["predicate"], []).append(m["valid_from"])
        for pred, starts in chains.items():
            assert starts == sorted(set(starts)), (s["id"], pred, starts)
    per_subject = Counter(q["subject"] for q in data["queries"])
    assert min(per_subject.values()) >= 10, per_subject
    for q in data["queries"]:
        mems = by_sid[q["subject"]]["memories"]
        qn = norm(q["query"])
        assert all(qn != norm(m["statement"]) and qn not in norm(m["statement"]) for m in mems), q
        if q["kind"] != "abstain":
            assert any(m["key"] == q["key"] and m["role"] == "relevant" for m in mems), q
        if q["kind"] in ("code", "code_typo"):
            assert any(m.get("code") for m in mems if m["key"] == q["key"])
    # Held-out wording never appears in the tune split.
    tune = {q["query"] for q in data["queries"] if q["split"] == "tune"}
    held = {q["query"] for q in data["queries"] if q["split"] == "heldout"}
    templates_overlap = []
    for pools in [
        *PROFILE_Q.values(),
        *AS_OF_Q.values(),
        *SAME_NAME_Q.values(),
        *BG_Q.values(),
        CODE_Q,
        GENERIC_ABSTAIN_Q,
    ]:
        for lang in ("en", "zh"):
            assert len(pools["tune"][lang]) >= 2 and len(pools["heldout"][lang]) >= 2
            templates_overlap += set(pools["tune"][lang]) & set(pools["heldout"][lang])
    assert not templates_overlap, templates_overlap
    assert not (tune & held) or all("{" not in t for t in tune & held), tune & held


OUT = Path(__file__).resolve().parents[2] / "recall_v2.json"


def summary(data: dict) -> str:
    mem = [m for s in data["subjects"] for m in s["memories"]]
    lines = [
        f"{len(data['subjects'])} subjects ({Counter(s['lang'] for s in data['subjects'])}, "
        f"{sum(s['mixed'] for s in data['subjects'])} mixed-language), {len(mem)} memories "
        f"(roles {dict(Counter(m['role'] for m in mem))}, languages {dict(Counter(m['lang'] for m in mem))})",
        f"memories per subject: {min(len(s['memories']) for s in data['subjects'])}"
        f"-{max(len(s['memories']) for s in data['subjects'])}; profile "
        f"{sum(1 for m in mem if not m['key'].startswith('bg:') and m['role'] == 'relevant')}, "
        f"background {sum(1 for m in mem if m['key'].startswith('bg:'))}",
        f"{len(data['queries'])} queries",
    ]
    kinds = Counter((q["kind"], q["split"]) for q in data["queries"])
    for kind in sorted({k for k, _ in kinds}):
        lines.append(
            f"  {kind:<14} tune {kinds[(kind, 'tune')]:>4}  heldout {kinds[(kind, 'heldout')]:>4}"
        )
    langs = Counter((q["lang"], q["split"]) for q in data["queries"])
    lines.append(f"  query languages: {dict(sorted(langs.items()))}")
    return "\n".join(lines)


def main() -> None:
    data = build()
    validate(data)
    write(data, OUT)
    print(summary(data))
    print(f"-> {OUT}")
    if "--check" in sys.argv:
        print("content-rule problems:", check_content_rules(data) or "none")
