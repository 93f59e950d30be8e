"""Golden set v4: helpers (see __init__.py)."""

from __future__ import annotations

import random
import re
from datetime import date, timedelta

from bench.golden.builders.common import iso, norm, other

from .background_vocabulary import PROJECTS
from .params import LAST_DAY, D
from .vocabulary import (
    CITIES_CN,
    CITIES_WORLD,
    COMPANIES_EN,
    COMPANIES_ZH,
    KIDS_EN,
    KIDS_ZH,
    MONTHS,
    PEOPLE_EN,
    PEOPLE_ZH,
    PET_NAMES_EN,
    PET_NAMES_ZH,
    WEEKDAYS,
)


def pk(v, L: str):
    return (v[0] if L == "en" else v[1]) if isinstance(v, tuple) else v


def fill(tpl: str, L: str, slots: dict) -> str:
    text = tpl.format(**{k: pk(v, L) for k, v in slots.items()})
    return re.sub(r"\b([Aa]) (?=[AEIOaeio])(?!One)", r"\1n ", text) if L == "en" else text


def art(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def month_year(x: date) -> tuple[str, str]:
    return (f"{MONTHS[x.month - 1]} {x.year}", f"{x.year}年{x.month}月")


def month_day(x: date) -> tuple[str, str]:
    return (f"{x.day} {MONTHS[x.month - 1]}", f"{x.month}月{x.day}日")


class Subject:
    def __init__(self, r: random.Random, n: int, lang: str, mix: float, person: dict):
        self.r, self.n, self.lang, self.mix, self.person = r, n, lang, mix, person
        self.sid = f"t{n:03d}"
        self.name = (person["en"], person["zh"])
        self.mem: list[dict] = []
        self.meta: dict[str, dict] = {}
        self.bg: list[dict] = []
        self.seen: set[str] = set()
        pool = PEOPLE_ZH if lang == "zh" else [(p, p) for p in PEOPLE_EN]
        pool = r.sample(pool, len(pool))
        self.colleagues, self.people = pool[:7], pool[7:]
        self.cities = CITIES_CN if lang == "zh" else CITIES_WORLD
        self.companies = COMPANIES_ZH if lang == "zh" else [(c, c) for c in COMPANIES_EN]
        self.kid_pool = KIDS_ZH if lang == "zh" else KIDS_EN
        self.pet_names = PET_NAMES_ZH if lang == "zh" else PET_NAMES_EN
        self.currency = "¥" if lang == "zh" else r.choice(["€", "£", "$"])
        self.used_cities: set[str] = set()
        self.used_companies: set[str] = set()
        self.projects = r.sample(PROJECTS, 3)

    def lang_for(self) -> str:
        return other(self.lang) if self.r.random() < self.mix else self.lang

    def day(self, a: date, b: date) -> date:
        return a + timedelta(days=self.r.randint(0, (b - a).days))

    def bgday(self) -> date:
        return self.day(D(2021, 1, 4), LAST_DAY)

    def take_person(self) -> tuple:
        return self.people.pop()

    def fresh_city(self) -> tuple:
        c = self.r.choice([c for c in self.cities if c[0] not in self.used_cities])
        self.used_cities.add(c[0])
        return c

    def say_date(self, x: date, L: str) -> str:
        if L == "zh":
            return self.r.choice([f"{x.year}年{x.month}月{x.day}日", f"{x.year}/{x.month}/{x.day}",
                                  f"{x.year % 100}年{x.month}月{x.day}号"])  # fmt: skip
        m = MONTHS[x.month - 1]
        return self.r.choice([f"{x.day} {m[:3]} {x.year}", x.isoformat(), f"{m} {x.day}, {x.year}",
                              f"{WEEKDAYS[x.weekday()]} {x.day} {m[:3]} {x.year}"])  # fmt: skip

    def money(self, lo: int, hi: int) -> str:
        v = self.r.randint(lo, hi)
        return f"¥{v * 7}" if self.currency == "¥" else f"{self.currency}{v}"

    def add(
        self, key: str, statement: str, L: str, start: date, role: str = "relevant", **kw
    ) -> dict:
        n = norm(statement)
        assert n not in self.seen, (self.sid, statement)
        assert start <= LAST_DAY, (self.sid, statement, start)
        self.seen.add(n)
        m = {"key": key, "statement": statement, "role": role, "lang": L, "valid_from": iso(start)}
        m.update({k: v for k, v in kw.items() if v is not None})
        self.mem.append(m)
        return m
