"""Golden set v4: questions (see __init__.py)."""

from __future__ import annotations

from collections import Counter

from bench.golden.builders.common import full_years, iso, norm, other

from .helpers import Subject, fill
from .ids import TYPOS, typo
from .params import SPLIT, D
from .profile_keys import (
    ABSTAIN_OK,
    AS_OF_ASK,
    BG_ASK,
    CODE_ASK,
    NOBODY,
    PROFILE,
    SAME_NAME_ASK,
    STALE_KEYS,
    Q,
)
from .subjects import PRON, SAME_NAME_SUBJECTS


def gen_queries(s: Subject, deleted_key: str, others_have: set[str], n_bg: int, n_missing: int,
                generic: bool) -> list[dict]:  # fmt: skip
    r = s.r
    out: list[dict] = []
    used: set[str] = set()
    statements = [norm(m["statement"]) for m in s.mem]
    pron = PRON[s.person["g"]]

    def ask(
        kind: str, key: str, pool: dict, qlang: str, slots: dict | None = None, **extra
    ) -> None:
        name = s.name[1] if (qlang == "zh" and s.lang == "zh") else s.name[0]
        full = {**pron, "name": name, **(slots or {})}
        options = [fill(t, qlang, full) for t in pool[qlang]]
        options = [
            t for t in options if t not in used and not any(norm(t) in x for x in statements)
        ]
        text = r.choice(options)
        used.add(text)
        q = {
            "subject": s.sid,
            "split": SPLIT,
            "kind": kind,
            "key": key,
            "query": text,
            "lang": qlang,
        }
        q.update({k: v for k, v in extra.items() if v is not None})
        out.append(q)

    stale = [k for k in STALE_KEYS if s.meta.get(k, {}).get("stale")]
    plain = sorted(k for k in s.meta if k not in stale)
    keys = r.sample(plain, 6)
    for key in keys[:4]:
        ask("paraphrase", key, PROFILE[key].ask, s.meta[key]["lang"])
    for key in keys[4:]:
        ask("cross_lingual", key, PROFILE[key].ask, other(s.meta[key]["lang"]))
    # Superseded values: the current one is the answer.
    n_stale = 2 if s.n % 3 == 0 else 1
    for key in r.sample(stale, n_stale):
        ask(
            "stale_current",
            key,
            PROFILE[key].now,
            s.meta[key]["lang"] if r.random() < 0.7 else s.lang,
        )
    # Back then: a calendar year wholly inside an older value's validity.
    then = [k for k in ("home_city", "employer") if s.meta[k]["stale"]]
    if len(then) == 2 and s.n % 2:
        then = [r.choice(then)]
    for key in then:
        options = [(a, b) for a, b in s.meta[key]["periods"] if full_years(a, b)]
        a, b = r.choice(options)
        y = r.choice(full_years(a, b))
        ask("as_of", key, AS_OF_ASK[key], s.lang, {"year": str(y)}, as_of=iso(D(y, 7, 1)))
    # Ids and error codes: one exact, one with a character changed.
    coded = [m for m in s.bg if m["code"]]
    exact, wrong = r.sample(coded, 2)
    ask("code", exact["key"], CODE_ASK, s.lang, {"code": exact["code"]})
    bad = typo(wrong["code"], r, ALL_TEXT)
    ask("code_typo", wrong["key"], CODE_ASK, s.lang, {"code": bad})
    TYPOS[(s.sid, out[-1]["query"])] = (wrong["code"], bad)
    # Background memories, named by an anchor unique within the subject.
    # (A trip whose city also had a hotel stay is not asked about: the stay would half-answer.)
    anchors = Counter(b["anchor"] for b in s.bg)
    hotel_cities = {b["anchor"][1][1] for b in s.bg if b["cat"] == "hotel"}
    by_q: dict[str, list] = {}
    for b in s.bg:
        if b["cat"] == "trip" and b["anchor"][1] in hotel_cities:
            continue
        if anchors[b["anchor"]] == 1 and b["key"] not in (exact["key"], wrong["key"]):
            by_q.setdefault(
                b["qcat"].split(":")[0] if b["qcat"].startswith("person") else b["qcat"], []
            ).append(b)
    cats = r.sample(sorted(by_q), n_bg + 1)
    for qcat in cats[:n_bg]:
        b = r.choice(by_q[qcat])
        ask("background", b["key"], BG_ASK[b["qcat"]], b["lang"], b["slots"])
    b = r.choice(by_q[cats[n_bg]])
    ask("cross_lingual", b["key"], BG_ASK[b["qcat"]], other(b["lang"]), b["slots"])
    # The subject's own full name; another subject has the same one.
    if s.n in SAME_NAME_SUBJECTS:
        key = r.choice([k for k in SAME_NAME_ASK if k in s.meta])
        ask("same_name", key, SAME_NAME_ASK[key], s.lang)

    # Nothing relevant: a deleted fact, keys this subject lacks, topics no store has.
    def alang() -> str:
        return other(s.lang) if r.random() < 0.35 else s.lang

    ask("abstain", "", PROFILE[deleted_key].ask, alang(), asks=f"deleted:{deleted_key}")
    missing = [k for k in ABSTAIN_OK if k not in s.meta and k != deleted_key and k in others_have]
    for key in r.sample(missing, n_missing):
        ask("abstain", "", PROFILE[key].ask, alang(), asks=key)
    if generic:
        en, zh, _ = NOBODY[s.n % len(NOBODY)]
        ask("abstain", "", Q([en], [zh]), alang(), asks="nobody")
    return out


ALL_TEXT: list[str] = []
