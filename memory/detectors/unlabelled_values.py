"""Secrets told without their label (round 9 of issue 32).

Earlier rounds read a value beside a credential word, a lock, a use or a key/value pair
(``value_readings``). Here the value stands with what usually comes *instead* of a label:

- **a value of password shape given as "it"**: the complement of a pronoun or a
  demonstrative ("it's wq7Zu!mar3", "mine is …", 那个是 …, いつものやつは …, 정한 건 …), of
  a verb of choosing ("I went with …", "settled on …"), of a colon closing a clause about
  "it" or "here" ("writing it here so I stop resetting it: …"), or of 用的 after a verb of
  logging in (登/登录 …). The token must look made, not named: a lower-case letter and
  three character classes, with a symbol of the kind passwords use (``!#$%&*_+=?@~^``) or
  a digit between letters; versions, product names (``iPhone15``), paths, URLs and
  e-mail addresses are not. A sentence that names an identifier (user name, handle, tag,
  ID, 账号, 用户名, 微信号, ユーザー名, 아이디) gives an identifier, not a secret;
- **a credential noun cut short**: "pass" before a made value ("pass" alone is also a
  ticket), 密 standing alone (not inside 秘密, 密切 …) before a value of secret shape;
- **a bank, a card or a payment app named, then a bare PIN**: an institution or card word (bank, building
  society, credit union, savings, debit, card; 银行, 建行/工行 …, 信用卡; 銀行, カード; 은행,
  카드; the payment apps whose PIN is six digits, 支付宝, 微信 …) set off from four or six
  digits by a colon, dash or comma, with nothing between
  that names an identifier (ending, last four, number, account, 尾号, 卡号, 电话, 客服 …)
  and no unit after (元, 年, 号, 楼 …);
- **a dial told as turns**: three or more numbers of at most two digits (or their words,
  English or Chinese), two or more of them after a direction (left, right, clockwise,
  back to, 左转, 往右 …) in at least two directions, with no unit and no ordinal (a route
  says "left at 32nd", a dial "left 32");
- **a combination in number words** in a text naming a lock or a code ("the combination
  is seventy-two, fourteen, nine");
- **a value given by arithmetic on a personal fact** (described_secrets' closed class of
  facts: a birth year, a house number …) with an operation and its operand ("the year my
  son was born plus 11", 纪念日乘以二), said of one's own, in a text naming a credential,
  a lock or a code, not as advice;
- **a session cookie**: a session key (``sessionid``, ``connect.sid``, ``PHPSESSID``,
  ``…_session``) with a value of sixteen or more characters holding letters and digits;
- **a pattern lock by its grid**: a device's or screen's pattern with a letter shape or a
  grid position (top left, the middle, 左上 …).

Two precision checks are read here too: a **word list whose label names a list** (a
shopping list, ingredients, 购物清单 …) is no recovery phrase (``formats``), and a base64
token that is a **public key or certificate** (inside public PEM armour, an OpenSSH public
key blob, or DER whose body is a certificate's or a public key's) is no high-entropy secret.

Every rule is gated by the literal prefilter (``memory.detectors.prefilter``) or a
character test, so ordinary text costs a set look-up per rule.
"""

from __future__ import annotations

import base64
import binascii
import re

from memory.detectors.prefilter import search_any

_SENTENCE = re.compile(r"[^.!?。！？\n]+(?:[.!?](?!\s|$)[^.!?。！？\n]*)*")
_PASSWORD_SYMBOLS = frozenset("!#$%&*_+=?@~^")
_TRIM = "\"'`()[]{}<>,;:.!?“”「」，。！？"

# Nouns of an identifier: a sentence naming one gives a name, not a secret.
_IDENTIFIER = re.compile(
    r"\b(?:user\s?names?|usernames?|handles?|(?:gamer)?tags?|ids?|logins?\s+names?|nick(?:name)?s?|"
    r"screen\s?names?|accounts?\s+names?|ssid|network\s+names?|models?|serials?)\b"
    r"|账号|帳號|账户|帳戶|用户名|用戶名|昵称|暱稱|微信号|微信號|型号|型號|ユーザー名|アカウント名|아이디|닉네임",
    re.IGNORECASE,
)
_CREDENTIAL = re.compile(
    r"\b(?:pass(?:word|code|phrase)?s?|pins?|secret|login)\b|密码|密碼|口令|パスワード|暗証|비밀번호|비번|암호",
    re.IGNORECASE,
)


def made_token(token: str) -> bool:
    """A token that looks made rather than named: six or more characters, a lower-case
    letter, three character classes (four under eight characters), and a password symbol or a digit between letters that
    do not make a product's name."""
    core = token.strip(_TRIM)
    if len(core) < 6 or "://" in core or "/" in core or re.fullmatch(r"[^@\s]+@[\w-]+\.\w+", core):
        return False
    lower = any(c.islower() for c in core)
    upper = any(c.isupper() for c in core)
    digit = any(c.isdigit() for c in core)
    symbol = any(not c.isalnum() for c in core)
    # Under eight characters, every class (x7Rq!p2; not x86_64, e=mc2).
    if not lower or lower + upper + digit + symbol < (3 if len(core) >= 8 else 4):
        return False
    if any(c in _PASSWORD_SYMBOLS for c in core) or re.search(r"[a-z]\d+[a-z]", core):
        return True
    # Two words joined by a digit and a hyphen or dot (Quill8-Mango, tern.Gale4).
    if upper and re.search(r"[A-Za-z]{3,}\d+[-.][A-Za-z]|[A-Za-z]{3,}[-.][A-Za-z]{3,}\d", core):
        return True
    # A digit between a word and a capital is a product's name (iPhone15Pro) unless a part
    # of it is no word: two or more letters without a vowel (pengyu7Lk).
    return bool(re.search(r"[A-Za-z]\d+[A-Za-z]", core)) and any(
        len(part) >= 2 and not set(part.lower()) & set("aeiouy")
        for part in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", core)
    )


# --- a value given as "it" -----------------------------------------------------------------
_TOKEN = r"[\"'“「]?(?P<value>[!-~]{6,64})"
_AS_IT = [
    re.compile(
        r"(?:\b(?:it|that|this|mine|ours|(?:[\w-]+\s+)?one)(?:'s|’s|\s+is|\s+was)\s+(?:just\s+|still\s+|now\s+)?"
        r"|\b(?:i|we)\s+(?:always\s+|just\s+|still\s+|now\s+)?(?:use|used)\s+"
        r"|\bhere(?:\s+it\s+is|'s\s+it|\s+you\s+go)?\s*[:：]\s*"
        r"|\b(?:went|go|going|settled|decided)\s+(?:with|on)\s+|\b(?:picked|chose)\s+"
        r"|(?:那个|那個|这个|這個|那串|这串|這串)\s*(?:是|[:：])\s*|(?:就是|就这个|就這個)\s*[:：]?\s*"
        r"|(?:登|登录|登錄|登入|解锁|解鎖)[^。！？\n]{0,8}?用的(?:是)?\s*"
        r"|(?:やつ|もの|の)(?:は|って|、|,)\s*|(?:건|거는|것은|거|것)\s+)" + _TOKEN,
        re.IGNORECASE,
    )
]
# A colon or a dash that closes a clause about "it" or "here": the value follows.
_COLON = [
    re.compile(
        r"\b(?:it|here)\b[^:：.!?\n—–]{0,60}(?:[:：]|\s[—–-]|—|–)\s*" + _TOKEN, re.IGNORECASE
    )
]


# Or the value opens the message, set off by a dash or a comma ("x7Rq!p2 — don't laugh").
_OPENING = re.compile(r"\s*(?P<value>[!-~]{6,64}?)[,]?\s*[—–,-]\s")


# Tokens holding a digit or a password symbol: a made value is one of them.
_CANDIDATE = re.compile(r"(?<![!-~])[!-~]*[\d!#$%&*_+=?@~^][!-~]*")


def as_it_spans(text: str) -> list[tuple[int, int]]:
    if not any(made_token(t) for t in _CANDIDATE.findall(text)):
        return []
    opening = _OPENING.match(text)
    # A handle opens a message too (Vorn_Lark88, …): a symbol of passwords only, not "_".
    found = (
        [opening]
        if opening
        and made_token(opening.group("value"))
        and set(opening.group("value")) & (_PASSWORD_SYMBOLS - {"_"})
        else []
    )
    for rx in (_AS_IT, _COLON):
        if search_any(rx, text):
            found += [m for m in rx[0].finditer(text) if made_token(m.group("value"))]
    spans = []
    for m in found:
        lo, hi = _sentence_around(text, m.start())
        sentence = text[lo:hi]
        if _IDENTIFIER.search(sentence) and not _CREDENTIAL.search(sentence):
            continue
        value = m.group("value")
        core = value.rstrip(_TRIM)
        spans.append((m.start("value"), m.start("value") + max(len(core), 1)))
    return spans


def _sentence_around(text: str, at: int) -> tuple[int, int]:
    for m in _SENTENCE.finditer(text):
        if m.start() <= at < m.end():
            return m.span()
    return 0, len(text)


# --- a credential noun cut short: "pass", 密 --------------------------------------------------
# "pass" alone is a ticket too (a bus or boarding pass), so only a made value follows it;
# 密 alone (not in 秘密, 密切 …: no Chinese character before it) before a value of secret shape.
_SHORT_NOUN = [
    re.compile(
        r"(?<!\w)(?P<ticket>(?:bus|boarding|season|day|ski|hall|travel|train|rail|gym|museum|"
        r"festival|backstage|press|guest|visitor|parking|weekly|monthly|annual)\s+)?"
        r"\bpass\b(?:\s+(?:for|to|on)\s+(?:the\s+|my\s+|our\s+)?[\w'-]+){0,2}\s*(?:is|was|[:=：])\s*"
        + _TOKEN
        + r"|(?<![\u3400-\u9fff])密\s*[:：]?\s*"
        r"(?P<zh>[A-Za-z0-9][!-~]{3,40})",
        re.IGNORECASE,
    )
]


def short_noun_spans(text: str) -> list[tuple[int, int]]:
    if not search_any(_SHORT_NOUN, text):
        return []
    spans = []
    for m in _SHORT_NOUN[0].finditer(text):
        group = "zh" if m.group("zh") else "value"
        value = m.group(group).rstrip(_TRIM)
        if m.group("ticket"):
            continue
        digits, letters = any(c.isdigit() for c in value), any(c.isalpha() for c in value)
        if (
            made_token(value)
            or (digits and letters)
            or (group == "zh" and len(value) >= 4 and digits)
        ):
            spans.append((m.start(group), m.start(group) + len(value)))
    return spans


# --- a bank or card named, then a bare PIN -------------------------------------------------
_DIGIT = re.compile(r"\d")
_INSTITUTION_PIN = [
    re.compile(
        r"\b(?:bank|building\s+society|credit\s+union|savings|mutual|federal|debit(?:\s+card)?|"
        r"(?:credit|cash|atm|bank)\s+card|card)\s*(?:[:：—–]|\s-|,|(?<=debit|.card)\s)\s*(?P<en>\d{4}|\d{6})"
        r"(?!\d|[.,:/-]\d|\s*(?:%|am\b|pm\b|st\b|nd\b|rd\b|th\b))",
        re.IGNORECASE,
    ),
    re.compile(
        r"(?:(?<![\u3400-\u9fff])[工建农農中交招浦兴興光民华華平广廣邮郵]行|银行|銀行|信用社|储蓄卡|儲蓄卡|"
        r"借记卡|借記卡|信用卡|银行卡|銀行卡|工资卡|工資卡|キャッシュカード|ゆうちょ|은행|체크카드|신용카드"
        # the payment apps whose PIN is six digits (a QQ number is an identifier: not here)
        r"|(?P<app>支付宝|支付寶|微信支付|微信|云闪付|雲閃付|京东|京東|美团|美團|拼多多|淘宝|淘寶))"
        r"(?P<gap>(?:[^\d。！？.!?\n]|\d\s*(?:대?자리|けた|桁|位数?|位數?)){0,14}?)"
        r"(?P<cjk>\d{6}|\d{4})(?!\d|\s*(?:元|块|塊|万|萬|年|月|日|号|號|楼|樓|层|層|室|分|米|个|個|次|笔|筆|%|円|원))"
    ),
]
_NAMES_IDENTIFIER = re.compile(
    r"ending|last\s+(?:four|4|digits)|number|no\.|account|acct|sort\s+code|routing|branch|"
    r"尾号|尾號|末尾|卡号|卡號|账号|帳號|账户|帳戶|号码|號碼|电话|電話|客服|热线|熱線|排号|排號|网点|網點|"
    r"营业|營業|口座|電話|下\s*\d\s*桁|끝\s*자리|뒷\s*자리|계좌|전화|번호",
    re.IGNORECASE,
)


def institution_pin_spans(text: str) -> list[tuple[int, int]]:
    if not _DIGIT.search(text) or not search_any(_INSTITUTION_PIN, text):
        return []
    spans = []
    for rx in _INSTITUTION_PIN:
        for m in rx.finditer(text):
            group = "en" if m.lastgroup == "en" else "cjk"
            between = text[m.start() : m.start(group)]
            if group == "cjk" and m.group("app") and len(m.group(group)) != 6:
                continue
            if _NAMES_IDENTIFIER.search(between):
                continue
            # Set off by a space alone ("debit 7719"), the number must close its clause.
            if group == "en" and between[-1:].isspace() and between.rstrip()[-1:] not in ":：—–-,":
                if not re.match(r"\s*(?:[,.;!?—–]|$)", text[m.end(group) :]):
                    continue
            spans.append(m.span(group))
    return spans


# --- a dial told as turns, a combination in number words ------------------------------------
_UNITS = {
    "zero": 0, "oh": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
    "eighteen": 18, "nineteen": 19,
}  # fmt: skip
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
         "eighty": 80, "ninety": 90}  # fmt: skip
_EN_NUMBER = (
    rf"(?:(?:{'|'.join(_TENS)})(?:[\s-](?:{'|'.join(k for k in _UNITS if _UNITS[k] and k != 'oh')}))?"
    rf"|{'|'.join(sorted(_UNITS, key=len, reverse=True))})"
)
_ZH_NUMBER = r"[一二三四五六七八九十两兩零]{1,3}"
_NUMBER = rf"(?P<n>\d{{1,2}}(?!\d|[.,:]\d|st\b|nd\b|rd\b|th\b)|\b{_EN_NUMBER}\b|{_ZH_NUMBER})"
_DIRECTION = (
    r"(?P<d>\b(?:left|right|counter-?clockwise|anti-?clockwise|clockwise|back|forward)\b"
    r"|往左|往右|向左|向右|左转|右转|左轉|右轉|左拧|右拧|左|右)"
)
_TURN = [
    re.compile(
        rf"(?:{_DIRECTION}\s*(?:to\s+|拧到|擰到|拨到|撥到|转到|轉到|到)?|(?:\bstop\s+(?:at|on)\s+|\bto\s+|(?:最后|最後|再)?到))"
        rf"\s*{_NUMBER}(?!\s*(?:%|metres?|meters?|m\b|km|miles?|feet|ft|steps?|blocks?|times|"
        r"degrees?|米|公里|步|次|度|个|個|号|號|楼|樓|路))",
        re.IGNORECASE,
    )
]
_CHAIN_GAP = re.compile(
    r"[\s,，、;；—–-]*(?:(?:and|then|and\s+then)\b|然后|然後|再|最后|最後)?[\s,，、;；—–-]*",
    re.IGNORECASE,
)
_SENSE = {"左": "l", "右": "r", "anti": "l", "counter": "l", "clockwise": "r", "back": "b",
          "forward": "f", "left": "l", "right": "r"}  # fmt: skip


def _value(word: str) -> int | None:
    word = word.lower().replace("-", " ")
    if word.isdigit():
        return int(word)
    parts = word.split()
    if parts and all(p in _TENS or p in _UNITS for p in parts):
        return sum(_TENS.get(p, 0) + _UNITS.get(p, 0) for p in parts)
    digits = {"零": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5, "六": 6,
              "七": 7, "八": 8, "九": 9}  # fmt: skip
    if "十" in word:
        tens, _, units = word.partition("十")
        return digits.get(tens, 1 if not tens else -100) * 10 + digits.get(
            units, 0 if not units else -100
        )
    return digits.get(word) if len(word) == 1 else None


def _sense(direction: str) -> str:
    d = direction.lower()
    for key, sense in _SENSE.items():
        if key in d:
            return sense
    return d


_DIRECTION_GATE = [re.compile(_DIRECTION, re.IGNORECASE)]


def dial_turn_spans(text: str) -> list[tuple[int, int]]:
    if not search_any(_DIRECTION_GATE, text) or not search_any(_TURN, text):
        return []
    spans = []
    chain: list[re.Match[str]] = []
    for m in [*_TURN[0].finditer(text), None]:
        if m is not None and (not chain or _CHAIN_GAP.fullmatch(text, chain[-1].end(), m.start())):
            chain.append(m)
            continue
        turns = [c for c in chain if c.group("d")]
        values = [_value(c.group("n")) for c in chain]
        if (
            len(chain) >= 3
            and len(turns) >= 2
            and len({_sense(c.group("d")) for c in turns}) >= 2
            and all(v is not None and 0 <= v <= 99 for v in values)
        ):
            spans.append((chain[0].start(), chain[-1].end()))
        chain = [m] if m is not None else []
    return spans


# Three or four numbers in words ("seventy-two, fourteen, nine", 三十二、十七、五) in a
# text that names a lock or a code, before or after them.
_WORDS_RUN = [
    re.compile(
        rf"\b(?P<en>{_EN_NUMBER}(?:\s*(?:,|-|\bthen\b|\band\b)\s*{_EN_NUMBER}){{2,3}})\b"
        rf"|(?P<zh>{_ZH_NUMBER}(?:\s*[,，、]\s*{_ZH_NUMBER}){{2,3}})(?![一二三四五六七八九十两兩零])",
        re.IGNORECASE,
    )
]
_LOCK_OR_CODE = re.compile(
    r"\b(?:combination|combo|code|lock|padlock|safe|locker|dial|pin|passcode|password|alarm|"
    r"keypad|door|gate|garage)s?\b|锁|鎖|保险|保險|柜|櫃|密码|密碼|組合|组合|报警|報警|门禁|門禁|"
    r"金庫|자물쇠|금고|비밀번호",
    re.IGNORECASE,
)
_LOCK_GATE = [_LOCK_OR_CODE]


def number_word_code_spans(text: str) -> list[tuple[int, int]]:
    if not search_any(_LOCK_GATE, text) or not search_any(_WORDS_RUN, text):
        return []
    spans = []
    for m in _WORDS_RUN[0].finditer(text):
        numbers = re.split(r"\s*(?:,|，|、|-(?=\s)|\s-\s|\bthen\b|\band\b)\s*", m.group())
        if m.group("en"):
            numbers = [n for n in re.findall(rf"{_EN_NUMBER}", m.group(), re.IGNORECASE)]
        values = [_value(n) for n in numbers if n]
        if not all(v is not None and 0 <= v <= 99 for v in values):
            continue
        spans.append(m.span())
    return spans


# --- a value given by arithmetic on a personal fact ------------------------------------------
# "the year my son was born plus 11", 结婚纪念日乘以二: a fact a person builds codes from
# (described_secrets' closed class) and an arithmetic operation with its operand, in a text
# that names a credential, a lock or a code, said of one's own (my/our/我).
_ARITHMETIC = [
    re.compile(
        r"\b(?:plus|minus|times|multiplied\s+by|divided\s+by|added\s+to|take\s+away)\s+"
        r"(?:\d+|[a-z]+)\b|(?:加上?|减去?|減去?|乘以?|除以)\s*(?:\d+|[一二三四五六七八九十两兩百]+)",
        re.IGNORECASE,
    )
]
_OWN = re.compile(r"\b(?:my|our|i|we)\b|我", re.IGNORECASE)


def arithmetic_spans(text: str) -> list[tuple[int, int]]:
    if not search_any(_LOCK_GATE, text) or not search_any(_ARITHMETIC, text):
        return []
    from memory.detectors.described_secrets import _FACT, _NOT_DISCLOSED

    spans = []
    for m in _ARITHMETIC[0].finditer(text):
        lo, hi = _sentence_around(text, m.start())
        fact = _FACT.search(text, lo, m.start())
        if fact and _OWN.search(text, lo, hi) and not _NOT_DISCLOSED.search(text, lo, hi):
            spans.append((fact.start(), m.end()))
    return spans


# --- a session cookie, a pattern lock by its grid -------------------------------------------
_SESSION = [
    re.compile(
        r"(?<![\w.-])(?:(?:php|j|asp\.net_)?sess(?:ion)?(?:[_-]?id)?|connect\.sid|[\w-]{1,24}_session|"
        r"remember_token|auth[_-]?cookie)\s*[=:]\s*(?P<value>[A-Za-z0-9%:._+/-]{16,200})",
        re.IGNORECASE,
    )
]


def session_cookie_spans(text: str) -> list[tuple[int, int]]:
    if "=" not in text and ":" not in text or not search_any(_SESSION, text):
        return []
    return [
        m.span("value")
        for m in _SESSION[0].finditer(text)
        if re.search(r"[A-Za-z]", m.group("value")) and _DIGIT.search(m.group("value"))
    ]


_PATTERN = [
    re.compile(
        r"\b(?:unlock|lock\s*screen|screen\s*lock|phone|tablet|android|ipad)(?:'s)?\s+pattern\b"
        r"|\bpattern\s+(?:lock|to\s+unlock)|手势|手勢|解锁图案|解鎖圖案|ロックパターン|잠금\s*패턴",
        re.IGNORECASE,
    )
]
_GRID = re.compile(
    r"\ban?\s+[A-Z]\b|\b(?:top|bottom|middle|centre|center|upper|lower)[\s-]+(?:left|right|middle|"
    r"centre|center|corner|row|dot)\b|\bthe\s+(?:middle|centre|center)\b|左上|右上|左下|右下|中间|中間|正中",
)


def pattern_grid_spans(text: str) -> list[tuple[int, int]]:
    if not search_any(_PATTERN, text):
        return []
    spans = []
    for m in _PATTERN[0].finditer(text):
        lo, hi = _sentence_around(text, m.start())
        grid = _GRID.search(text, m.end(), hi)
        if grid:
            spans.append((grid.start(), hi))
    return spans


# --- precision: a list is no phrase, a public key is no secret -------------------------------
_LIST_LABEL = re.compile(
    r"\b(?:list|lists|checklist|inventory|ingredients|groceries|menu|agenda|to-?dos?|items)\b"
    r"|清单|清單|单子|單子|菜单|菜單|目录|目錄|リスト|メニュー|材料|목록|리스트|메뉴|재료",
    re.IGNORECASE,
)
_WALLET = re.compile(
    r"\b(?:seed|wallet|recovery|backup|mnemonic|phrase|restore)\b|助记|助記|钱包|錢包|恢复|恢復|备份|備份|种子|種子",
    re.IGNORECASE,
)


def labelled_as_list(text: str, at: int) -> bool:
    """Whether the words starting at ``at`` follow a label naming a list ("Shopping list:",
    购物清单：) in their clause, with no wallet or recovery word in it."""
    lo = max(text.rfind(c, 0, at) for c in ".!?。！？\n") + 1
    label = text[max(lo, at - 40) : at]
    return bool(_LIST_LABEL.search(label)) and not _WALLET.search(label)


_PUBLIC_ARMOUR = re.compile(r"-----BEGIN (?P<kind>[A-Z0-9 ]+)-----", re.IGNORECASE)
_PUBLIC_KINDS = (
    "CERTIFICATE",
    "PUBLIC KEY",
    "X509 CRL",
    "CERTIFICATE REQUEST",
    "NEW CERTIFICATE REQUEST",
)
# DER OIDs of public-key algorithms (rsaEncryption, id-ecPublicKey, Ed25519, X25519, DSA).
_PUBLIC_OIDS = (
    bytes.fromhex("2a864886f70d010101"),
    bytes.fromhex("2a8648ce3d0201"),
    bytes.fromhex("2b6570"),
    bytes.fromhex("2b656e"),
    bytes.fromhex("2a8648ce380401"),
)


def _der_public(raw: bytes) -> bool:
    def header(at: int) -> int:  # the offset of the content after a tag and its length
        size = raw[at + 1] if at + 1 < len(raw) else 0
        return at + 2 + (size & 0x7F if size & 0x80 else 0)

    if len(raw) < 12 or raw[0] != 0x30:
        return False
    inner = header(0)
    if inner >= len(raw) or raw[inner] != 0x30:
        return False
    body = header(inner)
    if body >= len(raw):
        return False
    if raw[body] == 0xA0:  # a certificate's tbsCertificate opens with its [0] version
        return True
    if raw[body] == 0x30:  # SubjectPublicKeyInfo: SEQUENCE { SEQUENCE { OID … } …
        oid = header(body)
        return (
            oid < len(raw)
            and raw[oid] == 0x06
            and raw[oid + 2 : oid + 2 + raw[oid + 1]] in _PUBLIC_OIDS
        )
    if raw[body] == 0x06:
        return raw[body + 2 : body + 2 + raw[body + 1]] in _PUBLIC_OIDS
    return False


def public_key_token(text: str, start: int, token: str) -> bool:
    """Whether ``token`` (at ``start`` of ``text``) is a public key or a certificate: inside
    a public PEM armour, an OpenSSH public key blob, or DER of a certificate or public key."""
    if "-----BEGIN" in text:
        armours = [m for m in _PUBLIC_ARMOUR.finditer(text, 0, start)]
        if armours and armours[-1].group("kind").upper() in _PUBLIC_KINDS:
            if "-----END" not in text[armours[-1].end() : start]:
                return True
    head = token[: len(token) // 4 * 4]
    try:
        raw = base64.b64decode(head, validate=True)
    except (binascii.Error, ValueError):
        return False
    if (
        len(raw) > 8
        and raw[:3] == b"\x00\x00\x00"
        and raw[4:].startswith((b"ssh-", b"ecdsa-", b"sk-"))
    ):
        return True
    return _der_public(raw)


def unlabelled_value_spans(text: str) -> list[tuple[int, int]]:
    """Every span this module reads in ``text`` (the detection form, digits folded)."""
    return (
        as_it_spans(text)
        + short_noun_spans(text)
        + institution_pin_spans(text)
        + dial_turn_spans(text)
        + number_word_code_spans(text)
        + arithmetic_spans(text)
        + session_cookie_spans(text)
        + pattern_grid_spans(text)
    )
