"""A value spelled out, decoded to its string and read again (round 15 of issue 32).

The value readers want a token shaped like a secret; a value read aloud has no such token:
"K as in kilo, 9, M as in Mike, lowercase q, 4", "大写的 Q，小写的 w，然后 8，8，再一个井号",
"T.U.R.B.O.9.9", "L I U 八 八 六". Here a run of spelled units is decoded to the string it
spells, the run is replaced by that string, and *every* reader runs on the rewritten text
(as a text in base64 or ROT13 is read): "the password is K9Mq4" is then a labelled value,
"my booking reference is KZ47RB" stays a reference. The label, the question, the key, the
place decide; this module only spells.

The units are closed, standard sets, not phrasings collected from reports:

- a single letter or digit, alone or joined by dots or dashes (``g-r-e-e-n``, ``T.U.R.B.O``);
- a word of the ICAO/NATO spelling alphabet, and *any* alphabet of the form "X as in Word",
  "X for Word", "X like Word" (the word starts with the letter: Peter, mother, Apple);
- digit words (English 0–99, radio niner/tree/fife, "double"/"triple"; Chinese 零一二…九
  standing alone), and the names of the printable ASCII symbols (English and Chinese);
- case words before a letter (capital, lower-case, 大写的, 小写) or for the whole run
  ("all lowercase", 全小写); joiners (then, followed by, 然后, 再, 数字, 字母) that add nothing.

A run spells four or more characters with nothing but joiners and separators between
them; a NATO word's case is upper unless a case word says otherwise. A password or code
noun shortly before the run, or a spelling in both cases with a digit or a symbol, names
what is spelled whatever the verb; a run counting A, B, C or 1, 2, 3 is a list.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from memory.detectors.value_readings import encoded_spans

_NATO = {
    w: w[0].upper()
    for w in (
        "alfa alpha bravo charlie delta echo foxtrot golf hotel india juliet juliett kilo lima "
        "mike november oscar papa quebec romeo sierra tango uniform victor whiskey whisky "
        "x-ray xray yankee zulu"
    ).split()
}
_ONES = "zero one two three four five six seven eight nine".split()
_DIGIT_WORDS = {w: str(n) for n, w in enumerate(_ONES)} | {"niner": "9", "tree": "3", "fife": "5"}
_TEENS = "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen"
_DIGIT_WORDS |= {w: str(10 + n) for n, w in enumerate(_TEENS.split())}
_TENS = {
    w: str(n + 2)
    for n, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split())
}
_ZH_DIGITS = dict(zip("零〇一二两三四五六七八九幺", "0012234567891", strict=True))
# Symbol names (the printable ASCII set): a trailing "mark", "sign", "symbol" or "key" is part
# of the name.
_SYMBOLS = {
    "dot": ".", "period": ".", "point": ".", "dash": "-", "hyphen": "-", "minus": "-",
    "underscore": "_", "hash": "#", "hashtag": "#", "pound": "#", "at": "@", "asterisk": "*",
    "star": "*", "exclamation": "!", "bang": "!", "dollar": "$", "ampersand": "&", "plus": "+",
    "percent": "%", "slash": "/", "backslash": "\\", "tilde": "~", "caret": "^",
    "question": "?", "colon": ":", "semicolon": ";", "equals": "=",
    "感叹号": "!", "叹号": "!", "井号": "#", "星号": "*", "下划线": "_", "横线": "-", "减号": "-",
    "艾特": "@", "美元符号": "$", "问号": "?", "百分号": "%", "斜杠": "/", "加号": "+", "点": ".",
}  # fmt: skip
_SUFFIX = frozenset("mark sign symbol key".split())
_UPPER = frozenset("capital uppercase upper-case upper big caps 大写 大写的".split())
_LOWER = frozenset("lowercase lower-case lower small 小写 小写的".split())
_ALL_UPPER = frozenset("全大写 全部大写 全是大写".split())
_ALL_LOWER = frozenset("全小写 全部小写 全是小写".split())
_JOINERS = frozenset(
    "then and followed by next the number numbers digit digits letter letters 然后 再 "
    "再来 接着 一个 再一个 数字 字母".split()
)
_AS_IN = frozenset("as in for like".split())

_TOKEN = re.compile(
    r"(?P<zh>全部?大写|全是大写|全部?小写|全是小写|大写的?|小写的?|然后|再来|再一个|再|接着|一个|"
    r"数字|字母|感叹号|叹号|井号|星号|下划线|横线|减号|艾特|美元符号|问号|百分号|斜杠|加号)"
    r"|(?P<zhd>[零〇一二两三四五六七八九幺点])"
    r"|(?P<word>[A-Za-z0-9]+(?:[-.'][A-Za-z0-9]+)*)"
    r"|(?P<sep>[,，、;；:：\-–—/.]+|\s+)"
    r"|(?P<other>.)",
    re.DOTALL,
)
_CJK = re.compile(r"[\u3400-\u9fff]")
# Cheap gate: four single characters or spelling words, or a Chinese case word or digit.
_WORDS = re.compile(r"[A-Za-z0-9]+")
_UNIT_WORDS = frozenset(_NATO) | frozenset(_DIGIT_WORDS) | frozenset(_TENS) | {"double", "triple"}
_ZH_GATE = re.compile(r"大写|小写|[零〇一二两三四五六七八九](?![\u3400-\u9fff])")


def _worth_reading(text: str) -> bool:
    units = 0
    for w in _WORDS.findall(text):
        if len(w) == 1 or w.lower() in _UNIT_WORDS:
            units += 1
            if units >= 4:
                return True
    return _ZH_GATE.search(text) is not None


def _tokens(text: str) -> list[tuple[int, int, str, str]]:
    """(start, end, kind, text) with kind one of zh, zhd, word, sep, other."""
    out = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup or "other"
        if kind == "zhd":
            # Chinese digits stand alone: no other Chinese character touches their run
            a, b = m.span()
            while a and text[a - 1] in _ZH_DIGITS:
                a -= 1
            while b < len(text) and text[b] in _ZH_DIGITS:
                b += 1
            if (a and _CJK.match(text, a - 1) and text[a - 1] not in "字再") or _CJK.match(text, b):
                kind = "other"
        out.append((m.start(), m.end(), kind, m.group()))
    return out


def _parts(word: str) -> list[str] | None:
    """A dotted or dashed word whose parts are each a unit ("g-r-e-e-n", "T.U.R.B.O.9.9",
    "Sierra-Tango-Romeo"), else None."""
    parts = re.split(r"[-.]", word)
    if len(parts) < 2:
        return None
    if all(len(p) == 1 or p.lower() in _NATO or p.lower() in _DIGIT_WORDS for p in parts):
        return parts
    return None


def _decode_runs(text: str) -> list[tuple[int, int, str]]:
    """Runs of four or more spelled units: (start, end, the string they spell)."""
    toks = [t for t in _tokens(text) if t[2] != "sep" or t[3].strip()]
    runs: list[tuple[int, int, str]] = []
    chars: list[str] = []
    units = 0
    start = end = -1
    case = default = None

    def close() -> None:
        nonlocal chars, units, start, case
        if units >= 4:
            runs.append((start, end, "".join(chars)))
        chars, units, start, case = [], 0, -1, None

    def emit(a: int, b: int, value: str, letter: bool) -> None:
        nonlocal units, start, end, case
        if letter:
            mode = case or default
            value = (
                value.upper() if mode == "upper" else value.lower() if mode == "lower" else value
            )
        chars.append(value)
        units += len(value)
        start = a if start < 0 else start
        end = b
        case = None

    i = 0
    while i < len(toks):
        a, b, kind, tok = toks[i]
        low = tok.lower()
        nxt = toks[i + 1][3].lower() if i + 1 < len(toks) else ""
        if kind == "sep" or kind == "other" and not tok.strip():
            i += 1
            continue
        if low in _ALL_UPPER or low in _ALL_LOWER or (low == "all" and nxt in _UPPER | _LOWER):
            close()
            default = "upper" if (low in _ALL_UPPER or nxt in _UPPER) else "lower"
            i += 1 if low != "all" else 2
            continue
        if low in _UPPER or low in _LOWER:
            case = "upper" if low in _UPPER else "lower"
            i += 1
            continue
        if kind == "zhd":
            emit(a, b, _ZH_DIGITS.get(tok, _SYMBOLS.get(tok, "")), False)
            i += 1
            continue
        if kind == "zh" and tok in _SYMBOLS:
            emit(a, b, _SYMBOLS[tok], False)
            i += 1
            continue
        if kind == "word":
            # "X as in Word", "X for Word": the word starts with the letter
            if len(tok) == 1 and tok.isalpha():
                j = i + 1
                if j < len(toks) and toks[j][3].lower() == "as" and j + 1 < len(toks):
                    j += 1 if toks[j + 1][3].lower() == "in" else 0
                if j < len(toks) and toks[j][3].lower() in _AS_IN and j + 1 < len(toks):
                    word = toks[j + 1][3]
                    if len(word) >= 3 and word[0].lower() == low and word.isalpha():
                        emit(a, toks[j + 1][1], tok, True)
                        i = j + 2
                        continue
            if len(tok) == 1 or (tok.isdigit() and len(tok) <= 4):
                emit(a, b, tok, tok.isalpha())
                i += 1
                continue
            if low in _NATO:
                emit(a, b, _NATO[low], True)
                i += 1
                continue
            if low in ("double", "triple") and (nxt in _DIGIT_WORDS or len(nxt) == 1):
                unit = _DIGIT_WORDS.get(nxt, toks[i + 1][3])
                emit(a, toks[i + 1][1], unit * (2 if low == "double" else 3), unit.isalpha())
                i += 2
                continue
            if low in _DIGIT_WORDS:
                emit(a, b, _DIGIT_WORDS[low], False)
                i += 1
                continue
            if low in _TENS:
                one = _DIGIT_WORDS.get(nxt) if nxt in _ONES[1:] else None
                emit(a, toks[i + 1][1] if one else b, _TENS[low] + (one or "0"), False)
                i += 2 if one else 1
                continue
            if low in _SYMBOLS and (units or nxt in _SUFFIX):
                # "exclamation mark", "at sign": the name and its suffix
                stop = toks[i + 1][1] if nxt in _SUFFIX else b
                emit(a, stop, _SYMBOLS[low], False)
                i += 2 if nxt in _SUFFIX else 1
                continue
            if tok.isalpha() and len(tok) <= 8 and i + 1 < len(toks) and toks[i + 1][2] == "zhd":
                # letters beside Chinese digits ("L I U 八 八 六": the detection form has
                # joined the spaced letters already, LIU 八八六): the letters as written
                emit(a, b, tok, False)
                i += 1
                continue
            parts = _parts(tok)
            if parts:
                for p in parts:
                    value = _NATO.get(p.lower()) or _DIGIT_WORDS.get(p.lower()) or p
                    emit(a, b, value, value.isalpha())
                i += 1
                continue
        if low in _JOINERS:
            i += 1
            continue
        if units:
            default = None
        close()
        i += 1
    close()
    return runs


# A password noun shortly before the run, in its sentence, names what is spelled whatever
# verb tells it ("密码念一下：L I U 八 八 六", "the password, spelled out, is …").
_PASSWORD_BEFORE = re.compile(
    r"(?:\b(?:pass(?:word|code|phrase)?|pw|pwd|pins?|codes?|keys?|logins?|combination)(?:'s)?\b(?!\s+names?\b)"
    r"|密码|密碼|口令|暗号|验证码|パスワード|비밀번호|暗証番号)[^.!?。！？\n]*$",
    re.IGNORECASE,
)
# Codes and keys that are nobody's secret (a voucher, a reference, a postcode, a map's key).
_NOT_SECRET_CODE = re.compile(
    r"\b(?:promo|discount|coupon|voucher|referral|booking|reference|confirmation|tracking|"
    r"zip|postal|post|area|country|product|order|dress|error|colou?r|qr|bar|map|answer)\s+"
    r"(?:codes?|keys?)\b",
    re.IGNORECASE,
)


def _counting(spelled: str) -> bool:
    """A, B, C, D then 1, 2, 3: the letters and the digits each in steps of one (options, a
    list, a count), not a value."""
    if not spelled.isalnum():
        return False
    for kind in (str.isalpha, str.isdigit):
        chars = [c.lower() for c in spelled if kind(c)]
        if any(ord(y) - ord(x) != 1 for x, y in zip(chars, chars[1:], strict=False)):
            return False
    return True


def _made(spelled: str) -> bool:
    """Spelled with both cases and a digit or a symbol, five or more characters: the shape a
    password policy asks for (names and references are spelled in one case)."""
    classes = [any(f(c) for c in spelled) for f in (str.islower, str.isupper)]
    return len(spelled) >= 5 and all(classes) and any(not c.isalpha() for c in spelled)


def spelled_runs(text: str) -> list[tuple[int, int, str]]:
    """The spelled runs of ``text`` whose string differs from what is written."""
    if not _worth_reading(text):
        return []
    return [
        (a, b, s)
        for a, b, s in _decode_runs(text)
        if s != text[a:b] and len(s) >= 4 and not _counting(s)
    ]


def rereading_spans(
    text: str, reading: Callable[[str], list[tuple[int, int, str]]]
) -> list[tuple[int, int, str]]:
    """Spans of ``text`` that ``reading`` (every rule) finds a secret in once decoded: a
    token encoded in base64, hex or percent-encoding, or a spelled run written in place as
    its string (the module docstring)."""
    out = [(*span, "credential_format") for span in encoded_spans(text, reading)]
    for a, b, spelled in spelled_runs(text):
        rewritten = text[:a] + spelled + text[b:]
        stop = a + len(spelled)
        told = _PASSWORD_BEFORE.search(text, max(0, a - 30), a)
        told = told and not _NOT_SECRET_CODE.search(text, max(0, a - 40), a)
        if told or _made(spelled) or any(s < stop and e > a for s, e, _ in reading(rewritten)):
            out.append((a, b, "credential_in_prose"))
    return out
