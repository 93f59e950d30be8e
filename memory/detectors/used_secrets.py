"""Secrets recognised by how they are used, delivered or agreed (round 7 of issue 32).

The other rules find a value beside a credential word, a label or a lock. People also name
a secret by what they *do* with it, without any of those words; each rule here reads one
such structure, whatever the service, device or value:

- **what is keyed in**: "the thing you type to join it is X", "what I enter at the cash
  machine is N", 取款按的那六位数是 N, 连它要输 X — a relative clause or a 的-phrase whose verb
  is an entry verb (type, enter, key in, punch in, tap in; 输, 输入, 按, 键入, 填) then an
  explicit "is"/是/: and a value of secret shape;
- **a count of digits that the value has**: "the four digits for my card are 7391",
  カードの4桁は 7391, 那六位数是 350918, 네 자리는 4821 — the number of digits announced
  equals the length of the value (a check no phone, price or year passes by chance), with
  the thing it belongs to one that has a PIN or a code (a card, a lock, a door, a safe, a
  phone, an account, a payment); "the last four digits" of an identifier is not a secret;
- **a code delivered and handed on**: "Lyft just texted 604 118, can you punch it in" —
  a delivery verb (texted, sent, messaged; 发来, 发了) before a four- to eight-digit code,
  and a request to enter or read it back in the same message; a one-time code;
- **a word agreed between people**: a code word, safe word, agreed word, family or
  emergency word or phrase ("our family's agreed word … is gooseberry", 接头语, 约定的词);
  the value after "is"/是/: is the secret, in any script;
- **"pass" for a login**: "the pass for my work VPN is X" (a pass for an account or a
  machine, not a bus or boarding pass), with a value of secret shape;
- **a login written as a pair**: an e-mail address, or a network's name after a Wi-Fi
  word, then a separator and a token of secret shape ("ana@post.com → Cinnamon77",
  "Wi-Fi: Hazelbrook / pebble-moon-33"); a value one logs in or signs in with;
- **a code tied to what it opens**: "it's 8842 for the alarm", "8842 is what disarms
  it", "phone unlock: 291400" (closed: the kinds of lock and device);
- **words in a Chinese password field**: 开机口令：爱你一万年 (after a colon; a status
  such as 已重置 or a negation is not a value);
- **a password on a command line**: ``-p<value>`` attached where ``-u`` names the user
  (the MySQL/MariaDB client convention), ``sshpass -p``, and any long option or variable
  whose name is a password noun (``--password=``, ``--passwd``, ``PGPASSWORD=``);
- **digits read aloud with "double"/"triple"** ("double seven, two, five") in a sentence
  about a lock, a keypad or a credential: read as digits, a code of four or more.

Each returns spans of the text it was given. Every rule is searched through the literal
prefilter (``memory.detectors.prefilter``), so a text holding none of a rule's words costs
one set look-up.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable

from memory.detectors.prefilter import search_any
from memory.detectors.switches import detection_switch

# A value: digits (spaced, hyphenated, with a keypad # or *) or a token of printable ASCII.
_VALUE = r"(?P<value>[#*]?\d(?:[\d -]{2,14})?\d[#*]?|[!-~]{4,40})"
_VALUE2 = _VALUE.replace("<value>", "<value2>")
_COPULA_EN = r"(?:\s+(?:is|are|was)\s+|\s*[:=]\s*)(?:just\s+|always\s+|still\s+)?[\"“']?"

# --- what is keyed in ---------------------------------------------------------------------
# Entry verbs (closed: the verbs of typing on a keypad or keyboard).
_ENTRY_EN = r"(?:type|enter|key|punch|tap|put|input)(?:s|ed)?(?:\s+in)?"
_KEYED_EN = re.compile(
    r"\b(?:the\s+)?(?:thing|one|word|number|digits|code|string|bit|what)\s+(?:that\s+)?"
    r"(?:you|i|we|they|he|she)\s+(?:have\s+to\s+|need\s+to\s+|must\s+|always\s+|just\s+)?"
    rf"{_ENTRY_EN}\b[^.!?\n]{{0,50}}?{_COPULA_EN}{_VALUE}",
    re.IGNORECASE,
)
_ENTRY_ZH = r"(?:输入|輸入|键入|鍵入|输|輸|按|填)"
_KEYED_ZH = re.compile(
    rf"(?:{_ENTRY_ZH})的(?:是|那串|那个|那個|那几位|那幾位|那|就是)?[^。！？；\n，,]{{0,8}}?"
    rf"(?:是|为|為|：|:)\s*{_VALUE}"
    rf"|(?:要|得|需要|就)(?:{_ENTRY_ZH})\s*{_VALUE2}"
)

# --- a count of digits --------------------------------------------------------------------
_COUNT_WORDS = {
    "three": 3, "four": 4, "five": 5, "six": 6, "eight": 8,
    "三": 3, "四": 4, "五": 5, "六": 6, "八": 8, "세": 3, "네": 4, "다섯": 5, "여섯": 6,
}  # fmt: skip
_COUNT = re.compile(
    r"\b(?P<en>three|four|five|six|eight|[3-8])[- ]digits?(?:\s+(?:number|code|pin))?\b"
    r"(?P<en_tail>[^.!?\n]{0,40}?)(?:\s+(?:is|are|was)\s+|\s*[:=]\s*)(?:now\s+)?"
    r"|(?P<zh>[三四五六八3-8])\s*(?:位数字?|位數字?|位|碼|码|个数字?|個數字?)(?P<zh_tail>[^。！？；\n]{0,4}?)"
    r"(?:是|为|為|：|:)\s*"
    r"|(?P<ja>[3-8])\s*桁(?:の(?:番号|数字))?\s*(?:は|：|:)\s*"
    r"|(?P<ko>세|네|다섯|여섯|[3-8])\s*자리(?:\s*(?:숫자|번호))?\s*(?:는|은|:)\s*",
    re.IGNORECASE,
)
# What the digits belong to must have a PIN or a code (closed: cards, locks, doors, safes,
# alarms, phones, accounts, payments), said in the same sentence before the count.
_HOLDER = re.compile(
    r"\b(?:card|debit|credit|atm|cash\s+machine|bank|account|lock|padlock|door|gate|safe|"
    r"alarm|keypad|phone|sim|voicemail|login|payment|pin|passcode)s?\b|"
    r"卡|锁|鎖|门|門|保险|保險|报警|報警|手机|手機|银行|銀行|账户|賬戶|账号|帳號|取款|取钱|支付|付款|"
    r"提款|登录|登錄|カード|暗証|口座|ロック|ドア|金庫|카드|계좌|도어|현관|금고|비밀",
    re.IGNORECASE,
)
# "The last four digits", 后四位, 下4桁: a fragment of an identifier, not a secret.
_FRAGMENT = re.compile(r"(?:last|first|final|ending)\s*$|[后後前末下上]\s*$|(?:끝|앞|뒤)\s*$", re.I)

# --- a code delivered and handed on -------------------------------------------------------
_DELIVERED = re.compile(
    r"\b(?:texted|sms(?:ed|'d)?|messaged|sent|pinged|emailed|gave)\s+(?:me\s+|us\s+)?"
    r"(?:a\s+|the\s+)?(?P<value>\d{2,4}(?:[ -]?\d{2,4}){0,2}|\d(?:\s\d){3,7})(?![\d]|[.,:][\d]|[ -]\d)"
    r"|(?:发来|發來|发了|發了|发过来|發過來|给我发|給我發)(?:了)?\s*(?P<zh>\d{2,4}(?:\s?\d{2,4}){0,2})(?!\d|\s\d)",
    re.IGNORECASE,
)
_HANDED_ON = re.compile(
    r"\b(?:punch|type|key|tap|put|enter|read|fill|copy)(?:\s+it|\s+that|\s+them)?\s+(?:in|back|out)\b"
    r"|\b(?:enter|type|input)\s+(?:it|that)\b|帮我(?:输|輸|填|念)|幫我(?:輸|填|念)|(?:输|輸|填)进去|(?:输|輸|填)一下",
    re.IGNORECASE,
)
# The user as the sender: "I (just) sent", "we've texted".
_SENT_BY_ME = re.compile(
    r"\b(?:i|we|i've|we've|i'd|we'd)(?:\s+(?:just|already|have|had|then|also))*\s+$|我(?:刚|剛|已经|已經)?$",
    re.IGNORECASE,
)

# --- a word agreed between people ---------------------------------------------------------
_AGREED = re.compile(
    r"\b(?:code|safe|secret|agreed|family|emergency|duress|challenge|check)[\s-]?(?:word|phrase)s?\b"
    r"|\bcodewords?\b|\bpassword\s+we\s+agreed\b"
    r"|接头语|接頭語|约定的(?:词|詞|话|話|暗语|暗語)|約定的(?:詞|話|暗語)|暗语|暗語|合言葉|암호\s?말",
    re.IGNORECASE,
)
_AGREED_VALUE = re.compile(
    r"[^.!?。！？\n]{0,70}?(?:\s(?:is|was)\s+|[:：=]\s*|是|為|为|は|는|은)\s*"
    r"[\"“'‘「『]?(?P<value>[^\"”'’」』,，。.!?！？;；\n]{2,40})"
)
_NOT_A_VALUE = re.compile(
    r"^(?:a|an|the|my|our|your|his|her|their|this|that|something|nothing|secret|private|"
    r"important|useful|needed|what|which|how|not|never|no|just|like|for|to|only|still)\b"
    r"|^(?:什么|什麼|啥|多少|秘密|保密|很|挺|不|没|沒|必要|有用)",
    re.IGNORECASE,
)
_FRAME = re.compile(
    r"\b(?:novel|film|movie|story|book|show|series|game|news|article|should|how\s+to|e\.g)\b|\?|？"
    r"|小说|小說|电影|電影|电视剧|電視劇|故事|新闻|新聞|报道|報導|游戏|遊戲|怎么|怎麼|吗|嗎",
    re.IGNORECASE,
)

# --- "pass" as the noun of a login -----------------------------------------------------
# "The pass for my work VPN is X": a pass *for* something one logs into (closed: the kinds
# of account and machine), unlike a bus pass, a boarding pass or a mountain pass.
_PASS_FOR = re.compile(
    r"\bpass\s+(?:for|to|into|on)\s+(?:my|the|our|your)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:vpn|wifi|wi-fi|account|email|e-mail|login|laptop|computer|pc|mac|phone|server|router|"
    r"portal|site|website|app|network|database|db|admin|console|intranet|nas)\b"
    rf"[^.!?\n]{{0,12}}?{_COPULA_EN}{_VALUE}"
    # or "pass:" as a field of a login written out ("user: ana / pass: tulip-77")
    r"|\bpass\s*[:=]\s*[\"']?" + _VALUE2,
    re.IGNORECASE,
)

# --- a login written as a pair -----------------------------------------------------------
# An account (an e-mail address, or a network's name after a Wi-Fi word) and, after a
# separator, a token of secret shape: "Netflix → ana@post.com → Cinnamon77",
# "Wi-Fi here: Hazelbrook / pebble-moon-33". A mailbox followed by a password-shaped token
# is a login; a mailbox followed by a phone number, a date or a word is not (the shape test).
_PAIR = re.compile(
    r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+\s*(?:[/|;:>\u2192]|->|-|=>|\band\b|\bpw\b)+\s*"
    r"[\"'“]?(?P<value>[!-~]{4,64})"
    r"|\b(?:wi-?fi|wlan|ssid|hotspot)\b[^.!?\n/|]{0,16}?[:\s]\s*[\"'“]?[^\s/|,;\"”]{2,32}[\"'”]?"
    r"\s*(?:[/|,;>\u2192]|->)\s*[\"'“]?(?P<value2>[!-~]{8,63})",
    re.IGNORECASE,
)

# --- a code tied to what it opens -------------------------------------------------------
# "It's 8842 for the alarm", "8842 is what disarms it", "Phone unlock: 291400": a number
# given for a lock, an alarm or a device one unlocks (closed: kinds of lock and device).
_DEVICE = (
    r"(?:alarm|safe|padlock|keypad|lock|lockbox|door|gate|garage|shed|locker|vault|phone|"
    r"iphone|ipad|tablet|laptop|computer|pc|mac|screen|atm|cash\s+machine)"
)
_TIED = re.compile(
    r"\b(?:it's|it\s+is|that's|use|try|just)\s+(?P<value>[#*]?\d(?:[\d -]{2,10})?\d[#*]?)\s+"
    rf"(?:for|on|at)\s+(?:the|my|our)\s+(?:[\w'-]+\s+)?{_DEVICE}s?\b"
    r"|(?P<value2>[#*]?\d(?:[\d -]{2,10})?\d[#*]?)\s+(?:is|was)\s+what\s+(?:\w+\s+)?"
    r"(?:opens|unlocks|disarms|switches|turns|gets|lets)\b"
    rf"|\b{_DEVICE}\s+(?:unlock|passcode|pin)\s*[:=]\s*(?P<value3>[#*]?\d(?:[\d -]{{2,10}})?\d[#*]?)",
    re.IGNORECASE,
)
# Every match of ``_TIED`` holds its value's digits: two digits at most eleven characters
# of digits, spaces and hyphens apart. Its words ("use", "it", "the") are in most texts and
# inside others ("user"), so the literal prefilter lets it through nearly everywhere; the
# digits are in few texts (``ENGRAM_DETECTOR_TIED_DIGIT_GATE``).
_TIED_VALUE = re.compile(r"\d(?:[\d -]{2,10})?\d")


class _DigitGated:
    """``_TIED`` in the rule lists: searched only where ``_TIED_VALUE`` finds something
    (gate on); the prefilter reads ``_TIED``'s literals through ``prefilter_pattern``."""

    __slots__ = ()
    prefilter_pattern = _TIED

    def search(self, text: str):
        if detection_switch("TIED_DIGIT_GATE") and not _TIED_VALUE.search(text):
            return None
        return _TIED.search(text)


# "Everything I log into uses X", "I sign in with X": a value one logs in with.
_LOGIN_WITH = re.compile(
    r"\b(?:log(?:ged|s)?\s*(?:in|on)(?:to)?|sign(?:ed|s)?\s*(?:in|on)(?:to)?)\b[^.!?\n]{0,30}?"
    r"\b(?:with|using|uses|use)\s+(?:the\s+password\s+)?[\"'“]?(?P<value>[!-~]{6,40})",
    re.IGNORECASE,
)

# "I've used Mochi2019 for all my accounts", "the same one everywhere: X", 我所有账号都用 X,
# 用 X 登录所有网站, 全部のアカウントで X を使ってる, 모든 계정에 X 써: one value kept for every
# login is a password whatever it is called (the scope is what says so: all of one's
# accounts, sites or cards, everywhere; a tool "to manage" them is not a value).
_SCOPE_EN = (
    r"(?:(?:for|on|across|with|in)\s+(?:(?:pretty\s+much|nearly|almost|just\s+about|basically)\s+)?"
    r"(?:all|every|each|most|both|any)(?:\s+of)?\s+(?:my\s+|the\s+|our\s+)?"
    r"(?:[\w-]+\s+)?(?:accounts?|sites?|websites?|logins?|apps?|services?|cards?)\b|everywhere\b|"
    r"for\s+(?:everything|all\s+of\s+them)\b)"
)
_SCOPE_ZH = r"(?:所有|每个|每個|全部|各个|各個|几个|幾個|这些|這些|两个|兩個)的?(?:账号|账户|帳號|帳戶|网站|網站|app|平台|银行卡|銀行卡|卡)"
_REUSED = re.compile(
    r"\b(?:re)?us(?:e|es|ed|ing)\s+[\"'“]?(?P<value>[!-~]{4,40}?)[\"'”]?\s+(?!to\s)[^.!?\n:]{0,24}?"
    + _SCOPE_EN
    + r"|\bthe\s+same\s+(?:one|password|thing|pin|code)\s+"
    + _SCOPE_EN
    + r"\s*(?:[:—–-]|,\s*(?:it's|namely))\s*[\"'“]?(?P<value2>[!-~]{4,40})"
    r"|(?P<value3>[!-~]{4,40})\s+is\s+what\s+(?:i|we)\s+(?:always\s+)?use\s+[^.!?\n]{0,20}?"
    + _SCOPE_EN
    + r"|"
    + _SCOPE_ZH
    + r"(?:都|全都|全|一律|统一|統一)(?:是|用的是|用|设成|設成)\s*[\"“「]?(?P<value4>[!-~]{4,40}?)[\"”」]?"
    r"(?=$|[\s，,。！!；;]|(?!注册|註冊|绑定|綁定|手机|手機|邮箱|郵箱)[\u3400-\u9fff])"
    r"|用\s*(?P<value5>[!-~]{4,40}?)\s*(?:登录|登陆|登入|登錄)"
    + _SCOPE_ZH
    + r"|(?:全部|すべて|全て)の(?:アカウント|サイト|サービス|カード)(?:で|に|は|も)(?:全部|同じ)?\s*"
    r"(?P<value6>[!-~]{4,40}?)\s*(?:を|で)?(?:使|にして)"
    r"|(?:모든|전부|다른)\s*(?:계정|사이트|카드)(?:에|에서|은|는|도)?\s*(?:다|전부|똑같이)?\s*"
    r"(?P<value7>[!-~]{4,40}?)\s*(?:을|를|로|으로)?\s*(?:써|쓰|사용)",
    re.IGNORECASE,
)

# --- a field of words after a password noun in Chinese --------------------------------------
# "开机口令：爱你一万年": after a colon the field's value may be words; a status (已重置),
# a negation or a request is not one.
_CJK_FIELD = re.compile(
    r"(?:密码|密碼|口令|暗号|暗號|暗语|暗語)(?:短语|短語)?\s*[:：]\s*[“\"「]?"
    r"(?P<value>(?![已未不没沒错錯对對忘改重请請需要无無略同和跟见見在见])[\u3400-\u9fff]{2,12})"
    r"[”\"」]?(?=$|[，,。！!；;\s\n])"
)

# --- a password on a command line ---------------------------------------------------------
_COMMAND = re.compile(
    r"(?:^|\s)-u\s?\S+\s+(?:\S+\s+)*?-p(?P<attached>[^\s-]\S{2,})"
    r"|\bsshpass\s+-p\s*[\"']?(?P<sshpass>[^\s\"']{3,})"
    # Redis-protocol clients take the password as -a; smbclient as -U user%password
    r"|\b(?:redis|keydb|valkey)-cli\b[^\n]*?\s-a\s+[\"']?(?P<redis>[^\s\"']{3,})"
    r"|\bsmbclient\b[^\n]*?\s-U\s*[\"']?[^\s%\"']+%(?P<smb>[^\s\"']{3,})"
    r"|(?:^|\s)--?(?:password|passwd|pass|pwd|secret|token|api-key)(?:=|\s+)[\"']?(?P<long>[^\s\"']{3,})"
    r"|\b[A-Z][A-Z0-9]*_?(?:PASSWORD|PASSWD|PASS|PWD|SECRET|TOKEN|AUTH)\s*=\s*[\"']?(?P<env>[^\s\"']{3,})",
    re.MULTILINE,
)

# --- digits read aloud --------------------------------------------------------------------
_SPOKEN_DIGIT = r"(?:zero|oh|nought|one|two|three|four|five|six|seven|eight|nine)"
_SPOKEN = re.compile(
    rf"\b(?:(?:double|triple)\s+)?{_SPOKEN_DIGIT}(?:[\s,-]+(?:(?:double|triple)\s+)?{_SPOKEN_DIGIT}){{1,9}}\b",
    re.IGNORECASE,
)
_MULTIPLIER = re.compile(r"\b(?:double|triple)\b", re.IGNORECASE)
_SPOKEN_CONTEXT = re.compile(
    r"\b(?:keypad|padlock|lock|alarm|safe|gate|door|garage|code|pin|passcode|password|"
    r"combination|combo|entry|panel|vault|locker|atm)s?\b",
    re.IGNORECASE,
)

_RULES = (
    _KEYED_EN,
    _KEYED_ZH,
    _PASS_FOR,
    _PAIR,
    _TIED,
    _LOGIN_WITH,
    _REUSED,
    _CJK_FIELD,
    _COUNT,
    _DELIVERED,
    _AGREED,
    _COMMAND,
    _SPOKEN,
)
# One list per rule, kept for the process: the prefilter plans each list once. ``_TIED``
# is asked through its digit gate.
_GATES = {id(rx): [_DigitGated() if rx is _TIED else rx] for rx in _RULES}
_ALL = [_GATES[id(rx)][0] for rx in _RULES]
_UNIT_AFTER = re.compile(
    r"\s*(?:元|块|塊|円|원|分|号|號|楼|樓|岁|歲|年|月|日|天|次|个|個|人|%|万|萬|"
    r"minutes?|mins?|seconds?|hours?|days?|times|people|dollars?|pounds?|euros?|points?|"
    r"am\b|pm\b|km|kg|miles?)",
    re.IGNORECASE,
)


def _gate(rx: re.Pattern[str], text: str) -> bool:
    return search_any(_GATES[id(rx)], text)


def _sentence_start(text: str, at: int) -> int:
    return max(text.rfind(mark, 0, at) for mark in ".!?。！？；;\n") + 1


def _code_value(value: str, after: str, looks_like_secret: Callable[[str], bool]) -> bool:
    """A code of four to twelve digits (not a year, no unit after it) or a token of
    secret shape."""
    core = value.strip().rstrip(".,;:!?。，")
    digits = re.sub(r"[\s#*-]", "", core)
    if digits.isdigit():
        return (
            4 <= len(digits) <= 12
            and not re.fullmatch(r"19\d\d|20[0-3]\d", digits)
            and not _UNIT_AFTER.match(after)
        )
    return looks_like_secret(core)


def _trimmed(m: re.Match[str], group: str = "value") -> tuple[int, int]:
    start, end = m.span(group)
    value = m.group(group)
    return start, start + len(value.rstrip(".,;:!?。，\"”'’)"))


def keyed_spans(text: str, looks_like_secret: Callable[[str], bool]) -> list[tuple[int, int]]:
    spans = []
    for rx in (_KEYED_EN, _KEYED_ZH, _PASS_FOR):
        if not _gate(rx, text):
            continue
        for m in rx.finditer(text):
            start, end = _trimmed(m, "value" if m.group("value") is not None else "value2")
            if _code_value(text[start:end], text[end : end + 8], looks_like_secret):
                spans.append((start, end))
    return spans


def _count_of(m: re.Match[str]) -> int:
    word = next(m.group(g) for g in ("en", "zh", "ja", "ko") if m.group(g))
    return int(word) if word.isdigit() else _COUNT_WORDS[word.lower()]


def paired_spans(text: str, looks_like_secret: Callable[[str], bool]) -> list[tuple[int, int]]:
    """Logins written as pairs, codes tied to what they open, values logged in with, and
    words in a Chinese password field (the module docstring)."""
    spans = []
    for rx in (_PAIR, _TIED, _LOGIN_WITH, _REUSED, _CJK_FIELD):
        if not _gate(rx, text):
            continue
        for m in rx.finditer(text):
            group = next(g for g in rx.groupindex if g.startswith("value") and m.group(g))
            start, end = _trimmed(m, group)
            value = text[start:end]
            if rx is _CJK_FIELD:
                spans.append((start, end))
            elif rx is _TIED:
                # "it's 1200 for the laptop": a round number for a thing is its price
                if (
                    group == "value"
                    and value.isdigit()
                    and value[0] != "0"
                    and int(value) % 50 == 0
                ):
                    continue
                if _code_value(value, text[end : end + 8], looks_like_secret):
                    spans.append((start, end))
            elif rx is _REUSED and re.fullmatch(r"\d[A-Z][a-z]+", value):
                continue  # a number before a capitalised word names a product ("1Password")
            elif "@" not in value and "://" not in value and looks_like_secret(value):
                # Beside a mailbox, a short token ("Python3") may be a name: eight or more
                # characters, or a symbol in it, as sign-up forms ask.
                if rx is not _PAIR or len(value) >= 8 or re.search(r"[^\w-]", value):
                    spans.append((start, end))
    return spans


def counted_spans(text: str) -> list[tuple[int, int]]:
    spans = []
    if not _gate(_COUNT, text):
        return spans
    for m in _COUNT.finditer(text):
        value = re.match(r"[#*]?\d(?:[\d -]*\d)?", text[m.end() :])
        if not value:
            continue
        digits = re.sub(r"[\s-]", "", value.group())
        if len(digits) != _count_of(m) or _UNIT_AFTER.match(text, m.end() + value.end()):
            continue
        lo = _sentence_start(text, m.start())
        if _FRAGMENT.search(text, lo, m.start()) or not _HOLDER.search(text, lo, m.end()):
            continue
        spans.append((m.end(), m.end() + value.end()))
    return spans


def delivered_spans(text: str) -> list[tuple[int, int]]:
    spans = []
    if not _gate(_DELIVERED, text) or not _HANDED_ON.search(text):
        return spans
    for m in _DELIVERED.finditer(text):
        if _SENT_BY_ME.search(text, max(0, m.start() - 24), m.start()):
            continue  # "I sent 2000 to …": what the user sends is not a code they received
        group = "value" if m.group("value") else "zh"
        digits = re.sub(r"[\s-]", "", m.group(group))
        if 4 <= len(digits) <= 8 and not _UNIT_AFTER.match(text, m.end(group)):
            spans.append(m.span(group))
    return spans


def agreed_word_spans(text: str) -> list[tuple[int, int]]:
    spans = []
    if not _gate(_AGREED, text):
        return spans
    for m in _AGREED.finditer(text):
        lo = _sentence_start(text, m.start())
        value = _AGREED_VALUE.match(text, m.end())
        if not value or _NOT_A_VALUE.match(value.group("value").strip()):
            continue
        hi = value.end()
        if _FRAME.search(text, lo, hi + 2):
            continue
        start, end = _trimmed(value)
        spans.append((start, end))
    return spans


def command_line_spans(text: str) -> list[tuple[int, int]]:
    spans = []
    if not _gate(_COMMAND, text):
        return spans
    for m in _COMMAND.finditer(text):
        group = next(
            g for g in ("attached", "sshpass", "redis", "smb", "long", "env") if m.group(g)
        )
        value = m.group(group)
        if value.upper() in ("$PASSWORD", "PASSWORD", "<PASSWORD>", "XXX", "***"):
            continue
        if group in ("redis", "smb") and value[0] in "$<{%":  # a variable, a placeholder
            continue
        spans.append(_trimmed(m, group))
    return spans


def spoken_code_spans(text: str) -> list[tuple[int, int]]:
    spans = []
    if not _gate(_SPOKEN, text) or not _MULTIPLIER.search(text):
        return spans
    for m in _SPOKEN.finditer(text):
        count, times = 0, 1
        for word in re.findall(r"[a-z]+", m.group().lower()):
            if word in ("double", "triple"):
                times = 2 if word == "double" else 3
            else:
                count, times = count + times, 1
        lo = _sentence_start(text, m.start())
        if count >= 4 and _SPOKEN_CONTEXT.search(text, lo, m.end()):
            spans.append(m.span())
    return spans


def used_secret_spans(text: str, looks_like_secret: Callable[[str], bool]) -> list[tuple[int, int]]:
    """Every secret of the module docstring's kinds in ``text``."""
    if not search_any(_ALL, text):  # one pass of the prefilter for every rule (most texts)
        return []
    return (
        keyed_spans(text, looks_like_secret)
        + paired_spans(text, looks_like_secret)
        + counted_spans(text)
        + delivered_spans(text)
        + agreed_word_spans(text)
        + command_line_spans(text)
        + spoken_code_spans(text)
    )


# --- obfuscations of the whole text -------------------------------------------------------
# A symbol outside ASCII (an emoji, a bullet, a star: not CJK punctuation, which lists use)
# repeated between single letters, digits or CJK characters: "4🔸8🔸2🔸1", "密🌸码🌸是🌸7".
# The detection form joins such runs of letters; digits it leaves, since ASCII "1-2-3" and
# "1/2/3" are ranges and dates. Each copy of the symbol (with an emoji's variation selector
# or joiner) becomes a zero-width space, which the detection form drops.
_SEPARATOR_RUN = re.compile(
    r"[0-9A-Za-z\u3400-\u9fff](?P<sep>[^\x00-\x7f\w\s\u3000-\u303f\uff00-\uffef\u2018-\u201f]"
    r"[\ufe0f\u200d]?)(?:[0-9A-Za-z\u3400-\u9fff](?P=sep)){2,}[0-9A-Za-z\u3400-\u9fff]"
)


def hide_separators(text: str) -> str:
    """``text`` with each repeated separator of ``_SEPARATOR_RUN`` as zero-width spaces
    (same length and positions); ``text`` itself when there is none."""
    if text.isascii():
        return text
    out = list(text)
    found = False
    for m in _SEPARATOR_RUN.finditer(text):
        sep = m.group("sep")
        for i in range(m.start(), m.end()):
            if text.startswith(sep, i) and i > m.start():
                for k in range(i, i + len(sep)):
                    out[k] = "\u200b"
                found = True
    return "".join(out) if found else text


# The ten commonest letters of English make up about 70 % of its letters and about 25 % of
# its ROT13: which of the two reads as English is a matter of counting.
_COMMON_LETTERS = "etaoinsrhl"
_COMMON_AFTER_ROT13 = codecs.encode(_COMMON_LETTERS, "rot13")
_ALPHABET = "abcdefghijklmnopqrstuvwxyz"


def rot13_reading(text: str) -> str | None:
    """ROT13 of ``text`` when that reads more like English than ``text`` (at least twelve
    letters, and a fifth more of them among the commonest), else None. Counted on the text
    itself (the letters ROT13 turns into the common ones), decoded only when it passes."""
    low = text.lower()
    letters = sum(map(low.count, _ALPHABET))
    if letters < 12:
        return None
    common = sum(map(low.count, _COMMON_LETTERS))
    rot_common = sum(map(low.count, _COMMON_AFTER_ROT13))
    return codecs.decode(text, "rot13") if rot_common >= common + 0.2 * letters else None
