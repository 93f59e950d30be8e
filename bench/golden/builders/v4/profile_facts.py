"""Golden set v4: profile facts (see __init__.py)."""

from __future__ import annotations

from datetime import date, timedelta

from .helpers import Subject, fill, month_day, month_year, pk
from .params import D
from .profile_keys import CHANGEABLE, PROFILE
from .vocabulary import OCCUPATIONS, PETS, SIBLING_RELS


def change_starts(s: Subject, n_changes: int) -> list[date]:
    if n_changes == 0:
        return [s.day(D(2018, 2, 1), D(2025, 12, 31))]
    if n_changes == 1:
        return [s.day(D(2018, 1, 8), D(2021, 3, 31)), s.day(D(2023, 2, 1), D(2026, 7, 31))]
    return [s.day(D(2018, 1, 8), D(2019, 5, 31)), s.day(D(2021, 1, 15), D(2022, 6, 30)),
            s.day(D(2024, 2, 1), D(2026, 7, 31))]  # fmt: skip


def key_slots(s: Subject, key: str) -> tuple[dict, str | None]:
    """Slots for a one-memory key, and the predicate value when it has one."""
    r = s.r
    spec = PROFILE[key]
    if spec.pool is not None:
        x = r.choice(spec.pool)
        return {"x": x}, pk(x, "en")
    if key == "full_name":
        return {"x": s.name}, s.name[0]
    if key == "timezone":
        off = s.meta["home_city"]["current"][2]
        return {"x": off}, f"UTC{off}"
    if key == "hometown":
        c = s.fresh_city()
        return {"x": c[:2]}, c[0]
    if key == "partner":
        return {"p": s.take_person(), "occ": r.choice(OCCUPATIONS)}, None
    if key == "sibling":
        return {"rel": r.choice(SIBLING_RELS), "p": s.take_person()}, None
    if key == "parents":
        return {"c": s.fresh_city()[:2]}, None
    if key == "pet":
        return {"sp": r.choice(PETS), "pn": r.choice(s.pet_names)}, None
    if key == "birthday":
        return {"md": month_day(D(2000, 1, 1) + timedelta(days=r.randint(0, 365)))}, None
    if key == "nickname":
        return {"x": s.person["nick"]}, None
    if key == "kids":
        kids = r.sample(s.kid_pool, r.choice([1, 1, 2]))
        ages = sorted(r.sample(range(2, 15), len(kids)), reverse=True)
        if len(kids) == 1:
            (k, a) = kids[0], ages[0]
            en = f"a {'daughter' if k[2] == 'f' else 'son'}, {k[0]} ({a})"
            zh = f"一个{'女儿' if k[2] == 'f' else '儿子'}，叫{k[1]}，{a}岁"
        else:
            en = f"two kids: {kids[0][0]} ({ages[0]}) and {kids[1][0]} ({ages[1]})"
            zh = f"两个孩子，{kids[0][1]}{ages[0]}岁，{kids[1][1]}{ages[1]}岁"
        return {"kids": (en, zh)}, None
    raise KeyError(key)


def gen_key(s: Subject, key: str, L: str, n_changes: int = 0) -> None:
    """Write one profile key's memories (an older value and its replacements if it changes)."""
    spec = PROFILE[key]
    r = s.r
    if key in ("home_city", "employer") or (key in CHANGEABLE and n_changes):
        if key == "home_city":
            values = [s.fresh_city() for _ in range(n_changes + 1)]
            vals = [(c[0], c[1]) for c in values]
        elif key == "employer":
            vals = r.sample(s.companies, n_changes + 1)
            s.used_companies.update(v[0] for v in vals)
        else:
            vals = r.sample(spec.pool, n_changes + 1)
        starts = change_starts(s, n_changes)
        for i, (v, st) in enumerate(zip(vals, starts, strict=True)):
            if i == 0:
                text = fill(r.choice(spec.say[L]), L, {"x": v})
            else:
                text = fill(
                    r.choice(spec.change[L]),
                    L,
                    {"x": v, "old": vals[i - 1], "when": month_year(st)},
                )
            s.add(key, text, L, st, predicate=spec.pred, value=pk(v, "en"), memory_type="semantic")
        s.meta[key] = {"lang": L, "stale": n_changes > 0, "periods": list(zip(starts, starts[1:], strict=False)),
                       "current": values[-1] if key == "home_city" else vals[-1], "last_start": starts[-1]}  # fmt: skip
        return
    slots, value = key_slots(s, key)
    lo, hi = spec.start
    if key == "timezone":
        lo = max(lo, s.meta["home_city"]["last_start"] + timedelta(days=3))
        hi = max(hi, lo + timedelta(days=60))
    start = s.day(lo, hi)
    text = fill(r.choice(spec.say[L]), L, slots)
    s.add(
        key,
        text,
        L,
        start,
        predicate=spec.pred,
        value=value if spec.pred else None,
        memory_type="semantic",
    )
    s.meta[key] = {"lang": L, "stale": False, "periods": []}
