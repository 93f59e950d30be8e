"""A person, a key press or a lock tied to a secret (round 22 of issue 32, credentials).

Beside ``access_relations`` (whose value reader and helpers it uses) to keep both under the
size limit. Four relations the round-21 reader left:

- **A person opens the thing with the value**: "I get into my laptop with X", "we unlock the
  shed using 7214", "she signs into the clinic page with X". The verb of opening makes its
  object a thing that locks, whatever the noun.
- **A code keyed, dialled or remembered for a thing that locks**: "punch 2231 into the alarm
  panel", "remember 7781 for the back door", "use 7781 on the pad", "if the alarm beeps,
  punch 7781". The thing follows the digits (on, into, at, for, to open) or, when no target
  follows, stands earlier in the sentence; one dials a number to call, so a dialled code
  names its lock after it, and money is *used on* a door where a code is used on a pad.
- **A thing locked or protected with the value**: "the laptop is locked with X", "my vault is
  protected by X" (not "encrypted with", which takes an algorithm).
- **A value that works on or for a thing**: "admin/admin123 works on the router", "X still
  works for my email" (a single token with a symbol or hyphen-joined words: "Node18 works on
  the server" names software; a name/secret pair by its slash).

Digits are a code when the verb unlocks or disarms or the thing locks; to open or get into
anything else only in pieces or with a leading zero (``access_relations._code_digits``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from memory.detectors.access_points import (
    _ADMITTING,
    _DIGITS,
    _GROUPS,
    _LOCKING,
    _PIECES,
    _YEAR,
    _clock,
)
from memory.detectors.access_relations import (
    _ANY_THING_END,
    _BEFORE,
    _LOCKS_DIGITS,
    _NO_UNIT,
    _OBJECT_THING,
    _PHRASE_END,
    _WHO,
    _anchors,
    _clause,
    _code_digits,
    _hinted,
    _rel_value,
    _unquoted,
    latin_view,
)

# A person opens, unlocks or gets into a thing with the value: "I get into my laptop with X",
# "we get into the shed with 3391", "I unlock my e-reader using 8146". The verb of opening
# makes its object a thing that locks, whatever the noun (a gym locker, a bike lock, a gate
# app, a printer's admin page); the value follows "with", "using" or "by typing".
_PERSON_OPENS = re.compile(
    r"(?:gets?|got|logs?|logged|signs?|signed|unlocks?|unlocked|opens?|opened|access(?:es|ed)?|"
    r"disarms?|disarmed)\s+(?:(?:in|into|onto|in\s+to|on\s+to|on)\s+)?"
    r"(?P<np>(?:(?:my|the|our|your|his|her|their)\s+)(?:[\w'’-]+\s+){0,3}?[\w'’-]+)\s+"
    r"(?:with|using|by\s+(?:typing|entering|keying\s+in|punching\s+in))\s+"
)
# The person, then at most two modal or adverb words ("you can", "we always", "I'll just").
_SUBJECT = re.compile(
    r"(?<![\w'’-])(?:" + _WHO + r")(?:['’](?:ll|d))?(?:\s+(?:\w+ly|always|just|can|could|will|"
    r"would|should|must|might|may|then|only|still|also|do|does|did|never|ever))"
    r"{0,2}\s+$",
    re.I,
)

# A code keyed, dialled or remembered for a thing that locks: "punch 2231 into the alarm
# panel", "remember 7781 for the back door", "use 7781 on the pad", "if the alarm beeps,
# punch 7781". The thing follows (on, into, at, for, to open) or stands earlier in the
# sentence; it is one that locks or admits, or the pad or panel codes are keyed on (not a
# phone: "dial 0800 on my phone" is a call).
_KEYED = re.compile(
    r"(?P<verb>dial(?:l?ed|s)?|press(?:ed|es)?|tap(?:ped|s)?|punch(?:ed|es)?|key(?:ed|s)?|"
    r"enter(?:ed|s)?|type[ds]?|remember|use[ds]?)\s+(?:in\s+)?"
)
_PADS = r"(?:key)?pads?|(?:door|control|entry)\s+panels?|panels?"
_KEYED_THING = re.compile(
    r"(?<![\w'’-])(?:" + _LOCKING + "|" + _ADMITTING + "|" + _PADS + r")(?![\w-])", re.I
)
_KEYED_ON = re.compile(
    r"\s*(?P<prep>on|into|at|for|to\s+(?:open|unlock|disarm|get\s+(?:in|into)))\s+"
    r"(?:(?:the|my|our|your|his|her|their)\s+)?(?P<np>(?:[\w'’-]+\s+){0,2}[\w'’-]+)",
    re.I,
)
_PAD_ONLY = re.compile(r"(?:" + _PADS + r")$", re.I)
# A thing locked or protected with the value (not encrypted: that takes an algorithm): "the laptop is locked with X",
# "my vault is protected by X" (the verb makes the noun a thing that locks).
_LOCKED_WITH = re.compile(r"(?:locked|protected|password[\s-]protected)\s+(?:with|by|using)\s+")
_COPULA_BEFORE = re.compile(r"(?:\s+(?:is|are|was|were|stays|gets|got|kept|all))*\s*$", re.I)

# The value as the subject of working on the thing: "admin/admin123 works on the router",
# "Biscuit!99 still works for my email"; a pair of name and secret joined by a slash.
_WORKS = re.compile(r"(?:works?|worked)\s+(?:on|for|with)\s+")
_STILL_END = re.compile(r"(?:\s+(?:still|also|only|always|now|just))*\s*$", re.I)
_PAIR = re.compile(r"(?P<u>[\w.@-]{2,40})/(?P<p>[^\s/]*(?:\d|[^\w\s])[^\s/]*)")
_SYMBOL = re.compile(r"[!#$%&*_+=?@~^]")
_STANDARD = re.compile(r"[A-Z]{2,6}[-.]?\d+(?:\.\d+)*")
_KINDS = {
    "keyed": (_KEYED, ("dial", "press", "tap", "punch", "key", "enter", "typ", "remember", "use")),
    "works": (_WORKS, ("work",)),
    "locked": (_LOCKED_WITH, ("lock", "protect", "password")),
    "person": (_PERSON_OPENS, ("get", "got", "log", "sign", "unlock", "open", "access", "disarm")),
}  # fmt: skip


def keyed_relation_spans(
    text: str, looks_like_secret: Callable[..., bool]
) -> list[tuple[int, int]]:
    """Secrets a person opens a thing with, keys for a lock, or locks a thing with (English;
    in mixed text read through ``latin_view``). Every value here holds a digit or a symbol."""
    text = latin_view(text)
    if not _hinted(text):
        return []
    low = text.lower()
    scan = low if len(low) == len(text) else text
    found = _anchors(scan, tuple(_KINDS), _KINDS)
    spans: list[tuple[int, int]] = []
    for m in found["locked"]:
        end = _COPULA_BEFORE.search(text, max(0, m.start() - 60), m.start()).start()
        t = _ANY_THING_END.search(text, max(0, end - 40), end)
        v = _rel_value(text, m.end(), looks_like_secret, True, False) if t else None
        if t and _unquoted(text, v) and _PHRASE_END.match(text, v[1]):
            # the name of a standard (AES-256, WPA2, TLS1.3) protects, it is no secret
            standard = _STANDARD.fullmatch(text[v[0] : v[1]])
            if not standard and _code_digits(text, "unlock", t.group("head"), v):
                spans.append(v)
    for m in found["works"]:
        spans.extend(_works(text, m, looks_like_secret))
    for m in found["keyed"]:
        spans.extend(_keyed(text, m, looks_like_secret))
    for m in found["person"]:
        spans.extend(_person_opens(text, m, looks_like_secret))
    return spans


def _person_opens(
    text: str, m: re.Match[str], looks_like_secret: Callable[..., bool]
) -> list[tuple[int, int]]:
    """A person (the subject just before the verb) opens or gets into a thing with a value."""
    if not _SUBJECT.search(text, max(0, m.start() - 24), m.start()):
        return []
    v = _rel_value(text, m.end(), looks_like_secret, True, False)
    if not _unquoted(text, v) or not _PHRASE_END.match(text, v[1]):
        return []
    head = m.group("np").split()[-1]
    if _clock(head, text, v) or not _code_digits(text, m.group(), head, v):
        return []
    return [v]


def _keyed(
    text: str, m: re.Match[str], looks_like_secret: Callable[..., bool]
) -> list[tuple[int, int]]:
    """Digits keyed, dialled or remembered for a thing that locks (``_KEYED``)."""
    at = m.end()
    while at < len(text) and text[at] == " ":
        at += 1
    p = _PIECES.match(text, at) or _GROUPS.match(text, at) or _DIGITS.match(text, at)
    if not p or _YEAR.fullmatch(p.group()) or not _NO_UNIT.match(text, p.end()):
        return []
    lo, hi = _clause(text, m.start(), m.end())
    on = _KEYED_ON.match(text[:hi], p.end())
    if not on and not _PHRASE_END.match(text, p.end()):
        return []
    head = _np_head(text, on.start("np"), on.end("np")) if on else ""
    after = bool(head) and _KEYED_THING.fullmatch(head) is not None
    using = m.group("verb").startswith("use")
    # a code is used on a pad; money is used on a door
    if using and not (
        after and on.group("prep").lower() in ("on", "into") and _PAD_ONLY.match(head)
    ):
        return []
    # no target named after the digits: a thing that locks earlier in the sentence
    # (one dials a number to call: a dialled code names its lock after it)
    calling = m.group("verb").startswith("dial")
    if after or (not on and not (using or calling) and _KEYED_THING.search(text, lo, m.start())):
        return [p.span()]
    return []


_PREPOSITION = re.compile(
    r"by|near|next|outside|inside|of|with|beside|behind|under|over|from|in|on|at|round|"
    r"around|opposite|past|through|up|down|off|out",
    re.I,
)


def _np_head(text: str, lo: int, hi: int) -> str:
    """The last word of the noun phrase at ``text[lo:hi]`` before a word that ends a phrase
    ("the back door now" → "door"; "the door report" → "report"); two words if they make
    one of the things ("alarm panel")."""
    words = text[lo:hi].split()
    kept: list[str] = []
    for w in words:
        if not w[:1].isalnum() or _PHRASE_END.fullmatch(w) or _PREPOSITION.fullmatch(w):
            break
        kept.append(w.rstrip(".,;!?"))
        if w[-1:] in ".,;!?":
            break
    if len(kept) >= 2 and _KEYED_THING.fullmatch(" ".join(kept[-2:])):
        return " ".join(kept[-2:])
    return kept[-1] if kept else ""


def _works(
    text: str, m: re.Match[str], looks_like_secret: Callable[..., bool]
) -> list[tuple[int, int]]:
    """A value (or a name/secret pair) that works on or for a thing of the classes."""
    lo, hi = _clause(text, m.start(), m.end())
    t = _OBJECT_THING.match(text[:hi], m.end())
    if not t:
        return []
    base = max(lo, m.start() - 60)
    head = text[base : m.start()]
    head = head[: _STILL_END.search(head).start()]
    b = _BEFORE.search(head)
    if not b:
        return []
    at = base + b.start()
    pair = _PAIR.fullmatch(text, at, base + len(head))
    if pair and looks_like_secret(pair.group("p"), numeric_ok=True):
        return [pair.span("p")]
    token = text[at : base + len(head)]
    if _LOCKS_DIGITS.fullmatch(t.group("head")) and (
        _PIECES.fullmatch(token) or _DIGITS.fullmatch(token)
    ):
        return [] if _YEAR.fullmatch(token) else [(at, at + len(token))]
    # a single token needs a symbol or words joined by hyphens: a name with a version works
    # on a computer ("Node18", "Node-18", ".NET8")
    v = _rel_value(text, at, looks_like_secret, False, False)
    if not v or text[v[1] : base + len(head)].strip():
        return []
    value = text[v[0] : v[1]]
    if not (_SYMBOL.search(value) or value.count("-") >= 2):
        return []
    return [v]
