"""A value read aloud, one character at a time, beside a credential word (round 10 of
issue 32): "PIN: Seven Two Niner Four", "password spelled out: Papa, lima, uppercase Oscar,
seven, seven", "the login is kestrel dot forty four exclamation".

The units are closed, standard sets, not words collected from reports: the ICAO/NATO
spelling alphabet (with its radio digits niner, tree, fife), English digit and tens words,
the names of the printable ASCII symbols, and the case words (capital, lower-case) before a
letter. A run of four or more units counts when it holds a spelling-alphabet word, a
symbol's name, a cased letter, or four digit words in a row, and a credential word stands
in the same sentence (or just before it, as a question the speaker answers: "PIN? …").
Up to two plain words may sit in a run (a word of a passphrase: "kestrel dot …").
"""

from __future__ import annotations

import re

from memory.detectors.literal_gated import literal_gated

_NATO = frozenset(
    "alfa alpha bravo charlie delta echo foxtrot golf hotel india juliet juliett kilo lima "
    "mike november oscar papa quebec romeo sierra tango uniform victor whiskey whisky x-ray "
    "xray yankee zulu".split()
)
_DIGITS = frozenset(
    "zero one two three four five six seven eight nine niner tree fife ten eleven twelve "
    "thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty "
    "sixty seventy eighty ninety".split()
)
# Names of symbols that ordinary prose seldom strings together ("at", "star", "point",
# "plus" and "pound" are units too, but never qualify a run on their own).
_STRONG_SYMBOLS = frozenset(
    "dot dash hyphen underscore hash hashtag asterisk exclamation bang dollar ampersand "
    "slash backslash tilde caret semicolon".split()
)
_WEAK_SYMBOLS = frozenset(
    "at star point period pound plus percent colon question mark sign".split()
)
_CASE = frozenset("capital uppercase upper-case lowercase lower-case small big".split())
_JOINERS = frozenset({"then", "and", "followed", "by", ","})

# (a lone ASCII digit is a unit too: "M, A, P, L, E, 3, 3", round 12)
_WORD = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)?|[,，、]|(?<![\w.])\d(?![\w.])")
_CREDENTIAL = re.compile(
    r"\b(?:pass(?:word|code|phrase)?s?|pw|pwd|pins?|codes?|login|log-?in|key|combination|combo|"
    # a one-time code named as a number (round 11); not a booking's confirmation number
    r"(?:verification|security|one-time|authenti[cz]ation)\s+numbers?)\b"
    r"|密码|密碼|口令|暗証番号|パスワード|비밀번호|암호",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"[^.!?。！？\n]+(?:[.!?。！？]+|\n|$)")


def _kind(word: str) -> str:
    w = word.lower()
    if w.isdigit():
        return "chardigit"
    if w in "，、,":
        return "join"
    if w in _JOINERS:
        return "join"
    if w in _NATO:
        return "nato"
    if w in _DIGITS:
        return "digit"
    if w in _STRONG_SYMBOLS:
        return "symbol"
    if w in _WEAK_SYMBOLS:
        return "weak"
    if w in _CASE:
        return "case"
    if len(w) == 1:  # "a" and "I" are words, unless a case word comes before (fixed below)
        return "plain" if w in "ai" else "letter"
    return "plain"


def _qualifies(kinds: list[str]) -> bool:
    units = [k for k in kinds if k not in ("join", "plain")]
    if len(units) < 4 or kinds.count("plain") > 2:
        return False
    if {"nato", "symbol"} & set(units):
        return True
    if "case" in units and "letter" in units:
        return True
    run = best = 0
    for k in kinds:
        run = run + 1 if k == "digit" else (run if k == "join" else 0)
        best = max(best, run)
    return best >= 4


_ORDER = "zero one two three four five six seven eight nine".split()


def _counting(text: str, run: list[tuple[int, int, str]]) -> bool:
    """One, two, three, four: a count, not a code (digit words in steps of one)."""
    words = [text[a:b].lower() for a, b, k in run if k == "digit"]
    if not all(w in _ORDER for w in words):
        return False
    values = [_ORDER.index(w) for w in words]
    return all(b - a == 1 for a, b in zip(values, values[1:], strict=False))


_SPELLED = re.compile(r"[A-Za-z0-9](?:\s*[,，、-]\s*[A-Za-z0-9]|\s[A-Za-z0-9]){3,}")
_WORD_AFTER = re.compile(r"\s+(?!and\b|then\b)[A-Za-z]{2,}")


def _spelled(text: str, run: list[tuple[int, int, str]]) -> bool:
    """Single letters and digits spelled one by one, only separators between them ("M, A,
    P, L, E, 3, 3"; round 12): not a list of grades or options ("A, B, C and 2 points")."""
    # from the first single character: "bravo, R, I, N, E, 4, 1" spells "RINE41"
    first = next((n for n, (a, b, k) in enumerate(run) if b - a == 1 and k != "join"), 0)
    run = run[first:]
    kinds = [k for _, _, k in run]
    if kinds.count("letter") < 3 or "chardigit" not in kinds:
        return False
    start, end = run[0][0], run[-1][1]
    return bool(_SPELLED.fullmatch(text, start, end)) and not _WORD_AFTER.match(text, end)


def _listed(words: list[tuple[int, int, str]], n: int) -> bool:
    """ "a"/"I" after a comma that follows a spelled unit is a letter ("R, I, N")."""
    return (
        n >= 2 and words[n - 1][2] == "join" and words[n - 2][2] in ("letter", "nato", "chardigit")
    )


# Asked only where their literals are (memory/detectors/literal_gated.py).
_CREDENTIAL = literal_gated(_CREDENTIAL)


def spoken_value_spans(text: str) -> list[tuple[int, int]]:
    """Runs of spoken characters beside a credential word (the module docstring)."""
    if not _CREDENTIAL.search(text):
        return []
    spans = []
    for sentence in _SENTENCE.finditer(text):
        lo, hi = sentence.span()
        if not _CREDENTIAL.search(text, max(0, lo - 24), hi):
            continue
        words = [(m.start(), m.end(), _kind(m.group())) for m in _WORD.finditer(text, lo, hi)]
        words = [
            (
                a,
                b,
                "letter"
                if b - a == 1
                and k in ("plain", "letter")
                and (n and words[n - 1][2] == "case" or _listed(words, n))
                else k,
            )
            for n, (a, b, k) in enumerate(words)
        ]
        i = 0
        while i < len(words):
            if words[i][2] in ("join", "plain"):
                i += 1
                continue
            # Grow a run from this unit: a plain word only between units, at most two.
            j = i
            while j + 1 < len(words) and (
                words[j + 1][2] != "plain"
                or (j + 2 < len(words) and words[j + 2][2] not in ("plain", "join"))
            ):
                j += 1
            run = words[i : j + 1]
            while run and run[-1][2] in ("join", "plain"):
                run.pop()
            kinds = [k for _, _, k in run]
            if run and (_qualifies(kinds) and not _counting(text, run) or _spelled(text, run)):
                spans.append((run[0][0], run[-1][1]))
            i = j + 1
    return spans
