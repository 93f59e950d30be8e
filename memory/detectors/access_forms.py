"""Codes recognised by what they open, in the orders and scripts ``labelled`` lacks
(round 4 of issue 32).

``labelled`` reads a Chinese/Japanese/Korean label that names what a code opens
(门禁密码, 撤防码) and the English "<access word> code/number is N" and "opens with N". The
same facts are said in the other orders and scripts too; each rule here is the parity of
one ``labelled`` already has:

- **noun first, lock after** (English): "the combination for the padlock on the shed is N",
  "the number you punch at the ATM is N" — the Chinese label 保险柜的密码 reads that way;
- **the lock takes N** (English): "the keypad by the gate takes N", "the lock box wants N";
- **purpose, then the keys** (English and Chinese): "to disarm the alarm … punch N",
  解除布防，输 N — the reverse of "N to switch it off" and 输入 N 开门;
- **digits written as Chinese numerals** (一二三 … 零, 幺): a run of four or more is read as
  digits (same length, same positions), as ``formats`` already does for 大写 numerals;
- **a dial combination read as turns** ("left 14, right 33", 左转27右转4) in a sentence
  about a safe, a lock or a combination;
- **an answer to a standard security question** (mother's maiden name, first pet, first
  school …) that was given or "set to" a value: a password by agreement;
- **a card security code named by where it is printed** (ISO/IEC 7812 cards carry it on
  the back): "the three digits on the back are N", 卡背面的三位数是 N, 裏面の3桁, 뒷면 3자리.

A number needs four to ten digits (a card code three or four) and no unit after it, so a
room, a bus, a flat, a train time or "takes 2 AA batteries" is not a code.
"""

from __future__ import annotations

import re

from memory.detectors.literal_gated import literal_gated

_NUM = r"(?P<value>[#*]?\d(?:[\d -]{2,10})?\d[#*]?)"
# Things a short code opens or guards (closed: the kinds of keypad, lock and alarm).
_LOCK_EN = (
    r"(?:pad|bike|combination|door|gate|cable)?\s*lock|padlock|lock\s*box|key\s*safe|safe|vault|"
    r"alarm|keypad|locker|atm|cash\s+machine|cash\s+card|suitcase|dial"
)
_OPEN_PURPOSE_EN = r"disarm|open|unlock|deactivate|(?:switch|turn)\s+(?:\w+\s+){0,3}off|get\s+in(?:to)?|let\s+yourself\s+in"
_KEY_VERB_EN = r"enter|punch(?:\s+in)?|key(?:\s+in)?|type(?:\s+in)?|tap(?:\s+in)?|press|dial"
_UNIT_AFTER_EN = re.compile(
    r"\s*(?:minutes?|mins?|seconds?|secs?|hours?|days?|batteries|aa|aaa|volts?|kg|lbs?|pounds?|"
    r"dollars?|euros?|times|people|steps|metres?|meters?|feet|ft|%|st\b|nd\b|rd\b|th\b)",
    re.IGNORECASE,
)

_ACCESS_EN = [
    re.compile(
        r"\b(?:code|combination|combo|pin|passcode|digits|number\s+you\s+(?:punch|enter|type|key))"
        rf"\s+(?:\w+\s+){{0,2}}?(?:for|on|of|to|at|into)\s+(?:[\w']+\s+){{0,4}}?(?:{_LOCK_EN})\b"
        rf"[^.!?\n]{{0,24}}?\s(?:is|are|was|:|=)\s*(?:now\s+|set\s+to\s+)?{_NUM}",
        re.IGNORECASE,
    ),
    re.compile(
        rf"\b(?:{_LOCK_EN})\b[^.!?\n]{{0,30}}?\b(?:takes|wants|needs|accepts|is\s+set\s+to|"
        r"(?:(?:clicks|pops|springs|swings|comes)\s+)?opens?\s+(?:on|to|at|with))"
        rf"\s+{_NUM}",
        re.IGNORECASE,
    ),
    re.compile(
        rf"\bto\s+(?:{_OPEN_PURPOSE_EN})\b[^.!?\n]{{0,40}}?\b(?:{_KEY_VERB_EN})\s+(?:the\s+code\s+)?{_NUM}",
        re.IGNORECASE,
    ),
]
_ACCESS_ZH = re.compile(
    r"(?:撤防|布防|解除|开门|開門|开锁|開鎖|解锁|解鎖|进门|進門|门禁|門禁|储物柜|儲物櫃|密码箱|密碼箱|"
    r"保险柜|保險櫃|保险箱|保險箱|报警器|報警器|键盘|鍵盤|面板|"
    # a lock of any kind, a payment or a withdrawal (支付 …输 N, 门锁按 N)
    r"锁|鎖|支付|付款|付钱|付錢|取款|取钱|取錢|提款)[^。！？\n]{0,10}?"
    rf"(?:输入|輸入|输|輸|按|键入|鍵入|用的是|用的|用)\s*{_NUM}"
)
_CARD_CODE = re.compile(
    r"\b(?:three|four|3|4)[- ](?:digits?|numbers?)\s+(?:code\s+)?on\s+the\s+back"
    r"(?:\s+of\s+(?:the|my|your|his|her)\s+(?:[\w']+\s+)?card)?\s+(?:is|are|:|=|reads?)\s*(?P<v1>\d{3,4})\b"
    r"|\b(?:security\s+)?(?:digits|numbers?|code)\s+on\s+the\s+back\s+of\s+(?:the|my|your|his|her)\s+"
    r"(?:[\w']+\s+){0,2}?card\s+(?:is|are|:|=|reads?)\s*(?P<v2>\d{3,4})\b"
    r"|背面(?:的|那|上的)?(?:三|四|3|4)位(?:数字|数|數字|數|码|碼)?\s*(?:是|为|為|：|:)\s*(?P<v3>\d{3,4})"
    r"|裏(?:面)?の\s*[34]桁(?:の(?:番号|数字))?\s*(?:は|：|:)\s*(?P<v4>\d{3,4})"
    r"|뒷면(?:의)?\s*[34]\s*자리(?:\s*(?:숫자|번호))?\s*(?:는|은|:)?\s*(?P<v5>\d{3,4})",
    re.IGNORECASE,
)

# The standard security questions banks and sites ask (a closed, well-known set): an answer
# given to one, or one "set to" a value, is a password by agreement.
_SECURITY_QUESTION = re.compile(
    r"\b(?:mother'?s\s+maiden\s+name|first\s+pet(?:'s\s+name)?|first\s+(?:school|car|teacher|boss)|"
    r"favou?rite[\s-]teacher|(?:city|town|place)\s+(?:of\s+birth|(?:where\s+)?i\s+was\s+born(?:\s+in)?)|"
    r"(?:security|secret|memorable|verification)[\s-]question|"
    r"childhood\s+(?:street|best\s+friend|nickname|hero)|best\s+friend'?s\s+name|street\s+i\s+grew\s+up\s+on)"
    r"[^.!?\n]{0,60}?(?:answer(?:\s+(?:i|we)\s+(?:gave|set|used|put)(?:\s+(?:them|it|in))?)?\s+(?:is|was|:)|"
    r"(?:is|was)\s+set\s+to|set\s+(?:it\s+)?to|"
    r"\b(?:i|we)\s+(?:always\s+|just\s+)?(?:put|use|used|gave|give|type|typed|wrote|write|answered|said))"
    r"\s+[\"“']?(?P<value>(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)?)",
    re.IGNORECASE,
)

# The same in Chinese: a security question named as such (安全问题, 密保问题, the question of
# an account's recovery), then what was filled in or answered (填的是, 答的, 写了).
_SECURITY_QUESTION_ZH = re.compile(
    r"(?:安全问题|安全問題|密保问题|密保問題|验证问题|驗證問題|保密问题|保密問題|提示问题|提示問題|"
    r"找回(?:密码|密碼|账号|賬號|帐号|帳號)?(?:的|时|時)?(?:那道|问题|問題))"
    r"[^。！？\n]{0,24}?(?:填|答|写|寫|设|設|选|選)(?:的|了)?(?:是|的是)?\s*[“\"「]?"
    r"(?P<value>[^\s，,。！？”\"」]{1,16})"
)

# Japanese and Korean: the question named as such (秘密の質問, 보안 질문), then its answer.
_SECURITY_QUESTION_JA_KO = re.compile(
    r"(?:秘密の質問|セキュリティ質問|本人確認(?:の)?質問|合言葉)[^。！？\n]{0,24}?(?:答え|回答)(?:は|を|が|：|:)?\s*"
    r"[「『\"“]?(?P<value>[^\s、。！？」』\"”]{1,16})"
    r"|(?:보안\s*질문|비밀\s*질문|본인\s*확인\s*질문)[^.!?\n]{0,24}?(?:답변|대답|답)(?:은|는|을|이|:)?\s*"
    r"['\"‘“]?(?P<value_ko>[^\s,.!?'\"’”]{1,16})"
)

# A dial combination read as turns ("left 14, right 33", 左转27右转4) beside a lock word.
_TURNS = re.compile(
    r"\b(?:left|right)\s*(?:to\s+)?\d{1,2}\s*[,;]?\s*(?:then\s+)?(?:left|right)\s*(?:to\s+)?\d{1,2}"
    r"|(?:左|右)(?:转|轉|旋)?(?:到|至)?\s*\d{1,2}[^\d。！？\n]{0,6}?(?:左|右)(?:转|轉|旋)?(?:到|至)?\s*\d{1,2}"
    # turns counted before the number (左3圈到25 右2圈到10, 顺时针转两圈到 8)
    r"|(?:(?:左|右|顺时针|逆时针|順時針|逆時針)(?:转|轉|旋)?\s*(?:[\d一两兩二三四五]\s*(?:圈|圏)\s*)?"
    r"(?:到|至|停在)?\s*\d{1,2}[\s，,、；;]*){3,}"
    # three numbers chained by "then" after a turn ("turn to 14, then 33, then 6")
    r"|\b(?:turn|spin|rotate|dial)\w*\s+(?:(?:it|the\s+dial|left|right|clockwise|anti-?clockwise|"
    r"counter-?clockwise)\s+)*(?:to|past)\s+\d{1,2}(?:\s*[,;]?\s*(?:and\s+)?then\s+(?:(?:left|right|"
    r"back|clockwise|anti-?clockwise|counter-?clockwise)\s+)?(?:(?:to|past)\s+)?\d{1,2}\b){2,}"
    # Japanese: 右に3回 45、左に2回 12 (turns counted, then the number)
    r"|(?:左|右)(?:に|へ)\s*(?:\d\s*回\s*)?\d{1,2}[^\d。！？\n]{0,4}?(?:左|右)(?:に|へ)\s*(?:\d\s*回\s*)?\d{1,2}",
    re.IGNORECASE,
)
# A combination in Roman numerals (padlock on the shed: XII – IV – XXVII), each one to
# thirty-nine, given after the lock's name and a colon or "is".
_ROMAN = r"X{0,3}(?:IX|IV|V?I{0,3})"
_ROMAN_COMBO = re.compile(
    r"(?i:\b(?:safe|(?:pad)?lock|combination|combo|dial|locker)\b)[^.!?\n]{0,30}?(?:[:=]|\bis\b)\s*"
    rf"(?P<value>\b{_ROMAN}(?:\s*[–—,-]\s*{_ROMAN}\b){{2,}})"
)
_ROMAN_VALUE = {"I": 1, "V": 5, "X": 10}


def _roman(numeral: str) -> int:
    values = [_ROMAN_VALUE[c] for c in numeral]
    return sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))


def _counting(numbers: list[int]) -> bool:
    """An enumeration (3, 4, 5 or II, III, IV), not a combination."""
    return len(numbers) >= 3 and all(b == a + 1 for a, b in zip(numbers, numbers[1:], strict=False))


_DIAL_WORD = re.compile(
    r"safe|lock|combination|combo|dial|vault|保险|保險|锁|鎖|组合|組合|密码|密碼|金庫|금고",
    re.IGNORECASE,
)

_DIGIT_CHARS = "零〇一二三四五六七八九幺"
_DIGIT_RUN = re.compile(rf"[{_DIGIT_CHARS}](?:\s?[{_DIGIT_CHARS}]){{3,}}")
_TO_DIGIT = str.maketrans(_DIGIT_CHARS, "001234567891")
# Sino-Korean digits read one syllable each (공/영 0, 일 1 … 구 9), four or more in a row.
_KO_DIGIT_CHARS = "공영일이삼사오육칠팔구"
_KO_DIGIT_RUN = re.compile(
    rf"(?<![\uac00-\ud7af])[{_KO_DIGIT_CHARS}]{{4,12}}"
    # …unless the syllables after are a copula's ending (사칠일구예요, 공일이삼입니다)
    r"(?!(?!예요|이에요|입니다|이에여)[\uac00-\ud7af]{2})"
)
_KO_TO_DIGIT = str.maketrans(_KO_DIGIT_CHARS, "00123456789")
_MIXED_RUN = re.compile(
    rf"(?<![\d{_DIGIT_CHARS}])[\d{_DIGIT_CHARS}](?:\s?[\d{_DIGIT_CHARS}]){{3,11}}"
)
_KO_MIXED_RUN = re.compile(rf"(?<![\d\uac00-\ud7af])[\d{_KO_DIGIT_CHARS}]{{4,12}}")


def _mixed(run: str, chars: str, *, interleaved: bool) -> bool:
    """Whether ``run`` mixes ASCII digits with digit characters of one script (三7九2); in
    Korean, interleaved (일2삼4), so that a number and its counter (10일이) stay."""
    kinds = "".join("d" if c.isdigit() else "c" for c in run if c in chars or c.isdigit())
    if not interleaved:
        return "c" in kinds and "d" in kinds
    return "cdc" in kinds or "dcd" in kinds


def fold_digit_chars(text: str) -> str:
    """``text`` with each run of four or more Chinese digit characters (一二三 … 零, 幺 for
    one) as ASCII digits, same length and positions; 一个, 三四天 stay. A run that mixes
    them with ASCII digits (三7九2, 금고 일2삼4) is read the same way (round 11)."""
    if not text.isascii():
        text = _MIXED_RUN.sub(
            lambda m: (
                m.group().translate(_TO_DIGIT)
                if _mixed(m.group(), _DIGIT_CHARS, interleaved=False)
                else m.group()
            ),
            text,
        )
        text = _KO_MIXED_RUN.sub(
            lambda m: (
                m.group().translate(_KO_TO_DIGIT)
                if _mixed(m.group(), _KO_DIGIT_CHARS, interleaved=True)
                else m.group()
            ),
            text,
        )
    text = _DIGIT_RUN.sub(lambda m: m.group().translate(_TO_DIGIT), text)
    # A Korean particle may follow the digits (공일이삼이야): at most one syllable after.
    return _KO_DIGIT_RUN.sub(lambda m: m.group().translate(_KO_TO_DIGIT), text)


# Asked only where their literals are (memory/detectors/literal_gated.py).
_ACCESS_EN = [literal_gated(rx) for rx in _ACCESS_EN]
_ACCESS_ZH, _CARD_CODE, _DIAL_WORD = map(literal_gated, (_ACCESS_ZH, _CARD_CODE, _DIAL_WORD))
_SECURITY_QUESTION, _SECURITY_QUESTION_ZH, _SECURITY_QUESTION_JA_KO = map(
    literal_gated, (_SECURITY_QUESTION, _SECURITY_QUESTION_ZH, _SECURITY_QUESTION_JA_KO)
)


def access_form_spans(text: str) -> list[tuple[int, int]]:
    """Codes found by what they open or where they are printed (the module docstring)."""
    spans = []
    for rx in [*_ACCESS_EN, _ACCESS_ZH]:
        for m in rx.finditer(text):
            digits = re.sub(r"[\s#*-]", "", m.group("value"))
            if not 4 <= len(digits) <= 10 or _UNIT_AFTER_EN.match(text, m.end("value")):
                continue
            if re.fullmatch(r"19[5-9]\d|20[0-4]\d", digits) and rx is _ACCESS_EN[2]:
                continue  # "to open the form, type 2026": a year, not a code
            spans.append((m.start("value"), m.end("value")))
    spans += [(m.start("value"), m.end("value")) for m in _SECURITY_QUESTION.finditer(text)]
    spans += [m.span("value") for m in _SECURITY_QUESTION_ZH.finditer(text)]
    spans += [m.span(m.lastgroup or 0) for m in _SECURITY_QUESTION_JA_KO.finditer(text)]
    if _DIAL_WORD.search(text):
        for m in _TURNS.finditer(text):
            if not _counting([int(n) for n in re.findall(r"\d+", m.group())]):
                spans.append(m.span())
        for m in _ROMAN_COMBO.finditer(text):
            numerals = [n for n in re.split(r"[\s–—,-]+", m.group("value")) if n]
            if all(numerals) and not _counting([_roman(n) for n in numerals]):
                spans.append(m.span("value"))
    for m in _CARD_CODE.finditer(text):
        group = next(g for g in ("v1", "v2", "v3", "v4", "v5") if m.group(g))
        spans.append((m.start(group), m.end(group)))
    return spans
