"""Golden set v4: assemble (see __init__.py)."""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

from bench.golden.builders.common import check_content_rules, norm, other, summary, write

from .background import gen_background
from .background_vocabulary import INJECTED
from .helpers import Subject, fill
from .ids import CODES, TYPOS
from .params import LAST_DAY, SEED, SPLIT, D
from .profile_facts import gen_key, key_slots
from .profile_keys import ABSTAIN_OK, ALWAYS, CHANGEABLE, NOBODY, PROFILE
from .questions import ALL_TEXT, gen_queries
from .subjects import NAMES_EN, NAMES_ZH, PLAN


def build() -> dict:
    r = random.Random(SEED)
    CODES.clear()
    TYPOS.clear()
    ALL_TEXT.clear()
    built = []
    pool_keys = [k for k in PROFILE if k not in ALWAYS and k != "timezone"]
    for n, (lang, mix, name_i, moves, job_change) in enumerate(PLAN):
        person = (NAMES_ZH if lang == "zh" else NAMES_EN)[name_i]
        s = Subject(r, n, lang, mix, person)
        chosen = set(ALWAYS) | set(r.sample(pool_keys, r.randint(19, 21)))
        if r.random() < 0.7:
            chosen.add("timezone")
        changes = {"home_city": moves, "employer": int(job_change)}
        for k in CHANGEABLE:
            changes[k] = int(k in chosen and r.random() < 0.4)
        need = 2 if n % 3 == 0 else 1
        while sum(1 for v in changes.values() if v) < need:
            k = r.choice([k for k in CHANGEABLE if not changes[k]])
            chosen.add(k)
            changes[k] = 1
        order = ["home_city", "timezone"] + sorted(
            k for k in chosen if k not in ("home_city", "timezone")
        )
        for key in order:
            if key in chosen:
                gen_key(s, key, s.lang_for(), changes.get(key, 0))
        # One fact the user later asked to forget (a key the subject otherwise lacks).
        deleted_key = r.choice([k for k in ABSTAIN_OK if k not in s.meta])
        L = s.lang_for()
        slots, value = key_slots(s, deleted_key)
        spec = PROFILE[deleted_key]
        s.add(f"deleted:{deleted_key}", fill(r.choice(spec.say[L]), L, slots), L, s.day(*spec.start),
              role="deleted", predicate=spec.pred, value=value if spec.pred else None, memory_type="semantic")  # fmt: skip
        # Two injected instruction texts; a mixed subject gets one in each language.
        langs = [s.lang, other(s.lang)] if mix else [s.lang, s.lang]
        picked = r.sample(INJECTED[s.lang], 2)
        if mix:
            picked[1] = r.choice(INJECTED[other(s.lang)])
        for L, text in zip(langs, picked, strict=True):
            s.add("injected", text, L, s.bgday(), role="injected")
        gen_background(s)
        s.mem.sort(key=lambda m: m["valid_from"])  # learnt in order: older values first
        built.append((s, deleted_key))
    ALL_TEXT.extend(m["statement"] for s, _ in built for m in s.mem)
    subjects, queries = [], []
    for s, deleted_key in built:
        others_have = {k for o, _ in built if o is not s for k in o.meta}
        queries += gen_queries(s, deleted_key, others_have, n_bg=4 if s.n % 2 == 0 else 3,
                               n_missing=2 if s.n % 2 == 0 else 1, generic=s.n % 5 != 4)  # fmt: skip
        subjects.append({"id": s.sid, "lang": s.lang, "mixed": s.mix > 0, "moved": s.meta["home_city"]["stale"],
                         "name": s.name[0], "memories": s.mem})  # fmt: skip
    return {"version": 4, "subjects": subjects, "queries": queries}


def validate(data: dict) -> list[str]:
    """The invariants bench/quality/recall.py relies on; returns what was checked."""
    done = []
    assert data["version"] == 4
    subjects = {s["id"]: s for s in data["subjects"]}
    assert len(subjects) == len(data["subjects"]) == 14
    all_text = " ".join(m["statement"] for s in data["subjects"] for m in s["memories"]).lower()
    for s in data["subjects"]:
        mems = s["memories"]
        norms = [norm(m["statement"]) for m in mems]
        assert len(norms) == len(set(norms)), f"duplicate statement in {s['id']}"
        assert 185 <= len(mems) <= 225, (s["id"], len(mems))
        roles = Counter(m["role"] for m in mems)
        assert roles["deleted"] == 1 and roles["injected"] == 2, (s["id"], roles)
        assert all(
            D(2018, 1, 1).isoformat() <= m["valid_from"][:10] <= LAST_DAY.isoformat() for m in mems
        )
        assert all(m["valid_from"].endswith("+00:00") for m in mems)
        assert [m["valid_from"] for m in mems] == sorted(m["valid_from"] for m in mems)
        chains: dict[str, list] = {}
        for m in mems:
            if m.get("predicate") and m["role"] == "relevant":
                chains.setdefault(m["predicate"], []).append(m)
        for pred, ms in chains.items():
            starts = [m["valid_from"] for m in ms]
            assert starts == sorted(set(starts)), (s["id"], pred, starts)
            assert len({m["key"] for m in ms}) == 1 and len({m.get("memory_type") for m in ms}) == 1
            values = [m["value"] for m in ms]
            assert all(a != b for a, b in zip(values, values[1:], strict=False)), (
                s["id"],
                pred,
                values,
            )
        codes = [m["code"] for m in mems if m.get("code")]
        assert len(codes) == len(set(codes))
        assert all(m["code"] in m["statement"] for m in mems if m.get("code"))
    done.append(
        "statements unique per subject; 1 deleted + 2 injected each; dates 2018..2026-11-10, in order"
    )
    done.append("predicate chains strictly increasing in valid_from with changing values")
    for _, _, words in NOBODY:
        assert not any(w.lower() in all_text for w in words), words
    done.append("'nobody has' topics absent from every statement")

    per_subject = Counter(q["subject"] for q in data["queries"])
    assert set(per_subject) == set(subjects) and min(per_subject.values()) >= 15, per_subject
    assert max(Counter((q["subject"], q["query"]) for q in data["queries"]).values()) == 1
    for q in data["queries"]:
        s = subjects[q["subject"]]
        mems = s["memories"]
        assert q["split"] == SPLIT
        qn = norm(q["query"])
        assert "{" not in q["query"] and "}" not in q["query"], q
        assert all(qn not in norm(m["statement"]) for m in mems), q
        answers = [m for m in mems if m["key"] == q["key"] and m["role"] == "relevant"]
        if q["kind"] == "abstain":
            assert q["key"] == "" and "as_of" not in q
            asks = q["asks"]
            if asks.startswith("deleted:"):
                k = asks.split(":", 1)[1]
                assert not any(m["key"] == k for m in mems)
                assert [m["role"] for m in mems if m["key"] == asks] == ["deleted"]
            elif asks != "nobody":
                assert not any(m["key"] in (asks, f"deleted:{asks}") for m in mems), q
                assert any(m["key"] == asks for o in data["subjects"] for m in o["memories"]), q
            continue
        assert answers, q
        if q["kind"] in (
            "paraphrase",
            "cross_lingual",
            "background",
            "same_name",
            "code",
            "code_typo",
        ):
            assert len(answers) == 1 or q["kind"] == "same_name", q
        if q["kind"] == "as_of":
            at = q["as_of"]
            valid = [m for m in answers if m["valid_from"] <= at]
            assert valid, q
            assert max(valid, key=lambda m: m["valid_from"]) is not max(
                answers, key=lambda m: m["valid_from"]
            ), q
        if q["kind"] == "stale_current":
            assert len(answers) >= 2 and all(m.get("predicate") for m in answers), q
        if q["kind"] == "code":
            [m] = answers
            assert m["code"] in q["query"]
        if q["kind"] == "code_typo":
            [m] = answers
            real, bad = TYPOS[(q["subject"], q["query"])]
            assert real == m["code"] and bad in q["query"] and real not in q["query"]
            assert (
                len(bad) == len(real) and sum(x != y for x, y in zip(bad, real, strict=True)) == 1
            )
            assert not any(
                bad in x["statement"] for o in data["subjects"] for x in o["memories"]
            ), q
        if q["kind"] == "same_name":
            assert s["name"] in q["query"] or _zh_name(s["name"]) in q["query"], q
            assert [o for o in data["subjects"] if o["name"] == s["name"] and o["id"] != s["id"]], q
        if q["kind"] == "cross_lingual":
            assert all(m["lang"] != q["lang"] for m in answers), q
        if q["kind"] in ("paraphrase", "background"):
            assert all(m["lang"] == q["lang"] for m in answers), q
    done.append(
        "every non-abstain key has a relevant memory; abstain keys are empty and unanswered"
    )
    done.append(
        "as_of answered by an older value; code_typo ids one character off and held by no memory"
    )
    done.append("same_name queries carry the subject's name, which a second subject shares")
    return done


OUT = Path(__file__).resolve().parents[2] / "recall_v4.json"


def _zh_name(romanised: str) -> str:
    return {p["en"]: p["zh"] for p in NAMES_ZH + NAMES_EN}[romanised]


def main() -> None:
    data = build()
    checked = validate(data)
    write(data, OUT)
    print(summary(data))
    print("validated:", *checked, sep="\n  ")
    print(f"-> {OUT}")
    if "--check" in sys.argv:
        print("content-rule problems:", check_content_rules(data) or "none")
