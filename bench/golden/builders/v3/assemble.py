"""Golden set v3: assemble (see __init__.py)."""

from __future__ import annotations

import random
import sys
from collections import Counter
from datetime import datetime
from pathlib import Path

from bench.golden.builders.common import check_content_rules, norm, other, summary, write

from .background import CODES, TYPOS, bgd, gen_background
from .background_vocabulary_2 import INJECTED, PROJECTS
from .helpers import D, Subject
from .params import SEED
from .profile import ABSTAIN_OK, ALWAYS, ORDER, PROFILE_GEN, g_employer, g_home_city
from .queries import gen_queries
from .questions import NOBODY
from .subjects import NAMES_EN, NAMES_ZH, PLAN


def build() -> dict:
    r = random.Random(SEED)
    CODES.clear()
    TYPOS.clear()
    subjects, queries, built = [], [], []
    for n, (lang, mix, name_i, moves, job_change) in enumerate(PLAN):
        name = (NAMES_ZH if lang == "zh" else NAMES_EN)[name_i]
        s = Subject(r, n, lang, mix, name)
        s.projects = r.sample(PROJECTS, r.randint(2, 3))
        others = [k for k in PROFILE_GEN if k not in ALWAYS and k != "timezone"]
        chosen = set(ALWAYS) | set(r.sample(others, r.randint(19, 22)))
        if r.random() < 0.7:
            chosen.add("timezone")
        for key in ORDER:
            if key not in chosen:
                continue
            L = s.lang_for()
            if key == "home_city":
                facts, meta = g_home_city(s, L, moves)
            elif key == "employer":
                facts, meta = g_employer(s, L, job_change)
            else:
                facts, meta = PROFILE_GEN[key](s, L)
            for f in facts:
                s.add(key, f["statement"], L, f["start"], predicate=f.get("predicate"), value=f.get("value"),
                      memory_type="semantic")  # fmt: skip
            s.meta[key] = {"lang": L, "stale": meta.get("stale", False), "periods": meta.get("periods", []),
                           "last_start": meta.get("last_start")}  # fmt: skip
        # One fact the user later asked to forget (a key the subject otherwise lacks).
        deleted_key = r.choice([k for k in ABSTAIN_OK if k not in s.meta])
        L = s.lang_for()
        f = PROFILE_GEN[deleted_key](s, L)[0][0]
        s.add(f"deleted:{deleted_key}", f["statement"], L, f["start"], role="deleted",
              predicate=f.get("predicate"), value=f.get("value"), memory_type="semantic")  # fmt: skip
        # Two injected instruction texts; a mixed subject gets one in each language.
        langs = [s.lang, other(s.lang)] if mix else [s.lang, s.lang]
        picked = r.sample(INJECTED[s.lang], 2)
        if mix:
            picked[1] = r.choice(INJECTED[other(s.lang)])
        for L, text in zip(langs, picked, strict=True):
            s.add("injected", text, L, bgd(s), role="injected")
        gen_background(s)
        s.mem.sort(key=lambda m: m["valid_from"])  # learnt in order: old values first
        built.append((s, deleted_key))
    # Questions, once every store exists ("missing" keys are keys some other subject has).
    for s, deleted_key in built:
        others_have = {k for o, _ in built if o is not s for k in o.meta}
        queries += gen_queries(
            s, deleted_key, others_have, n_bg=4 if s.n % 2 == 0 else 3,
            n_missing=2 if s.n % 2 == 0 else 1, generic=s.n % 7 not in (3, 6),
        )  # fmt: skip
        subjects.append(
            {
                "id": s.sid,
                "lang": s.lang,
                "mixed": s.mix > 0,
                "moved": s.meta["home_city"]["stale"],
                "name": s.name[0],
                "memories": s.mem,
            }
        )
    return {"version": 3, "subjects": subjects, "queries": queries}


def validate(data: dict) -> list[str]:
    """The invariants bench/quality/recall.py relies on; returns what was checked."""
    done = []
    subjects = {s["id"]: s for s in data["subjects"]}
    assert len(subjects) == len(data["subjects"])
    all_text = " ".join(m["statement"] for s in data["subjects"] for m in s["memories"]).lower()
    for s in data["subjects"]:
        mems = s["memories"]
        norms = [norm(m["statement"]) for m in mems]
        assert len(norms) == len(set(norms)), f"duplicate statement in {s['id']}"
        assert 180 <= len(mems) <= 230, (s["id"], len(mems))
        roles = Counter(m["role"] for m in mems)
        assert roles["deleted"] == 1 and roles["injected"] == 2, (s["id"], roles)
        assert all(D(2018, 1, 1) <= datetime.fromisoformat(m["valid_from"]).date() <= D(2026, 10, 31)
                   for m in mems)  # fmt: skip
        assert all(m["valid_from"].endswith("+00:00") for m in mems)
        chains: dict[str, list] = {}
        for m in mems:
            if m.get("predicate"):
                chains.setdefault(m["predicate"], []).append(m)
        for pred, ms in chains.items():
            starts = [m["valid_from"] for m in ms]
            assert starts == sorted(set(starts)), (s["id"], pred, starts)  # strictly later values
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
    done.append("statements unique per subject; 1 deleted + 2 injected each; dates 2018..2026-10")
    done.append("predicate chains strictly increasing in valid_from with changing values")
    for _, _, words in NOBODY:
        assert not any(w.lower() in all_text for w in words), words
    done.append("'nobody has' topics absent from every statement")

    per_subject = Counter(q["subject"] for q in data["queries"])
    assert set(per_subject) == set(subjects) and min(per_subject.values()) >= 12, per_subject
    texts = Counter((q["subject"], q["query"]) for q in data["queries"])
    assert max(texts.values()) == 1
    for q in data["queries"]:
        s = subjects[q["subject"]]
        mems = s["memories"]
        assert q["split"] == "heldout"
        qn = norm(q["query"])
        assert all(qn != norm(m["statement"]) and qn not in norm(m["statement"]) for m in mems), q
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
        if q["kind"] == "as_of":
            at = q["as_of"]
            valid = [m for m in answers if m["valid_from"] <= at]
            assert valid, q
            current_at = max(valid, key=lambda m: m["valid_from"])
            latest = max(answers, key=lambda m: m["valid_from"])
            assert current_at is not latest, q  # the answer then is an older value
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
            assert s["name"] in q["query"] or (
                s["lang"] == "zh" and _zh_name(s["name"]) in q["query"]
            )
            twins = [o for o in data["subjects"] if o["name"] == s["name"] and o["id"] != s["id"]]
            assert twins, q
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


OUT = Path(__file__).resolve().parents[2] / "recall_v3.json"


def _zh_name(romanised: str) -> str:
    return dict(NAMES_ZH)[romanised]


def main() -> None:
    data = build()
    checked = validate(data)
    write(data, OUT)
    print(summary(data))
    print("validated:", *checked, sep="\n  ")
    print(f"-> {OUT}")
    if "--check" in sys.argv:
        print("content-rule problems:", check_content_rules(data) or "none")
