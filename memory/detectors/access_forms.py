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
- **digits written as Chinese numerals** (一二三 … 零, and 幺 两 拐 洞 勾 as read over the
  radio): a run of four or more is read as digits (same length, same positions), as
  ``formats`` already does for 大写 numerals;
- **a dial combination read as turns** ("left 14, right 33", 左转27右转4) in a sentence
  about a safe, a lock or a combination;
- **the answer to a security question**, in either order (the question, then what was put
  or set; or "the answer … is X" in a sentence that names the question), in en/zh/ja/ko: a
  password by agreement (``security_answer_spans``; round 16's second reading merged here);
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

# --- The answer to a security question: one reading (rounds 4 and 16 merged) ---------------
# A service that asks "your first school?" before it lets someone in has made the answer a
# password; told on its own the same words are an ordinary fact. A value is read as a secret
# when the question is named and the value is given as its answer, in either order:
# - the question first: a standard question by its content ("mother's maiden name", "first
#   pet"), or one named as such (security/secret/memorable/challenge/recovery/verification
#   question, 安全问题, 密保, 秘密の質問, 보안 질문), then what was put, set, filled or answered;
# - the answer first, in a sentence that names the challenge: "the answer (to …) is X",
#   "answer: X", 答案是 X, 我填的是 X, の答えは X, 답은 X.
# The challenge terms are the closed vocabulary of knowledge-based authentication, not a
# list of phrasings; what fills the value is open, and ``_is_value`` turns away what says
# which answer or how it is ("my grandma's name", 奶奶的名字, "is wrong", 太简单了).
_CHALLENGE_ZH = (
    r"密保(?:问题|問題)?|(?:安全|保密|验证|驗證|预留|預留|(?:密码|密碼)?提示)(?:问题|問題)|"
    r"找回(?:密码|密碼|账号|賬號|帐号|帳號)?(?:的|时|時)?(?:那道|问题|問題)"
)
_CHALLENGE_JA_KO = r"秘密の質問|セキュリティ(?:の)?質問|本人確認(?:の)?質問|合言葉|(?:보안|비밀|본인\s*확인)\s*질문"
_HAS_CHALLENGE = re.compile(
    r"(?:security|secret|memorable|challenge|recovery|verification|safety)\s+"
    r"(?:questions?|answers?|q\s*&\s*a)"
    r"|[\"“'‘][^\"”'’\n]{3,60}[\"”'’]\s+question"
    rf"|{_CHALLENGE_ZH}|{_CHALLENGE_JA_KO}",
    re.IGNORECASE,
)
_CHALLENGE_GATE = (
    "question",
    "answer",
    "q&a",
    "q & a",
    "密保",
    "问题",
    "問題",
    "找回",
    "質問",
    "질문",
    "合言葉",
)

# The standard questions banks and sites ask (a closed, well-known set), the question first.
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
# Chinese, the question first: what was filled in, answered or set (填的是, 答的, 设成). The
# verb takes its object marker, so the 答 of 答案 or the 设 of 设置 is no answer's verb.
_SECURITY_QUESTION_ZH = re.compile(
    rf"(?:{_CHALLENGE_ZH})[^。！？\n]{{0,24}}?(?:填|答|写|寫|设|設|选|選)"
    r"(?:(?:的是|的|了|成|为|為|是)\s*[：:]?|[：:])\s*[“\"「]?"
    r"(?P<value>[^\s，,。！？”\"」]{1,16})"
)
# Japanese and Korean, the question first, then its answer.
_SECURITY_QUESTION_JA_KO = re.compile(
    r"(?:秘密の質問|セキュリティ質問|本人確認(?:の)?質問|合言葉)[^。！？\n]{0,24}?(?:答え|回答)(?:は|を|が|：|:)?\s*"
    r"[「『\"“]?(?P<value>[^\s、。！？」』\"”]{1,16})"
    r"|(?:보안\s*질문|비밀\s*질문|본인\s*확인\s*질문)[^.!?\n]{0,24}?(?:답변|대답|답)(?:은|는|을|이|:)?\s*"
    r"['\"‘“]?(?P<value_ko>[^\s,.!?'\"’”]{1,16})"
)
# The answer first, read only in a sentence that names the challenge.
_END = r"(?=\s*(?:[.!?;。！？；\n,，]|$))"
_ANSWER = r"(?P<value>[^.!?;。！？；\n，,]{1,48}?)"
_ANSWER_FIRST = (
    re.compile(
        rf"\b(?:answers?|reply)\b[^.!?;\n]{{0,60}}?(?:\s*[:=]|\s+(?:is|was|are|will\s+be|is\s+now|"
        rf"has\s+always\s+been|'s))\s+{_ANSWER}{_END}",
        re.IGNORECASE,
    ),
    re.compile(rf"(?:^|[,:;]\s*)answer\s*[:=]?\s+{_ANSWER}{_END}", re.IGNORECASE),
    re.compile(
        rf"\b(?:question|answer)s?\b[^.!?;\n]{{0,40}}?\bI\s+(?:always\s+|usually\s+|just\s+)?"
        rf"(?:put|use|used|gave|give|wrote|write|typed|type|entered|enter|chose|picked|said|say)"
        rf"(?:\s+down|\s+in)?\s+{_ANSWER}{_END}",
        re.IGNORECASE,
    ),
    re.compile(
        r"(?:答案|回答|答)(?:是|为|：|:|=)\s*(?P<value>[^。！？；\n，,]{1,24}?)(?=[。！？；\n，,]|$)"
        r"|我(?:填|写|设|用|选)(?:了|的)(?:是)?\s*(?P<value2>[^。！？；\n，,]{1,24}?)(?=[。！？；\n，,]|$)"
        r"|の答え(?:は|が)\s*(?P<value3>[^。！？\n、]{1,24}?)(?=(?:です|だ|でした)?(?:[。！？\n、]|$))"
        r"|(?:답|대답)(?:은|는|이)\s*(?P<value4>[^.!?\n]{1,24}?)(?=(?:입니다|이에요|예요|야)?(?:[.!?\n]|$))"
    ),
)
_FUNCTION = frozenset(
    """
    a an the and or but of to in on at by for with from as than so if is are was were be
    not no any some this that it its my our your their his her me him them what which who
    something nothing same different
    """.split()
)
# Words about an answer rather than an answer: how it is (its quality, its state).
_ABOUT = frozenset(
    """
    wrong right correct incorrect easy hard simple obvious silly stupid weird long short
    private secret lost forgotten outdated old new fine ok okay case-sensitive
    """.split()
)
_ABOUT_SUFFIX = re.compile(r"(?:ly|ous|ful|able|ible|less)$")
# What starts a Chinese clause about the answer, not an answer: degree and negation (很, 太,
# 不), adverbs of time and repetition (都, 还, 又, 已经), a question word, a count (好几, 一个).
_ZH_NOT_VALUE = re.compile(
    r"^(?:很|太|挺|不|没|忘|什么|啥|一个|错|对|都|还|也|就|又|再|总|一直|已经|刚|才|好几|几)"
)
_CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]")
# A description of which answer (…的…), then a copula or 叫 ("is called"), then the answer.
_ZH_NAMED = re.compile(r"[^是叫为為的]{0,10}的[^是叫为為]{0,10}?(?:是|叫|为|為)\s*")
_SENTENCE = re.compile(r"[^.!?。！？\n]+[.!?。！？\n]?")


def _is_value(value: str) -> bool:
    """Whether what stands in the answer's place is an answer, not a word about it."""
    value = value.strip()
    if not value:
        return False
    if value[0] in "\"“'‘" and value[-1] in "\"”'’":
        return len(value) > 2
    if _CJK.search(value):
        # "奶奶的名字" says which answer, not the answer
        return not _ZH_NOT_VALUE.match(value) and "的" not in value
    words = value.split()
    if words[0].lower() in _FUNCTION or words[0].lower() in _ABOUT:
        return False
    if re.search(r"[A-Z0-9]", value):
        return len(words) <= 5
    if len(words) > 3:
        return False
    return not any(
        w.lower() in _FUNCTION or w.lower() in _ABOUT or _ABOUT_SUFFIX.search(w.lower())
        for w in words
    )


def _answer_first_spans(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    for sentence in _SENTENCE.finditer(text):
        part, base = sentence.group(), sentence.start()
        if not _HAS_CHALLENGE.search(part):
            continue
        for pattern in _ANSWER_FIRST:
            for m in pattern.finditer(part):
                group = next(g for g in ("value", "value2", "value3", "value4") if m.group(g))
                value, lo = m.group(group).rstrip(), base + m.start(group)
                cut = max(value.rfind("："), value.rfind(":"))  # 我小学的名字：实验小学
                if cut >= 0:
                    lo += cut + 1 + len(value[cut + 1 :]) - len(value[cut + 1 :].lstrip())
                    value = value[cut + 1 :].strip()
                named = _ZH_NAMED.match(value)  # 外婆家的小狗叫豆豆: which answer, then it
                if named:
                    lo += named.end()
                    value = value[named.end() :]
                script = _CJK.search(value)
                if script and script.start() > 0 and value[0].isascii():
                    value = value[: script.start()].rstrip()  # English ends where Chinese starts
                if _is_value(value):
                    spans.append((lo, lo + len(value)))
    return spans


def security_answer_spans(text: str) -> list[tuple[int, int]]:
    """Spans of answers given to a security question, in either order (the comment above)."""
    spans = [
        m.span("value") for m in _SECURITY_QUESTION.finditer(text) if _is_value(m.group("value"))
    ]
    low = text.lower()
    if not any(word in low for word in _CHALLENGE_GATE) or not _HAS_CHALLENGE.search(text):
        return spans  # every named challenge holds one of the gate's words
    for rx in (_SECURITY_QUESTION_ZH, _SECURITY_QUESTION_JA_KO):
        for m in rx.finditer(text):
            group = m.lastgroup or "value"
            if _is_value(m.group(group)):
                spans.append(m.span(group))
    return spans + _answer_first_spans(text)


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

# With the digits of radio and telephone reading (幺 1, 两 2, 拐 7, 洞 0, 勾 9: 幺洞拐两).
_DIGIT_CHARS = "零〇一二三四五六七八九幺两拐洞勾"
_DIGIT_RUN = re.compile(rf"[{_DIGIT_CHARS}](?:\s?[{_DIGIT_CHARS}]){{3,}}")
_TO_DIGIT = str.maketrans(_DIGIT_CHARS, "0012345678912709")
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
    spans += security_answer_spans(text)
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
