"""Words that stand where a secret's value would, and are not one (round 15 of issue 32).

After "my password is", "密码都在", "パスワードは" people often say *where* the secret is
or *what it is like*, not what it is. The prose detectors read the word after the
credential noun as the value ("The password is in the vault under 'Router'", 我的密码都在
1Password里, "my password is eight characters long"); this module reads the span one of
them found, by the grammar around it, and says it is not a value when:

- **it is a place**: the credential's verb is a locative ("is in", "are kept under" …, at
  most five words on: "is in the shared vault under"), not a verb's particle ("settled
  on", "opens on"), or it is the object of 在/存在/放在 …
  closed by a place word (里, 中, 上, 内), or it is followed by a Japanese or Korean
  locative particle with a verb of keeping (に保存, に入って, にしまって, 에 저장, 에 있어요; not
  に + する, "made it": 3857にしました sets the value), or the
  span itself opens with one ("are all in Enpass these days"). A
  password manager, a notebook or a drawer named so is where the secret lives;
- **it is a description**: a length (a number word or digits, then characters, digits,
  letters or words) or an indefinite pronoun heading a clause ("something only I know",
  "nothing you'd guess"), or a compound adjective ("case sensitive", "numbers only").
- **it is a quantity** (round 20): a number with a unit of money or measure after it, or
  a currency sign before it ("密码箱 1500 元买的", "a combination lock for 1299 yuan",
  "$1299"): a price or a size, not what opens a thing;
- **it is a pointer** (round 19): an order to consult where the secret is kept — a verb
  of consulting (see, ask, check, look, refer, consult, find, contact …; 见, 详见, 参见, 看,
  问, 找, 查) then its object, words with no digit ("see the vault entry", "ask Priya",
  "见群公告"). A secret written after the pointer is another token, read on its own.

The prepositions, particles and pronouns are closed grammatical classes, not examples.
"""

from __future__ import annotations

import re

_LOCATIVE_BEFORE = re.compile(
    r"(?i:\b(?:is|are|was|were|'s|sits|lives|stays|kept|stored|saved|written)\s+"
    r"(?:(?:all|both|still|now|safely)\s+)?(?:in|inside|under|within|on|behind|beneath)\s+"
    r"(?:(?!(?:is|are|was|were|as)\b)[\w'-]+\s+){0,5}?)"
    r"[\"“'「『]?$"
)
_ZAI_BEFORE = re.compile(
    r"(?:都|全|也|就)?(?:存|放|记|記|写|寫|保存|储存|儲存|锁|鎖)?在\s*[\"“'「『]?$"
)
_PLACE_AFTER = re.compile(r"^[\"”'」』]?\s*(?:的)?\s*(?:里|裡|中|上|内|內|那里|那裡|这里|這裡)")
_PARTICLE_AFTER = re.compile(
    r"^[\"”'」』]?\s*(?:に(?:保存|入|あ|登録|記録|置|しま[っうわいえ])|の中|で管理|"
    r"에\s?(?:저장|있|넣|보관)|안에)"
)
_LENGTH = re.compile(
    r"(?i:^(?:\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"fifteen|sixteen|twenty|thirty)[\s-]+(?:characters?|chars?|digits?|letters?|words?|"
    r"symbols?)\b)"
)
# A span that itself opens with a locative ("all in Enpass these days").
_LOCATIVE_START = re.compile(
    r"(?i:^(?:(?:all|both|each|still|now|safely|kept|stored|saved|written)\s+){0,2}"
    r"(?:in|inside|under|within|on|behind|beneath)\s+\S)"
)
# A compound adjective ("case sensitive", "time based", "numbers only"): a noun and the
# closed set of adjective-forming second halves says what the secret is like.
_COMPOUND_ADJECTIVE = re.compile(
    r"(?i:^[a-z]+[\s-]+(?:(?:in)?sensitive|proof|protected|free|based|only|specific)\b)"
)
# A number, then a unit of money or measure (the closed classes of currencies and units).
_NUMBER = re.compile(r"^\d[\d,.]*$")
_UNIT_AFTER = re.compile(
    r"\s*(?:元|块|塊|圆|圓|角|美元|美金|欧元|歐元|日元|英镑|英鎊|港币|港幣|刀|円|원|달러|"
    r"公斤|千克|斤|克|公里|千米|米|厘米|毫米|毫升|平米|平方|瓦|小时|小時|分钟|分鐘|秒钟|"
    r"(?i:(?:dollars?|bucks|pounds?|quid|euros?|yuan|rmb|yen|won|usd|eur|gbp|cny|hkd|kg|km|"
    r"mg|ml|cm|mm|kilos?|grams?|miles?|calories|kcal|percent|hours?|minutes?|mins)\b)|%|％)"
)
_CURRENCY_BEFORE = re.compile(r"(?:[$¥￥€£₩]|(?i:\b(?:us|hk|rmb|usd|eur|gbp|cny)\s?\$?))\s*$")
_INDEFINITE = re.compile(r"(?i:^(?:something|nothing|anything|someone|somewhere)\b\s+\w)")
# The verbs of consulting (a closed class of directives: where to get it, whom to ask),
# then an object of words without digits, in English or Chinese.
_POINTER = re.compile(
    r"(?i:^(?:please\s+)?(?:see|ask|check|look|refer|consult|find|contact|ping|message|"
    r"get\s+it)\b(?:\s+(?:in|at|on|up|under|to|with|for|from)\b)?(?:\s+[^\W\d]+[,.']?){1,6}\s*$)"
    r"|^(?:请)?(?:见|详见|参见|參見|参看|看|问|問|找|查看|查)[^\x00-\x7f]{1,16}$"
)


def pointer(value: str) -> bool:
    """Whether ``value``, what stands after a credential word, is an order to consult."""
    return bool(_POINTER.match(value))


def place_or_description(text: str, start: int, end: int) -> bool:
    """Whether the found span ``text[start:end]`` is a place or a description (above)."""
    before = text[max(0, start - 48) : start]
    after = text[end : end + 8]
    value = text[start:end].strip("\"“”'「」『』 ")
    if _LOCATIVE_BEFORE.search(before) or _PARTICLE_AFTER.match(after):
        return True
    if _ZAI_BEFORE.search(before) and _PLACE_AFTER.match(after):
        return True
    if _NUMBER.match(value) and (
        _UNIT_AFTER.match(text, end) or _CURRENCY_BEFORE.search(text, max(0, start - 5), start)
    ):
        return True
    return bool(
        _LENGTH.match(value)
        or _INDEFINITE.match(value)
        or _LOCATIVE_START.match(value)
        or _COMPOUND_ADJECTIVE.match(value)
        or pointer(value)
    )
