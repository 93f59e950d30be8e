"""Other spellings of the same order, read by the instruction detectors (``instructions.py``)
like ROT13 and base64 are (``addressing.readings``):

- **traditional Chinese**: the characters the Chinese instruction patterns are written with,
  folded from their traditional forms ("忽略上面所有的內容" reads as "…内容", "無視" as "无视");
- **pinyin**: a line written in toneless pinyin syllables ("zhu shou qing hu lue …") read
  back into the characters of the words those patterns use, syllable pair by syllable pair.
  Only a line made almost wholly of pinyin syllables is read this way, so English is never
  turned into Chinese.

Both are spellings of the patterns' own vocabulary, not phrasings of any data set.

And the encodings a line can be hidden in, each decoded once and read by the same patterns
(round 19):

- **leet**: a word mixing letters with digits or ``@``/``$`` read with the digits as the
  letters they stand for ("1gn0re", "4ss1st4nt");
- **hex**: a run of eight or more hex byte pairs, bare or written ``\\x41``, that decodes to
  printable UTF-8 with a space in it (a hash or a MAC address decodes to no such thing);
- **percent-encoding**: three or more ``%XX`` escapes, unquoted;
- **Cyrillic or Greek as written** (``native_readings``): a sentence in Russian read before
  the look-alike fold turns its letters into Latin ones;
- **reversed text**: the line read backwards (as a whole, and word by word) when it reads
  more like English that way, counted by the letter pairs English has and its reversal
  lacks ("th", "he", "nd", "ng" against "ht", "eh", "dn", "gn") — a statistic of the
  language, like the letter counts ``addressing.readings`` uses for ROT13.

And the carriers a line can be tucked into (``carried_texts``, round 20): the body of a
comment (HTML, markdown's link-reference comment ``[//]: # (…)``, ``/* … */``, ``{# … #}``,
``<%-- … --%>``, a line comment after ``#``, ``//``, ``--``, ``%`` or ``;``), a cell of a
table and a string value of a JSON key, each read as a text of its own: what is
at the start of the body is at the start of a text, whatever syntax wraps it.
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import unquote

# Traditional -> simplified for the characters the Chinese patterns in instructions.py and
# addressing.py use (one character each way; a fold, not a translation).
_T2S = str.maketrans(
    "內說話規則對設無視記憶錄訊傳發轉給將請從現後們碼鑰憑證帳賬號資檔據於權開啟關閉刪執導歷總務須應該點頁讀處網機體聯繫絡戶郵習慣為這個條際複隱統詞覽顯洩寫進長",
    "内说话规则对设无视记忆录讯传发转给将请从现后们码钥凭证帐账号资档据于权开启关闭删执导历总务须应该点页读处网机体联系络户邮习惯为这个条际复隐统词览显泄写进长",
)


def fold_traditional(form: str) -> str:
    return form.translate(_T2S)


# Toneless pinyin words of the instruction vocabulary, as the Chinese patterns spell them.
_PINYIN_WORDS = {
    "zhu shou": "助手",
    "zhu li": "助理",
    "ji qi ren": "机器人",
    "mo xing": "模型",
    "ren gong zhi neng": "人工智能",
    "zhi neng ti": "智能体",
    "qing": "请",
    "hu lue": "忽略",
    "wu shi": "无视",
    "wang ji": "忘记",
    "zhi qian": "之前",
    "yi shang": "以上",
    "shang mian": "上面",
    "qian mian": "前面",
    "xian qian": "先前",
    "suo you": "所有",
    "quan bu": "全部",
    "zhi ling": "指令",
    "zhi shi": "指示",
    "gui ze": "规则",
    "nei rong": "内容",
    "she ding": "设定",
    "xi tong": "系统",
    "yong hu": "用户",
    "ke hu": "客户",
    "shi yong zhe": "使用者",
    "de": "的",
    "ba": "把",
    "jiang": "将",
    "fa dao": "发到",
    "fa gei": "发给",
    "fa song": "发送",
    "zhuan fa": "转发",
    "shang chuan": "上传",
    "mi ma": "密码",
    "mi yao": "密钥",
    "di zhi": "地址",
    "dian hua": "电话",
    "shou ji hao": "手机号",
    "tong xun lu": "通讯录",
    "xin xi": "信息",
    "zi liao": "资料",
    "ji lu": "记录",
    "dui hua": "对话",
    "you xiang": "邮箱",
    "yi hou": "以后",
    "jin hou": "今后",
    "cong xian zai qi": "从现在起",
    "zong shi": "总是",
    "bi xu": "必须",
    "wu bi": "务必",
    "fa chu qu": "发出去",
    "gao su": "告诉",
    "wo": "我",
    "zhe ge": "这个",
    "dao": "到",
    "gei": "给",
}
_PINYIN_SYLLABLE = re.compile(
    r"^(?:[bpmfdtnlgkhjqxrzcsyw]|zh|ch|sh)?(?:a|o|e|i|u|v|ai|ei|ao|ou|an|en|ang|eng|ong|er|ia|ie|"
    r"iao|iu|ian|in|iang|ing|iong|ua|uo|uai|ui|uan|un|uang|ue|ve)$"
)
_WORD = re.compile(r"[a-z]+")
_LONGEST = max(len(k.split()) for k in _PINYIN_WORDS)


def read_pinyin(form: str) -> str | None:
    """``form`` in characters, when nine in ten of its (at least six) words are pinyin
    syllables; None otherwise."""
    words = _WORD.findall(form.lower())
    if len(words) < 6:
        return None
    if sum(bool(_PINYIN_SYLLABLE.match(w)) for w in words) < 0.9 * len(words):
        return None
    out, i = [], 0
    while i < len(words):
        for n in range(_LONGEST, 0, -1):
            key = " ".join(words[i : i + n])
            if key in _PINYIN_WORDS:
                out.append(_PINYIN_WORDS[key])
                i += n
                break
        else:
            out.append(" ")
            i += 1
    return "".join(out)


_LEET = str.maketrans(
    {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}
)
# From the start of a word only (a word holds a letter and a digit when any suffix does).
_LEET_WORD = re.compile(r"(?<![\w@$])(?=[\w@$]*[A-Za-z])(?=[\w@$]*[0-9@$])[\w@$]{3,}")


# A word of hex digits only ("a3f09b12", "0xdeadbeef") or with a run of three digits
# ("v1234", "2026q4") is an identifier, not a word spelled in leet.
_IDENTIFIER = re.compile(r"[0-9a-fA-Fx]+|.*\d{3}.*")


def _unleet_word(m: re.Match) -> str:
    word = m.group()
    return word if _IDENTIFIER.fullmatch(word) else word.translate(_LEET)


def unleet(form: str) -> str:
    """ "1gn0re prev10us" -> "ignore previous": only words mixing letters with digits that
    are not identifiers."""
    return _LEET_WORD.sub(_unleet_word, form)


_HEX_RUN = re.compile(
    r"(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}){8,}(?![0-9A-Fa-f])|(?:\\x[0-9A-Fa-f]{2}){8,}"
)
_PERCENT = re.compile(r"%[0-9A-Fa-f]{2}")


def _hex_readings(form: str) -> list[str]:
    out = []
    for m in _HEX_RUN.finditer(form):
        try:
            decoded = bytes.fromhex(m.group().replace("\\x", "")).decode("utf-8")
        except ValueError:
            continue
        if decoded.isprintable() and " " in decoded.strip():
            out.append(decoded)
    return out


# Letter pairs common in English whose reversals are rare in it: English text scores high
# on the first, the same text written backwards on the second.
_FORWARD_PAIRS = tuple("th he nd ng nt ha ou io wh of ch sh ck ly".split())
_BACKWARD_PAIRS = tuple(pair[::-1] for pair in _FORWARD_PAIRS)


def _reversed_readings(form: str) -> list[str]:
    """``form`` backwards, as a whole and word by word, when it reads as English that way."""
    lower = form.lower()
    backward = sum(lower.count(p) for p in _BACKWARD_PAIRS)
    if backward < 2:
        return []
    score = sum(lower.count(p) for p in _FORWARD_PAIRS) - backward
    if score >= 0 or -score < 2:
        return []
    backwards = form[::-1]
    return [backwards, " ".join(word[::-1] for word in form.split())]


# A word written wholly in Cyrillic or Greek: the detection form folds its letters into
# their Latin look-alikes (the TR39 skeleton), which is right for "раssword" and wrong for a
# Russian sentence, so such a text is also read as written (NFKC only).
_NATIVE_WORD = re.compile(r"(?<![^\W\d_])[\u0370-\u03ff\u0400-\u04ff]{3,}(?![^\W\d_])")


def native_readings(text: str) -> list[str]:
    """``text`` as written (NFKC), when it holds a whole word of Cyrillic or Greek."""
    if not text.isascii() and _NATIVE_WORD.search(text):
        return [unicodedata.normalize("NFKC", text)]
    return []


_CARRIERS = re.compile(
    r"<!--([\s\S]*?)-->|/\*([\s\S]*?)\*/|\{#([\s\S]*?)#\}|<%--([\s\S]*?)--%>|\{\{!--([\s\S]*?)--\}\}"
    # [//]: # (…), [comment]: <> (…), [x]: # "…"
    r"|^\s*\[[^\]\n]{1,20}\]:\s*(?:#|<>|<#>)?\s*[(\"']([^\n]*?)[)\"']\s*$"
    r"|^\s*(?:#+|//+|--+|%+|;+)[ \t]*([^\n]+)$"
    # a comment trailing code: x = 1  # …
    r"|[ \t](?:#+|//+|--+)[ \t]+([^\n]+)$"
    # a string value of a JSON key: "note": "…"
    r"|[\"'][\w -]{1,40}[\"']\s*:\s*\"((?:[^\"\\\n]|\\.){8,})\"",
    re.MULTILINE,
)
_CELL_ROW = re.compile(r"^[ \t]*\|(.+)\|[ \t]*$", re.MULTILINE)


def carried_texts(form: str) -> list[str]:
    """The bodies of the comments, table cells and key values in ``form`` that differ from
    it, each stripped (see the module's docstring)."""
    out: list[str] = []
    if any(
        mark in form for mark in ("<!--", "/*", "{#", "<%--", "]:", "#", "//", "--", "%", ";", ":")
    ):
        for m in _CARRIERS.finditer(form):
            body = next((g for g in m.groups() if g), "").strip()
            if body and body != form.strip():
                out.append(body)
    if "|" in form:
        for row in _CELL_ROW.finditer(form):
            out.extend(c.strip() for c in row.group(1).split("|") if len(c.strip()) >= 8)
    return out


def extra_readings(form: str) -> list[str]:
    """The traditional fold, the pinyin reading and the decoded encodings of ``form``,
    where they differ from it."""
    out = []
    folded = fold_traditional(form)
    if folded != form:
        out.append(folded)
    pinyin = read_pinyin(form)
    if pinyin:
        out.append(pinyin)
    plain = unleet(form)
    if plain != form:
        out.append(plain)
    out.extend(_hex_readings(form))
    if "%" in form and len(_PERCENT.findall(form)) >= 3:
        out.append(unquote(form))
    out.extend(_reversed_readings(form))
    return out


def encoded_readings(form: str) -> list[str]:
    """The hex and reversed readings of ``form``: text written so a person cannot read it."""
    return [*_hex_readings(form), *_reversed_readings(form)]
