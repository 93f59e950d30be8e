"""Secrets recognised by structure: a standard word list, a labelled value, an access verb.

The prose detector (``memory.detectors.secrets``) finds a value beside a credential word it
knows. These rules find the value by how it is *used*, so a label or a verb nobody listed
still counts:

- a **BIP-39 recovery phrase**: twelve or more words in a row that are all in the BIP-39
  English word list (``data/bip39_english.txt``, the standard's own list of 2,048 words,
  sha256 2f5eed53…): capitalised, comma-separated or numbered ("1. harvest 2. glimpse …").
  Ordinary English cannot run twelve words without a function word, and none is in the list
  ("the", "a", "is", "of", "and", "to", "in", "it" …). A run in any Chinese phrase-word
  context (助记词, 种子词, seed, mnemonic …) of twelve single CJK characters, spaced or
  not, is a Chinese BIP-39 phrase (its list is single characters);
- a **labelled value** in Chinese, Japanese or Korean: a label ending in a secret noun
  (…密码, …口令, …密钥, 暗証番号, 비밀번호, 암호) or in a code noun (…码/碼, …数字, 番号,
  번호) whose words name access (a lock, an alarm being armed or disarmed, a door, a
  pairing, a payment) followed by a value of secret shape: four or more digits that are not
  an amount, a date or a count (no unit after them), or a token mixing letters with digits
  or symbols. "撤防码 4402", "锁屏的数字是 147369" are secrets; "股票代码 600519",
  "尺码是 42 码", "订单号 2023…" are not (no access word, or no code noun);
- a **key with a checksum or an alphabet**: a BitLocker recovery key (eight blocks of six
  digits, each a multiple of 11), an authenticator secret in base32 of 32 or 52 characters;
- an **access verb** in English or Chinese: a number that opens, unlocks, disarms or
  switches something off ("the alarm disarms with 6620", "takes 5087 to switch off",
  "opens with 3318", "输入 2580 开门"), or that is entered when asked.

Each returns spans of the text it was given.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from importlib import resources

from core.process_state import memoized
from memory.detectors.literal_gated import literal_gated
from memory.detectors.switches import detection_switch

# --- BIP-39 -----------------------------------------------------------------------------


@memoized("memory.detectors.labelled._bip39", maxsize=1)
def _bip39() -> dict[str, int]:
    words = resources.files("memory.detectors").joinpath("data/bip39_english.txt")
    return {w: i for i, w in enumerate(words.read_text("utf-8").split())}


def bip39_checksum_valid(words: list[str]) -> bool:
    """Whether ``words`` (12–24, a multiple of 3) carry a valid BIP-39 checksum."""
    index = _bip39()
    if len(words) % 3 or not 12 <= len(words) <= 24 or any(w not in index for w in words):
        return False
    bits = 0
    for w in words:
        bits = (bits << 11) | index[w]
    total = 11 * len(words)
    check_len = total // 33
    entropy_bits = total - check_len
    entropy = (bits >> check_len).to_bytes(entropy_bits // 8, "big")
    checksum = bits & ((1 << check_len) - 1)
    return hashlib.sha256(entropy).digest()[0] >> (8 - check_len) == checksum


_WORD = re.compile(r"[A-Za-z]+")
# Between two words of a phrase: spaces, commas, hyphens, a number ("2." "3)").
_PHRASE_GAP = re.compile(r"^(?:[\s,;/、，|-]|\d{1,2}[.):]?)+$")


@memoized("memory.detectors.labelled.twelve_words", maxsize=1)
def _twelve_words() -> re.Pattern[str]:
    """Twelve words of the list's lengths in a row, each gap of characters ``_PHRASE_GAP``
    is made of: a run ``bip39_spans`` closes holds one (``ENGRAM_DETECTOR_WORD_RUN_GATE``)."""
    lengths = {len(w) for w in _bip39()}
    word = rf"[A-Za-z]{{{min(lengths)},{max(lengths)}}}"
    return re.compile(rf"(?<![A-Za-z])(?:{word}[\s,;/、，|\d.):-]+){{11}}{word}(?![A-Za-z])")


def bip39_spans(text: str) -> list[tuple[int, int]]:
    """Runs of twelve or more BIP-39 English words (see the module docstring)."""
    index = _bip39()
    spans = []
    run: list[re.Match[str]] = []
    if detection_switch("WORD_RUN_GATE") and not _twelve_words().search(text):
        return spans
    for m in [*_WORD.finditer(text), None]:
        if m is not None and m.group().lower() in index:
            if run and not _PHRASE_GAP.match(text[run[-1].end() : m.start()]):
                _close(run, spans)
                run = []
            run.append(m)
            continue
        _close(run, spans)
        run = []
    return spans


def _close(run: list[re.Match[str]], spans: list[tuple[int, int]]) -> None:
    if len(run) >= 12:
        spans.append((run[0].start(), run[-1].end()))


_PHRASE_WORD = re.compile(
    # A recovery or backup noun with any word noun: 备份单词 as "backup words".
    r"(?:助记|助記|种子|種子|恢复|恢復|备份|備份)(?:单词|單詞|词|詞|短语|短語)|"
    r"seed|mnemonic|recovery\s+(?:phrase|words)|backup\s+words|secret\s+recovery|"
    # The count of words is itself the sign: "十二个词：", "24 words:".
    r"(?:十二|十五|十八|二十一|二十四|12|15|18|21|24)\s*个?(?:词|字|单词|單詞|詞)|"
    r"(?:12|15|18|21|24|twelve|twenty-four)[- ]words?",
    re.IGNORECASE,
)
_CJK = r"[\u3400-\u9fff]"
_CJK_SINGLES = re.compile(rf"(?<!{_CJK}){_CJK}(?:[\s,，、]+{_CJK}(?!{_CJK})){{11,23}}")
_CJK_RUN = re.compile(rf"[：:是为為]\s*({_CJK}{{12,24}})(?!{_CJK})")


# Asked only where their literals are (memory/detectors/literal_gated.py).
_PHRASE_WORD = literal_gated(_PHRASE_WORD)


def cjk_phrase_spans(text: str) -> list[tuple[int, int]]:
    """A Chinese recovery phrase after a phrase word: twelve or more single characters
    spaced apart, or twelve to twenty-four in a row after a colon or 是."""
    spans = []
    for cue in _PHRASE_WORD.finditer(text):
        window = (cue.end(), min(len(text), cue.end() + 40))
        m = _CJK_SINGLES.search(text, *window)
        if m and m.start() - cue.end() <= 24:
            spans.append((m.start(), m.end()))
            continue
        m = _CJK_RUN.search(text, *window)
        if m and m.start() - cue.end() <= 24 and len(m.group(1)) % 3 == 0:
            spans.append((m.start(1), m.end(1)))
    return spans


# --- labelled values (Chinese, Japanese, Korean) ------------------------------------------

# Each language's words for a password, passcode or PIN (closed: parity with the English).
_SECRET_NOUN = (
    r"密码|密碼|口令|密钥|密鑰|暗号|暗號|卡密|暗証番号|パスワード|パスコード|PINコード|ピン番号|合言葉|"
    r"비밀\s?번호|비번|암호|패스워드|패스코드|핀\s?번호|PIN|pin"
)
_CODE_NOUN = r"码|碼|数字|數字|号码|號碼|番号|번호|コード|코드"
# What a code opens or guards: a lock (锁, 鎖, 잠금, 도어락), an alarm armed or disarmed
# (撤防, 布防), a door or gate, a pairing, a payment or withdrawal, a safe, a verification.
_ACCESS = re.compile(
    r"锁|鎖|撤防|布防|设防|設防|门禁|門禁|开门|開門|进门|進門|大门|大門|配对|配對|验证|驗證|"
    r"保险|保險|取件|登录|登錄|登入|支付|取款|解除|暗証|잠금|도어락|현관|인증|ロック|解錠|"
    r"金庫|金库|保管箱|储物柜|儲物櫃|ロッカー|キーボックス|금고|사물함|자물쇠|南京錠|"
    # a delivery held for collection, a sign-in, an entry (ja/ko parity with 取件/登录/门禁)
    r"提货|取货|提貨|取貨|受取|受け取り|宅配|認証|ログイン|택배|보관함|로그인|출입|해제"
)
_LABEL = re.compile(
    r"(?P<label>[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7afA-Za-z ]{0,12}?"
    rf"(?:(?P<secret>{_SECRET_NOUN})|(?P<code>{_CODE_NOUN})))"
    r"(?:的)?\s*(?:就是|也是|是|为|為|：|:|=|は|는|은|이|가|을|를|改成了?|改为|改為|设成了?|設成了?|"
    r"换成了?|換成了?|设为|設為|"
    # a telling verb before the value: "비밀번호 알려줄게: X", 密码告诉你：X (round 12)
    r"(?:알려\s?(?:줄게|줄께|드릴게요?)|教え(?:るね|とく|ます)|告[诉訴]你)\s*[:：，,]?|"
    # a change told in Japanese or Korean, then the new value (parity with 改成; round 11)
    r"(?:を|를|을)?\s*(?:変えた|変更した|바꿨어요?|바꿨다|변경했어요?)[、，,\s]*(?:今は|いまは|이제는?|이젠|지금은)?)?"
    r"\s*(?:了\s*)?"
    r"(?P<value>[#*]?\d[\d -]{2,16}\d[#*]?|[!-~]{4,40})"
)
# A number noun after a numbered place alone names the place (a locker's, a gate's number);
# with a lock, a safe, an alarm or a verification in the label it is a code (金庫の番号).
_PLACE_NUMBER = re.compile(r"号码|號碼|番号|번호")
_NUMBERED_PLACE = re.compile(r"储物柜|儲物櫃|ロッカー|사물함|大门|大門|保管箱")
# After a number, a unit makes it an amount, a date, a size or a count.
_UNIT_AFTER = re.compile(
    r"\s*(?:元|块|塊|円|원|分|号|號|楼|樓|岁|歲|年|月|日|天|次|个|個|人|%|万|萬|码|碼|页|頁|米|公里)"
)


def _secret_value(value: str, after: str, looks_like_secret: Callable[[str], bool]) -> bool:
    core = value.strip().rstrip(".,")
    digits = re.sub(r"[\s#*-]", "", core)
    if digits.isdigit():
        if _UNIT_AFTER.match(after) or not 4 <= len(digits) <= 12:
            return False
        # A date ("2026-03-14") or a phone number (an 11-digit mobile, an area code) is
        # not a code; a 4-digit value that reads as a year stays a code under a label.
        if re.fullmatch(r"(?:19|20)\d\d[-/.]\d{1,2}[-/.]\d{1,2}", core):
            return False
        return not re.fullmatch(r"1[3-9]\d{9}|0\d{2,3}[- ]?\d{7,8}", digits)
    return looks_like_secret(core)


# A label ends in one of the nouns: text without any is not scanned position by position.
_NOUN = re.compile(rf"{_SECRET_NOUN}|{_CODE_NOUN}")


def labelled_value_spans(
    text: str, looks_like_secret: Callable[[str], bool]
) -> list[tuple[int, int]]:
    """Values after a secret label in Chinese, Japanese or Korean (the module docstring).
    ``looks_like_secret``: the secret-shape test of ``memory.detectors.secrets``, passed in
    so that this module does not import the one that imports it."""
    spans: list[tuple[int, int]] = []
    if not _NOUN.search(text):
        return spans
    for m in _LABEL.finditer(text):
        label = m.group("label")
        if m.group("code") and not _ACCESS.search(label):
            continue
        if _PLACE_NUMBER.fullmatch(m.group("code") or "") and not _ACCESS.search(
            _NUMBERED_PLACE.sub("", label)
        ):
            continue  # a locker's or a door's number is its name (储物柜号码 1204)
        if m.group("secret") in ("PIN", "pin") and not re.search(r"[^\x00-\x7f]", label):
            continue  # an English PIN is the prose detector's
        value = m.group("value")
        if _secret_value(value, text[m.end("value") : m.end("value") + 3], looks_like_secret):
            spans.append((m.start("value"), m.end("value")))
    return spans


# --- access verbs -----------------------------------------------------------------------

_NUM = r"(?P<value>[#*]?\d(?:[\d -]{2,10})?\d[#*]?)"
_OPEN_EN = (
    r"(?:opens?|opened|unlocks?|unlocked|disarms?|disarmed|deactivates?|deactivated|"
    r"(?:switch(?:es|ed)?|turns?|turned)\s+(?:it\s+)?off|gets?\s+(?:me|us|you)\s+in|"
    r"lets?\s+(?:me|us|you)\s+in)"
)
_ACCESS_VERB = [
    re.compile(
        rf"\b{_OPEN_EN}\s+(?:(?:it|them|the\s+\w+)\s+)?(?:with|on|using|by\s+(?:entering|typing|"
        rf"keying\s+in|punching\s+in|pressing))\s+(?:the\s+)?(?:code\s+|number\s+|digits\s+)?{_NUM}",
        re.IGNORECASE,
    ),
    re.compile(
        rf"\btakes?\s+{_NUM}\s+to\s+(?:open|unlock|disarm|deactivate|switch\s+(?:\w+\s+){{0,2}}off|"
        r"turn\s+(?:\w+\s+){0,2}off|get\s+in)",
        re.IGNORECASE,
    ),
    _ENTER := re.compile(
        rf"\b(?:enter|punch\s+in|key\s+in|tap\s+in)\s+{_NUM}\s*(?=when\b|once\b|before\b|at\s+the\b|"
        r"on\s+the\b|then\b|and\s+(?:press|hit|wait)|[,.;]|$)",
        re.IGNORECASE,
    ),
    re.compile(
        rf"(?:输入|输|按|用)\s*{_NUM}\s*(?:就能|就可以|才能|即可|来|去)?"
        r"(?:开门|開門|开锁|開鎖|解锁|解鎖|撤防|进门|進門|打开|打開)"
    ),
    re.compile(
        rf"(?:开门|開門|开锁|開鎖|解锁|解鎖|撤防|进门|進門)(?:要|得|需要|时|時)?(?:输入|輸入|按|输|用)\s*{_NUM}"
    ),
    re.compile(rf"{_NUM}\s*で(?:開き|開け|開く|解錠)"),
    # English labels: an access word, then a number noun ("the unlock number … is 66120");
    # a numbered place's number (a door, gate, locker, garage or entry number) is its name.
    re.compile(
        r"\b(?:(?:unlock|lock|door|gate|alarm|safe|vault|locker|lockbox|keypad|padlock|entry|"
        r"garage|disarm|arming)\s+(?:digits|combo|combination|sequence)s?"
        r"|(?:unlock|lock|alarm|safe|vault|lockbox|keypad|padlock|disarm|arming)\s+numbers?)\b"
        rf"(?:\s+(?:for|on|of)\s+(?:\w+\s+){{0,3}}?)?\s*(?:is|was|are|:|=|-)\s*(?:now\s+)?{_NUM}",
        re.IGNORECASE,
    ),
]


# Asked only where their literals are (memory/detectors/literal_gated.py); ``_ENTER`` is
# its list's own wrapper (the rule below tells it by identity).
_ACCESS_VERB = [literal_gated(rx) for rx in _ACCESS_VERB]
_ENTER = next(rx for rx in _ACCESS_VERB if rx.prefilter_pattern is _ENTER)


def access_verb_spans(text: str) -> list[tuple[int, int]]:
    """Numbers that open, unlock or disarm something (the module docstring)."""
    spans = []
    for rx in _ACCESS_VERB:
        for m in rx.finditer(text):
            value = m.group("value")
            digits = re.sub(r"[\s#*-]", "", value)
            if not 4 <= len(digits) <= 10:
                continue
            # "Enter 2026 in the year field": a bare entered number that reads as a year is
            # not taken for a code; one that opens or disarms something is one.
            if rx is _ENTER and re.fullmatch(r"(?:19|20)\d\d", digits):
                continue
            if _UNIT_AFTER.match(text, m.end("value")):
                continue
            spans.append((m.start("value"), m.end("value")))
    return spans


# --- keys with a checksum or an alphabet ------------------------------------------------

_BITLOCKER = re.compile(r"(?<![\d-])\d{6}(?:[- ]?\d{6}){7}(?![\d-])")
_BASE32 = re.compile(
    r"(?<![A-Za-z0-9])(?:[A-Z2-7]{32}|[a-z2-7]{32}|[A-Z2-7]{52}|[a-z2-7]{52})(?![A-Za-z0-9])"
)


def keyed_format_spans(text: str) -> list[tuple[int, int]]:
    """A BitLocker recovery key (48 digits in eight blocks, each a multiple of 11 below
    720,896: a random number passes one in 200 million times), and an authenticator
    secret in RFC 4648 base32 of the lengths apps issue (160 or 256 bits: 32 or 52
    characters of A–Z and 2–7 with digits among the letters)."""
    spans = []
    for m in _BITLOCKER.finditer(text):
        blocks = re.findall(r"\d{6}", re.sub(r"[- ]", "", m.group()))
        if all(int(b) % 11 == 0 and int(b) < 720896 for b in blocks):
            spans.append((m.start(), m.end()))
    for m in _BASE32.finditer(text):
        token = m.group()
        if sum(c.isdigit() for c in token) >= 2 and sum(c.isalpha() for c in token) >= 16:
            spans.append((m.start(), m.end()))
    return spans
