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
- **Chinese**: a lockable thing (its head morpheme: 锁, 门禁, 门, 柜, 箱, 盒, 报警器, 闸机,
  道闸, 遥控器), then what the value is called (any 码 but a number's, a bar code's or a QR
  code's: 用户码, 遥控码; or its length, 三位数, which lets three digits through when they
  are that many), or a 码 whose modifier is a verb of opening or arming (开箱码, 解锁码,
  撤防码), then a copula, a verb of changing or choosing (改成, 设成, 选了, 设了 …), a colon,
  a comma after a length, or nothing, then the value (three Chinese numerals too: the fold
  to digits takes runs of four);
- **Japanese and Korean**: a lock or a code noun (錠, 鍵, 金庫, 暗証番号; 자물쇠, 도어락,
  현관, 비밀번호), a particle, optionally a time phrase, then the value; on a lock (錠,
  ダイヤル, 자물쇠, 번호키, 금고) the particle may be missing and three digits are a code.
- **a thing and its value bound by grammar alone** (no code noun): ``access_points``.

The value is a code: four to eight digits (not a year; ``#`` or ``*`` may sit inside),
four or more single digits apart, three digits after a lock or combination, or digits said
in English words; a count with a unit, an amount, a time or an e-mail is none of these.
The text is the detection form with Chinese numerals folded to digits (``secrets``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from memory.detectors.access_points import _AFTER_EN, _YEAR, ACCESS_LITERALS, access_point_spans
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
_COMPOUND_HEAD = re.compile(
    r"\s+(?:managers?|apps?|polic(?:y|ies)|generators?|strength|hints?)\b"
    # a hint is a clue to the secret, not the secret (unless its answer is given)
    r"|\s*(?:提示|ヒント|힌트)(?![^，,。.;；]{0,12}(?:答案|回答|答え|정답|답))",
    re.I,
)
_COMBINATION = re.compile(r"combos?\b|combinations?\b", re.IGNORECASE)
_WORD_BEFORE = re.compile(r"([\w'’-]+)\s+$")


def names_no_secret(text: str, start: int, end: int) -> bool:
    """Whether the credential word at ``text[start:end]`` names no secret by the words
    beside it: it modifies another noun ("password manager", "password hint", 密码提示), or it is a
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
_DIGIT = re.compile(r"\d")

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

# Chinese: a lockable thing by its head morpheme, or a code whose modifier opens or arms.
_ZH = re.compile(
    r"(?:(?P<thing>锁|鎖|门禁|門禁|(?:单元|單元|楼道|樓道|[大单單家侧側后後前库庫帘簾])[门門]|[柜櫃箱盒]子?|"
    r"车库|車庫|报警器|報警器|闸机|閘機|道闸|道閘|遥控器?|遙控器?)"
    # what the value is called after the thing: a code (any 码 not of a number, a bar or a
    # QR code), its length ("三位数"; Chinese numerals are folded to digits), or the thing's
    # number (柜子的号), a code only told digit by digit (below)
    r"(?:的|[，,:：]|是)?\s*(?:(?:(?![号號条條维維])[\u4e00-\u9fff]){0,3}?(?:码|碼)|密码|密碼|号码锁|口令|"
    r"(?P<n>[1-9一二两兩三四五六七八九])位(?:数字?|數字?|密码|密碼|码|碼)?|(?P<number>号|號))?"
    r"|(?:开箱|開箱|开锁|開鎖|解锁|解鎖|撤防|布防|管理|授权|授權|激活|进楼|進樓|进院|取物)(?:码|碼|密码|密碼|口令))"
    r"(?:我|他|她|我们|我們|房东|房東)?(?:设的|設的|定的|选的|選的|用的)?"
    r"\s*(?:现在|現在|目前|以后|以後|将|將)?\s*"
    r"(?P<link>改成了?|改为|改為|换成了?|換成了?|设成了?|設成了?|设为|設為|设置[成为為了]|設置[成為了]|"
    r"选了|選了|用了|设了|設了|定了|定成|变成|變成|是|为|為|：|:|就是|[，,])?"
    # (three Chinese numerals stay unfolded: the fold takes runs of four)
    r"\s*(?P<value>(?:\d[- ]){2,7}\d|(?=(?:[#*]*\d){3,8}[#*]*)[\d#*]{3,10}|[零〇一二三四五六七八九幺]{3})"
    r"(?=\s*(?:$|[，。,.!！?？;；、）)#”\"」』']|再|就|撤|布|开|開|了|哦|啊|吧|呢|即可|就行)"
    r"|\s+(?![\d元块塊号號次年月日点點个個位米层層楼樓人岁歲分天寸斤公房室栋棟户戶间間]))"
)
_ZH_DIGITS = frozenset("零〇一二三四五六七八九幺")
_ONE_BY_ONE = re.compile(r"\d(?:[- ]\d){3,7}(?![\w-])")  # digits told one by one
_ZH_END = re.compile(r"\s*(?:$|[。.!！;；\n])")
_N = dict(zip("一二两兩三四五六七八九", "12223456789", strict=True))  # a length said in Chinese
# Japanese and Korean: a lock or a code noun, a particle, a time phrase, the value.
_JA_KO = re.compile(
    r"(?:錠|鍵|金庫|ロッカー|ボックス|暗証番号|暗証|パスコード|자물쇠|도어락|현관|사물함|금고|"
    r"비밀번호|비번|암호)(?:の)?(?:番号|暗証番号|コード|\s*번호)?"
    r"\s*(?:は|が|を|는|은|가|이)\s*(?:[^\d。、\n]{0,10}?)"
    r"(?P<value>(?:\d[- ]){2,7}\d|\d{4,8})(?!\d)"
    r"(?=\s*(?:$|[。、.,!?”\"」』]|に|へ|です|だ|で|으로|로|입니다|이에요|예요|이다))"
)
# A lock (not a numbered locker) and its value with no particle, or three digits on a lock:
# "자전거 자물쇠 228", "南京錠は 228 です".
_JA_KO_LOCK = re.compile(
    r"(?:錠|金庫|ダイヤル|자물쇠|도어락|번호키|금고)(?:の)?(?:番号|\s*번호)?\s*(?:は|が|는|은|가|이)?\s*"
    r"(?P<value>\d{3,8}#?)(?!\d)(?=\s*(?:$|[。.!?]|です|だ|입니다|이에요|예요|이다))"
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
    # Exact gate (FAST_DETECTION_TEXT; off: the reference): both phrase patterns hold the
    # head as a whole word (the thing-is reading's gate is in access_points).
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
    spans += access_point_spans(text, low, looks_like_secret, _public)
    return spans


def code_phrase_spans(text: str, looks_like_secret: Callable[..., bool]) -> list[tuple[int, int]]:
    """Codes named by a noun phrase of the code kind, or by what they are keyed into."""
    low = text.lower()
    # Every reading but a code in English words or in three Chinese numerals needs a digit
    # (runs of four or more Chinese numerals are folded to digits).
    if (
        _DIGIT.search(text) is None
        and not (
            (any(w in low for w in _LITERALS) or any(w in low for w in ACCESS_LITERALS))
            and _WORDS_EN.search(text)
        )
        and not (_CJK.search(text) and any(c in _ZH_DIGITS for c in text))
    ):
        return []
    spans = _english(text, low, looks_like_secret)
    if _CJK.search(text):
        for m in _ZH.finditer(text):
            value = m.group("value")
            digits = sum(c.isdigit() or c in _ZH_DIGITS for c in value)
            if _YEAR.fullmatch(value) or (m.group("number") and not _ONE_BY_ONE.fullmatch(value)):
                continue
                continue
            # three digits only on a lock with a link ("行李箱密码锁是 308"), or as many as
            # the length said ("储物柜三位数：518")
            said = m.group("n") and _N.get(m.group("n"), m.group("n")) == str(digits)
            if ("，" in m.group(0) or "," in m.group(0)) and not said:
                continue  # a comma binds a value only after its length ("锁，三位数，308")
            # a lock with a link, or with the value ending the sentence ("自行车锁 428")
            ends = _ZH_END.match(text, m.end("value")) is not None
            lock = m.group("thing") and "锁" in m.group(0) and (m.group("link") or ends)
            if digits < 4 and not (lock or said):
                continue
            spans.append(m.span("value"))
        for rx in (_JA_KO, _JA_KO_LOCK):
            for m in rx.finditer(text):
                if not _YEAR.fullmatch(m.group("value")):
                    spans.append(m.span("value"))
    return spans
