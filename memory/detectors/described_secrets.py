"""Secrets given by description or on a device whose codes are short (round 6 of issue 32).

The prose detector (``memory.detectors.secrets``) finds a value of secret *shape* beside a
credential word, and needs four or more digits. Four kinds of secret have neither:

- a **password described by how it was built**: a password word, an explicit "is"/是/は/는,
  then a recipe — the personal facts people build passwords from (a name, a birthday, a
  year, a phone or house number, initials, pinyin: a closed class of identifiers) joined
  by the operations of building one (followed by, plus, backwards, capitalised, the last
  four digits, 加, 倒过来, 后四位 …). One fact and one operation, or two facts: "my
  password is my dog's name" alone is a hint, not a recipe. Advice, the topic ("a good
  password is …", 密码最好是…, 很多人的密码是…), a negation, a question and a story or
  news frame are not a disclosure;
- a **pattern lock described by its shape** (手势密码是一个 Z 字形, "unlock pattern is an
  L"), or by the order of its nine dots;
- a **dial combination of three digits**: combination, luggage and bike locks, padlocks
  and the dials on a case have three or four wheels, so "the lock on my duffel is set to
  8-5-1" is the whole secret (closed class: the lock words of en/zh/ja/ko);
- a **grid card cell**: the security cards Korean banks issue (보안카드, 30–35 numbered
  cells of four digits, asked for as the first or last two) and the Chinese 密保卡 /
  口令卡 (lettered coordinates): "보안카드 17번 앞 두 자리는 48" discloses a cell;
- a **key holder's code**: a box, safe or tin that holds a key, and the number on it
  ("the box holding the spare key is 3156");
- a **plain word as the password** in Japanese, Korean or Chinese (パスワードは tulip です),
  as "password is swordfish" already is in English;
- the Chinese credential words **in pinyin** (wo de mima shi …), with digits or digits read
  as pinyin syllables;
- a value **spelt in the ICAO alphabet** (two or more of its words in a run of four with
  digits read aloud) in a text with a credential word.

Each rule reads the detection form with Chinese digit characters folded (as the other
access rules do) and returns spans of it.
"""

from __future__ import annotations

import re

from memory.detectors.literal_gated import literal_gated

# --- a password described by how it was built -------------------------------------------

_PASSWORD_EN = r"\b(?:pass(?:word|code|phrase)|pin|code)s?\b"
_PASSWORD_CJK = r"密码|密碼|口令|パスワード|暗証番号|비밀번호|비번|암호"
# An explicit assignment, then the recipe to the end of the sentence.
_RECIPE = re.compile(
    rf"(?P<cue>{_PASSWORD_EN}(?:\s+(?:for|to|on|of|at)\s+(?:[\w'.+-]+\s+){{0,4}}?)?"
    r"\s*(?:is|was|'s|’s|=|:)\s+(?:just\s+|always\s+|basically\s+|simply\s+)?"
    rf"|\b(?:set|changed|made|chose|picked|reset)\s+(?:[\w'.+-]+\s+){{0,3}}?{_PASSWORD_EN}\s+(?:to|as)\s+"
    rf"|(?:{_PASSWORD_CJK})\s*(?:就是|都是|也是|是|为|為|设成了?|設成了?|改成了?|：|:|は|는|은)\s*)"
    r"(?P<value>[^.!?。！？；;\n]{4,90})",
    re.IGNORECASE,
)
# The personal facts a password is built from (closed: identifiers of a person or a home).
_FACT = re.compile(
    r"\b(?:(?:sur|maiden\s+|nick|first\s+|middle\s+|last\s+|pet'?s?\s+|dog'?s?\s+|cat'?s?\s+)?names?|"
    r"initials|birthdays?|birth\s*dates?|dates?\s+of\s+birth|(?:birth|wedding|graduation)\s+years?|"
    r"years?|anniversary|street|house\s+number|door\s+number|postcode|zip|phone\s+number|"
    r"mobile\s+number|(?:number|licence|license)\s+plate|reg(?:istration)?\s+number|"
    r"(?:student|employee|staff|id)\s+(?:id|number)|id\s+number)\b"
    r"|名字|姓名|拼音|生日|出生年份?|出生日期|年份|纪念日|紀念日|手机号|手機號|电话号码?|電話號碼?|"
    r"门牌号?|門牌號?|车牌号?|車牌號?|身份证号?|身分證字?號?|工号|工號|学号|學號|英文名|小名|昵称|暱稱|"
    r"名前|誕生日|生年月日|電話番号|이름|생일|생년월일|전화번호|휴대폰\s*번호",
    re.IGNORECASE,
)
# The operations of building one (closed: joining, reversing, casing, taking digits).
_OPERATION = re.compile(
    r"\b(?:followed\s+by|then|plus|and\s+then|spel(?:led|t)\s+backwards|backwards|reversed|"
    r"in\s+reverse|twice|doubled|capitali[sz]ed|capital\s+(?:first\s+)?letters?|upper\s*case|"
    r"lower\s*case|first\s+letters?|last\s+(?:\w+\s+)?(?:digits|letters|numbers)|swapped\s+for|"
    r"replaced\s+(?:with|by)|at\s+the\s+(?:end|start|front|back)|on\s+the\s+end|after\s+it)\b|\+"
    r"|加上?|再加|后面加|後面加|跟着|跟著|倒过来|倒過來|倒着|倒著|反过来|反過來|"
    r"[后後前末]\s*[一二三四五六两兩3-8]\s*位|首字母|大写|大寫|小写|小寫|两遍|兩遍|"
    r"の後ろに|を逆|逆から|下\s*[4４四]\s*桁|뒤에|거꾸로|뒷자리|앞자리",
    re.IGNORECASE,
)
# Not a disclosure: advice or the topic, a story or the news, a question (anywhere in the
# sentence); a generic password ("a good password is …") just before the word.
_NOT_DISCLOSED = re.compile(
    r"\b(?:should(?:n't)?|never|don't|avoid|must|many|most|people'?s?|novel|film|movie|"
    r"show|series|story|book|character|news|article|e\.g|example)\b|\?|？"
    r"|最好|建议|建議|不要|别|別|应该|應該|千万|千萬|不能|容易被|常见|常見|很多人|大部分|一般|吗|嗎|"
    r"比如|例如|小说|小說|电视剧|電視劇|电影|電影|剧里|劇裡|故事|新闻|新聞|报道|報導|据说|據說",
    re.IGNORECASE,
)
_GENERIC_BEFORE = re.compile(
    r"\b(?:a|an|any|good|strong|weak|typical|common|usual|ideal|safe|secure|default)\s+"
    r"(?:[\w-]+\s+)?$",
    re.IGNORECASE,
)
_NEGATED = re.compile(r"\s*(?:not|never|no\s+longer)\b", re.IGNORECASE)
_SENTENCE = re.compile(r"[^.!?。！？；;\n]*")


def recipe_spans(text: str) -> list[tuple[int, int]]:
    """A password given as the recipe that builds it (the module docstring)."""
    spans = []
    for m in _RECIPE.finditer(text):
        value = m.group("value")
        facts = len(_FACT.findall(value))
        if not facts or (facts < 2 and not _OPERATION.search(value)):
            continue
        start = max(text.rfind(mark, 0, m.start()) for mark in ".!?。！？；;\n") + 1
        end = m.end("value") + len(_SENTENCE.match(text, m.end("value")).group())
        if (
            _NOT_DISCLOSED.search(text, start, end)
            or _GENERIC_BEFORE.search(text, start, m.start())
            or _NEGATED.match(value)
        ):
            continue
        spans.append((m.start("value"), m.end("value")))
    return spans


# --- a pattern lock described by its shape ----------------------------------------------

_PATTERN = re.compile(
    r"(?:手势密码|手勢密碼|图案密码|圖案密碼|解锁图案|解鎖圖案|ロックパターン|잠금\s*패턴|"
    r"\b(?:unlock|lock\s*screen)\s+pattern|\bpattern\s+(?:lock|password|code))"
    r"[^。！？.!?\n]{0,8}?(?:就是|是|为|為|は|는|은|:|：|\bis)\s*"
    r"(?P<value>(?:(?:一个|一個)\s*|an?\s+)?[\"“'「]?[A-Za-z][\"”'」]?\s*(?:字形?|形|型|shape|-shape)"
    r"|\d(?:\s*[-→>,，、]\s*\d){3,8})",
    re.IGNORECASE,
)

# --- a dial combination of three digits -------------------------------------------------

_CASE_EN = (
    r"carry-?on|suitcase|luggage|case|bag|backpack|rucksack|duffel|trunk|briefcase|locker|bike|shed"
)
_DIAL = re.compile(
    r"(?:\b(?:(?:combination|number|code|dial|luggage|suitcase|travel|cable|bike|tsa)[\s-]+lock|padlock)"
    r"|\b(?:lock|dials?)\s+(?:on|of|for)\s+(?:my|the|our|his|her|their)\s+(?:[\w'-]+\s+){0,2}?"
    rf"(?:{_CASE_EN})\b)"
    r"[^.!?\n]{0,30}?(?:\b(?:is|are)\s+(?:set\s+to\s+|now\s+|still\s+)?|:\s*|=\s*|\bset\s+to\s+|"
    r"\bopens\s+(?:on|at|with)\s+)"
    r"(?P<value>\d(?:\s?[-./·・]?\s?\d){2,7})(?![\d])"
    # ダイヤル alone is a lock's dial too; ダイヤルイン and ダイヤルする are a telephone's.
    r"|(?:密码锁|密碼鎖|号码锁|號碼鎖|转盘锁|轉盤鎖|番号錠|ダイヤル(?!イン|す|し)|ナンバーロック|"
    r"번호\s*자물쇠|다이얼\s*자물쇠|자물쇠(?:\s*번호)?)"
    r"[^。！？\n]{0,8}?(?:就是|是|为|為|设成了?|設成了?|设的是|設的是|改成了?|：|:|は|を|는|은|이|가)\s*"
    r"(?P<cjk>\d(?:\s?[-./·・]?\s?\d){2,7})(?![\d])",
    re.IGNORECASE,
)
_UNIT_AFTER = re.compile(
    r"\s*(?:years?|months?|days?|hours?|minutes?|mins?|digits?|dials?|wheels?|numbers?|cm|mm|kg|g|"
    r"pounds?|dollars?|euros?|%|x|inch(?:es)?|元|块|塊|年|月|日|天|个|個|位|号|號|番|円|원|개|자리|cm)",
    re.IGNORECASE,
)

# --- a grid card cell -------------------------------------------------------------------

_GRID_CARD = re.compile(
    r"보안\s*카드|密保卡|口令卡|矩阵卡|矩陣卡|\b(?:grid|security)\s+card\b", re.I
)
_GRID_CELL = re.compile(
    r"(?:앞|뒤|뒷)\s*(?:두\s*|2\s*)?자리(?:\s*(?:숫자|번호))?\s*(?:는|은|가|이|:)?\s*(?P<half>\d{2})(?!\d)"
    r"|\d{1,2}\s*번\s*(?:은|는|:)?\s*(?P<cell>\d{4})(?!\d)"
    r"|\b(?-i:[A-J])\s?\d{1,2}\s*(?:格|是|为|為|:|：|=|\bis\b)?\s*(?:是|为|為|:|：)?\s*(?P<coord>\d{2,4})(?!\d)",
    re.IGNORECASE,
)

# --- a key holder's code ----------------------------------------------------------------

_KEY_HOLDER = re.compile(
    r"\b(?:box|safe|tin|case|cabinet|holder|hider|pouch|vault|pod)\s+(?:that\s+)?"
    r"(?:holding|holds|with|for|containing|contains|keeping|keeps|that\s+has)\s+"
    r"(?:[\w'-]+\s+){0,4}?keys?\b[^.!?\n]{0,20}?\b(?:is|are|:|=|opens\s+(?:with|on)|takes)\s*"
    r"(?:code\s+|number\s+)?(?P<value>\d(?:\s?[-.]?\s?\d){3,7})(?![\d])",
    re.IGNORECASE,
)


# --- a plain word after a password noun in Japanese, Korean or Chinese ----------------------
# "password is swordfish" is a password in English (``secrets``); the same with は/는/是:
# an ASCII word as the whole predicate, the sentence or copula ending right after it.
_PLAIN_CJK = re.compile(
    r"(?:パスワード|パスコード|暗証番号|合言葉|비밀\s?번호|비번|패스워드|암호|密碼|密码|口令)"
    r"\s*(?:は|는|은|:|：|是|就是)\s*[「\"“']?(?P<value>[A-Za-z][A-Za-z0-9_.!@#$%^&*-]{3,39}?)[」\"”']?"
    r"(?=\s*(?:です|だよ|だ|よ|이에요|예요|이야|야|입니다|。|！|\.|!|,|，|、|$))"
)

# --- a plain Chinese word after a password noun (round 19) -----------------------------
# "密码是番茄", "口令：蓝色海豚": a Chinese noun phrase as the whole predicate of 密码/口令/暗号
# is the secret, as "password is swordfish" is in English. Not a value (a description,
# "密码是生日", "密码是什么来着", "密码是我自己设的", "密码是八位数") when the phrase holds a
# word of a closed grammatical class that a noun naming the secret never holds: a pronoun,
# a question word, a structural or aspect particle (的 了 着 过), a negation or a degree
# adverb, a numeral with a classifier, a demonstrative, a locative or a quantifier (在, 全);
# or a personal fact (``_FACT``), a kind of character or word (数字, 字母, 英文, 缩写 …), a
# word of state (正确, 默认, 一样 …) or of how it was made (生成, 出厂 …) that describes it.
_PLAIN_ZH = re.compile(
    r"(?:密码|密碼|口令|暗号|暗號|暗语|暗語)\s*(?:(?:就是|也是|是|为|為)\s*[：:]?|[：:])\s*[「“\"']?"
    r"(?P<value>[\u4e00-\u9fff]{2,8})[」”\"']?(?=\s*(?:$|[。！!，,；;.~～]))"
)
_DESCRIBED_ZH = re.compile(
    r"[我你您他她它咱谁誰啥哪几幾吗嗎呢吧的了着著过過得不没沒别別很太挺超最更这這那些在全都每]|什么|什麼|多少|"
    r"来着|來著|自己|比较|比較|非常|特别|特別|"
    r"[一二两兩三四五六七八九十百\d]+\s*(?:位|个|個|字|次|种|種|遍|串|组|組|段|条|條)|"
    r"数字|數字|字母|符号|符號|汉字|漢字|大小写|大小寫|英文|中文|单词|單詞|词语|詞語|缩写|縮寫|"
    r"生成|设置|設置|设定|設定|出厂|出廠|自动|自動|重置|"
    r"正确|正確|错误|錯誤|必填|必须|必須|明文|密文|加密|公开|公開|统一|統一|区分|區分|过期|過期|失效|"
    r"有效|无效|無效|默认|默認|随机|隨機|初始|原来|原來|之前|以前|上次|一样|一樣|相同|同一|不同|空白"
)


# "财富密码就是早点睡觉": the idiom X密码, "the secret of X", takes a goal one seeks (wealth,
# success, traffic, a long life …), never a thing one logs into; its value is advice.
_IDIOM_BEFORE = re.compile(
    r"(?:财富|財富|流量|成功|幸福|快乐|快樂|长寿|長壽|健康|致富|减肥|減肥|爆款|人生|爱情|愛情|婚姻|青春|"
    r"美丽|美麗|养生|養生|学习|學習|宇宙)(?:的)?\s*$"
)


# The same in Japanese and Korean: a kana/kanji or hangul word as the whole predicate
# (パスワードはさくらです, 비밀번호는 바나나야) before a copula, not a verb's or an adjective's
# ending (忘れました, 長い), and not a word of the describing classes of these languages (a
# question word, "secret", "none", "the same", "required", "simple", a kind of character, a
# count of places).
_PLAIN_JA_KO = re.compile(
    r"(?:パスワード|パスコード|暗証番号|合言葉)\s*(?:は|：|:)\s*[「『\"“]?"
    r"(?P<ja>[\u3040-\u30ff\u4e00-\u9fff]{2,10}?)[」』\"”]?(?=\s*(?:です|だよ|だ|よ|。|！|$))"
    r"|(?:비밀\s?번호|비번|암호|패스워드)\s*(?:는|은|:)\s*['\"‘“]?"
    r"(?P<ko>[\uac00-\ud7af]{2,10})['\"’”]?(?=\s*(?:이야|야|이에요|예요|에요|입니다|이다))"
)
_DESCRIBED_JA_KO = re.compile(
    r"ます|まし|ませ|ない|った|って|てい|した|れる|でき|何|なに|なん|秘密|ひみつ|なし|無し|同じ|不明|必須|文字|数字|記号|"
    r"半角|全角|桁|これ|それ|あれ|どれ|い$|簡単|複雑|安全|危険|大事|大切|単純|面倒|"
    r"뭐|무엇|뭔|어떤|비밀|몰라|없|같|필수|영문|숫자|문자|특수|자리|이거|그거|저거"
)


def plain_ja_ko_spans(text: str) -> list[tuple[int, int]]:
    spans = []
    for m in _PLAIN_JA_KO.finditer(text):
        group = "ja" if m.group("ja") else "ko"
        value = m.group(group)
        if not (_DESCRIBED_JA_KO.search(value) or _FACT.search(value)):
            spans.append(m.span(group))
    return spans


def plain_zh_spans(text: str) -> list[tuple[int, int]]:
    """A Chinese noun phrase given as the secret (above), not in advice or a story."""
    spans = []
    for m in _PLAIN_ZH.finditer(text):
        value = m.group("value")
        if _DESCRIBED_ZH.search(value) or _FACT.search(value):
            continue
        if _IDIOM_BEFORE.search(text, max(0, m.start() - 6), m.start()):
            continue
        start = max(text.rfind(mark, 0, m.start()) for mark in ".!?。！？；;\n") + 1
        if not _NOT_DISCLOSED.search(text, start, m.end("value")):
            spans.append(m.span("value"))
    return spans


# --- a value spelled in the ICAO alphabet beside a credential word -------------------------
# The ICAO/NATO spelling alphabet (a closed, published list) and the digits as read aloud.
_ICAO = (
    r"alfa|alpha|bravo|charlie|delta|echo|foxtrot|golf|hotel|india|juliett?|kilo|lima|mike|"
    r"november|oscar|papa|quebec|romeo|sierra|tango|uniform|victor|whiskey|whisky|x-?ray|"
    r"yankee|zulu"
)
_SPELT = re.compile(
    rf"\b(?:(?:{_ICAO}|zero|one|two|three|four|five|six|seven|eight|nine|niner)[\s,-]+){{3,}}"
    rf"(?:{_ICAO}|zero|one|two|three|four|five|six|seven|eight|nine|niner)\b",
    re.IGNORECASE,
)
_ICAO_WORD = re.compile(rf"\b(?:{_ICAO})\b", re.IGNORECASE)
_CREDENTIAL_WORD = re.compile(
    r"\b(?:pass(?:word|code|phrase)|pin|key|login)s?\b|密码|密碼|口令|パスワード|비밀번호",
    re.IGNORECASE,
)


# --- a Wi-Fi key named apart from its network ---------------------------------------------
# "the wifi is X and the key is Y": beside a wireless network, "key" or "pass" is its
# passphrase, which IEEE 802.11i fixes at 8–63 printable ASCII characters.
_WIFI_KEY = re.compile(
    r"\b(?:wifi|wi-fi|wlan|ssid|wireless|network|router|hotspot)\b[^.!?\n]{0,60}?"
    r"\b(?:key|pass)\s*(?:is|:|=)\s*[\"“']?(?P<value>[!-~]+)",
    re.IGNORECASE,
)


def _not_a_word(value: str) -> bool:
    return bool(re.search(r"\d|[^\w\s-]", value) or re.search(r"[a-z][A-Z]", value))


# --- the Chinese credential words in pinyin ------------------------------------------------
# Hanyu Pinyin of 密码, 口令, 验证码, 密钥 (with or without tone marks), then 是/shi or a colon
# (or, round 13, the digits straight after: "取款 mi ma 730915"),
# then digits, a token with a digit, or four or more digits read as pinyin syllables.
_PINYIN_DIGIT = r"(?:ling|yi|yao|er|liang|san|si|wu|liu|qi|ba|jiu)"
_PINYIN = re.compile(
    r"\b(?:m[iíǐìī]\s?m[aáǎàā]|k[oóǒòō]u\s?l[iíǐìī]ng|y[aáǎàā]n\s?zh[eéěèē]ng\s?m[aáǎàā]|"
    r"m[iíǐìī]\s?y[aáǎàā]o)\s*(?:sh[iíǐìī]\b|[:=：是为為]|\bis\b|(?=(?!(?:19|20)\d\d(?!\d))\d{4,8}(?!\d)(?!\s*(?:nian|年))))\s*"
    rf"(?P<value>(?:{_PINYIN_DIGIT}[\s-]*){{4,12}}\b|[!-~]*\d[!-~]*)",
    re.IGNORECASE,
)

# --- obfuscations the detection form keeps -------------------------------------------------
# Enclosing combining marks (U+20DD–U+20E4: circle, square, diamond, keycap as in "4️⃣") draw
# a frame round the character before them; NFKC keeps them, so "4⃣8⃣2⃣1⃣" is no digit run.
_ENCLOSING = re.compile(r"[\u20dd-\u20e4]")
# Leetspeak spellings of the password words (0→o, @/4→a, 5/$→s, 3→e, 1→l/i), and a hyphen
# or space inside them; only a spelling with one of those substitutions is folded.
_LEET_CUE = re.compile(
    r"(?<![A-Za-z0-9])(?P<w>p[a@4][s5$][s5$][\s_-]?(?:w[o0]rd|c[o0]d[e3]|phr[a@4][s5$][e3])s?)"
    r"(?![A-Za-z0-9])",
    re.IGNORECASE,
)


def fold_obfuscations(text: str) -> str:
    """``text`` with enclosing marks as spaces and leetspeak password words spelt plainly,
    the same length and positions (so spans found in it are spans of ``text``)."""
    text = _ENCLOSING.sub(" ", text)

    def plain(m: re.Match[str]) -> str:
        word = m.group("w")
        if word.isalpha() and not re.search(r"[\s_-]", word):
            return word
        letters = word.translate(str.maketrans("0@4$53", "oaasse")).replace("-", "")
        letters = re.sub(r"[\s_]", "", letters)
        return letters.ljust(len(word))

    return _LEET_CUE.sub(plain, text)


# Asked only where their literals are (memory/detectors/literal_gated.py).
_RECIPE, _PATTERN, _DIAL, _GRID_CARD = map(literal_gated, (_RECIPE, _PATTERN, _DIAL, _GRID_CARD))
_KEY_HOLDER, _PLAIN_CJK = map(literal_gated, (_KEY_HOLDER, _PLAIN_CJK))
_CREDENTIAL_WORD, _WIFI_KEY = map(literal_gated, (_CREDENTIAL_WORD, _WIFI_KEY))


def described_secret_spans(text: str) -> list[tuple[int, int]]:
    """Every secret of the module docstring's kinds in ``text``."""
    spans = recipe_spans(text)
    spans += [m.span("value") for m in _PATTERN.finditer(text)]
    for m in _DIAL.finditer(text):
        group = "value" if m.group("value") else "cjk"
        if not _UNIT_AFTER.match(text, m.end(group)):
            spans.append(m.span(group))
    card = _GRID_CARD.search(text)
    if card:
        for m in _GRID_CELL.finditer(text, card.start(), min(len(text), card.end() + 80)):
            group = next(g for g in ("half", "cell", "coord") if m.group(g))
            spans.append(m.span(group))
    spans += [m.span("value") for m in _PLAIN_CJK.finditer(text)]
    if not text.isascii():
        spans += plain_zh_spans(text) + plain_ja_ko_spans(text)
    if _CREDENTIAL_WORD.search(text):
        spans += [
            m.span() for m in _SPELT.finditer(text) if len(_ICAO_WORD.findall(m.group())) >= 2
        ]
    for m in _WIFI_KEY.finditer(text):
        value = m.group("value").rstrip(".,;!?\"”'")
        if 8 <= len(value) <= 63 and _not_a_word(value):
            spans.append((m.start("value"), m.start("value") + len(value)))
    spans += [m.span("value") for m in _PINYIN.finditer(text) if len(m.group("value")) >= 4]
    for m in _KEY_HOLDER.finditer(text):
        if not _UNIT_AFTER.match(text, m.end("value")):
            spans.append(m.span("value"))
    return spans
