"""Secrets read by the value's own structure (round 8 of issue 32).

Earlier rounds find a value beside a credential word, a label, a lock or a use. Here the
*value* and the structure that introduces it carry the signal, whatever the service:

- **a key/value pair whose key names a secret**: ``requirepass: …``, ``"pwd": "…"``,
  ``X_API_SECRET=…``, ``shared_secret = …`` in YAML, JSON, .env, INI or a connection
  string. The key is split into its parts (``_``, ``-``, ``.``, camelCase) and one part, or
  the key's ending, is a secret morpheme (pass, pwd, secret, token, auth, cred, pin, otp,
  key, sig); a part that names something about the secret (public, id, name, url, hint,
  length, policy, field …) makes it another key. The value must be of secret shape;
- **a value of strong password shape introduced as a value**: a copula, colon, "with",
  "type"/"use"/"uses" before a token of eight or more characters mixing lower-case letters
  with digits or symbols (three character classes), in a sentence about gaining access
  (unlock, log/sign in, account, site, bank, vault, SSH, GPG, 登录, 解锁 …). Identifiers
  (serials, tracking numbers, flights) are upper-case and digits, and are not taken;
- **letters that no language spells**: a run of ten or more lower-case letters with almost
  no vowels, or three or four groups of four such letters (the app-password format of the
  large mail providers), after a credential word and a colon or copula;
- **characters spelled one by one with their case** ("capital B, lowercase r, i, n, e",
  大写的K，小写的m), in a sentence with a credential or access word;
- **a secret given in two fragments** ("the PIN starts with 47 and ends with 19");
- **a private key's body without its armour**: base64 that decodes to DER with a version
  INTEGER right after the outer SEQUENCE (PKCS#1/#8, SEC1: the private forms; public keys
  and certificates start with another SEQUENCE) or to OpenSSH's ``openssh-key-v1`` magic;
- **a keypad code**: digits with ``#``/``*`` keyed after an entry verb (按 #2741, press
  3926#), or spaced digits closed by ``#``;
- **what opens**: a code or a password-shaped value as the subject of opening ("4471 opens
  the shed", "… gets you into the gate") or used "to get in"; a lock, an alarm or a safe
  labelling a code read out digit by digit or in dial turns ("Alarm: 4-4-0-9", 门锁 5820);
  keypad keys said as words ("star 4 5 1 hash");
- **an answer to a security question named by its topic** (a mother's maiden name, a
  first pet, car or school, the street one grew up on, the town one was born in) given for
  an account, a site or an institution ("… for the mortgage portal: X", "if they ask …
  I tell them X"): a closed class, the topics such questions are drawn from;
- **a text encoded** in base64, hex or percent-encoding that decodes to readable text: the
  decoded text is read by every rule (as ROT13 is), and the token is the secret;
- **a word list of mnemonic length in any language**: exactly 12, 15, 18, 21 or 24
  distinct lower-case words after a colon, with nothing else in the clause (the BIP-39
  lengths; the English list is checked word by word elsewhere).

Every rule is gated by the literal prefilter (``memory.detectors.prefilter``) or a
character test, so ordinary text costs a set look-up per rule.
"""

from __future__ import annotations

import base64
import binascii
import re
import unicodedata
from collections.abc import Callable
from urllib.parse import unquote_to_bytes

from core.process_state import memoized
from memory.detectors.hesitant_values import hesitant_value_spans
from memory.detectors.prefilter import search_any
from memory.detectors.spoken_values import spoken_value_spans
from memory.text_normalize import detection_form


# --- digits of other scripts ------------------------------------------------------------------
@memoized("memory.detectors.value_readings._script_digits", maxsize=1)
def _script_digits() -> dict[int, str]:
    # Every decimal digit outside ASCII (Arabic-Indic ٧, Persian ۴, Devanagari ७, Thai ๗ …):
    # NFKC maps full-width digits but leaves these, so a PIN written in them kept no digit.
    return {
        cp: str(unicodedata.decimal(chr(cp)))
        for cp in range(0x80, 0x20000)
        if unicodedata.category(chr(cp)) == "Nd"
    }


def fold_script_digits(text: str) -> str:
    """``text`` with every non-ASCII decimal digit as its ASCII digit (same length)."""
    return text if text.isascii() else text.translate(_script_digits())


# --- key/value pairs ------------------------------------------------------------------------
# Found from its separator (few in a text) back to the key and on to the value: a pattern
# that starts with the key would be tried at every letter of every text.
_PAIR_SEP = re.compile(r"[\"']?\s*(?:=>|=|:(?!//))\s*[\"']?")
_PAIR_KEY = re.compile(r"(?<![A-Za-z0-9_.-])[A-Za-z_][A-Za-z0-9_.-]{1,48}$")
_PAIR_VALUE = re.compile(r"[^\s\"',;}]{4,128}")
_SECRET_PART = frozenset(
    "pass password passwd passphrase passcode pwd pw secret secrets token tokens auth "
    "cred creds credential credentials pin otp totp key apikey privkey sig signing "
    "signature salt".split()
)
_SECRET_ENDING = re.compile(r"(?:pass|passwd|password|pwd|secret|token|apikey|privkey)$", re.I)
# Parts that name something *about* the secret (where it is, its name, its rules).
_OTHER_PART = frozenset(
    "public pub id ids name names url uri path file dir hint policy length len min max "
    "size count type field label prompt expiry expires expire ttl reset required enabled "
    "algorithm algo format version mode header endpoint host user username login "
    "board pad note notes method scheme provider backend plugin flow strategy".split()
)
_CAMEL = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")


def _key_names_secret(key: str) -> bool:
    parts = [p.lower() for chunk in re.split(r"[_.\-]+", key) for p in _CAMEL.findall(chunk)]
    if not parts or any(p in _OTHER_PART for p in parts):
        return False
    return any(p in _SECRET_PART for p in parts) or bool(_SECRET_ENDING.search(key))


# In Chinese a code is a compound of 码 (恢复码, 备用码, 开门码): any such noun as a label of
# a value of secret shape, except the compounds that name an identifier or a number
# (号码, 编码, 代码, 条码, 区号, 二维码, 优惠码, 邀请码).
_CJK_CODE_PAIR = [
    re.compile(
        r"(?P<key>[\u3400-\u9fff]{1,6}(?:码|碼))\s*(?:[:：]|是|为|為)\s*[“\"「]?(?P<value>[!-~]{4,64})"
    )
]
_IDENTIFIER_CODE = re.compile(r"(?:号|號|编|編|代|条|條|源|维|維|惠|请|請|邮|郵|区|區)(?:码|碼)$")


def pair_spans(text: str, looks_like_secret: Callable[[str], bool]) -> list[tuple[int, int]]:
    spans = []
    if "=" in text or ":" in text:
        for sep in _PAIR_SEP.finditer(text):
            key = _PAIR_KEY.search(text, max(0, sep.start() - 49), sep.start())
            value = _PAIR_VALUE.match(text, sep.end())
            if not key or not value or not _key_names_secret(key.group()):
                continue
            if looks_like_secret(value.group()) or _unspelled(value.group()):
                spans.append(value.span())
    if search_any(_CJK_CODE_PAIR, text):
        spans += [
            m.span("value")
            for m in _CJK_CODE_PAIR[0].finditer(text)
            if not _IDENTIFIER_CODE.search(m.group("key")) and looks_like_secret(m.group("value"))
        ]
    return spans


# --- strong password shape, introduced as a value --------------------------------------------
# The value is what one opens, logs in or decrypts *with*, what one types, or what another
# login reuses ("the same as my bank one: …"): the verb is tied to the value, not merely in
# the sentence ("I log in with my work laptop: ThinkPad-X1c" names a machine).
_VAL = r"[\"'“「]?(?P<value>[!-~]{8,64})"
_INTRODUCED = [
    re.compile(
        r"(?:\b(?:unlock(?:s|ed)?|decrypt(?:s|ed)?|open(?:s|ed)?|log(?:s|ged)?\s?(?:in|on)|"
        r"sign(?:s|ed)?\s?in|authenticat(?:e|es|ed))\s+(?:it\s+|them\s+)?(?:with|using)\s+"
        r"|\b(?P<typed>type|enter|key\s+in|punch\s+in)\s+"
        r"|\bsame\s+(?:one\s+|password\s+|pin\s+|code\s+)?as\s+(?:my|the|our)\s+[^:：.!?\n]{1,30}[:：]\s*"
        r"|(?:登录|登入|登錄|解锁|解鎖|开机|開機|解密)[^，。！？\n]{0,6}?(?:用|输入|輸入|输|輸)\s*)"
        + _VAL,
        re.IGNORECASE,
    )
]


def introduced_value_spans(text: str) -> list[tuple[int, int]]:
    if not search_any(_INTRODUCED, text):
        return []
    return [
        m.span("value")
        for m in _INTRODUCED[0].finditer(text)
        if _strong_shape(m.group("value"))
        and (not m.group("typed") or _TYPIST.search(text, max(0, m.start() - 24), m.start()))
    ]


# Who types: "I type …", "you just enter …" (not "type the word …" as an instruction's noun).
_TYPIST = re.compile(r"\b(?:i|we|you)\s+(?:just\s+|always\s+|then\s+)?$", re.IGNORECASE)


_SENTENCE = re.compile(r"[^.!?。！？\n]+(?:[.!?](?!\s|$)[^.!?。！？\n]*)*")


def _sentences(text: str) -> list[tuple[int, str]]:
    return [(m.start(), m.group()) for m in _SENTENCE.finditer(text)]


def _strong_shape(token: str) -> bool:
    core = token.strip("\"'`()[]{}<>,;:.!?")
    if len(core) < 8 or "@" in core or "/" in core or "://" in core:
        return False
    lower = any(c.islower() for c in core)
    upper = any(c.isupper() for c in core)
    digit = any(c.isdigit() for c in core)
    symbol = any(not c.isalnum() for c in core)
    if not lower or re.fullmatch(r"v?\d+(?:\.\d+)+[a-z]*", core):
        return False
    return lower + upper + digit + symbol >= 3 and (digit or upper)


# --- letters that no language spells ----------------------------------------------------------
_VOWELS = set("aeiouy")
_DIGIT = re.compile(r"\d")


def _unspelled(token: str) -> bool:
    """Ten or more letters with at most one vowel in five: not a word of any language
    written in Latin letters (English runs about two in five)."""
    core = token.strip("\"'`()[]{}<>,;:.!?")
    if len(core) < 10 or not core.isalpha() or not core.isascii():
        return False
    return sum(c in _VOWELS for c in core.lower()) / len(core) <= 0.2


_CRED_THEN_VALUE = re.compile(
    r"(?:pass(?:word|code|phrase)?|secret|token|key|code|パスワード|암호|비밀번호|"
    r"密码|密碼|口令|码|碼)[^\n。.!?]{0,12}?(?:[:=：]|\bis\b|は|是)\s*"
    r"(?P<value>[a-z]{10,40}|[a-z]{4}(?:[ -][a-z]{4}){2,3})(?![A-Za-z])",
    re.IGNORECASE,
)
_CRED_THEN_VALUE_GATE = [_CRED_THEN_VALUE]


def unspelled_spans(text: str) -> list[tuple[int, int]]:
    if not search_any(_CRED_THEN_VALUE_GATE, text):
        return []
    spans = []
    for m in _CRED_THEN_VALUE.finditer(text):
        value = m.group("value")
        if _unspelled(value.replace(" ", "").replace("-", "")):
            spans.append(m.span("value"))
    return spans


# --- characters spelled with their case -------------------------------------------------------
_SPELLED = [
    re.compile(
        r"\b(?:capital|upper[\s-]?case|lower[\s-]?case|small|big)\s+(?:letter\s+)?[A-Za-z]\b"
        r"|(?:大写|小写|大寫|小寫)(?:的|字母)?\s*[A-Za-z](?![A-Za-z])",
        re.IGNORECASE,
    )
]
_CREDENTIAL_OR_ACCESS = re.compile(
    r"\b(?:pass(?:word|code|phrase)?|pin|code|login|log\s?in|key|spell(?:ing)?)\b|密码|密碼|口令|登录|登錄",
    re.IGNORECASE,
)


def spelled_spans(text: str) -> list[tuple[int, int]]:
    if not search_any(_SPELLED, text):
        return []
    spans = []
    for lo, chunk in _clauses_joined(text):
        marks = list(_SPELLED[0].finditer(chunk))
        if len(marks) < 2:
            continue
        end = _clause_end(chunk, marks[-1].end())
        # The noun may stand just before, in a question the speaker answers ("PIN? …").
        if _CREDENTIAL_OR_ACCESS.search(text, max(0, lo + marks[0].start() - 48), lo + end):
            spans.append((lo + marks[0].start(), lo + end))
    return spans


def _clauses_joined(text: str) -> list[tuple[int, str]]:
    # A spelled value runs over commas: split at sentence ends only.
    return [(m.start(), m.group()) for m in re.finditer(r"[^。！？!?\n]+", text)]


def _clause_end(chunk: str, at: int) -> int:
    m = re.search(r"[.。](?:\s|$)", chunk[at:])
    return at + m.start() if m else len(chunk)


# --- a secret in two fragments ---------------------------------------------------------------
_FRAGMENTS = [
    re.compile(
        r"\b(?:(?:starts?|begins?|starting|beginning)\s+with|first\s+(?:half|part|bit|\w+\s+digits?)"
        r"[^.!?\n\d]{0,16}?(?:is|was|are|were|:))\s+(?P<a>\d{2,6})\b[^.!?\n]{0,40}?"
        r"\b(?:(?:ends?|finish(?:es)?|ending|finishing)(?:\s+with|\s+in)?|(?:rest|(?:second|other)\s+half|"
        r"last\s+(?:half|part|bit|\w+\s+digits?))[^.!?\n\d]{0,16}?(?:is|was|are|were|:))\s+(?P<b>\d{2,6})\b",
        re.IGNORECASE,
    ),
    # Chinese halves: 前两位是39，后两位是06 / 前面是…后面是….
    re.compile(
        r"前(?:半|面|半段|[两二三四]位)(?:是|为|為|：|:)\s*(?P<a>\d{2,6})[^。！？\n]{0,20}?"
        r"[后後](?:半|面|半段|[两二三四]位)(?:是|为|為|：|:)\s*(?P<b>\d{2,6})"
    ),
]
_CREDENTIAL = re.compile(
    r"\b(?:pass(?:word|code)?|pins?|codes?|combination|combo)\b|密码|密碼|口令", re.IGNORECASE
)


def fragment_spans(text: str) -> list[tuple[int, int]]:
    if not _DIGIT.search(text) or not search_any(_FRAGMENTS, text):
        return []
    spans = []
    for lo, chunk in _sentences(text):
        if not _CREDENTIAL.search(chunk):
            continue
        for m in (m for rx in _FRAGMENTS for m in rx.finditer(chunk)):
            spans += [(lo + m.start("a"), lo + m.end("a")), (lo + m.start("b"), lo + m.end("b"))]
    return spans


# --- a private key's body --------------------------------------------------------------------
_KEY_BODY = [re.compile(r"(?:MII|MHc|MC4|b3BlbnNzaC1rZXktdjE)[A-Za-z0-9+/]{16,}={0,2}")]
_OPENSSH_MAGIC = b"openssh-key-v1\x00"


def _private_der_or_openssh(token: str) -> bool:
    head = token[: len(token) // 4 * 4]
    try:
        raw = base64.b64decode(head, validate=True)
    except (binascii.Error, ValueError):
        return False
    if raw.startswith(_OPENSSH_MAGIC[:12]):
        return True
    if len(raw) < 8 or raw[0] != 0x30:
        return False
    # Outer SEQUENCE length in short or long form, then INTEGER 0 or 1 (the version).
    size = raw[1]
    at = 2 + (size & 0x7F if size & 0x80 else 0)
    return raw[at : at + 3] in (b"\x02\x01\x00", b"\x02\x01\x01")


def key_body_spans(text: str) -> list[tuple[int, int]]:
    if not search_any(_KEY_BODY, text):
        return []
    return [m.span() for m in _KEY_BODY[0].finditer(text) if _private_der_or_openssh(m.group())]


# --- a keypad code ---------------------------------------------------------------------------
_KEYPAD = [
    re.compile(
        r"(?:按|输入|輸入|输|輸|\b(?:press|punch|dial|key|tap|enter)(?:\s+in)?)\s*"
        r"(?P<a>[#*]\d{3,10}[#*]?|\d{3,10}[#*])(?![\w#*])",
        re.IGNORECASE,
    ),
    re.compile(r"(?<![\w.])(?P<b>\d(?:\s\d){3,9}\s?[#*])(?![\w#*])"),
]


# Keys said as words: "star 4 5 1 hash", "井号 7 3 1".
_SPOKEN_KEYPAD = [
    re.compile(
        r"(?:\b(?:star|hash|pound)\b|井号|井號|星号|星號)\s*\d(?:\s?\d){2,9}"
        r"|\d(?:\s?\d){2,9}\s*(?:\b(?:hash|pound)\b|井号|井號)",
        re.IGNORECASE,
    )
]


def keypad_spans(text: str) -> list[tuple[int, int]]:
    spans = []
    if "#" in text or "*" in text:
        for rx in _KEYPAD:
            spans += [m.span(m.lastgroup) for m in rx.finditer(text) if m.lastgroup]
    if search_any(_SPOKEN_KEYPAD, text):
        spans += [m.span() for m in _SPOKEN_KEYPAD[0].finditer(text)]
    return spans


# --- what opens, and a lock labelled with a code read out ------------------------------------
# The value is the subject of opening ("4471 opens the shed", "… gets you into the gate") or
# what one uses "to get in"; a lock, alarm or safe (closed: the kinds of lock) labels a code
# read out digit by digit or in dial turns ("Alarm: 4-4-0-9", "safe: 12-37-5", 门锁 5820).
_OPENS = [
    re.compile(
        r"[,]?\s+(?:opens|unlocks|disarms|gets\s+(?:you|me|us)\s+(?:in|into)|lets\s+(?:you|me|us)\s+in|"
        r"to\s+(?:get\s+in|log\s+in|sign\s+in|unlock\s+it|open\s+it))\b"
        # a schedule is no code: "store 7711 opens at nine"
        r"(?!\s+(?:at|on|in|from|until|till|for|daily|every|tomorrow|today|next|this)\b)",
        re.IGNORECASE,
    )
]
_TOKEN_BEFORE = re.compile(r"(?<![\w.-])[!-~]{4,40}$")
_LOCK = (
    r"(?:alarm|safe|padlock|keypad|lock|lockbox|door|gate|garage|shed|vault|entrance|"
    r"门锁|門鎖|锁|鎖|保险箱|保險箱|保险柜|保險櫃|报警器|報警器|门禁|門禁|金庫|도어락|금고)"
)
_READ_OUT = r"\d(?:[ -]\d){3,9}|\d{1,2}(?:[ -]\d{1,2}){2,3}"
_LABELLED_LOCK = [
    re.compile(
        rf"\b{_LOCK}s?\b[^:：\n.!?]{{0,24}}[:：?？]\s*(?P<value>{_READ_OUT})(?![\d-])"
        rf"|{_LOCK}[屏箱柜櫃盒]?\s*(?:的)?(?:是|为|為|：|:)?\s*(?P<zh>\d{{4,8}}|{_READ_OUT})(?![\d-])"
        # a price, a date or a count is no code: 门锁 2000 元
        r"(?!\s*(?:元|块|塊|圆|円|원|年|月|日|号|號|个|個|次|米|[a-z]))",  # or a word: units, nouns
        re.IGNORECASE,
    )
]


# Keyed in, in Chinese: 输/输入/键入 before a value ("连的时候输 qwer7788asdf"); 输 also means
# "lose" (输了, 输给, 输掉, 输钱), and an amount or a score follows it then.
_ENTRY_ZH = [
    re.compile(
        r"(?:输入|輸入|键入|鍵入|(?<![认認])(?:输|輸)(?![了给給掉钱錢光]))\s*[“\"「]?(?P<value>[!-~]{4,40})"
        r"(?!\s*(?:元|块|塊|分|比|场|場|局|个|個|次))"
    )
]
# A code read out digit by digit ("6 2 9 0 4 8") in a sentence about what holds one.
_SPACED_CODE = [re.compile(r"(?<![\d.])\d(?: \d){3,9}(?!\d|\.\d)")]
_HOLDS_CODE = re.compile(
    r"\b(?:card|lock|padlock|door|gate|safe|alarm|keypad|phone|pin|passcode|code)s?\b|"
    r"卡|锁|鎖|门|門|保险|保險|报警|報警|手机|手機|密码|密碼|暗証|パスワード|비밀번호|비번",
    re.IGNORECASE,
)


def opening_spans(text: str, looks_like_secret: Callable[[str], bool]) -> list[tuple[int, int]]:
    spans = []
    if search_any(_ENTRY_ZH, text):
        for m in _ENTRY_ZH[0].finditer(text):
            value = m.group("value").rstrip("。，,.!！")
            if looks_like_secret(value):
                spans.append((m.start("value"), m.start("value") + len(value)))
    if search_any(_OPENS, text):
        for m in _OPENS[0].finditer(text):
            token = _TOKEN_BEFORE.search(text, max(0, m.start() - 40), m.start())
            value = token.group() if token else ""
            if (value.isdigit() and looks_like_secret(value)) or _strong_shape(value):
                spans.append(token.span())
    if not _DIGIT.search(text):  # every rule below reads digits
        return spans
    if search_any(_SPACED_CODE, text):
        for lo, chunk in _sentences(text):
            if _HOLDS_CODE.search(chunk):
                spans += [
                    (lo + a, lo + b) for a, b in (m.span() for m in _SPACED_CODE[0].finditer(chunk))
                ]
    if search_any(_LABELLED_LOCK, text):
        spans += [m.span(m.lastgroup) for m in _LABELLED_LOCK[0].finditer(text) if m.lastgroup]
    return spans


# --- security questions by topic -------------------------------------------------------------
_TOPIC = [
    re.compile(
        r"\b(?:maiden\s+name|first\s+(?:pet|dog|cat|car|school|teacher|job|boss)|"
        r"childhood\s+(?:pet|friend|best\s+friend|nickname|hero|street|home)|"
        r"(?:street|road)\s+(?:you|i)\s+grew\s+up\s+on|(?:town|city)\s+(?:you\s+were|i\s+was)\s+born\s+in|"
        r"favou?rite\s+(?:teacher|childhood\s+\w+))\b",
        re.IGNORECASE,
    )
]
_FOR_ACCOUNT = re.compile(
    r"\b(?:account|portal|site|login|bank|insurer|airline|provider|on\s+file|if\s+(?:they|it)\s+asks?|"
    r"security|verification|recovery)\b",
    re.IGNORECASE,
)
_ANSWERED = re.compile(
    r"(?::|\b(?i:i\s+(?:tell|told|give|gave|put|say|said|answer(?:ed)?)(?:\s+them|\s+it)?|answer\s+is|"
    r"it(?:'s|’s|\s+is|\s+was)))"
    r"\s*[\"'“]?(?P<value>[A-Z][\w'-]{2,30}(?:\s+[A-Z][\w'-]{2,30}){0,2})"
)


def security_topic_spans(text: str) -> list[tuple[int, int]]:
    if not search_any(_TOPIC, text):
        return []
    spans = []
    for lo, chunk in _sentences(text):
        topic = _TOPIC[0].search(chunk)
        if not topic or not _FOR_ACCOUNT.search(chunk):
            continue
        for m in _ANSWERED.finditer(chunk, topic.end()):
            spans.append((lo + m.start("value"), lo + m.end("value")))
    return spans


# --- a word list of mnemonic length ----------------------------------------------------------
_WORD_RUN = re.compile(
    r"[:：]\s*(?P<run>(?:[^\W\d_A-Z]{3,10}\s+){11,23}[^\W\d_A-Z]{3,10})\s*(?:[.。]?\s*$)"
)


# Or numbered: "1. orbit 2. velvet … 12. denial", "1.森 2.林 … 12.雨" (the numbers run from 1).
_ENUM_ITEM = re.compile(
    r"(?<!\d)(?P<n>\d{1,2})\s*[.)、:：]\s*(?P<word>[^\W\d_]{1,12})(?=[\s,，、;；.。]|$)"
)


# What a list of mnemonic length is for (closed: the nouns of a wallet's backup).
_MNEMONIC_CONTEXT = re.compile(
    r"\b(?:wallets?|seed|recovery|backup|restore|mnemonic|phrase|words)\b|钱包|錢包|助记|助記|恢复|恢復|备份|備份|种子|種子|ウォレット|지갑",
    re.IGNORECASE,
)


_MNEMONIC_GATE = [_MNEMONIC_CONTEXT]


def enumerated_word_spans(text: str) -> list[tuple[int, int]]:
    if "12" not in text or not search_any(_MNEMONIC_GATE, text):
        return []
    spans: list[tuple[int, int]] = []
    run: list[re.Match[str]] = []
    for m in [*_ENUM_ITEM.finditer(text), None]:
        if m is not None and int(m.group("n")) == len(run) + 1:
            gap = text[run[-1].end() : m.start()] if run else ""
            if not run or re.fullmatch(r"[\s,，、;；]*", gap):
                run.append(m)
                continue
        if len(run) in (12, 15, 18, 21, 24) and len({r.group("word") for r in run}) == len(run):
            spans.append((run[0].start(), run[-1].end()))
        run = [m] if m is not None and m.group("n") == "1" else []
    return spans


def word_run_spans(text: str) -> list[tuple[int, int]]:
    if text.count(" ") < 11 or (":" not in text and "：" not in text):
        return []
    if not search_any(_MNEMONIC_GATE, text):
        return []
    spans = []
    for m in _WORD_RUN.finditer(text):
        words = m.group("run").split()
        if len(words) in (12, 15, 18, 21, 24) and len(set(words)) == len(words):
            spans.append(m.span("run"))
    return spans


# --- the noun in general -------------------------------------------------------------------
_INDEFINITE = re.compile(r"\b(?:a|an|any|every|each|no)\s+(?:[a-z-]+\s+)?$", re.IGNORECASE)
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|my|me|mine|we|our|us)\b|我", re.IGNORECASE)


def generic_mention(text: str, cue_start: int, lo: int, hi: int) -> bool:
    """ "Using your name as a password is risky", "a file with a password: field": a
    credential noun after an indefinite article, in a sentence (``lo``..``hi``) where no
    first person speaks, is the noun in general; the word after it is no value."""
    before = text[max(lo, cue_start - 24) : cue_start]
    return bool(_INDEFINITE.search(before)) and not _FIRST_PERSON.search(text[lo:hi])


# "The password's length is 12 characters": lowercase words after "'s", then a finite verb,
# make the "'s" a possessive (the password's length, strength, hint), not "is"; what follows
# describes the password, it is no value. A conjunction ends the phrase ("the password's
# blue and was set today" keeps its value).
_POSSESSIVE_NOUN = re.compile(
    r"\s*['’]s\s+(?:(?!(?:and|or|but|then)\b)[a-z]+\s+){1,3}?"
    r"(?:is|are|was|were|has|had|have|needs?|must|should|will|would|can|could|may|might"
    r"|expires?|expired|changes?|changed)\b"
)


def possessive_noun(assigned: str) -> bool:
    """Whether an assignment read after a credential word is a possessive's noun phrase."""
    return bool(_POSSESSIVE_NOUN.match(assigned))


# --- a text encoded ------------------------------------------------------------------------
_BASE64 = re.compile(r"(?<![A-Za-z0-9+/%])[A-Za-z0-9+/]{16,}={0,2}(?![A-Za-z0-9+/=%])")
_PERCENT = re.compile(r"(?:%[0-9A-Fa-f]{2}|[A-Za-z0-9.~_-]){12,}")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


def _readable(raw: bytes) -> str | None:
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    sentence_like = " " in decoded or "=" in decoded or ":" in decoded or _CJK.search(decoded)
    return decoded if decoded.isprintable() and len(decoded) >= 8 and sentence_like else None


def encoded_spans(text: str, reads_secret: Callable[[str], object]) -> list[tuple[int, int]]:
    """Tokens that are a text in base64, hex or percent-encoding (a sentence or a key=value,
    valid UTF-8 and printable: random key bytes are not) in which ``reads_secret`` (every
    rule, on the decoded text's detection form) finds a secret: as ROT13 is read."""
    found = [(m, m.group()) for m in _BASE64.finditer(text)]
    if "%" in text:
        found += [(m, None) for m in _PERCENT.finditer(text) if m.group().count("%") >= 3]
    out = []
    for m, token in found:
        if token is None:
            decoded = _readable(unquote_to_bytes(m.group()))
        elif re.fullmatch(r"(?:[0-9a-fA-F]{2}){8,}", token):
            decoded = _readable(bytes.fromhex(token))
        else:
            try:
                decoded = _readable(base64.b64decode(token + "=" * (-len(token) % 4)))
            except (binascii.Error, ValueError):
                decoded = None
        if decoded and reads_secret(detection_form(decoded).text):
            out.append(m.span())
    return out


def value_reading_spans(
    text: str, looks_like_secret: Callable[[str], bool]
) -> list[tuple[int, int]]:
    """Every span this module reads in ``text`` (the detection form)."""
    return (
        pair_spans(text, looks_like_secret)
        + introduced_value_spans(text)
        + unspelled_spans(text)
        + spelled_spans(text)
        + fragment_spans(text)
        + key_body_spans(text)
        + keypad_spans(text)
        + opening_spans(text, looks_like_secret)
        + security_topic_spans(text)
        + word_run_spans(text)
        + enumerated_word_spans(text)
        + spoken_value_spans(text)
        + hesitant_value_spans(text)
    )
