"""Golden set v2: helpers (see __init__.py)."""

from __future__ import annotations

import random
from datetime import date, timedelta

from bench.golden.builders.common import iso, norm, other

from .vocabulary import PEOPLE_EN, PEOPLE_ZH
from .vocabulary_2 import MONTHS_EN

NOW = date(2026, 11, 1)  # nothing in the set starts after this


def an(phrase: str) -> str:
    """'a' or 'an' before an English noun phrase."""
    vowel = phrase[:1].lower() in "aeiou" or phrase.startswith(("Honor", "hour"))
    vowel = vowel and not phrase.startswith(("One", "Uni", "Euro"))
    return ("an " if vowel else "a ") + phrase


def d(y: int, m: int, day: int = 1) -> date:
    return date(y, m, day)


def fmt_date(r: random.Random, x: date, lang: str) -> str:
    if lang == "zh":
        return f"{x.year}年{x.month}月{x.day}日"
    month = MONTHS_EN[x.month - 1]
    return r.choice([f"{month} {x.day}, {x.year}", f"{x.day} {month} {x.year}"])


def fmt_month(x: date, lang: str) -> str:
    return f"{x.year}年{x.month}月" if lang == "zh" else f"{MONTHS_EN[x.month - 1]} {x.year}"


def fmt_md(x: date, lang: str) -> str:
    return f"{x.month}月{x.day}日" if lang == "zh" else f"{MONTHS_EN[x.month - 1]} {x.day}"


class Subject:
    """One person's store: profile facts, background memories and bookkeeping for queries."""

    def __init__(self, r: random.Random, n: int, lang: str, mix: float, name: tuple[str, str]):
        self.r, self.n, self.lang, self.mix, self.name = r, n, lang, mix, name
        self.sid = f"s{n:03d}"
        self.mem: list[dict] = []
        self.meta: dict[str, dict] = {}  # profile key -> {lang, slots, stale, periods}
        self.bg: list[dict] = []  # background memories with their category and anchor
        self.people = {
            "en": r.sample(PEOPLE_EN, len(PEOPLE_EN)),
            "zh": r.sample(PEOPLE_ZH, len(PEOPLE_ZH)),
        }
        self.current_city: tuple = ()
        self.meta_hometown: tuple | None = None
        self.projects: list[tuple] = []
        self.seen: set[str] = set()

    # language of one memory (or of all memories of one key)
    def pick_lang(self) -> str:
        return other(self.lang) if self.r.random() < self.mix else self.lang

    def take_person(self, lang: str) -> str:
        return self.people[lang].pop()

    def say(self, L: str, en: list[str], zh: list[str], **slots) -> str:
        tpl = self.r.choice(en if L == "en" else zh)
        vals = {
            k: (v[0] if L == "en" else v[1]) if isinstance(v, tuple) else v
            for k, v in slots.items()
        }
        text = tpl.format(**vals)
        return text[:1].upper() + text[1:] if L == "en" else text

    def add(
        self, key: str, statement: str, L: str, start: date, role: str = "relevant", **kw
    ) -> dict:
        assert norm(statement) not in self.seen, statement
        self.seen.add(norm(statement))
        m = {"key": key, "statement": statement, "role": role, "lang": L, "valid_from": iso(start)}
        m.update({k: v for k, v in kw.items() if v is not None})
        self.mem.append(m)
        return m

    def date_between(self, a: date, b: date) -> date:
        return a + timedelta(days=self.r.randint(0, (b - a).days))


def fact(statement: str, start: date, **kw) -> dict:
    return {"statement": statement, "start": start, **kw}
