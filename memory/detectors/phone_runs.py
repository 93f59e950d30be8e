"""Where a phone number can be: runs of the characters phonenumbers' own pattern is made of.

``find_sensitive_personal_data`` runs phonenumbers' matcher twice (read as Chinese, then
internationally) on any text with at least as many decimal digits as the shortest valid
number (``content_rules._min_phone_digits``): "variant 12 of the checklist (3f09b)" pays
both, though no five of its digits stand together. The matcher finds a number only inside
a match of its candidate pattern (``phonenumbermatcher._PATTERN``: digit blocks joined by
at most four punctuation characters, an optional lead and extension), searched from
wherever its last candidate ended. Every such match, from any starting point, is made of
characters that one of the pattern's character-consuming nodes accepts. So it lies inside
one maximal run of those characters, and a number found in it has its digits there.

``phone_shaped_runs_hold`` derives that character set from the pattern's parse tree (the
same flags, so case-insensitive classes stay so) and answers whether any maximal run holds
``least`` decimal digits: when none does, the matcher cannot find a number and is not run.
Nothing is listed by hand: a phonenumbers release that changes its pattern changes the
set. A node this derivation does not know (a negated class, any character, a
back-reference) gives no set, and every text is then read by the matcher.

``ENGRAM_DETECTOR_PHONE_RUNS`` (default on) selects it; off, the digit count of the whole
text decides, as before. tests/memory/test_phone_runs.py checks that no text the filter
turns away holds a number the matcher finds.
"""

from __future__ import annotations

import re

from core.process_state import memoized

try:  # the same parser memory/detectors/prefilter.py reads (Python 3.11's ``re``)
    from re import _constants as _sc
    from re import _parser as _sp
except ImportError:  # pragma: no cover - another Python
    _sc = _sp = None  # type: ignore[assignment]

_DIGIT = re.compile(r"\d")


def _class_items(items, out: list[str]) -> bool:
    """Appends each character-consuming node of ``items`` as a class item; False when a
    node cannot be written as one (the derivation then gives up)."""
    for op, av in items:
        if op is _sc.LITERAL:
            out.append(re.escape(chr(av)))
        elif op is _sc.IN:
            for inner_op, inner_av in av:
                if inner_op is _sc.LITERAL:
                    out.append(re.escape(chr(inner_av)))
                elif inner_op is _sc.RANGE:
                    lo, hi = inner_av
                    out.append(f"{re.escape(chr(lo))}-{re.escape(chr(hi))}")
                elif inner_op is _sc.CATEGORY and inner_av is _sc.CATEGORY_DIGIT:
                    out.append(r"\d")
                elif inner_op is _sc.CATEGORY and inner_av is _sc.CATEGORY_SPACE:
                    out.append(r"\s")
                else:
                    return False
        elif op is _sc.SUBPATTERN:
            if av[1] or av[2]:  # a scoped flag would change what its classes accept
                return False
            if not _class_items(av[3], out):
                return False
        elif op is _sc.BRANCH:
            if not all(_class_items(alt, out) for alt in av[1]):
                return False
        elif op in (_sc.MAX_REPEAT, _sc.MIN_REPEAT):
            if not _class_items(av[2], out):
                return False
        elif op is _sc.AT:
            continue  # an anchor consumes nothing
        else:
            return False
    return True


@memoized("memory.detectors.phone_runs.run_pattern", maxsize=4)
def run_pattern(pattern: re.Pattern[str]) -> re.Pattern[str] | None:
    """Maximal runs of the characters ``pattern``'s consuming nodes accept, compiled with
    its flags; None when its tree holds a node this module cannot bound."""
    if _sp is None or not isinstance(pattern.pattern, str):
        return None
    try:
        parsed = _sp.parse(pattern.pattern, pattern.flags)
    except Exception:  # noqa: BLE001 - an unreadable tree only means no filter
        return None
    items: list[str] = []
    if not _class_items(parsed, items) or not items:
        return None
    flags = pattern.flags & (re.IGNORECASE | re.UNICODE)
    return re.compile("[" + "".join(dict.fromkeys(items)) + "]+", flags)


def _candidate_pattern() -> re.Pattern[str] | None:
    from phonenumbers import phonenumbermatcher

    found = getattr(phonenumbermatcher, "_PATTERN", None)
    return found if isinstance(found, re.Pattern) else None


def phone_shaped_runs_hold(text: str, least: int) -> bool:
    """Whether some run of the characters phonenumbers' candidate pattern is made of holds
    at least ``least`` decimal digits (True when the pattern cannot be bounded)."""
    pattern = _candidate_pattern()
    runs = run_pattern(pattern) if pattern is not None else None
    if runs is None:
        return len(_DIGIT.findall(text)) >= least
    for m in runs.finditer(text):
        run = m.group()
        if len(run) >= least and len(_DIGIT.findall(run)) >= least:
            return True
    return False
