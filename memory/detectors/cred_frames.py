"""Codes given in a frame that says what they are for (round 13 of issue 32).

"Code" alone names a secret only beside something it opens (``secrets._CODE_CONTEXT``, a
closed class of devices); "key" and "number" alone name nothing. These frames say by their
structure, not by a device's name, that the value is a code someone keeps:

- **a code *to* something**: "the code to the bike cage: 0-4-4-9", "the combination to
  Dad's toolbox is 12-30-8": a code of a thing (a possessive or an article after *to* or
  *into*) is what opens it;
- **a code someone chose**: "the voice purchasing code I set: 2741", "the PIN we picked
  was 3318": a relative clause of choosing (set, chose, picked, made, use …) between the
  noun and its value (a tracking or an order number is given to a person, never chosen);
- **a code handed to someone**: "I gave the dog walker the key box code, 5521", "texted
  my brother the code — 7730": a verb of telling, a person, then the code and its value;
- **a code valid now**: "the Steam Guard code right now is F7K2Q": a code read off a
  screen *now* is a one-time code;
- **a code named by what it guards** (parental, restrictions, guard, override, duress,
  panic, two-factor, a profile or screen lock): "the parental controls code is 8824";
- **the value, then what it does**: "7319 is what I punch in at the alarm panel", "2468
  to unlock the tablet" (not a price or a score: "pay 2000 to unlock");
- **a Chinese code named by passing or opening** (通行码, 出入码, 开门码, 配对码), and a
  lock or a keyed machine, then who set it or what was keyed ("保险柜我设的 718293", "ATM
  按的六位数 730915");
- **a lock set to a value**: "set the hotel room safe to 2580", "changed the padlock
  combination to 4-1-9": a verb of setting, a lock or a code, *to*, the value;
- **a code corrected**: "it's not 1234 for the garage, it's 8812": a code-shaped guess
  denied, then the value, beside something a code opens;
- **a libpq password file line** (host:port:database:user:password);
- **the network named for its key**: "the wifi is Falcon-Nest-19", 他说WiFi是 xiaomi2024
  (a made value or a code after wifi/internet and a copula; round 19);
- **the value, then a pointer back to what it is for**: "I set it to 4471, the PIN I
  mean", "Marigold77 — in case you need the laptop", 7319，这是保险箱的;
- **a value taken as the key**: "CabinGuest with 'pinecone42' as the key", "uses
  Tern-4471 as its PIN": a made value (letters and digits, or digits in pieces) and "as
  the key/code/PIN/password".

A code whose modifier says it is nobody's secret (promo, discount, tracking, order, zip,
product …) is none of these. The value is read as ``access_replies`` reads a reply: a
code in pieces, four to eight digits (not a year), or a made token that ends its clause.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from memory.detectors.access_replies import _value_at
from memory.detectors.access_replies import access_reply_spans as _replies
from memory.detectors.code_phrases import PUBLIC_MODIFIER as _PUBLIC
from memory.detectors.code_phrases import code_phrase_spans
from memory.detectors.cred_passphrase import passphrase_spans
from memory.detectors.literal_gated import literal_gated

_NOUN = r"(?:pass(?:word|code|phrase)|pins?|codes?|combinations?|combos?)"
_LOCK = (
    r"(?:pad|bike|combination|door|gate|smart|cable)?\s*lock|padlock|lock\s*box|key\s*(?:safe|box)|"
    r"safe|vault|locker|keypad"
)
_DET = r"(?:the|my|our|your|his|her|their|mum's|mom's|dad's|[A-Z][a-z]+'s)"
_LEAD = re.compile(
    r"\s*(?:[,:;=]|—|–|--|\s-\s|\s(?:is|was|are|'s)\b)\s*(?:(?:uh|um|er|erm|so)\s*,?\s*)?"
    r"(?:(?:now|still|just|actually|currently|simply)\s+)?[\"'“]?",
    re.IGNORECASE,
)

_FRAMES = [
    # a code *to* something
    re.compile(
        rf"\b{_NOUN}\s+(?:to|into|for\s+getting\s+into)\s+{_DET}\s+[^.!?\n:=,—–]{{1,40}}?"
        r"(?=\s*(?:[,:;=]|—|–|--|\s-\s|\s(?:is|was|are)\b))",
        re.IGNORECASE,
    ),
    # a code someone chose
    re.compile(
        rf"\b{_NOUN}\s+(?:(?:that|which)\s+)?(?:i|we|he|she|they|you)\s+(?:just\s+)?"
        r"(?:set|chose|picked|made|created|use|used|gave\s+\w+|settled\s+on|went\s+with)"
        r"(?:\s+(?:for|on)\s+[^,:.!?\n=]{1,30}?)?(?=\s*(?:[,:;=]|—|–|\s(?:is|was)\b))",
        re.IGNORECASE,
    ),
    # a code handed to someone
    re.compile(
        r"\b(?:gave|give|giving|told|tell|texted|text|sent|send|messaged|emailed|whatsapped|"
        r"showed|passed)\s+(?:[\w'-]+\s+){1,3}?(?:the|my|our)\s+(?:[\w'-]+\s+){0,3}?"
        rf"{_NOUN}(?=\s*(?:[,:]|—|–|--|\s-\s))",
        re.IGNORECASE,
    ),
    # a code valid now
    re.compile(
        rf"\b{_NOUN}\s+(?:right\s+now|now|currently|at\s+the\s+moment|this\s+minute|today)\s+"
        r"(?:is|reads|shows|says)(?=\s)",
        re.IGNORECASE,
    ),
]
# A code named by what it guards against or who it keeps out (parental, restrictions,
# guard, override, duress …): the modifier says it protects, the value follows.
_GUARDING = re.compile(
    r"\b(?:parental(?:\s+controls?)?|restrictions?|guard|protection|privacy|override|duress|"
    r"panic|emergency|two[\s-]?factor|2fa|fallback|(?:profile|screen|app|child|kids?)\s+lock)"
    r"\s+(?:(?:controls?|mode|settings?|lock|app|account)\s+)?(?:codes?|pins?|passcodes?|lock)\b|\b(?:profile|screen|app|child)\s+lock\b",
    re.IGNORECASE,
)
# What the code is for, between the noun and its value ("… code on the thermostat is N").
_POST = re.compile(
    r"(?:\s+(?:for|on|of|at|to)\s+(?:the|my|our|[A-Z]?[a-z]+'s)\s+[\w-]+(?:\s+(?!(?:is|was|are)\b)[\w-]+)?)?"
)
# The value first, then what it does: "7319 is what I punch in at the alarm panel",
# "2468 to unlock the tablet".
_WHAT_IT_DOES = re.compile(
    r"(?<![\w.:/$€£¥-])(?P<value>\d{4,8}|\d(?:[- ]\d){3,7}|(?=[!-~]*\d)(?=[!-~]*[A-Za-z])[!-~]{5,40})"
    r"#?\s+(?:(?:is|was|'s)\s+what\s+(?:i|you|we|he|she|they)\s+(?:always\s+)?"
    r"(?:punch|type|enter|key|tap|press|put|dial)\w*(?:\s+in)?"
    r"|(?P<opens>(?:is|was|'s)\s+what\s+(?:opens|unlocks|disarms|gets\s+(?:me|us|you)\s+in))"
    r"|to\s+(?:unlock|disarm|open)(?:\s+(?:the|my|our|his|her|their|it)\b|\s*(?:[.!,;]|$)))",
    re.IGNORECASE,
)
_PAYING = re.compile(
    r"\b(?:pay|paid|costs?|spend|spent|earn|need|needs|takes?|score|reach|level|points?)\b", re.I
)
# Chinese: a code named by passing or opening (通行码, 出入码, 开门码, 进门码, 配对码).
_PASSING_ZH = re.compile(
    r"(?:通行|出入|开门|開門|进门|進門|配对|配對)(?:码|碼|密码|密碼)\s*(?:是|为|為|：|:)?\s*"
    r"(?P<value>\d{4,8}|[A-Za-z0-9]{4,16})(?![\w])"
)
# Chinese: a lock, then who set it or what is keyed on it, then the value ("保险柜我设的
# 718293", "ATM 按的六位数 730915"): a closed class of lockable things and keyed machines.
_SET_ZH = re.compile(
    r"(?:保险柜|保险箱|保險櫃|保險箱|密码锁|密碼鎖|门锁|門鎖|挂锁|掛鎖|储物柜|儲物櫃|指纹锁|智能锁|"
    r"ATM|取款机|取款機|柜员机|櫃員機|POS\s*机|键盘|鍵盤|门禁|門禁|"
    # round 21: what one unlocks or signs into (a phone, a computer, a payment app)
    r"手机|手機|平板|电脑|電腦|笔记本|筆記本|[Ii][Pp]ad|支付宝|支付寶|网银|網銀)"
    r"[^。！？\n，,]{0,8}?(?:设的|设了|设成|设为|設的|設了|設成|定的|按的|按了|输的|输了|輸的|打的|"
    r"(?:开屏|開屏|锁屏|鎖屏|开机|開機|解锁|解鎖)(?:要|得|就)?(?:是|输入?|輸入?|按))"
    r"(?:是|为|為)?[^。！？\n\d金额額钱錢款]{0,4}?(?<![\d.])(?P<value>\d{4,8}|\d{1,2}(?:-\d{1,2}){2,3}|"
    r"(?=[A-Za-z_]*\d)(?=\d*[A-Za-z])[A-Za-z0-9_!@#$%&*]{6,24})(?![\d.:/%-])(?!\s*(?:元|块|塊|号|號|次|年|月|日|点|點))"
)
# Round 21: logging in to every site with one value ("我登录各种网站都用 X", "我所有网站都用 X 登录").
_LOGIN_ZH = re.compile(
    r"(?:登录|登錄|登陆|登陸|网站|網站|账号|帳號|账户|帳戶)[^。！？\n，,]{0,10}?(?:都|一直|全)用\s*"
    r"(?P<value>(?=[!-~]*\d)(?=[!-~]*[A-Za-z])[!-~]{6,32})(?![!-~])"
)
# A lock set to a value: the value follows "to" directly.
_SET_TO = re.compile(
    r"\b(?:set|reset|changed?|changing|switched|programm?ed)\s+"
    rf"{_DET}\s+(?:[\w'-]+\s+){{0,3}}?(?:{_LOCK}|{_NOUN})(?:\s+(?:code|pin|combination))?"
    r"\s+to\s+(?=[\"'“]?[#*\w])",
    re.IGNORECASE,
)
# A value taken as the key: the value comes first.
_TAKEN_AS = re.compile(
    r"(?<![!-~])[\"'“]?(?P<value>[!-~]{4,40}?)[\"'”]?\s+as\s+(?:the|my|its|our|his|her|their)\s+"
    r"(?:[\w-]+\s+){0,2}?(?:key|pin|code|passcode|password|passphrase)\b",
    re.IGNORECASE,
)
# A code corrected: "it's not 1234 for the garage, it's 8812", "nope, not 0000 — 6047":
# a code-shaped guess denied, then the value, with something a code opens in the sentence.
_CORRECTED = re.compile(
    r"\bnot\s+(?P<guess>\d{4,8}|\d(?:[- ]\d){3,7})\b[^.!?\n]{0,40}?(?:[,;]|—|–|--)\s*"
    r"(?:(?:it's|it\s+is|its|but|rather|actually|it's\s+actually)\s+)?",
    re.IGNORECASE,
)
_OPENS = re.compile(
    rf"\b(?:{_LOCK}|garage|door|gate|shed|alarm|{_NOUN}|wi-?fi|phone|laptop|account)\b",
    re.IGNORECASE,
)
_MONEY = re.compile(
    r"[$€£¥]|\b(?:fees?|price|cost|rent|bill|dollars?|euros?|pounds?|bucks|usd|eur|gbp)\b|元|块",
    re.IGNORECASE,
)
# The value first, then a pointer back to what it opens ("I set it to 4471, the PIN I
# mean", "Marigold77 — in case you need the laptop", "4471. That's for the side door",
# 7319，这是保险箱的): the thing named after the value is what the value is for.
_THING = (
    rf"(?:{_LOCK}|garage|door|gate|shed|alarm|{_NOUN}|wi-?fi|phone|laptop|computer|tablet|account)"
)
_POINTED_BACK = re.compile(
    rf"the\s+(?:[\w'-]+\s+){{0,2}}?{_THING}s?\s+i\s+mean\b"
    rf"|(?:that's|that\s+is|it's|this\s+is)\s+(?:for|to)\s+(?:the|my|our)\s+(?:[\w'-]+\s+){{0,2}}?{_THING}s?\b"
    r"|in\s+case\s+you\s+need\s+(?:to\s+(?:get\s+into|open|unlock|use)\s+)?(?:the|my|our)\s+"
    rf"(?:[\w'-]+\s+){{0,2}}?{_THING}s?\b"
    r"|(?:这|這|那)(?:个|個)?是(?:我家|家里|家裡|公司|我)?的?"
    r"(?:保险箱|保险柜|保險箱|保險櫃|门禁|門禁|门锁|門鎖|大门|大門|车库|車庫|wi-?fi|无线|無線|密码|密碼|"
    r"手机|手機|电脑|電腦|锁|鎖)的?",
    re.IGNORECASE,
)
# The value just before the pointer, set off by a comma, a full stop or a dash.
_BEFORE_POINTER = re.compile(r"(?<![!-~])(?P<value>[!-~]{4,40}?)\s*(?:[,.;，。]|—|–|\s-)\s*$")

# A libpq password file line (host:port:database:user:password): a host with a letter, a dot
# or *, a port or *, then three fields; the password is the last.
_PGPASS = re.compile(
    r"(?<![\w:.-])(?=[\w.-]*[A-Za-z.*])[\w.*-]+:(?:\d{2,5}|\*):[\w.*-]+:[\w.*@-]+:"
    r"(?P<value>[^\s:]{4,})(?=\s|$)"
)
# The network named for its key ("the wifi is Falcon-Nest-19", 他说WiFi是 xiaomi2024): one
# asks "what's the wifi?" for the key, and the answer is a made value or a code, never a
# plain word (a network's name, "the wifi is BT", is said with "called" or "network").
_NETWORK_IS = re.compile(
    r"(?<![A-Za-z0-9-])(?:wi-?fi|wlan|internet|热点|熱點)\s*(?:(?:is|was|'s)\b|[:：=]|=>|->|→|是|为|為)\s*"
    r"(?:(?:now|still|just)\s+)?[\"'“]?",
    re.IGNORECASE,
)
_QUANTITY = re.compile(r"\d+(?:\.\d+)?[A-Za-z]{1,4}")
_SHOWN_LEAD = re.compile(r"\s*:?\s*")
_SHOWN = re.compile(r"(?=[A-Z]*\d)(?=\d*[A-Z])[A-Z0-9]{5,8}(?![\w-])")
_YEAR = re.compile(r"(?:19|20)\d\d")
_DIGIT_PIECES = re.compile(r"\d(?:[- .]\d){3,7}")


# Cheap necessary conditions: a literal every match of the pattern holds (lowercased text).
_FRAME_WORDS = ("pass", "pin", "code", "combo", "combination")
_GUARD_WORDS = (
    "parental", "restriction", "guard", "protection", "privacy", "override", "duress", "panic",
    "emergency", "factor", "2fa", "fallback", " lock",
)  # fmt: skip
_NETWORK_WORDS = ("wifi", "wi-fi", "wlan", "internet", "热点", "熱點")
_SET_WORDS = ("set", "chang", "switch", "program")
_PGPASS_GATE = re.compile(r":(?:\d{2,5}|\*):")


def _has(low: str, words: tuple[str, ...]) -> bool:
    return any(w in low for w in words)


def _public(text: str, start: int, end: int) -> bool:
    """A public code's modifier in the frame or the few words before it."""
    return _PUBLIC.search(text, max(0, start - 30), end) is not None


def _made(value: str, looks_like_secret: Callable[..., bool]) -> bool:
    if _DIGIT_PIECES.fullmatch(value):
        return True
    return (
        any(c.isalpha() for c in value)
        and any(c.isdigit() for c in value)
        and looks_like_secret(value, numeric_ok=False)
    )


# Asked only where their literals are (memory/detectors/literal_gated.py).
_WHAT_IT_DOES, _POINTED_BACK = literal_gated(_WHAT_IT_DOES), literal_gated(_POINTED_BACK)


def frame_spans(text: str, looks_like_secret: Callable[..., bool]) -> list[tuple[int, int]]:
    """Values given in one of the frames above (spans of ``text``)."""
    spans: list[tuple[int, int]] = []
    low = text.lower()
    if _has(low, _FRAME_WORDS):
        for rx in _FRAMES:
            for m in rx.finditer(text):
                if _public(text, m.start(), m.end()):
                    continue
                lead = (_SHOWN_LEAD if rx is _FRAMES[-1] else _LEAD).match(text, m.end())
                if lead is None:
                    continue
                value = _value_at(text, lead.end(), looks_like_secret)
                if value is None and rx is _FRAMES[-1]:
                    # a code shown now: a short run of capitals and digits will do
                    short = _SHOWN.match(text, lead.end())
                    value = short.span() if short else None
                if value:
                    spans.append(value)
    if _has(low, _GUARD_WORDS) and _GUARDING.search(text):
        for m in _GUARDING.finditer(text):
            lead = _LEAD.match(text, _POST.match(text, m.end()).end())
            value = lead and _value_at(text, lead.end(), looks_like_secret)
            if value and not _public(text, m.start(), m.end()):
                spans.append(value)
    if ("what" in low or " to " in low) and _WHAT_IT_DOES.search(text):
        for m in _WHAT_IT_DOES.finditer(text):
            value = m.group("value")
            if value.isdigit() and _YEAR.fullmatch(value):
                continue
            if _PAYING.search(text, max(0, m.start() - 20), m.start()):
                continue
            digits = value.isdigit() or _DIGIT_PIECES.fullmatch(value)
            if digits or (not m.group("opens") and _made(value, looks_like_secret)):
                spans.append(m.span("value"))
    if not text.isascii():
        spans += [m.span("value") for m in _PASSING_ZH.finditer(text)]
        spans += [m.span("value") for m in _SET_ZH.finditer(text)]
        spans += [m.span("value") for m in _LOGIN_ZH.finditer(text)]
    if " to " in low and _has(low, _SET_WORDS) and _SET_TO.search(text):
        for m in _SET_TO.finditer(text):
            if _public(text, m.start(), m.end()):
                continue
            at = m.end() + (1 if text[m.end()] in "\"'“" else 0)
            value = _value_at(text, at, looks_like_secret)
            if value:
                spans.append(value)
    if "not " in low and _CORRECTED.search(text):
        for m in _CORRECTED.finditer(text):
            value = _value_at(text, m.end(), looks_like_secret)
            lo, hi = max(0, m.start() - 60), (value or m.span())[1]
            money = _MONEY.search(text, lo, min(len(text), hi + 30))
            if value and _OPENS.search(text, lo, hi) and not _public(text, lo, hi) and not money:
                spans.append(value)
    if _has(low, _NETWORK_WORDS) and _NETWORK_IS.search(text):
        for m in _NETWORK_IS.finditer(text):
            value = _value_at(text, m.end(), looks_like_secret)
            if value and not _public(text, m.start(), m.end()):
                if not _QUANTITY.fullmatch(text, *value):  # 2.4GHz, 300Mbps: a band, a speed
                    spans.append(value)
    for m in _POINTED_BACK.finditer(text):
        lo = max(0, m.start() - 48)
        before = _BEFORE_POINTER.search(text[lo : m.start()])
        if before is None:
            continue
        value = before.group("value").strip("\"'“”")
        at = lo + before.start("value") + (1 if before.group("value")[:1] in "\"'“" else 0)
        digits = value.isdigit() and 4 <= len(value) <= 12 and not _YEAR.fullmatch(value)
        if (digits or _made(value, looks_like_secret)) and not _public(text, at, m.end()):
            spans.append((at, at + len(value)))
    if _PGPASS_GATE.search(text):
        for m in _PGPASS.finditer(text):
            if _made(m.group("value"), looks_like_secret):
                spans.append(m.span("value"))
    if " as " in low and _TAKEN_AS.search(text):
        for m in _TAKEN_AS.finditer(text):
            value = m.group("value").strip("\"'“”")
            if _made(value, looks_like_secret) and not _public(text, m.start(), m.end()):
                spans.append((m.start("value"), m.start("value") + len(value)))
    return spans


def given_value_spans(text: str, looks_like_secret: Callable[..., bool]) -> list[tuple[int, int]]:
    """``access_replies``' values and this module's, read together by ``secrets``."""
    return (
        _replies(text, looks_like_secret)
        + frame_spans(text, looks_like_secret)
        + passphrase_spans(text)
        + code_phrase_spans(text, looks_like_secret)
    )
