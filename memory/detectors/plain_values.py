"""Secrets whose value has no secret shape, read by what frames them (round 15 of issue 32).

- **a secret derived from another, with its change given**: a credential (or a network's
  key) said to be "the same as the wifi but with a 2 at the end", "my usual one with 2025
  after it", "the name of my first dog plus 88", 跟家里wifi一样，后面加个 88, 我女儿的名字加上
  她的生日 0612. The base is a secret or a name the reader may know; the change is a literal
  (digits or symbols), or a change from the closed class a recipe adds, with where it
  goes ("my usual password with the year after it", 后面加上年份): with the base, that is the
  secret, and the base is the user's; a reuse with no change ("the same password as my
  email") is no recipe;
- **a configuration directive**: a key that names a secret glued into one word
  (``requirepass``, ``masterauth``, ``db_password``), a space, then a value of secret shape,
  as redis.conf or pgbouncer write them (one bare argument may come first: sentinel's
  ``auth-pass <master> <password>``);
- **a user and a password side by side**, the second label bare ("user sensors / pass X"),
  or a command line's ``-u user:password`` (curl, wget, httpie, redis-cli's ``-a``): the
  convention says the second value is a password, so it need only not be a word of prose. English words that end in "pass" (bypass,
  compass …) are a closed class and are no key.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_NOUN = (
    r"\b(?:pass(?:word|code|phrase)?s?|pins?|codes?|logins?|keys?|wi-?fi|network)\b"
    r"|密码|密碼|口令|パスワード|비밀번호"
)
_BASE = (
    # the same as another secret, one's usual one, somebody's or something's name
    r"\bsame\s+(?:one\s+|thing\s+|password\s+)?as\s+[^.!?;\n]{1,40}?"
    r"|\b(?:my|our|the)\s+usual(?:\s+(?:one|password|pin|code))?"
    r"|\bname\s+of\s+(?:my|our|his|her|the)\s+[^.!?;\n]{1,30}?"
    r"|\b(?:my|our|his|her)\s+[a-z ]{1,24}?['’]s\s+name"
    r"|(?:跟|和|与|同)[^，。！？\n]{1,12}?(?:一样|相同|一致)|名字"
)
_LITERAL = r"[\"'“]?(?P<lit>[!-~]{1,12}?)[\"'”]?(?=[\s,.;:)，。]|$)"
# A change named, not typed, and where it goes ("with the year after it", "plus the site's
# name at the end", 后面加上年份): what a password recipe adds is a closed class (a date's
# parts, the site, a symbol's name).
_CHANGE_NOUN = (
    r"(?P<noun>(?:(?:the|my|his|her|our)\s+)?(?:current\s+|birth\s+)?(?:year|month|date|birthday|"
    r"(?:site|app|service|account)(?:['’]s)?\s+name|(?:exclamation|question)\s+mark|hash|"
    r"dollar\s+sign|at\s+sign)\s+(?:at\s+the\s+(?:end|start|front)|after(?:\s+it)?|before(?:\s+it)?|"
    r"in\s+front|on\s+the\s+end|tacked\s+on)"
    r"|(?:当年的?)?(?:年份|生日|出生年))"
)
_CHANGE = re.compile(
    rf"(?P<base>{_BASE})[^.!?;\n。！？]{{0,40}}?"
    r"(?:\b(?:with|plus|followed\s+by|then|and)\s+(?:an?\s+|the\s+(?:number|digits?)\s+)?"
    r"|[+＋]\s*"
    r"|(?:后面|前面|末尾|最后|结尾)?(?:再)?(?:加(?:个|上|了)?|跟上|接上)[\u3400-\u9fff]{0,8}?\s*)"
    + rf"(?:{_CHANGE_NOUN}|{_LITERAL})",
    re.IGNORECASE,
)
# Every base holds one of these (a gate before the pattern, tried at every position).
_BASE_WORDS = ("same", "usual", "name", "一样", "相同", "一致", "名字")
_NOUN_RE = re.compile(_NOUN, re.IGNORECASE)
_OWN = re.compile(r"\b(?:my|our|i|we|i'm|i've)\b|我", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?。！？\n]")


def _literal(value: str) -> bool:
    """A change one can type: digits or symbols, not a word ("with a capital", "plus one")."""
    return any(not c.isalpha() for c in value) and not value.startswith(("(", "http"))


def derived_spans(text: str) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    low = text.lower()
    if not any(w in low for w in _BASE_WORDS) or not _NOUN_RE.search(text):
        return out
    for m in _CHANGE.finditer(text):
        if not m.group("noun") and not _literal(m.group("lit")):
            continue
        # a recipe on a name is the speaker's own ("很多人的密码就是名字加生日" is advice); one
        # on another secret ("the same as the email one", "my usual") is a given secret's
        named = "name" in m.group("base").lower() or "名字" in m.group("base")
        if m.group("noun") and named and not _OWN.search(text, max(0, m.start() - 60), m.end()):
            continue
        lo = max([e.end() for e in _SENTENCE_END.finditer(text, 0, m.start())] or [0])
        if _NOUN_RE.search(text, lo, m.end()):
            out.append((m.start("base"), m.end()))
    return out


_DIRECTIVE = re.compile(
    r"(?<![\w.-])(?P<key>[a-z][a-z_-]*?(?:pass|passwd|password|pwd|secret|auth|token))"
    # one bare argument may come first (sentinel's "auth-pass <master> <password>")
    r"(?:[ \t]+(?P<arg>[a-z][a-z0-9_-]{0,30})(?=[ \t]+\S))?"
    r"[ \t]+[\"']?(?P<value>[!-~]{4,64}?)[\"']?(?=\s|$)",
    re.IGNORECASE,
)
_WORDS_IN_PASS = frozenset(
    "bypass compass trespass overpass underpass surpass encompass impass repass".split()
)
_BARE = frozenset("pass passwd password pwd secret auth token".split())


def directive_spans(text: str, looks_like_secret: Callable[[str], bool]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    low = text.lower()
    if not any(w in low for w in ("pass", "pwd", "secret", "auth", "token")):
        return out
    for m in _DIRECTIVE.finditer(text):
        key = m.group("key").lower()
        if key in _WORDS_IN_PASS or key in _BARE:
            continue
        for part in ("value", "arg"):
            if m.group(part) and looks_like_secret(m.group(part)):
                out.append(m.span(part))
                break
    return out


# A user and a password side by side, the second label bare ("user sensors / pass h0tW4ter",
# "login: ana, pw tulip-9", "-u ops:glassFrog2" as curl, wget and httpie take them): the pair
# is the convention that says the second value is a password, so its shape need not.
_PAIR = re.compile(
    r"\b(?:user(?:name)?|login|account|acct|uid)\s*[:=]?\s+[\"']?[^\s\"'/,;|]{2,64}[\"']?\s*"
    r"(?:/|,|;|\||\band\b)\s*(?:pass(?:word)?|pwd|pw)\b\s*[:=]?\s*[\"']?(?P<value>[^\s\"']{4,64})",
    re.IGNORECASE,
)
_USER_FLAG = re.compile(
    r"(?:^|\s)(?:-u|--user|--proxy-user|--auth|-a)(?:\s+|=)[\"']?[^\s:'\"]{1,64}:"
    r"(?P<value>[^\s'\"`@]{4,128})"
)


def _typed(value: str) -> bool:
    """A value one types as a password: not only letters of one case (a word of prose, a
    placeholder such as PASS), not only digits (a uid:gid pair), not a variable."""
    core = value.strip(".,;:!?)")
    if len(core) < 4 or core.isdigit() or core[0] in "$<{%[*":
        return False  # a uid:gid pair, a variable, a placeholder
    return not (core.isalpha() and (core.islower() or core.isupper()))


def pair_value_spans(text: str) -> list[tuple[int, int]]:
    low = text.lower()
    out: list[tuple[int, int]] = []
    if "pw" in low or "pass" in low:
        out += [m.span("value") for m in _PAIR.finditer(text) if _typed(m.group("value"))]
    if "-u" in text or "--" in text or "-a" in text:
        # curl, wget and httpie take "-u user:password"; others (docker) take user:group
        web = re.search(r"\b(?:curl|wget|https?)\b", text) is not None
        out += [
            m.span("value")
            for m in _USER_FLAG.finditer(text)
            if _typed(m.group("value"))
            or web
            and m.group("value").islower()
            and m.group("value").isalpha()
        ]
    return out


def plain_value_spans(text: str, looks_like_secret: Callable[[str], bool]) -> list[tuple[int, int]]:
    """Every span this module reads in ``text`` (the detection form)."""
    return derived_spans(text) + directive_spans(text, looks_like_secret) + pair_value_spans(text)
