"""Golden set v3: helpers (see __init__.py)."""

from __future__ import annotations

import random
from datetime import date, timedelta

from bench.golden.builders.common import iso, norm, other

from .background_vocabulary import SERVICES
from .vocabulary import CITIES_CN, CITIES_WORLD, MONTHS, PEOPLE_EN, PEOPLE_ZH


def art(phrase: str) -> str:
    return ("an " if phrase[:1].lower() in "aeiou" else "a ") + phrase


def month_of(x: date) -> tuple[str, str]:
    return f"{MONTHS[x.month - 1]} {x.year}", f"{x.year}年{x.month}月"


def md_of(x: date) -> tuple[str, str]:
    return f"{x.day} {MONTHS[x.month - 1]}", f"{x.month}月{x.day}日"


def named(s: Subject, pool: dict | list) -> tuple:
    x = s.r.choice(pool[s.lang] if isinstance(pool, dict) else pool)
    return x if isinstance(x, tuple) else (x, x)


def pick(v, L: str):
    return (v[0] if L == "en" else v[1]) if isinstance(v, tuple) else v


def render(tpl: str, slots: dict, L: str) -> str:
    text = tpl.format(**{k: pick(v, L) for k, v in slots.items()})
    if L == "zh" or text.split(" ", 1)[0] in SERVICES:
        return text
    return text[:1].upper() + text[1:]


class Subject:
    def __init__(self, r: random.Random, n: int, lang: str, mix: float, name: tuple):
        self.r, self.n, self.lang, self.mix, self.name = r, n, lang, mix, name
        self.sid = f"t{n:03d}"
        self.mem: list[dict] = []
        self.meta: dict[str, dict] = {}
        self.bg: list[dict] = []
        self.seen: set[str] = set()
        pool = PEOPLE_ZH if lang == "zh" else [(p, p) for p in PEOPLE_EN]
        pool = r.sample(pool, len(pool))
        self.colleagues, self.people = pool[:6], pool[6:]
        self.cities = CITIES_CN if lang == "zh" else CITIES_WORLD
        self.currency = "¥" if lang == "zh" else r.choice(["€", "$", "£"])
        self.city_now: tuple = ()
        self.home_cities: list[tuple] = []
        self.projects: list[str] = []

    def lang_for(self) -> str:
        return other(self.lang) if self.r.random() < self.mix else self.lang

    def say(self, L: str, en: list[str], zh: list[str], **slots) -> str:
        return render(self.r.choice(en if L == "en" else zh), slots, L)

    def day(self, a: date, b: date) -> date:
        return a + timedelta(days=self.r.randint(0, (b - a).days))

    def fmt_day(self, x: date, L: str) -> str:
        if L == "zh":
            return f"{x.year}年{x.month}月{x.day}日"
        m = MONTHS[x.month - 1]
        return self.r.choice(
            [f"{x.day} {m} {x.year}", f"{m} {x.day}, {x.year}", f"{m[:3]} {x.day} {x.year}"]
        )

    def add(
        self, key: str, statement: str, L: str, start: date, role: str = "relevant", **kw
    ) -> dict:
        n = norm(statement)
        assert n not in self.seen, (self.sid, statement)
        self.seen.add(n)
        m = {"key": key, "statement": statement, "role": role, "lang": L, "valid_from": iso(start)}
        m.update({k: v for k, v in kw.items() if v is not None})
        self.mem.append(m)
        return m


def F(statement: str, start: date, **kw) -> dict:
    return {"statement": statement, "start": start, **kw}


D = date
