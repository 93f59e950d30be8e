"""Codes named by a noun phrase no list holds (round 15 of issue 32).

``secrets._CODE_CONTEXT`` and ``cred_frames`` know a code by the device beside it (a closed
class: gate, alarm, safe …). People keep codes for things nobody listed — a SIM's
unblocking key, a boat's ignition, a valet key, a photocopier, a bins enclosure — and say
which by the phrase that names the value. This module reads that phrase by its parts:

- **a code-kind head with a modifier that is not a public identifier**: "the valet key
  code for the Audi: 31077", "our boat's ignition code is 90314", "bike lock combo 9063".
  The head is a noun of the code kind (code, PIN, passcode, combination, PUK, an
  unblocking or unlocking key); the modifier is any content word (before the head, or a
  *for/to/on/of/at* phrase after it) — except the closed class of modifiers that make a
  public identifier (order, tracking, postal, area, flight, booking, promo, dress, QR …:
  ``PUBLIC_MODIFIER``, which ``cred_frames`` reads too, and a few more). The class that stays a list is the public one:
  it is closed (identifiers printed on a parcel, a ticket, a product), while the things one
  can lock are open. A bare "the code is 4471" is not read here (nothing says what for);
- **the link may be a change in time**: "becomes", "will be", "changes/switches to",
  "is now" — a secret said for later is still a secret (refused, never merely dated);
- **the value's role**: "you type 55082 on the intercom", "punch 7714 into the keypad":
  a verb of keying, the value, and a place one keys it into (a keypad, panel, lock, door,
  gate, box …) or a purpose of getting in;
- **Chinese**: a lockable thing (its head morpheme: 锁, 门禁, 门, 柜, 箱, 盒, 报警器, 闸机)
  or a 码 whose modifier is a verb of opening or arming (开箱码, 解锁码, 撤防码), then a
  copula or a verb of changing (改成, 换成, 设成, 改为 …) or nothing, then the value;
- **Japanese and Korean**: a lock or a code noun (錠, 鍵, 金庫, 暗証番号; 자물쇠, 도어락,
  현관, 비밀번호), a particle, optionally a time phrase, then the value.

The value is a code: four to eight digits (not a year; ``#`` or ``*`` may sit inside),
four or more single digits apart, three digits after a lock or combination, or digits said
in English words; a count with a unit, an amount, a time or an e-mail is none of these.
The text is the detection form with Chinese numerals folded to digits (``secrets``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from memory.detectors.access_replies import _value_at
from memory.detectors.switches import detection_switch

# Codes that are nobody's secret, by the word before the noun.
PUBLIC_MODIFIER = re.compile(
    r"\b(?:zip|postal|post|area|country|dress|source|promo|promotional|discount|coupon|voucher|"
    r"referral|invite|tracking|product|booking|reference|order|confirmation|error|status|"
    r"course|class|tax|sort|swift|routing|airport|flight|qr|bar|colou?r|morse|genetic|cheat|"
    r"dialing|dialling|emoji|machine|fault|stock|share|item|style|model|station|sale|"
    r"game|meeting|event|shipping)\b",
    re.IGNORECASE,
)
# Public identifiers cred_frames' class leaves out (an invoice, a ticket, a part, a
# bookkeeping code: payroll, budget, a leave type …).
_PUBLIC_MORE = re.compile(
    r"\b(?:invoice|ticket|serial|part|sku|batch|lot|customer|student|employee|member|patient|"
    r"case|claim|parcel|package|winning|lottery|lotto|bus|route|seat|"
    r"hs|icd|obd|billing|account\s+number|response|exit|return|leave|payroll|expense|budget|"
    r"cost|department|project|accounting|salary|benefits?)\b",
    re.IGNORECASE,
)
# A credential noun as the modifier of another noun names that thing, not a value
# ("password manager … is 1Password").
_COMPOUND_HEAD = re.compile(r"\s+(?:managers?|apps?|polic(?:y|ies)|generators?|strength)\b", re.I)
_COMBINATION = re.compile(r"combos?\b|combinations?\b", re.IGNORECASE)
_WORD_BEFORE = re.compile(r"([\w'’-]+)\s+$")


def names_no_secret(text: str, start: int, end: int) -> bool:
    """Whether the credential word at ``text[start:end]`` names no secret by the words
    beside it: it modifies another noun ("password manager", "password policy"), or it is a
    combination under a public modifier, the closed class that makes a code an identifier
    (``PUBLIC_MODIFIER``, ``_PUBLIC_MORE``): "the winning combination", "a colour
    combination" are a draw's numbers and a pair of colours, not what opens a lock."""
    if _COMPOUND_HEAD.match(text, end):
        return True
    if not _COMBINATION.match(text, start):
        return False
    before = _WORD_BEFORE.search(text, max(0, start - 32), start)
    return before is not None and any(
        rx.fullmatch(before.group(1)) for rx in (PUBLIC_MODIFIER, _PUBLIC_MORE)
    )


_HEAD = (
    r"(?:codes?|pins?|passcodes?|combinations?|combos?|puk2?|"
    r"(?:unblock(?:ing)?|unlock(?:ing)?|pairing|valet|access|entry|disarm(?:ing)?)\s+keys?)"
)
# Words before the head that name nothing (articles, pronouns, adjectives of time).
_EMPTY = frozenset(
    """the a an my our your his her their its this that these those new old current same
    right wrong correct usual real actual whole last first next other own default
    and or but so to of for on at in with is was""".split()
)
_LINK = (
    r"\s*(?:[:=]|—|–|--|\s-\s)\s*|\s+(?:(?:is|was|'s|are|will\s+be|becomes?|became|"
    r"(?:is\s+)?(?:chang|switch)(?:es|ed|ing)\s+to|goes\s+to|(?:is\s+)?going\s+to\s+be|"
    r"gets?\s+changed\s+to|(?:is\s+)?now|reads?)\s+)(?:(?:now|still|just|actually|simply)\s+)?"
    r"[\"'“]?|\s+(?=\d)"
)
_PHRASE = re.compile(
    r"(?P<mod>(?:[\w'’-]+\s+){1,4}?)(?P<head>" + _HEAD + r")\b"
    r"(?P<post>\s+(?:for|to|on|of|at|in)\s+(?:[\w'’-]+\s+){0,3}?[\w'’-]+?)?"
    r"(?P<link>" + _LINK + r")",
    re.IGNORECASE,
)
_HEAD_ONLY = re.compile(
    r"(?<![\w'’-])(?P<head>" + _HEAD + r")\b(?P<post>\s+(?:for|to|on|of|at|in)\s+"
    r"(?:[\w'’-]+\s+){0,3}?[\w'’-]+?)(?P<link>" + _LINK + r")",
    re.IGNORECASE,
)
_HEAD_WORD = re.compile(r"(?<![\w'’-])" + _HEAD + r"\b", re.IGNORECASE)
_LOCKISH = re.compile(r"lock|combination|combo|safe|padlock|locker", re.IGNORECASE)
_CODE = re.compile(r"(?=(?:[#*]*\d){4,8}[#*]*(?![\w#*]))[\d#*]{4,10}")
_THREE = re.compile(r"\d{3}(?![\w.,:/%-])|\d(?:-\d){2}(?![\w.-])")
_WORDS_EN = re.compile(
    r"(?:(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)[\s,-]+){2,}"
    r"(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)\b",
    re.IGNORECASE,
)
_YEAR = re.compile(r"(?:19|20)\d\d")
_DIGIT = re.compile(r"\d")
_AFTER_EN = re.compile(
    r"\s*(?:$|[.,;!?)\n—–”\"'，。]|\s(?:and|but|then|for|from|if|so|now)\b)", re.I
)

# The value's role: what one keys into something that opens.
_KEYING = re.compile(
    r"\b(?:punch(?:es|ed|ing)?|type[sd]?|typing|key(?:s|ed|ing)?|enter(?:s|ed|ing)?|"
    r"dial(?:s|ed|led|ing)?|tap(?:s|ped|ping)?|press(?:es|ed|ing)?)\s+(?:in\s+)?"
    r"(?P<value>(?:[#*]*\d){4,8}[#*]*|\d(?:[- ]\d){3,7})\s+(?:in\s+|it\s+)?(?:on|into|at|in|to)\s+"
    r"(?:the|my|our|his|her|their|[A-Z]?[a-z]+'s)\s+(?P<place>(?:[\w-]+\s+){0,3}[\w-]+)",
    re.IGNORECASE,
)
_PLACE = re.compile(
    r"(?:key)?pad|panel|intercom|buzzer|lock\w*|padlock|door|gate|safe|locker|box|terminal|"
    r"reader|entry\w*|entrance|barrier|console|garage|shed|alarm",
    re.IGNORECASE,
)
_GETTING_IN = re.compile(
    r"\bto\s+(?:get\s+(?:in|buzzed|let)|open|unlock|disarm|arm|get\s+into)\b", re.IGNORECASE
)

# A thing, then its code with no code noun: "the attic safe is 2-2-9-1", "gate's 4471 now",
# "for the bins enclosure you need 1-1-9-4". Digits in single pieces are a code whatever
# the thing (no count, date or amount is said so); a plain number needs a place one keys.
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
_PIECES = re.compile(r"\d(?:[- ]\d){3,7}(?![\w-])")
_DIGITS = re.compile(r"(?:[#*]*\d){4,8}[#*]*(?![\w.,:/%-])")

# Chinese: a lockable thing by its head morpheme, or a code whose modifier opens or arms.
_ZH = re.compile(
    r"(?:(?P<thing>锁|鎖|门禁|門禁|[大单單家侧側后後前库庫帘簾]门|[大单單家侧側后後前库庫帘簾]門|柜|櫃|箱|盒|报警器|報警器|闸机|閘機)"
    r"(?:的)?(?:密码|密碼|号码锁|码|碼|口令)?"
    r"|(?:开箱|開箱|开锁|開鎖|解锁|解鎖|撤防|布防|管理|授权|授權|激活|进楼|進樓|进院|取物)(?:码|碼|密码|密碼|口令))"
    r"(?:我|他|她|我们|我們|房东|房東)?(?:设的|設的|定的)?"
    r"\s*(?:现在|現在|目前|以后|以後|将|將)?\s*"
    r"(?P<link>改成了?|改为|改為|换成了?|換成了?|设成了?|設成了?|设为|設為|变成|變成|是|为|為|：|:|就是)?"
    r"\s*(?P<value>(?:\d[- ]){3,7}\d|(?=(?:[#*]*\d){3,8}[#*]*)[\d#*]{3,10})"
    r"(?=\s*(?:$|[，。,.!！?？;；、）)#”\"」』']|再|就|撤|布|开|開|了|哦|啊|吧|呢|即可|就行)"
    r"|\s+(?![\d元块塊号號次年月日点點个個位米层層楼樓人岁歲分天寸斤公]))"
)
# Japanese and Korean: a lock or a code noun, a particle, a time phrase, the value.
_JA_KO = re.compile(
    r"(?:錠|鍵|金庫|ロッカー|ボックス|暗証番号|暗証|パスコード|자물쇠|도어락|현관|사물함|금고|"
    r"비밀번호|비번|암호)(?:の)?(?:番号|暗証番号|コード|\s*번호)?"
    r"\s*(?:は|が|を|는|은|가|이)\s*(?:[^\d。、\n]{0,10}?)"
    r"(?P<value>(?:\d[- ]){2,7}\d|\d{4,8})(?!\d)"
    r"(?=\s*(?:$|[。、.,!?”\"」』]|に|へ|です|だ|で|으로|로|입니다|이에요|예요|이다))"
)
_CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]")
_LITERALS = ("code", "pin", "combin", "combo", "puk", "key", "passcode")
_KEY_VERBS = ("punch", "type", "key", "enter", "dial", "tap", "press")


def _content(mod: str) -> bool:
    """A word of the modifier names a thing (not an article, a pronoun or an adjective of time)."""
    return any(w.lower().strip("'’") not in _EMPTY for w in mod.split())


def _public(text: str) -> bool:
    return PUBLIC_MODIFIER.search(text) is not None or _PUBLIC_MORE.search(text) is not None


def _value(text: str, at: int, lockish: bool, looks_like_secret: Callable[..., bool]):
    """The span of a code at ``at``, or None."""
    found = _value_at(text, at, looks_like_secret)
    if found:
        return found
    m = _CODE.match(text, at)
    if m and _AFTER_EN.match(text, m.end()) and not _YEAR.fullmatch(m.group()):
        return m.span()
    m = _WORDS_EN.match(text, at)
    if m and (lockish or len(re.findall(r"[A-Za-z]+", m.group())) >= 4):
        return m.span()
    m = _THREE.match(text, at) if lockish else None
    if m and _AFTER_EN.match(text, m.end()):
        return m.span()
    return None


def _english(text: str, low: str, looks_like_secret: Callable[..., bool]) -> list[tuple[int, int]]:
    spans = []
    # Exact gates (FAST_DETECTION_TEXT; off: the reference): both phrase patterns hold the
    # head as a whole word, and the thing-is reading takes its value from _PIECES or
    # _DIGITS matched where the phrase ends, which a search of the text would find too.
    fast = detection_switch("FAST_DETECTION_TEXT")
    if any(w in low for w in _LITERALS) and (not fast or _HEAD_WORD.search(text)):
        for rx in (_PHRASE, _HEAD_ONLY):
            for m in rx.finditer(text):
                mod = m.groupdict().get("mod") or ""
                post = m.group("post") or ""
                if not (_content(mod) or post.strip()):
                    continue
                if "\n" in m.group(0) or _public(m.group(0)[: m.start("link") - m.start()]):
                    continue
                if rx is _PHRASE and re.search(r"[.!?;]\s", mod):
                    continue
                lockish = _LOCKISH.search(m.group(0)) is not None
                value = _value(text, m.end(), lockish, looks_like_secret)
                if value:
                    spans.append(value)
    if any(w in low for w in _KEY_VERBS):
        for m in _KEYING.finditer(text):
            value = m.group("value")
            if value.isdigit() and _YEAR.fullmatch(value):
                continue
            place = m.group("place")
            if _public(place):
                continue
            if _PLACE.search(place) or _GETTING_IN.search(text, m.end()):
                spans.append(m.span("value"))
    if (
        "'s" in low
        or "’s" in low
        or " is " in low
        or " was " in low
        or "for " in low
        or " opens " in low
    ) and (not fast or _PIECES.search(text) or _DIGITS.search(text)):
        for m in _THING_IS.finditer(text):
            noun = m.group("noun") or m.group("noun2")
            if _public(m.group(0)) or _NUMBER_NOUN.fullmatch(noun):
                continue
            p = _PIECES.match(text, m.end())
            if p and _AFTER_EN.match(text, p.end()):
                spans.append(p.span())
                continue
            d = _DIGITS.match(text, m.end())
            if d and _PLACE.fullmatch(noun) and _AFTER_EN.match(text, d.end()):
                if not _YEAR.fullmatch(d.group()):
                    spans.append(d.span())
    return spans


def code_phrase_spans(text: str, looks_like_secret: Callable[..., bool]) -> list[tuple[int, int]]:
    """Codes named by a noun phrase of the code kind, or by what they are keyed into."""
    low = text.lower()
    # Every reading but a code in English words needs a digit (Chinese numerals are folded).
    if _DIGIT.search(text) is None and not (
        any(w in low for w in _LITERALS) and _WORDS_EN.search(text)
    ):
        return []
    spans = _english(text, low, looks_like_secret)
    if _CJK.search(text):
        for m in _ZH.finditer(text):
            value = m.group("value")
            digits = sum(c.isdigit() for c in value)
            if _YEAR.fullmatch(value):
                continue
            # three digits only on a lock with a link ("行李箱密码锁是 308")
            if digits < 4 and not (m.group("thing") and "锁" in m.group(0) and m.group("link")):
                continue
            spans.append(m.span("value"))
        for m in _JA_KO.finditer(text):
            if not _YEAR.fullmatch(m.group("value")):
                spans.append(m.span("value"))
    return spans
