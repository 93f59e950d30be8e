"""Credential words with no value beside them, read for the learned credential head
(round 19 of issue 32).

The learned head reads a credential's shape: the noun, a colon after it, a command line
that takes a password. It cannot tell the noun beside a value from the noun beside none,
so it refused "the guest wifi has no password", "PIN: ask Priya, she has it" and
``docker run -e TZ=Europe/Berlin -p 8080:80 nginx``. The rules read values; this module
reads the ways a text names a credential, or looks like one, and gives no value:

- **absence**: a negator before the noun (no, without, not a/any, never had a, doesn't
  need/have/ask for a; 没有, 没, 无, 不需要, 不用, 无需, 免, 未设) or "-free"/"-less"/"not …
  protected" after it: the statement that there is none;
- **a pointer**: the noun, its copula or colon, then an order to consult where the value
  is kept (``not_values.pointer``: "see the vault entry", "ask Priya", "见群公告");
- **a thing or a question** (round 20): the noun as the modifier of another noun that names
  a thing (密码箱, 密码锁, 密码学, 密码子 — a box, a lock, a science, a codon; "password
  manager", "password hint", ``code_phrases.names_no_secret``), or the noun, its copula and
  an interrogative (密码是什么来着, "what was the PIN"), or its length (密码是八位数): the
  speaker names no value;
- **a setting that is no secret**: ``NAME=value`` (with the ``-e``/``--env``/``export``/
  ``ENV``/``set`` before it) whose name holds no credential word (TZ, LANG, LOG_LEVEL,
  PGDATA), and a published port or port mapping after ``-p``/``--publish``/``--port``
  (``-p 8080:80``): what containers and config files are given, not what opens them.

The negators, the verbs of consulting and the option syntax are closed classes; the
credential nouns are the rules' own (``secrets.CREDENTIAL_WORDS``), so nothing here lists
sentences. ``without_unvalued_mentions`` blanks each such phrase; the policy asks the head
again on what is left (as with public values, ``non_secret_values``), and overrules its
refusal only when it no longer reads a credential: a secret beside the phrase ("no password
on the guest network; the admin one is Kx9pq2") is still refused.
"""

from __future__ import annotations

import re

from memory.detectors.code_phrases import names_no_secret
from memory.detectors.not_values import pointer
from memory.detectors.secrets import CREDENTIAL_WORDS

_NEGATOR_EN = re.compile(
    r"(?i:\b(?:no|without(?:\s+(?:a|an|any))?|not\s+(?:a|an|any)|never\s+(?:had|has|have|set|"
    r"needed|needs?)\s+(?:a|an|any)|(?:does|do|did|is|are|was|were)(?:n't|\s+not)\s+"
    r"(?:need|have|ask\s+for|require|use|take)\s+(?:a|an|any)?)\s+(?:[\w-]+\s+)?$)"
)
_NEGATOR_ZH = re.compile(
    r"(?:没有|没|沒有|沒|无|無|不需要|不需|不用|无需|無需|免|未|不要)"
    r"(?:设置?|設置?|设定|設定|设|設|输入|輸入|填)?(?:任何)?(?:的)?\s*$"
)
_FREE_AFTER = re.compile(r"(?i:-?(?:free|less)\b)")  # "password-free", "passwordless"
_PROTECTED_AFTER = re.compile(r"(?i:[-\s]protected\b)")  # after "isn't"/"is not"
_NOT_BEFORE = re.compile(r"(?i:\b(?:is|are|was|were)(?:n't|\s+not)\s+$)")
# The noun's link to what is said of it, then the rest of the clause.
_LINK = re.compile(r"\s*(?:(?:is|are|was|were)\b|[:：]|是|在)?\s*([^,，;；。.!?\n]*)")
# A Chinese noun after the credential word makes it a thing's name: a box, a lock, a
# cabinet, a science, a codon, a notebook, a machine (closed: the nouns of the compounds).
_THING_AFTER = re.compile(r"(?:箱|锁|鎖|柜|櫃|学|學|子|本|机|機|器|盘|盤)")
_ASKED_AFTER = re.compile(
    r"\s*(?:(?:is|was|'s|是|為|为|は|는|은)\s*)?(?:什么|什麼|啥|多少|几|幾|なに|何|뭐|무엇)"
)
# Its length told in CJK (六位数字, 8桁, 여섯 자리): a description (``not_values``' length).
_LENGTH_AFTER = re.compile(
    r"\s*(?:是|為|为|有|は|는|은)?\s*(?:[一二三四五六七八九十两兩\d]{1,3}|여섯|네|여덟)\s*"
    r"(?:位(?:数字?|數字?|字符|字母|的)?|桁|자리)"
)
_ASKED_BEFORE = re.compile(
    r"(?i:\bwhat(?:'s|\s+(?:is|was|were|are))\s+(?:(?:my|the|our|your)\s+)?"
    r"(?:[\w-]+\s+)?$)"
)
_SETTING = re.compile(
    r"(?:(?<![\w-])(?:-e|--env|export|ENV|set)\s+)?(?<![\w-])(?P<name>[A-Z][A-Z0-9_]+)="
    r"(?P<value>[^\s'\"]+)"
)
_PORTS = re.compile(
    r"(?<![\w-])(?:-p|--publish|--port)[\s=]+(?:\d{1,3}(?:\.\d{1,3}){3}:)?\d{1,5}(?::\d{1,5})?"
    r"(?:/(?:tcp|udp))?(?![\w:])"
)


def _spans(text: str) -> list[tuple[int, int]]:
    spans = []
    for cue in CREDENTIAL_WORDS.finditer(text):
        before = text[max(0, cue.start() - 48) : cue.start()]
        negated = _NEGATOR_EN.search(before) or _NEGATOR_ZH.search(before)
        if negated:
            spans.append((cue.start() - len(before) + negated.start(), cue.end()))
        after = _FREE_AFTER.match(text, cue.end())
        if after is None and _NOT_BEFORE.search(before):
            after = _PROTECTED_AFTER.match(text, cue.end())
        if after is not None:
            spans.append((cue.start(), after.end()))
        thing = _THING_AFTER.match(text, cue.end()) if not cue.group().isascii() else None
        if thing is not None or names_no_secret(text, cue.start(), cue.end()):
            spans.append((cue.start(), thing.end() if thing else cue.end()))
        length = _LENGTH_AFTER.match(text, cue.end())
        if length is not None:
            spans.append((cue.start(), length.end()))
        asked = _ASKED_AFTER.match(text, cue.end())
        if asked is not None or _ASKED_BEFORE.search(before):
            spans.append((cue.start(), asked.end() if asked else cue.end()))
        link = _LINK.match(text, cue.end())
        if link and pointer(link.group(1).strip()):
            spans.append((cue.start(), link.end()))
    for m in _SETTING.finditer(text):
        if not CREDENTIAL_WORDS.search(m.group("name").replace("_", " ")):
            spans.append(m.span())
    spans += [m.span() for m in _PORTS.finditer(text)]
    return sorted(spans)


def without_unvalued_mentions(text: str) -> str:
    """``text`` with each phrase above replaced by a space (unchanged when there is none)."""
    out, last = [], 0
    for lo, hi in _spans(text):
        if hi > max(lo, last):
            out += [text[last : max(lo, last)], " "]
            last = hi
    return "".join([*out, text[last:]])
