"""Golden set v3: queries (see __init__.py)."""

from __future__ import annotations

import random
from collections import Counter

from bench.golden.builders.common import full_years, iso, norm, other

from .background import CODES, TYPOS
from .helpers import D, Subject, render
from .params import SPLIT
from .profile import ABSTAIN_OK, STALE_KEYS
from .questions import AS_OF_ASK, ASK, BG_ASK, CODE_ASK, NOBODY, QQ, SAME_NAME_ASK
from .subjects import SAME_NAME_SUBJECTS


def typo(code: str, r: random.Random, avoid: list[str]) -> str:
    """The code with one digit changed, found in none of the subject's statements."""
    positions = [i for i, c in enumerate(code) if c.isdigit() and i >= 2][-4:]
    while True:
        i = r.choice(positions)
        new = code[:i] + str((int(code[i]) + r.randint(1, 9)) % 10) + code[i + 1 :]
        if new not in CODES and not any(new in text for text in avoid):
            return new


def gen_queries(
    s: Subject, deleted_key: str, others_have: set[str], n_bg: int, n_missing: int, generic: bool
) -> list[dict]:
    r = s.r
    out: list[dict] = []
    used: set[str] = set()
    statements = [norm(m["statement"]) for m in s.mem]

    def ask(
        kind: str, key: str, pool: dict, qlang: str, slots: dict | None = None, **extra
    ) -> None:
        options = [render(t, slots or {}, qlang) for t in pool[qlang]]
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
    # Profile facts: four paraphrases in the fact's own language, two across languages.
    plain = sorted(k for k in s.meta if k not in stale)
    keys = r.sample(plain, 6)
    for key in keys[:4]:
        ask("paraphrase", key, ASK[key], s.meta[key]["lang"])
    for key in keys[4:]:
        ask("cross_lingual", key, ASK[key], other(s.meta[key]["lang"]))
    # Superseded values: the current one must win (one or two keys per subject).
    for key in r.sample(stale, min(2 if s.n % 3 == 0 else 1, len(stale))):
        ask("stale_current", key, ASK[key], s.meta[key]["lang"] if r.random() < 0.75 else s.lang)
    # Back then: a calendar year lying wholly inside an old value's validity (both keys
    # only for even-numbered subjects).
    then = [k for k in ("home_city", "employer") if s.meta[k]["stale"]]
    if len(then) == 2 and s.n % 2:
        then = [r.choice(then)]
    for key in then:
        start, end = r.choice(s.meta[key]["periods"])
        years = full_years(start, end)
        if years:
            y = r.choice(years)
            ask("as_of", key, AS_OF_ASK[key], s.lang, {"year": str(y)}, as_of=iso(D(y, 7, 1)))
    # Ids and error codes, one exact and one with a digit changed.
    coded = [m for m in s.bg if m["code"]]
    exact, wrong = r.sample(coded, 2)
    texts = [m["statement"] for m in s.mem]
    ask("code", exact["key"], CODE_ASK, s.lang, {"code": exact["code"]})
    bad = typo(wrong["code"], r, texts)
    ask("code_typo", wrong["key"], CODE_ASK, s.lang, {"code": bad})
    TYPOS[(s.sid, out[-1]["query"])] = (wrong["code"], bad)
    # Background memories named by an anchor unique within the subject.
    anchors = Counter(m["anchor"] for m in s.bg)
    by_q: dict[str, list] = {}
    for m in s.bg:
        if anchors[m["anchor"]] == 1 and m["key"] not in (exact["key"], wrong["key"]):
            by_q.setdefault(m["qcat"], []).append(m)
    cats = r.sample(sorted(by_q), n_bg + 1)
    for qcat in cats[:n_bg]:
        m = r.choice(by_q[qcat])
        ask("background", m["key"], BG_ASK[qcat], m["lang"], m["slots"])
    m = r.choice(by_q[cats[n_bg]])
    ask("cross_lingual", m["key"], BG_ASK[m["qcat"]], other(m["lang"]), m["slots"])
    # The subject's own full name; another subject has the same one.
    if s.n in SAME_NAME_SUBJECTS:
        key = r.choice([k for k in SAME_NAME_ASK if k in s.meta])
        name = s.name[1] if s.lang == "zh" else s.name[0]
        ask("same_name", key, SAME_NAME_ASK[key], s.lang, {"name": name})

    # Nothing relevant: a deleted fact, keys this subject lacks, things nobody has.
    def alang() -> str:
        return other(s.lang) if r.random() < 0.35 else s.lang

    ask("abstain", "", ASK[deleted_key], alang(), asks=f"deleted:{deleted_key}")
    missing = [k for k in ABSTAIN_OK if k not in s.meta and k != deleted_key and k in others_have]
    for key in r.sample(missing, n_missing):
        ask("abstain", "", ASK[key], alang(), asks=key)
    if generic:
        en, zh, _ = r.choice(NOBODY)
        ask("abstain", "", QQ([en], [zh]), alang(), asks="nobody")
    return out
