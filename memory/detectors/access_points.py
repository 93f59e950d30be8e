"""A code bound to an access point by grammar alone, with no secret word (round 19 of issue 32).

People give the code of a thing that locks or admits by naming the thing and the value and
nothing else: "canoe shed padlock: 4471", "the back gate takes 5820#", "I picked 0917 for
the gun safe", "for the gym locker I picked 5219", "the vault's dial is 31-7-22". No word
says "code"; the grammar binds a short value to the thing, and the thing's role says the
value opens it. This module is ``code_phrases``' reading of a thing and its value (the
"thing is 2-2-9-1" reading it held since round 15, moved here and widened).

**The thing (the class).** A noun phrase whose head names something that locks or admits,
by its role, not by this week's nouns: what locks (a lock as a word or the head of a
compound — bike lock, U-lock, padlock, deadbolt, latch, lockbox, locker), what holds
things locked (a safe, a vault, a strongbox; a box or safe of keys or cash), what admits
(a door, gate, hatch, entrance, entry, barrier, turnstile, garage, shed), and what one keys
or arms (a keypad, an alarm or security panel or system, an intercom, an opener). The
modifiers are open (kayak rack lock, hitch lock on the camper, pool gate, dog run gate): any
thing one can lock is named by one of these heads, which is why the class reaches things
nobody listed. The heads are a closed class of roles (a lock, a container that locks, a
way in, a keyed device), so the list does not grow with the things.

**The binding.** The thing, then a link: a colon or a dash, a copula ("is", "'s", "is
set to"), a verb of what the thing takes ("takes", "accepts", "opens with/on"), a clause of
choosing ("…, I used", "I set it to"), a question mark ("lockbox combo? 3-3-9"), or on a
keyed device nothing at all ("porch lockbox 6104"; three digits on a lock when they end the
sentence); or the value first and the thing after a verb of choosing ("picked/chose/set/
used/went with X for the Y"), or opening its clause ("codes: 0614 for the safe" — not an
amount: no money in the sentence, not a round number), or a verb of setting with the thing
and *to* ("changed the strongbox to 559913"). A numbered thing ("locker 31", "gate 4")
needs a link: its number is its name, not its code. A head that is a preposition's object
("the number on the front door is 1407") is not the clause's subject, and binds nothing.

A secret tied to its thing by a verb rather than a link, and the things one unlocks or signs
into (a phone, a laptop, an account, a site), are ``access_relations``' reading (round 21).

**The value.** A code: four to eight digits (``#`` or ``*`` may sit among them; not a year
unless it has them), single digits apart, groups of one or two digits apart (on a thing that
locks they are a combination even when they could be a date), three digits only on a thing
that locks, a dial's turns (right 22, left 14, right 6), digits said in English words, or a
token of letters and digits that is not an identifier's shape (C104, MU5735, KB-5020 are
gates, flights and models). The value ends its clause: a count with a unit, an
amount, a time with a colon, a percentage are none of these. A bare "alarm" set to a time of
day (0630) is an alarm clock.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from memory.detectors.access_replies import _is_date
from memory.detectors.switches import detection_switch

# Heads by role (see the docstring). Lock-kind heads take three digits and combinations.
_LOCKING = (
    r"(?:pad|dead|[a-z]-)?locks?|lock[\s-]?box(?:es)?|lockers?|deadbolts?|latch(?:es)?|"
    r"safes?|vaults?|strong[\s-]?box(?:es)?|(?:key|cash)[\s-]?(?:box|safe)(?:es|s)?"
)
_ADMITTING = (
    r"(?:alarm|security)\s+(?:panel|system|keypad)s?|(?:garage|gate|door|barrier)[\s-]+"
    r"(?:remote|clicker)s?|keypads?|doors?|gates?|hatch(?:es)?|"
    r"entrances?|entry|barriers?|turnstiles?|garage|shed|alarm|intercom|opener"
)
_HEAD = re.compile(
    r"(?<![\w'’-])(?:(?P<lock>" + _LOCKING + r")|(?P<admit>" + _ADMITTING + r"))\b", re.I
)
# Cheap literal gate: every head holds one of these.
ACCESS_LITERALS = _LITERALS = (
    "lock", "bolt", "latch", "safe", "vault", "box", "door", "gate", "hatch", "entr", "barrier",
    "turnstile", "garage", "shed", "alarm", "keypad", "panel", "system", "intercom", "opener",
)  # fmt: skip
# Heads that are numbered places ("locker 22", "gate 23"): no value without a link.
_NUMBERED = re.compile(r"lockers?|doors?|gates?|entrances?|barriers?|garage|shed|turnstiles?", re.I)
_DET = r"(?:the|my|our|your|his|her|their|a|[A-Z]?[a-z]+['’]s)"
_ID = r"(?:\s+(?:no\.?\s*|#)?\d{1,4}[a-z]?\b)"
_MODIFIER = (
    r"(?:\s+(?:by|on|at|in|of|for|near|outside|behind|under|beside|to)\s+" + _DET
    + r"\s+(?:[\w-]+\s+){0,2}?[\w-]+?)?"
)  # fmt: skip
_CODE_NOUN = r"(?:(?:['’]s)?\s+(?:combination|combo|code|pin|dial|digits|numbers|sequence))?"
_LINK = (
    r"\s*[:=]\s*|\s+[-—–]\s+|\s*[—–]\s*|\s*\?\s+"
    r"|\s*(?:\s(?:is|was|are)|['’]s)\s+(?:(?:now|still|just|currently|always|usually)\s+)?"
    r"(?:set\s+to\s+)?"
    r"|\s+(?:takes|took|uses|used|needs|wants|accepts|gets|opens\s+(?:with|on|to)|unlocks\s+(?:with|on)|"
    r"(?:is|was|got)\s+(?:set|changed)\s+to)\s+"
    r"|\s*,?\s+(?:i|we|he|she|they|you|mum|mom|dad)\s+(?:just\s+)?(?:set\s+(?:it\s+)?to|"
    r"changed\s+(?:it\s+)?to|picked|chose|use|used|went\s+with|made\s+it)\s+"
)
_AFTER_HEAD = re.compile(
    r"(?P<id>" + _ID + r")?" + _MODIFIER + _CODE_NOUN + r"(?P<link>" + _LINK + r")", re.I
)
# Links of taking or choosing: a year-shaped value after them is still a code ("I used 1928").
_CHOOSING = re.compile(r"take|took|use|need|open|unlock|set|chang|pick|chose|went|made", re.I)
# Where a noun phrase after "for the" ends: a clause's end, a conjunction, a Chinese sentence.
_NP_END = r"\s*(?:$|[.,;!?)\n—–”\"'」，。\u3040-\u9fff\uac00-\ud7af]|\s(?:and|but|so|too|now)\b)"
# The value first, then the thing: "picked 0917 for the gun safe".
_CHOSE = re.compile(
    r"\b(?:picked|chose|choose|set|use|used|went\s+with|settled\s+on|programmed|made\s+it|"
    r"(?:reset|changed)\s+it\s+to)\s+(?=[\d#*])(?P<value>\S+(?:[- ]\d)*)\s+(?:for|on)\s+" + _DET
    + r"\s+(?P<np>(?:[\w'’-]+\s+){0,3}?[\w'’-]+)(?=" + _NP_END + ")",
    re.I,
)  # fmt: skip
# The value opening its clause, then the thing: "codes: 0614 for the safe, 2291 for the shed".
_FOR_THING = re.compile(
    r"(?:^|(?<=[:;,.—–])|(?<=\band)|(?<=\s-))\s*(?P<value>[\d#*](?:[\d#*]|[- ]\d){2,14})\s+(?:for|on)\s+"
    + _DET
    + r"\s+(?P<np>(?:[\w'’-]+\s+){0,3}?[\w'’-]+)(?="
    + _NP_END
    + ")",
    re.I,
)
# An amount for a thing is no code ("2000 for the gate"): a word or a sign of money in the sentence.
_MONEY = re.compile(
    r"[$£€¥₹]|\b(?:paid|pay|spent|spend|cost|costs|price|budget|quote[ds]?|charged?|dollars?|"
    r"euros?|pounds?|bucks|yuan|rmb|yen|rupees?|usd|eur|gbp|sale|sold|bought)\b",
    re.I,
)
# A verb of setting, the thing, *to*, the value: "changed the strongbox to 559913".
_SET_TO = re.compile(
    r"\b(?:set|changed|reset|switched|programmed)\s+" + _DET
    + r"\s+(?P<np>(?:[\w'’-]+\s+){0,3}?[\w'’-]+?)(?:\s+(?:code|combination|combo|pin))?\s+to\s+",
    re.I,
)  # fmt: skip

# A head that is a preposition's object: the clause's subject is another noun.
_OBJECT_BEFORE = re.compile(
    r"\b(?:on|of|at|by|in|near|above|behind|beside|under|outside|from|to|into|with|next\s+to)\s+"
    r"(?:(?:the|my|our|your|his|her|their|a|an|[A-Z]?[a-z]+['’]s)\s+)?(?:[\w-]+\s+){0,2}$",
    re.I,
)
_DIGITS = re.compile(r"(?=(?:[#*]*\d){4,8}[#*]*(?![\w#*]))[\d#*]{4,10}")
_PIECES = re.compile(r"\d(?:[- ]\d){2,7}(?![\w-])")
_GROUPS = re.compile(r"\d{1,2}(?:-\d{1,2}){2,3}(?![\w-])")
_THREE = re.compile(r"\d{3}(?![\w,:/%-]|\.\d)")
# A dial turned (right 22, left 14, right 6; R22 L14 R6; 22R-14L-6R): only a combination.
_TURN = r"(?:(?:right|left|r|l)\s*(?:to\s+)?\d{1,2}|\d{1,2}\s*(?:right|left|r|l))\b"
_DIAL = re.compile(_TURN + r"(?:\s*(?:,|then|and|-|/)?\s*" + _TURN + r"){2,3}", re.I)
_WORD = r"(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)"
_WORDS = re.compile(rf"(?:{_WORD}[\s,-]+){{2,7}}{_WORD}\b", re.I)
_TOKEN = re.compile(r"[A-Za-z0-9]{4,16}(?![\w-])")
_ID_SHAPE = re.compile(r"[A-Za-z]{1,3}\d{1,5}[A-Za-z]?")
_YEAR = re.compile(r"(?:19|20)\d\d")
# A unit, a count or a date after the digits in Chinese, Japanese or Korean: no code.
_UNIT_CJK = r"[元块塊号號次年月日点點个個位米层層楼樓人岁歲分天寸斤公房室栋棟円원개번층살시]"
_SENTENCE_END = re.compile(
    r"\s*(?:$|[.!?;\n。！？]|\s(?:now|then)\b|\s(?!"
    + _UNIT_CJK
    + r")[\u3040-\u9fff\uac00-\ud7af])",
    re.I,
)
_CLOCK = re.compile(r"(?:[01]\d|2[0-3])[0-5]\d")
_AFTER = re.compile(
    r"\s*(?:$|[.,;!?)\n—–”\"'，。]|(?!"
    + _UNIT_CJK
    + r")[\u3040-\u9fff\uac00-\ud7af]|\s(?:and|but|then|for|from|if|so|now|too|on\s+it|please)\b)",
    re.I,
)


def _value(
    text: str,
    at: int,
    locking: bool,
    looks_like_secret: Callable[..., bool],
    year_ok: bool = False,
    token_ok: bool = True,
):
    """The span of a code at ``at`` that ends its clause, or None. ``token_ok``: a token of
    letters and digits may be one (not where the value comes first: "I use 1Password for
    the family vault" names a tool used for the thing, not its code)."""
    for rx in (_DIAL, _WORDS):
        m = rx.match(text, at)
        if m and _AFTER.match(text, m.end()):
            if rx is _DIAL or locking or len(m.group().split()) >= 4:
                return m.span()
    for rx in (_GROUPS, _PIECES, _DIGITS, _THREE):
        m = rx.match(text, at)
        if not m or not _AFTER.match(text, m.end()):
            continue
        v = m.group()
        if rx is _GROUPS and not (locking or not _is_date(v.split("-"))):
            return None
        if rx is _PIECES and not locking and len(v.replace("-", "").replace(" ", "")) < 4:
            return None
        if rx is _DIGITS and _YEAR.fullmatch(v) and not year_ok:
            return None
        if rx is _THREE and not locking:
            return None
        return m.span()
    m = _TOKEN.match(text, at) if token_ok else None
    if m and _AFTER.match(text, m.end()):
        v = m.group()
        if (
            not _ID_SHAPE.fullmatch(v)
            and any(c.isalpha() for c in v)
            and any(c.isdigit() for c in v)
            and looks_like_secret(v, numeric_ok=False)
        ):
            return m.span()
    return None


def _clock(head: str, text: str, span: tuple[int, int]) -> bool:
    """A bare alarm and a time of day: an alarm clock."""
    return head.lower() == "alarm" and _CLOCK.fullmatch(text[span[0] : span[1]]) is not None


def _named(h: re.Match[str], a: re.Match[str], text: str, v: tuple[int, int], taken: bool) -> bool:
    """A numbered place said to be a plain number that the sentence goes on to describe
    ("the door is 1204, second on the left"): its name, not its code. A code's mark (``#``
    or ``*``, a leading zero, digits apart, five or more digits), a link of taking or
    choosing, or the value ending the sentence says code."""
    value = text[v[0] : v[1]]
    if taken or not _NUMBERED.fullmatch(h.group()) or not value.isdigit():
        return False
    if value.startswith("0") or len(value) > 4:
        return False
    return _SENTENCE_END.match(text, v[1]) is None


def _amount(value: str, sentence: str) -> bool:
    """A value said for a thing with no verb is an amount when the sentence names money or
    the value is a round number ("2000 for the new door, 1500 for the lock")."""
    round_number = value.isdigit() and value[0] != "0" and int(value) % 50 == 0
    return round_number or _MONEY.search(sentence) is not None


def _head_of(np: str) -> re.Match[str] | None:
    last = np.split()[-1] if np.split() else ""
    two = " ".join(np.split()[-2:])
    return _HEAD.fullmatch(two) or _HEAD.fullmatch(last)


def _bound(text: str, looks_like_secret: Callable[..., bool]) -> list[tuple[int, int]]:
    spans = []
    for h in _HEAD.finditer(text):
        if _OBJECT_BEFORE.search(text, max(0, h.start() - 48), h.start()):
            continue  # the thing names where another is ("the number on the front door")
        a = _AFTER_HEAD.match(text, h.end())
        locking = h.group("lock") is not None
        if a is None:
            # nothing between: only a keyed device or a container, never a numbered place
            if _NUMBERED.fullmatch(h.group()) or not text.startswith(" ", h.end()):
                continue
            v = _DIGITS.match(text, h.end() + 1)
            if locking and not v:  # three digits on a lock, ending the sentence
                v = _THREE.match(text, h.end() + 1)
                v = v if v and _SENTENCE_END.match(text, v.end()) else None
            if v and _AFTER.match(text, v.end()) and not _YEAR.fullmatch(v.group()):
                if not _clock(h.group(), text, v.span()):
                    spans.append(v.span())
            continue
        if "\n" in a.group(0):
            continue
        year_ok = _CHOOSING.search(a.group("link")) is not None
        v = _value(text, a.end(), locking, looks_like_secret, year_ok)
        if v and not _clock(h.group(), text, v) and not _named(h, a, text, v, year_ok):
            spans.append(v)
    for rx in (_CHOSE, _SET_TO, _FOR_THING):
        for m in rx.finditer(text):
            head = _head_of(m.group("np"))
            if head is None:
                continue
            if rx is _FOR_THING and _amount(m.group("value"), _sentence(text, m.span())):
                continue
            at = m.end() if rx is _SET_TO else m.start("value")
            locking = head.group("lock") is not None
            v = _value(text, at, locking, looks_like_secret, True, token_ok=rx is _SET_TO)
            if (
                v
                and (rx is _SET_TO or v[1] == m.end("value"))
                and not _clock(head.group(), text, v)
            ):
                spans.append(v)
    return spans


# A thing, then its code with no code noun (round 15's reading): "the attic safe is 2-2-9-1",
# "gate's 4471 now", "for the bins enclosure you need 1-1-9-4". Digits in single pieces are
# a code whatever the thing (no count, date or amount is said so); a plain number needs a
# place one keys.
_THING_IS = re.compile(
    r"(?:(?<![\w'’-])(?:the|my|our|your|his|her|their|[A-Z]?[a-z]+'s)\s+)?"
    r"(?:(?!(?:is|was)\b)[\w-]+\s+){0,2}?(?P<noun>(?<![\w'’-])[A-Za-z][\w-]*)"
    r"(?:'s|’s|\s+(?:is|was|opens\s+(?:with|on)|unlocks\s+with|takes|uses))\s+(?:now\s+|still\s+|just\s+)?"
    r"|\bfor\s+(?:the|my|our|your|his|her|their|[A-Z]?[a-z]+'s)\s+(?:[\w-]+\s+){0,2}?"
    r"(?P<noun2>[\w-]+),?\s+(?:you|we|i|they)\s+(?:need|use|punch|type|enter)\s+",
    re.IGNORECASE,
)
# Nouns that name a number, not what it opens ("our flat number is 2 0 8 8").
_NUMBER_NOUN = re.compile(
    r"numbers?|no|id|address|extension|ext|phone|mobile|flat|apartment|room|line|floor|score|"
    r"result|formation|sequence|pattern|odds|ratio|total|count",
    re.IGNORECASE,
)
_PLACE = re.compile(
    r"(?:key)?pad|panel|intercom|buzzer|lock\w*|padlock|door|gate|safe|locker|box|terminal|"
    r"reader|entry\w*|entrance|barrier|console|garage|shed|alarm",
    re.IGNORECASE,
)
_THING_PIECES = re.compile(r"\d(?:[- ]\d){3,7}(?![\w-])")
_THING_DIGITS = re.compile(r"(?:[#*]*\d){4,8}[#*]*(?![\w.,:/%-])")
_AFTER_EN = re.compile(
    r"\s*(?:$|[.,;!?)\n—–”\"'，。]|\s(?:and|but|then|for|from|if|so|now)\b)", re.I
)


def _thing_is(text: str, low: str, public: Callable[[str], bool]) -> list[tuple[int, int]]:
    spans = []
    # Exact gate (FAST_DETECTION_TEXT; off: the reference): the value comes from
    # _THING_PIECES or _THING_DIGITS matched where the phrase ends, which a search finds too.
    fast = detection_switch("FAST_DETECTION_TEXT")
    if not (
        "'s" in low
        or "’s" in low
        or " is " in low
        or " was " in low
        or "for " in low
        or " opens " in low
    ) or (fast and not (_THING_PIECES.search(text) or _THING_DIGITS.search(text))):
        return spans
    for m in _THING_IS.finditer(text):
        noun = m.group("noun") or m.group("noun2")
        if public(m.group(0)) or _NUMBER_NOUN.fullmatch(noun):
            continue
        p = _THING_PIECES.match(text, m.end())
        if p and _AFTER_EN.match(text, p.end()):
            spans.append(p.span())
            continue
        d = _THING_DIGITS.match(text, m.end())
        if d and _PLACE.fullmatch(noun) and _AFTER_EN.match(text, d.end()):
            if not _YEAR.fullmatch(d.group()):
                spans.append(d.span())
    return spans


def access_point_spans(
    text: str, low: str, looks_like_secret: Callable[..., bool], public: Callable[[str], bool]
) -> list[tuple[int, int]]:
    """Codes bound by grammar to a thing that locks or admits (English; ``text`` holds a
    digit or a letter-and-digit token, ``low`` is its lower case)."""
    spans = _thing_is(text, low, public)
    if any(w in low for w in _LITERALS):
        spans += [s for s in _bound(text, looks_like_secret) if not public(_sentence(text, s))]
    return spans


def _sentence(text: str, span: tuple[int, int]) -> str:
    lo = max(text.rfind(c, 0, span[0]) for c in ".!?\n") + 1
    return text[lo : span[1]]
