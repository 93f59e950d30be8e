"""Golden set v4: ids (see __init__.py)."""

from __future__ import annotations

import random
import string

CODES: set[str] = set()


TYPOS: dict[tuple, tuple] = {}


LOCATOR = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


HEX = "0123456789ABCDEF"


def new_code(make) -> str:
    while True:
        c = make()
        if c not in CODES:
            CODES.add(c)
            return c


def d(r: random.Random, n: int) -> str:
    return str(r.randint(1, 9)) + "".join(str(r.randint(0, 9)) for _ in range(n - 1))


def L_(r: random.Random, n: int) -> str:
    return "".join(r.choice("ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(n))


def code_locator(r):  # airline-style record locator, e.g. K7QZ2M
    def make():
        c = "".join(r.choice(LOCATOR) for _ in range(6))
        ok = sum(ch.isdigit() for ch in c) >= 2 and sum(ch.isalpha() for ch in c) >= 2
        ok = ok and not (c[:2].isalpha() and c[2:].isdigit())  # a shape v3's ids use
        return c if ok else make()

    return new_code(make)


def code_hotel(r):  # hotel confirmation, e.g. HC 4810-3955
    return new_code(lambda: f"HC{d(r, 4)}-{d(r, 4)}")


def code_error(r):  # hex status, e.g. 0x7F3A21, or dotted, e.g. K42.07.3
    if r.random() < 0.5:
        return new_code(lambda: "0x" + "".join(r.choice(HEX) for _ in range(6)))
    return new_code(
        lambda: f"{L_(r, 1)}{r.randint(10, 99)}.{r.randint(0, 99):02d}.{r.randint(1, 9)}"
    )


def code_order(r):  # e.g. R4-58213-K
    return new_code(lambda: f"{L_(r, 1)}{r.randint(1, 9)}-{d(r, 5)}-{L_(r, 1)}")


def code_ticket(r):  # e.g. 7731-QF2
    return new_code(lambda: f"{d(r, 4)}-{L_(r, 2)}{r.randint(1, 9)}")


def code_appt(r):  # e.g. V48213B
    return new_code(lambda: f"V{d(r, 5)}{L_(r, 1)}")


def code_invoice(r, year: int):  # e.g. FV/2025/0417
    return new_code(lambda: f"FV/{year}/{r.randint(1, 9999):04d}")


def typo(code: str, r: random.Random, avoid: list[str]) -> str:
    """The id with one character changed (a digit for a digit, a letter for a letter),
    found in no statement of the whole set and equal to no other id."""
    if code.startswith("0x"):
        positions = list(range(2, len(code)))
    elif code.startswith("FV/"):
        positions = list(range(len(code) - 4, len(code)))
    elif code.startswith("HC") or code.startswith("V"):
        positions = [i for i, c in enumerate(code) if c.isdigit()]
    else:
        positions = [i for i, c in enumerate(code) if c.isalnum()]
    while True:
        i = r.choice(positions)
        c = code[i]
        if code.startswith("0x"):
            pool = HEX
        elif c.isdigit():
            pool = "0123456789" if not set(code) <= set(LOCATOR + "-") else "23456789"
        else:
            pool = string.ascii_uppercase
        new_c = r.choice([x for x in pool if x != c])
        new = code[:i] + new_c + code[i + 1 :]
        if new not in CODES and not any(new in text for text in avoid):
            return new
