"""Whether a sentence carries a *secret-shaped value*: the second factor of the learned
credential head's lower line (``memory.detectors.learned``, ``refuse_valued``).

A credential is a concept and a value. The learned head reads the concept from the words
("the keypad takes", "for the SIM card", 撤销布防); a rule reads a value's shape only beside a
credential word it knows. Where the sentence also carries a value that could be typed into
a keypad or a login box, the head's own evidence needs less support: its line is lower for
such sentences, chosen on the training corpus's validation split with the ordinary-turn
budget counted over the ordinary turns that carry such a value too
(``bench/detectors/valued.py``). A value here is:

- a code of digits: 4 to 8 digits, bare or in groups split by single spaces or hyphens
  ("7 3 1 9", "24-61-08", "2580#"), or 4 to 12 digits unbroken; never a year on its own,
  a number with a currency sign before it or a unit after it (an amount, a size, a count),
  and never longer, so a phone, card or account number is not one (dates and clock times
  are taken out by the caller, as the learned features are);
- digits spelled as words, four or more in a row ("nine one seven four", 一三五七九二): the
  ten digit names are a closed class;
- a token the secret-shape test takes without a credential word around it: letters mixed
  with digits or symbols, six printable ASCII characters or more
  (``secrets.looks_like_secret``), not an
  e-mail address or a URL;
- the format-only shapes of ``memory.detectors.formats``: anti-tamper numerals (大写), a
  grouped key, a password-policy token.

This test alone refuses nothing: ordinary text carries such values (a room number, an
order number, a model name), which is why the lower line is chosen on them.
"""

from __future__ import annotations

import re

from memory.detectors.formats import daxie_code_spans, grouped_key_spans, policy_token_spans
from memory.detectors.secrets import looks_like_secret

_DIGITS = re.compile(
    r"(?<![A-Za-z0-9_$£€¥₩.,])(?P<v>\d(?:[ -]?\d){3,11})(?P<tail>[#*]?)(?![.,]\d|[A-Za-z0-9_])"
    r"(?P<after>.{0,12})",
    re.DOTALL,
)
# After a number, a unit (SI, time, money, count words in zh/ja/ko) makes it a quantity.
_UNIT = re.compile(
    r"\s?(?:%|°|[kmµ]?g\b|k?m\b|cm\b|mm\b|ml\b|mi\b|ft\b|lbs?\b|oz\b|[kmgt]b\b|mph\b|"
    r"k\b|ms\b|mins?\b|minutes?\b|hours?\b|hrs?\b|days?\b|weeks?\b|months?\b|years?\b|"
    r"yrs?\b|pounds?\b|dollars?\b|euros?\b|yuan\b|yen\b|won\b|pence\b|"
    r"元|块|塊|円|원|分|号|號|楼|樓|岁|歲|年|月|日|天|次|个|個|人|万|萬|页|頁|米|公里|公斤|克|毫升|"
    r"秒|回|枚|件|평|개|명|번|일|월|년|시)",
    re.IGNORECASE,
)
_YEAR = re.compile(r"(?:19|20)\d\d")
_DIGIT_WORD_EN = r"(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)"
_SPELLED = re.compile(
    rf"\b{_DIGIT_WORD_EN}(?:[\s,-]+{_DIGIT_WORD_EN}){{3,}}\b|[零〇一二三四五六七八九]{{4,}}"
    r"(?![十百千万萬亿億])",
    re.IGNORECASE,
)
_TOKEN = re.compile(r"[!-~]{6,}")
_TRIM = "\"'`()[]{}<>,;:=，。、！？!?.「」“”‘’"


def _digit_code(m: re.Match[str]) -> bool:
    value = m.group("v")
    digits = re.sub(r"[ -]", "", value)
    split = digits != value
    if len(digits) > (8 if split else 12):
        return False
    if not split and _YEAR.fullmatch(digits):
        return False
    return not (not m.group("tail") and _UNIT.match(m.group("after")))


def carries_secret_value(text: str) -> bool:
    """Whether ``text`` (normalised for detection, dates and clock times taken out) holds a
    value shaped like a secret (the module docstring). Deterministic, no state."""
    if any(_digit_code(m) for m in _DIGITS.finditer(text)):
        return True
    if _SPELLED.search(text):
        return True
    for m in _TOKEN.finditer(text):
        token = m.group().strip(_TRIM)
        if len(token) < 6 or "://" in token or re.search(r"\w@\w+\.\w", token):
            continue
        if not token.isdigit() and looks_like_secret(token, numeric_ok=False):
            return True
    return bool(daxie_code_spans(text) or grouped_key_spans(text) or policy_token_spans(text))
