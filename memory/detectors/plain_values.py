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
  compass …) are a closed class and are no key; 账号 X 密码 Y is the same pair in Chinese;
- **a login given as a pair with no secret word** (round 19): an account, a separator and
  the secret, governed by a verb of logging in or connecting ("ssh in as deploy / X", 用
  admin / X 登录) or given as what a device *is* ("the NAS is admin:X"). The secret is of
  secret shape, or a plain word where the pair says it is one ("as root / vizxv") or the
  account is a built-in one; an account followed by prose, a quantity, or two of a kind
  (ba249 / ba250) is no pair.
"""

from __future__ import annotations

import os
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
# The same in Chinese ("账号 liming 密码 bamboo"): 密码/口令 name the second value outright, so
# any typed word is it, as after "password is".
_PAIR_ZH = re.compile(
    r"(?:账号|帳號|帐号|賬號|账户|賬戶|用户名|用戶名|登录名|登錄名)\s*[:：]?\s*[A-Za-z0-9][\w.@-]{1,40}"
    r"\s*[,，;；/、]?\s*(?:密码|密碼|口令)\s*[:：]?\s*(?:是|为|為)?\s*[\"'“]?(?P<value>[!-~]{3,64}?)[\"'”]?"
    r"(?=\s*(?:$|[.!?;,，。！？；)\n]|[\u3400-\u9fff]))"
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
    if not text.isascii():
        out += [m.span("value") for m in _PAIR_ZH.finditer(text)]
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


# --- a login given as a pair, with no secret word (round 19) ------------------------------
# "ssh to the box as deploy / Larkspur77", "log in as mike, tangerine44", "the printer's
# panel is admin:Sunbeam42", 用 admin / lemon8899 登录, 用 pi 和 mulberry 登进去: an account,
# a separator, then the secret, where a verb of logging in or connecting governs the pair
# (English before it; Chinese before it or after: 用 U / P 登录), or a copula or a colon
# gives the pair as what something *is* ("the NAS is admin / X", 后台是 admin / X).
# The account is one token that starts with a letter or a digit; the secret ends its clause
# (a word that goes on, "log in as admin, then open settings", is prose).
_LOGIN_VERB = re.compile(
    r"\b(?:log(?:s|ged|ging)?\s*(?:in|on)(?:to)?|sign(?:s|ed|ing)?\s*(?:in|on)(?:to)?|"
    r"ssh(?:ed|ing)?|telnet|rdp|s?ftp|connect(?:s|ed|ing)?|access(?:es|ed|ing)?|mount(?:s|ed|ing)?)\b"
    r"|登录|登錄|登入|登陆|登陸|远程|遠程|连接|連接",
    re.IGNORECASE,
)
_ZH_LOGIN_AFTER = re.compile(
    r"\s*(?:就能|就可以|可以|才能|能)?\s*(?:登|连|連|上去|进去|進去|远程|遠程|ssh)"
)
# an account's label names what follows as the account ("登入帳號 admin / X")
_ACCOUNT_LABEL = r"账号|帳號|帐号|賬號|账户|賬戶|用户名|用戶名"
_ACCOUNT = r"(?P<user>(?<![A-Za-z0-9_/.@-])[A-Za-z0-9][A-Za-z0-9_.@-]{1,40})"
_SEPARATOR = r"(?P<sep>\s*/\s*|:|\s*[,，]\s*|\s+(?:and|with)\s+|\s*(?:和|跟|与|與|加)\s*)"
_SECRET = r"[\"'“]?(?P<value>[^\s\"'”,，。;；/:\u3400-\u9fff]{3,64})[\"'”]?"
# after a verb ("as U", "with U", "using U"), a copula or a colon, a Chinese 用/拿 (by means of)
_PAIR_AFTER = re.compile(
    rf"(?P<lead>\bas|\bwith|\busing|\bis|\bwas|'s|[:：]|是|用|拿|使用|通过|通過|{_ACCOUNT_LABEL})\s*{_ACCOUNT}{_SEPARATOR}{_SECRET}"
    r"(?=\s*(?:$|[.!?;,，。！？；)\n]|[\u3400-\u9fff]))",
    re.IGNORECASE,
)
# The built-in administrator and default accounts of the systems people log in to (Unix,
# Windows, SQL Server, Raspberry Pi OS, Ubuntu cloud images, PostgreSQL, routers): a closed
# set the systems fix, so a plain word after one of them is that account's password.
_BUILT_IN = frozenset("root admin administrator pi sa ubuntu postgres".split())
_PROSE_AFTER = frozenset(
    "then not and but or so too also please thanks thank okay now first later instead".split()
)


def _login_governs(text: str, m: re.Match[str]) -> bool:
    """A verb of logging in before the pair in its clause, or (Chinese) just after it."""
    lo = max([e.end() for e in _CLAUSE_END.finditer(text, 0, m.start())] or [0])
    if _LOGIN_VERB.search(text, max(lo, m.start() - 60), m.start() + 1):
        return True
    return m.group("lead") in ("用", "拿", "使用", "通过", "通過") and bool(
        _ZH_LOGIN_AFTER.match(text, m.end())
    )


def login_pair_spans(text: str, looks_like_secret: Callable[..., bool]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    # Cheap necessary conditions: a verb of logging in (its literals), or a pair written
    # tight as U:P or with a slash (the only forms read with no verb).
    low = text.lower()
    verb_words = any(w in low for w in _VERB_WORDS)
    if not verb_words and not _VERBLESS_GATE.search(text):
        return out
    for m in _PAIR_AFTER.finditer(text):
        user, sep = m.group("user"), m.group("sep").strip()
        value = m.group("value").rstrip(".,;?)")
        span = (m.start("value"), m.start("value") + len(value))
        if value.lower() in _PROSE_AFTER or not any(c.isalpha() for c in user):
            continue
        verb = verb_words and _login_governs(text, m)
        lead = m.group("lead").lower()
        if not verb and (
            lead in ("as", "with", "using")
            or sep not in ("/", ":")
            or not _LOGIN_NAME.fullmatch(user)
        ):
            continue  # no verb: a copula or a colon, then a login name, then /P or :P
        if _QUANTITY.fullmatch(value) or _two_of_a_kind(user, value):
            continue  # a quantity with its unit (5G 和 2.4G), two of a kind (ba249 / ba250)
        if looks_like_secret(value):
            out.append(span)
            continue
        # a plain word: the pair must say it is one ("as U / P", U:P) or the account is built in
        plain = value.isalpha() and (value.islower() or not value.isascii())
        built_in = user.lower() in _BUILT_IN
        if plain and (built_in or (verb and lead == "as" and sep in ("/", ":"))):
            out.append(span)
    return out


# With no verb the account must look typed at a login prompt (lowercase, or a built-in
# name): "the model is GPT-4 / Claude3" names two products.
_LOGIN_NAME = re.compile(r"[a-z0-9][a-z0-9._@-]*|(?i:administrator|admin|root)")
_QUANTITY = re.compile(r"\d{1,4}(?:\.\d+)?[A-Za-z]{1,3}")


def _shape(token: str) -> str:
    """Letters as a, digits as 0, each run once ("ba249" and "ba250" are both a0)."""
    return re.sub(r"(.)\1+", r"\1", re.sub(r"\d", "0", re.sub(r"[^\W\d_]", "a", token)))


def _two_of_a_kind(user: str, value: str) -> bool:
    """An enumeration, not a login: one shape, one length and a common start (ba249 / ba250,
    user1 / user2); "admin / admin123" and "test / test" are logins."""
    common = len(os.path.commonprefix([user.lower(), value.lower()]))
    same = _shape(user) == _shape(value) and len(user) == len(value)
    return same and common >= 2 and value.lower() != user.lower()


_CLAUSE_END = re.compile(r"[.!?;。！？；\n]")
_VERB_WORDS = (
    "log", "sign", "ssh", "telnet", "rdp", "ftp", "connect", "access", "mount",
    "登", "远程", "遠程", "连", "連", "上去", "进去", "進去",
)  # fmt: skip
_VERBLESS_GATE = re.compile(r"[A-Za-z0-9_.@-](?:\s*/\s*|:)[^\s/:]")


def plain_value_spans(text: str, looks_like_secret: Callable[[str], bool]) -> list[tuple[int, int]]:
    """Every span this module reads in ``text`` (the detection form)."""
    return (
        derived_spans(text)
        + directive_spans(text, looks_like_secret)
        + pair_value_spans(text)
        + login_pair_spans(text, looks_like_secret)
    )
