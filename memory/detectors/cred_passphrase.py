"""A password made of words: a passphrase given after the noun that names it.

Password managers and diceware make passwords of words ("maple-orbit-quiet-ferry"); the
value readers look for a token shaped like a secret (digits, mixed case, symbols) and let
plain words through, so "my password is tundra-copper-lantern" was stored. Here a value
is read as a passphrase when:

- a password noun (password, passphrase, pass phrase, passcode, pwd) **heads its phrase**:
  the next word is a copula or a colon, or a function word opening what qualifies it
  ("the passphrase *for* the backup drive is", "the password *we* agreed on is"), never a
  noun that makes it a compound ("the password *hint* is", "password *rules*:");
- it is given: a copula, a colon, "=" or "to" ("set the passphrase to …") comes before the
  value, at most 40 characters after the noun and inside the sentence;
- the value is three or more words of 3–12 letters (a number of up to four digits may be
  one of them) joined by one separator ("-", "_", or "." with four or more parts, so a
  domain is not one), none of them a function word ("up-to-date", "one-size-fits-all",
  "this-is-an-example" are prose); or three or more words in quotes.

Function words are a closed class of the language, not a list of phrasings. Chinese,
Japanese and Korean values after 密码/口令/パスワード/비밀번호 are read by the rules that
already take any value after those nouns.
"""

from __future__ import annotations

import re

_NOUN = r"\b(?:pass\s?(?:word|phrase|code)|pwd)(?:'s|s)?\b"
_OPENERS = (
    r"(?:for|of|on|to|at|from|that|which|i|we|you|he|she|they|i've|we've|i'd|we'd|"
    r"i'm|we're|i\s+\w+|we\s+\w+)"
)
_COPULA = r"(?:\s*(?::|=)|\s+(?:is|was|are|will\s+be|now\s+is|is\s+now|reads|to)\b|'s\b)"
_GIVEN = re.compile(rf"{_NOUN}(?:\s+{_OPENERS}\b[^.!?;\n:=]{{0,40}}?)?{_COPULA}\s*", re.IGNORECASE)
_JOINED = re.compile(
    r"(?P<value>[A-Za-z]{3,12}(?P<sep>[-_.])(?:[A-Za-z]{3,12}|\d{1,4})"
    r"(?:(?P=sep)(?:[A-Za-z]{3,12}|\d{1,4})){1,6})(?![\w@/-])"
)
_QUOTED = re.compile(r"[\"“'‘](?P<value>[A-Za-z]{2,12}(?:\s+[A-Za-z]{2,12}){2,7})[\"”'’]")
_FUNCTION_WORDS = frozenset(
    """
    the a an and or nor but of to in on at by for with from up out off over under into onto
    upon about as than then so if is are was were be been being not no all any one each
    every some such same more most less few this that these those it its you your my our
    their his her we they he she me him them us very too just only also well yet via per
    how what when where which who why here there now ever never own both either neither
    """.split()
)


def _prose(words: list[str]) -> bool:
    return any(w.lower() in _FUNCTION_WORDS for w in words)


def passphrase_spans(text: str) -> list[tuple[int, int]]:
    """Spans of passphrases of words given after a password noun that heads its phrase."""
    low = text.lower()
    if "pass" not in low and "pwd" not in low:
        return []
    spans: list[tuple[int, int]] = []
    for m in _GIVEN.finditer(text):
        joined = _JOINED.match(text, m.end())
        if joined:
            parts = joined.group("value").split(joined.group("sep"))
            letters = [p for p in parts if p.isalpha()]
            enough = len(parts) >= (4 if joined.group("sep") == "." else 3)
            if enough and len(letters) >= 3 and not _prose(parts):
                spans.append(joined.span("value"))
            continue
        quoted = _QUOTED.match(text, m.end())
        if quoted:
            spans.append(quoted.span("value"))
    return spans
