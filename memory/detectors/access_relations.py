"""A secret tied by a relation to what it opens or signs into (round 21 of issue 32).

``access_points`` binds a code to a thing that locks or admits by a link (a colon, a
copula, "takes", "I set it to"). People also tie a secret to its thing with no secret word
and no such link, by what the value *does* or what is *done* with it, and the thing may be
one that is unlocked or signed into rather than a lock: "the laptop opens with X", "X,
that's how I get into my email", "Dropbox: I set it to X", "I set my bank's sign-in to X",
"I changed what unlocks my iPad to N", "I use X for all my sites", "whenever a website asks
me to log in I type X", "it's X for the bank site", "if I'm locked out of my laptop, it's
X", "my phone's N, don't let the kids know". This module is that reading, split from
``access_points`` (whose heads and value shapes it uses) to keep both under the size limit.

**The thing (the class).** ``access_points``' heads (what locks, what admits, what one
keys) widened by two closed classes of roles: a device with a lock screen (phone, tablet,
laptop, computer …) and an account, site or network one signs into (account, site, portal,
app, login, inbox, e-mail, VPN, router, Wi-Fi, bank). A capitalised name is a service only
as the topic of "…: I set it to X".

**The relation.** A verb, never a noun: opening with/on/to (opens, unlocks, disarms, goes
in, gets in, lets me in, logs in, wakes, boots), wanting (wants, takes, needs, asks for); a
clause of setting; the value, then "is what/how … gets/opens/unlocks" the thing; a verb of
using or typing with a purpose of logging in (to log in, for every site, when it asks) or
after one; "it's X" with such a purpose or after "locked out of / for my <thing>"; a copula
with a clause that keeps the value from others (don't tell, keep this between us).

**The value.** Digits, digits in pieces or in words only for a thing that locks (a device
or a lock: "it's 1200 for the laptop" is a price); a made token of secret shape; a quoted
single word; a plain lower-case word of eight or more letters only after a verb of using
for/to logging in ("I use correcthorsebattery for all my sites") or after a verb of typing.
Not a plain value: the closed classes of pronouns and determiners and of the other means of
signing in or the tools that fill a secret (a biometric, a passkey, a provider's sign-on, a
browser, a password manager): "I use bitwarden for all my sites" names a tool.

**Round 22.** A thing outside the classes when the sentence says it opens or unlocks with
the value ("the mailbox unlocks with 2-8-1": the verb makes the noun a thing that locks), a
purpose of opening before a verb of typing ("to unlock the tablet she enters 7719"), and
``_code_digits``: digits are a code when the verb unlocks or disarms or the thing locks,
otherwise only in pieces or with a leading zero (an account opened with 5000 is money). The
person, keyed, locked and works relations are in ``access_keyed``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from memory.detectors.access_points import (
    _ADMITTING,
    _DIGITS,
    _GROUPS,
    _ID_SHAPE,
    _LOCKING,
    _PIECES,
    _WORDS,
    _YEAR,
    _clock,
    _value,
)

_DEVICE = (
    r"i?phones?|mobiles?|cell(?:phone)?s?|handsets?|i?pads?|tablets?|laptops?|computers?|pcs?|"
    r"macs?|macbooks?|desktops?|chromebooks?|workstations?|kindles?|lock[\s-]?screens?|screens?"
)
_ACCOUNT = (
    r"accounts?|(?:web)?sites?|portals?|apps?|log[\s-]?ins?|sign[\s-]?ins?|inbox|vpn|routers?|"
    r"profiles?|servers?|wi-?fi|bank(?:ing)?|e-?mail|gmail|outlook"
)
_THING = re.compile(
    r"(?<![\w'’-])(?P<head>" + _LOCKING + "|" + _ADMITTING + "|" + _DEVICE + "|" + _ACCOUNT
    + r"|house|home|car|office|everything)(?![\w-])(?!['’](?!s\b))",
    re.I,
)  # fmt: skip
# The thing ending a stretch of text (the words before a verb of opening).
_THING_END = re.compile(_THING.pattern + r"\s*$", re.I)
_LOCKS_DIGITS = re.compile(_LOCKING + "|" + _ADMITTING + "|" + _DEVICE + r"|house|home|car", re.I)
# A value: quoted, or a run of digits or pieces, or a made token; a plain word only if asked.
_QUOTED = re.compile(r"[\"'‘“](?P<q>[^\s\"'‘’“”]{3,40})[\"'’”]")
_MADE = re.compile(r"(?P<t>[!-~]{4,40}?)(?=[.,;!?)\"'’”]*(?:\s|$))")
_PLAIN = re.compile(r"(?P<w>[a-z]{6,30})(?![\w'’-])")
_COMPOUND = re.compile(r"[\w.]*\d[\w.]*(?:-[a-z]+)+")
# Where a value set or used ends its phrase: not before a noun it modifies ("to WPA3-only
# mode", "used Python3.12 scripts").
_PHRASE_END = re.compile(
    r"[\"'’”]?\s*(?:$|[.,;!?)(—–]|(?:and|but|so|then|now|today|yesterday|last|this|after|before|"
    r"when|since|because|for|on|at|in|again|too|every|each|to|as|wherever|whenever|everywhere)\b)",
    re.I,
)
_REL_END = re.compile(r"[.,;!?)\"'’”]*(?:$|\s|[，。])")
# After digits: no unit and no counted noun ("takes 2500 coins", "needs 1200 watts").
_NO_UNIT = re.compile(
    r"[.,;!?)\"'’”]*(?:$|\s|[，。])(?!\s*(?:%|percent|degrees?|minutes?|mins?|hours?|"
    r"seconds?|days?|times?|am|pm|dollars?|euros?|pounds?|bucks|kg|lbs?|feet|inches?|"
    r"miles?|km|(?!(?:is|was|has|does|as|us)\b)[a-z]+s\b))",
    re.I,
)
# Words a plain value never is: the closed classes of pronouns, determiners and the other
# ways of signing in (a biometric, a passkey, a provider's single sign-on, a device).
_NOT_PLAIN = re.compile(
    r"(?:it|this|that|these|those|them|mine|yours|ours|hers|theirs|something|anything|"
    r"nothing|everything|whatever|fingerprints?|face(?:id)?|touchid|biometrics?|passkeys?|"
    r"authenticator|google|apple|facebook|microsoft|github|email|phone|sms|text|magic|"
    r"always|usually|still|just|again|another|either|neither|instead|"
    # a tool that fills or carries the secret is no secret
    r"chrome|firefox|safari|edge|brave|opera|bitwarden|lastpass|1password|keepass\w*|dashlane|keychain|"
    r"okta|duo|yubikey)$",
    re.I,
)


def _rel_value(
    text: str, at: int, looks_like_secret: Callable[..., bool], digits: bool, plain: bool
) -> tuple[int, int] | None:
    """The span of a secret starting at ``at`` (after spaces) and ending its phrase."""
    while at < len(text) and text[at] == " ":
        at += 1
    q = _QUOTED.match(text, at)
    if q:
        word = q.group("q").strip(".,!?")
        if not _NOT_PLAIN.match(word) and (digits or not word.isdigit()):
            return q.span("q")
    if digits:
        v = _value(text, at, True, looks_like_secret, False, token_ok=False)
        if v:
            return v
        p = _PIECES.match(text, at) or _GROUPS.match(text, at) or _DIGITS.match(text, at)
        if p and _NO_UNIT.match(text, p.end()) and not _YEAR.fullmatch(p.group()):
            return p.span()
    m = _MADE.match(text, at)
    if m and _REL_END.match(text, m.end()):
        token = m.group("t").rstrip(".,;!?)")
        if (
            not token.isdigit()
            and looks_like_secret(token, numeric_ok=False)
            and not _NOT_PLAIN.match(token)
        ):
            # an e-mail, a path, an identifier, a compound of a number ("24-hour", "5-star")
            if (
                "@" not in token
                and "/" not in token
                and not _ID_SHAPE.fullmatch(token)
                and not _COMPOUND.fullmatch(token)
            ):
                return at, at + len(token)
    w = _PLAIN.match(text, at) if plain else None
    if w and not _NOT_PLAIN.match(w.group("w")) and _REL_END.match(text, w.end()):
        return w.span("w")
    return None


_WHO = r"(?:i|we|you|he|she|they|mum|mom|dad)"
# The thing, then a verb of opening with the value.
_OPENS_WITH = re.compile(
    r"(?:(?:opens?|opened|unlocks?|unlocked|disarms?|clears?|turns?\s+off|goes\s+in|gets?\s+in|"
    r"lets?\s+(?:me|you|us|him|her|them)\s+in|logs?\s+in|signs?\s+in|wakes?(?:\s+up)?|boots?(?:\s+up)?)"
    r"\s+(?:with|on|to|using|by\s+typing)|(?:wants|takes|needs|asks\s+for|accepts|expects))\s+"
)
# The thing, a colon or comma, then who set it to the value: "Dropbox: I set it to …".
_TOPIC_SET = re.compile(
    r"(?P<topic>(?<![\w'’-])[A-Za-z][\w'’-]*)(?:\s+(?:at|in|on|of|by|for)\s+(?:the\s+|my\s+)?"
    r"[\w'’-]+(?:\s+[\w'’-]+)?)?\s*[:,—–-]\s*" + _WHO + r"\s+(?:just\s+|finally\s+)?"
    r"(?:set|changed|reset|switched|made)\s+it\s+to\s+",
    re.I,
)  # fmt: skip
# A verb of setting, the thing or what opens it, *to*: "set my bank's sign-in to …".
_SET_THING = re.compile(
    r"\b(?:set|changed|reset|switched)\s+(?:what\s+(?:unlocks|opens|gets\s+(?:me|us)\s+into)\s+)?"
    r"(?P<np>(?:[\w'’-]+\s+){0,4}?[\w'’-]+)\s+to\s+",
    re.I,
)
# The value first, then what or how it opens: "…, that's how I get into my email".
_IS_WHAT_OPENS = re.compile(
    r"(?:what|how)\s+(?:" + _WHO
    + r"\s+)?(?:gets?|got|lets?|opens?|unlocks?|disarms?|logs?|signs?)\s+(?:(?:me|you|us|him|her|them)\s+)?"
    r"(?:in\s+|into\s+|onto\s+|in\s+to\s+)?"
)  # fmt: skip
# The value as the subject of opening, the thing its object: "X gets me into the laptop",
# "4821 opens the safe" (after the verb: whom, then in/into, then the thing).
_DOES_OPEN = re.compile(
    r"(?:gets?|got|lets?|opens?|opened|unlocks?|unlocked|disarms?|disarmed|logs?|signs?)\s+"
    r"(?:(?:me|you|us|him|her|them)\s+)?(?:(?:in|into|onto|in\s+to)\s+)?"
)
# A thing said to open or unlock with the value, whatever the noun: "the mailbox unlocks
# with 2-8-1" (a determiner, then at most four words, then the verb).
_ANY_THING_END = re.compile(
    r"(?<![\w'’-])(?:my|the|our|your|his|her|their)\s+(?:[\w'’-]+\s+){0,3}?(?P<head>[a-z][\w'’-]*)\s*$",
    re.I,
)
_OPENS_PROPER = re.compile(r"(?:opens?|opened|unlocks?|unlocked|disarms?)\s+(?:with|using)\s+")
# A purpose of opening before a verb of typing: "to unlock the tablet she enters 7719".
_OPEN_PURPOSE = re.compile(
    r"\bto\s+(?:open|unlock|disarm|access|reach|get\s+(?:in|into|onto|past))\s+"
    r"(?:my|the|our|your|his|her|their)\s",
    re.I,
)
_OBJECT_THING = re.compile(
    r"(?:(?:my|the|our|your|his|her|their)\s+)?(?:[\w'’-]+\s+){0,2}?" + _THING.pattern, re.I
)
_COPULA_END = re.compile(r"\s*,?\s*(?:that['’]s|that\s+is|it['’]s|is|was|['’]s)?\s*$", re.I)
_BEFORE = re.compile(
    r"(?:(?<=\s)|(?<=^)|(?<=[(:\"'‘“]))(?:[\"'‘“](?P<q>[^\s\"'‘’“”]{3,40})[\"'’”]|(?P<t>[!-~]{4,40}?))$"
)
# Logging in as a purpose or a target: "to log in", "for all my sites", "at the bank site".
_LOGIN = re.compile(
    r"\b(?:log(?:ging)?[\s-]?(?:in|on|into)|logins|sign(?:ing)?[\s-]?(?:in|on|into)|"
    r"(?:every|all|each|any|most)\s+(?:of\s+)?(?:my\s+|the\s+)?(?:\w+\s+)?(?:sites?|websites?|accounts?|logins?)|"
    r"(?:the|my)\s+(?:[\w'’-]+\s+){0,2}(?:site|website|portal|account|app|vpn)\b|"
    r"(?:when|whenever)\s+(?:the|my|it)\b[^.;!?]{0,30}\basks|get\s+(?:in|into|onto))",
    re.I,
)
# A verb of using or typing, the value, then a word that ties it to its purpose or place.
_USE_FOR = re.compile(
    r"(?P<typing>type|typed|typing|types|enter|enters|entered|entering|key\s+in|keys\s+in|keyed\s+in|put\s+in|"
    r"punch(?:es|ed)?\s+in)\s+|"
    r"(?:use|used|uses|using|reuse|reused)\s+"
)
_PURPOSE = re.compile(
    r"\s*,?\s+(for|to|on|at|when|whenever|wherever|everywhere|every\s+time|into|as)\b", re.I
)
_TO_PURPOSE = ("for", "to", "on", "wherever", "everywhere", "as")
# "it's <value> for the site", "locked out of my laptop, it's <value>".
_ITS = re.compile(r"it(?:['’]s|\s+is|\s+was)\s+")
_CLAUSE = re.compile(r"[.;!?\n]\s|[()]")
# A value kept from others: "don't tell anyone", "keep this between us", "between you and me".
_HIDDEN = re.compile(
    r"(?:don['’]?t|do\s+not|never|not\s+to)\s+(?:tell|share|give|show|let\s+(?:\w+\s+){1,3}(?:know|see|"
    r"find\s+out))\b|keep\s+(?:this|it|that)\s+(?:between|secret|quiet|to\s+yourself)\b|"
    r"between\s+(?:you\s+and\s+me|us)\b"
)
_IS = re.compile(r"(?:['’]s|\s+is|\s*:)\s+")


def _clause(text: str, lo: int, hi: int) -> tuple[int, int]:
    """The clause around ``lo``–``hi`` (at most 200 characters each way)."""
    start = max(
        [m.end() for m in _CLAUSE.finditer(text, max(0, lo - 200), lo)] or [max(0, lo - 200)]
    )
    m = _CLAUSE.search(text, hi, hi + 200)
    return start, m.start() if m else min(len(text), hi + 200)


# Where each relation may start: every match of its pattern begins with one of these. They
# are found with ``str.find`` and the pattern is matched there alone; a scan of the pattern
# over a long turn costs several microseconds, these a fraction of one.
_KINDS = {
    "opens": (_OPENS_WITH, ("open", "unlock", "disarm", "clear", "turn", "goes", "get", "let",
                            "log", "sign", "wak", "boot", "want", "take", "need", "ask",
                            "accept", "expect")),
    "hidden": (_HIDDEN, ("don", "do ", "never", "not ", "keep", "between")),
    "what": (_IS_WHAT_OPENS, ("what", "how")),
    "use": (_USE_FOR, ("typ", "enter", "key", "put", "punch", "use", "reuse")),
    "its": (_ITS, ("it",)),
    "does": (_DOES_OPEN, ("get", "got", "let", "open", "unlock", "disarm", "log", "sign")),
}  # fmt: skip


# Every value but a plain word or number words holds a digit, a quotation mark, a capital
# inside a word or a symbol before a letter or digit: a text with none of them can hold only
# those two (a plain word only after a verb of using or typing; number words before "what").
_HINT_CHAR = re.compile(r"[0-9\"“‘]")
_HINT_SYMBOL = re.compile(r"[!#$%&*_+=?@~^]\w")
_INNER_CAPITAL = re.compile(r"(?<=[a-z])[A-Z]")


def _hinted(text: str) -> bool:
    """A digit, a quotation mark, a symbol before a letter or digit, or a capital inside a
    word (tested one class at a time: an alternation of them costs several times more)."""
    if _HINT_CHAR.search(text) or _HINT_SYMBOL.search(text) or " '" in text or text[:1] == "'":
        return True
    return _INNER_CAPITAL.search(text) is not None


_NUMBER_WORD = re.compile(r"\b(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)\b")


def _anchors(
    scan: str, kinds: tuple[str, ...], table: dict | None = None
) -> dict[str, list[re.Match[str]]]:
    """Each relation's matches in ``scan`` that start a word, in order."""
    table = _KINDS if table is None else table
    found: dict[str, list[re.Match[str]]] = {k: [] for k in table}
    for kind in kinds:
        rx, starts = table[kind]
        hits: dict[int, re.Match[str]] = {}
        for w in starts:
            at = scan.find(w)
            while at >= 0:
                if at == 0 or not (scan[at - 1].isalnum() or scan[at - 1] in "_'’"):
                    m = rx.match(scan, at)
                    if m:
                        hits[at] = m
                at = scan.find(w, at + 1)
        found[kind] = [hits[k] for k in sorted(hits)]
    return found


# The scripts written without spaces (Han, kana, Hangul, their punctuation and full-width
# forms): in mixed text ("下周开始,Abcd_00 is what gets me into the laptop", "opens with
# Abcd_00。别外传") they bound an English phrase as a space does.
_CJK_RUN = re.compile(
    r"[\u3000-\u303f\u3040-\u30ff\u3100-\u312f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
    r"\uf900-\ufaff\uff00-\uffef]+[,:]?"
)
_CJK_AS_LATIN = {"。": ".", "、": ",", "「": "“", "『": "“", "」": "”", "』": "”"}


def _latin_run(m: re.Match[str]) -> str:
    run = m.group()
    out = [_CJK_AS_LATIN.get(c, " ") for c in run]
    # digits glued to a character are a count or a measure (2500元, 3号), never a code
    if m.start() and m.string[m.start() - 1] in "0123456789" and run[0].isalpha():
        out[0] = "x"
    return "".join(out)


def latin_view(text: str) -> str:
    """``text`` with each character of a script written without spaces read as a space (its
    full stop and quotation marks as their Latin forms, a comma or colon joining it to
    English as a space), the same length so spans keep their offsets."""
    return text if text.isascii() else _CJK_RUN.sub(_latin_run, text)


def relation_spans(text: str, looks_like_secret: Callable[..., bool]) -> list[tuple[int, int]]:
    """Secrets tied by a relation to what they open or sign into (English; in mixed text
    read through ``latin_view``)."""
    text = latin_view(text)
    low = text.lower()
    # The scanning patterns read the lower-case text (same offsets when lowering keeps the
    # length, as for ASCII); a word must start where they match.
    scan = low if len(low) == len(text) else text
    login = any(w in low for w in _LOGIN_LITERALS)
    hinted = _hinted(text)
    if hinted:
        kinds: tuple[str, ...] = (
            ("opens", "hidden", "what", "use", "its", "does") if login else _NO_LOGIN
        )
    else:
        if not login and not (("what" in low or "how" in low) and _NUMBER_WORD.search(low)):
            return []
        kinds = ("use", "what") if login else ("what",)
    found = _anchors(scan, kinds)
    spans: list[tuple[int, int]] = []
    for o in found["opens"]:
        t = _THING_END.search(text, max(0, o.start() - 24), o.start())
        if t:
            digits = _LOCKS_DIGITS.fullmatch(t.group("head")) is not None
            v = _rel_value(text, o.end(), looks_like_secret, digits, False)
            if v and not _clock(t.group("head"), text, v):
                spans.append(v)
        elif _OPENS_PROPER.match(text, o.start()):
            spans.extend(_opened_thing(text, o, looks_like_secret))
    if found["hidden"]:
        for t in _THING.finditer(text):
            i = _IS.match(text, t.end())
            lo = _clause(text, t.start(), t.end())[0] if i else len(text)
            if i and any(h.start() >= lo for h in found["hidden"]):
                digits = _LOCKS_DIGITS.fullmatch(t.group("head")) is not None
                v = _rel_value(text, i.end(), looks_like_secret, digits, False)
                if v and not _clock(t.group("head"), text, v):
                    spans.append(v)
    for m in _TOPIC_SET.finditer(text) if hinted and " it to " in low else ():
        head = _THING.fullmatch(m.group("topic"))
        digits = head is not None and _LOCKS_DIGITS.fullmatch(head.group("head")) is not None
        before = text[max(0, m.start() - 40) : m.start()]
        if head is None and not m.group("topic")[0].isupper():
            if not any(_THING.fullmatch(w) for w in before.split()[-3:]):
                continue
            digits = True
        v = _rel_value(text, m.end(), looks_like_secret, digits, False)
        if v and _PHRASE_END.match(text, v[1]) and not _clock("alarm", text, v):
            spans.append(v)
    setting = hinted and " to " in low and any(w in low for w in ("set", "chang", "switch"))
    for m in _SET_THING.finditer(text) if setting else ():
        words = m.group("np").split()
        head = next(
            (
                _THING.fullmatch(w.rstrip("'’s"))
                for w in reversed(words)
                if _THING.fullmatch(w.rstrip("'’s"))
            ),
            None,
        )  # noqa: E501
        if head is None:
            continue
        digits = _LOCKS_DIGITS.fullmatch(head.group("head")) is not None
        v = _rel_value(text, m.end(), looks_like_secret, digits, False)
        if v and _PHRASE_END.match(text, v[1]) and not _clock(head.group("head"), text, v):
            spans.append(v)
    for m in found["what"]:
        lo, hi = _clause(text, m.start(), m.end())
        if not _THING.search(text[m.end() : hi]) and not re.match(r"\s*in\b", text[m.end() :]):
            continue
        base = max(lo, m.start() - 60)
        head = text[base : m.start()]
        # the copula, and the comma or dash that sets the value apart ("X — that's how …")
        head = re.sub(r"(?:\s+-|[\s,;:—–])+$", "", head[: _COPULA_END.search(head).start()])
        w = _WORDS.search(head)
        if w and w.end() == len(head) and len(w.group().split()) >= 4:
            spans.append((base + w.start(), base + w.end()))
            continue
        b = _BEFORE.search(head)
        if b:
            at = base + b.start()
            v = _rel_value(text, at, looks_like_secret, True, False)
            if v and v[1] <= m.start():
                spans.append(v)
    for m in found["does"]:
        lo, hi = _clause(text, m.start(), m.end())
        t = _OBJECT_THING.match(text[:hi], m.end())
        b = _BEFORE.search(text[max(lo, m.start() - 60) : m.start()].rstrip())
        if t and b:
            at = max(lo, m.start() - 60) + b.start()
            digits = _LOCKS_DIGITS.fullmatch(t.group("head")) is not None
            v = _rel_value(text, at, looks_like_secret, digits, False)
            if v and not text[v[1] : m.start()].strip() and not _clock(t.group("head"), text, v):
                spans.append(v)
    for m in found["use"]:
        lo, hi = _clause(text, m.start(), m.end())
        if m.group("typing") and _OPEN_PURPOSE.search(text, lo, m.start()):
            v = _rel_value(text, m.end(), looks_like_secret, True, False)
            if v and not _QUOTED.match(text, v[0] - 1) and _PHRASE_END.match(text, v[1]):
                spans.append(v)
                continue
        # a plain word: after a verb of typing, or a long run of words used to log in
        v = _rel_value(text, m.end(), looks_like_secret, False, True)
        plain = (
            v is not None
            and m.group("typing") is None
            and text[v[0] : v[1]].isalpha()
            and text[v[0] - 1] not in "'\"‘“"
        )
        if not v or (plain and v[1] - v[0] < 8) or not _PHRASE_END.match(text, v[1]):
            continue
        p = _PURPOSE.match(text, v[1] + (text[v[1] : v[1] + 1] in "'\"’”"))
        tail = text[v[1] : hi]
        before = text[lo : m.start()]
        if plain and not (p and p.group(1) in _TO_PURPOSE):  # "use headphones when I log in"
            continue
        if (p and _LOGIN.search(tail)) or _LOGIN.search(before):
            spans.append(v)
    for m in found["its"]:
        lo, hi = _clause(text, m.start(), m.end())
        v = _rel_value(text, m.end(), looks_like_secret, False, False)
        if not v:
            continue
        tail = text[v[1] + (text[v[1] : v[1] + 1] in "'\"’”") : hi]
        before = text[lo : m.start()]
        if (
            (_PURPOSE.match(tail) and _LOGIN.search(tail))
            or re.search(
                r"\b(?:locked\s+out\s+of|for|into|to\s+get\s+into)\s+(?:my|the|our)\s+",
                before,
                re.I,
            )
            and _THING.search(before)
        ):
            spans.append(v)
    return spans


_NO_LOGIN = ("opens", "hidden", "what", "its", "does", "use")
_LOGIN_LITERALS = (" log", "sign", "site", "account", "portal", " app", "vpn", " ask", "get ")


def _unquoted(text: str, v: tuple[int, int] | None) -> bool:
    """A value that is no quoted word (a quoted title opens a show, not a lock)."""
    return v is not None and not (v[0] and text[v[0] - 1] in "\"'‘“")


def _opened_thing(
    text: str, o: re.Match[str], looks_like_secret: Callable[..., bool]
) -> list[tuple[int, int]]:
    """ "<the noun> opens/unlocks with <value>" for a noun outside the classes: the verb makes
    it a thing that locks; the value digits or a made token, never a quoted word."""
    t = _ANY_THING_END.search(text, max(0, o.start() - 40), o.start())
    if not t:
        return []
    v = _rel_value(text, o.end(), looks_like_secret, True, False)
    if not _unquoted(text, v) or not _PHRASE_END.match(text, v[1]):
        return []
    return [v] if _code_digits(text, o.group(), t.group("head"), v) else []


_UNLOCKING = re.compile(r"\s*(?:unlock|disarm)", re.I)


def _code_digits(text: str, verb: str, head: str, v: tuple[int, int]) -> bool:
    """Whether a value of digits is a code here: to unlock or disarm anything, or to open or
    get into a thing that locks, any digits; to open or get into anything else (an account
    opened with 5000, a programme got into with 1450) only digits in pieces or with a
    leading zero, which no amount or score is. A value with a letter is always one."""
    value = text[v[0] : v[1]]
    if not value.replace("-", "").replace(" ", "").isdigit():
        return True
    if _UNLOCKING.match(verb) or _LOCKS_DIGITS.fullmatch(head.rstrip("'’s")) is not None:
        return True
    return value[0] == "0" or "-" in value or " " in value
