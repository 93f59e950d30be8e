"""Credential shapes recognised by their format alone, whatever words surround them.

A secret written in prose is found beside a credential word (``memory.detectors.secrets``);
these are the shapes that are secrets without one, because ordinary text never takes them:

- a **recovery phrase**: twelve or more lowercase words of three to eight letters in a row
  (the BIP39 and Electrum word lengths) after "is", "are" or a colon, with no function word
  among them — a sentence always has one; in Chinese, twelve or more space-separated words
  of one to four characters (Chinese is written without spaces);
- a **grouped key**: four or more groups of the same length (4–8) separated by the same
  space or hyphen, as authenticator setup keys (base32), licence keys, recovery keys and
  app passwords are printed. Letters mixed with digits, or six or more groups, or digit
  groups of five or more; never an IBAN (``stdnum``) or a bank card number, which are
  personal data (``content_rules``), not credentials. Lowercase letter groups only count
  beside a credential word, since "this that with from" is English too, and never when the
  run holds that word ("the gate code last week" is the sentence naming it);
- a **code in anti-tamper numerals**: four or more of 零壹贰叁肆伍陆柒捌玖 in a row with
  no unit (万, 仟, 佰, 拾, 元, 角, 分 …): amounts are always written with units, so a bare
  run is a code written to be hard to read. ``fold_financial_numerals`` gives their digits
  for the prose detector ("密码是伍叁零捌" reads as "密码是5308").

- a **password-policy token**: eight or more characters holding lowercase, uppercase, a
  digit and a symbol (``!@#$%^&*+=?~``) — the four classes sign-up forms demand. Words,
  versions, product names and hyphenated codes lack at least one of them; e-mail addresses
  and URLs are left to their own rules. In a setting (``LANG=en_US.UTF-8``) only the value
  is judged: the name's capitals and the "=" are the syntax's.

Each returns spans of the text it was given, never the text itself.
"""

from __future__ import annotations

import re
import unicodedata

from django.conf import settings
from stdnum import iban, luhn

from memory.detectors.switches import detection_switch
from memory.detectors.unlabelled_values import labelled_as_list
from memory.text_normalize import _skeleton_table

# Closed-class English words (articles, pronouns, auxiliaries, prepositions, conjunctions):
# no sentence of twelve words lacks them, and no recovery-phrase word list contains them.
_FUNCTION_WORDS = frozenset(
    """a an the and or but nor so yet if then than that this these those there here
    i me my mine you your yours he him his she her hers it its we us our ours they them
    their theirs who whom whose which what when where why how all any each every some no
    not is am are was were be been being do does did have has had will would shall should
    can could may might must of to in on at by for with from into onto over under about
    after before as up down out off again very just also too only own same such both few
    more most other""".split()
)

_PHRASE_LEAD = re.compile(r"(?:[:：]|\b(?:is|are|was|were)\b|是|为|為)\s*[\"“'「]?\s*$", re.I)
# Lower-case letters of any Latin alphabet: the BIP-39 lists of Spanish, French, Italian,
# Czech and Portuguese have accents (ábaco, écureuil); a sentence in them has a word of
# fewer than three letters (de, la, et, a), which ends the run.
_LOWER_WORD = re.compile(r"[a-zà-öø-ÿ]{3,8}")
_TOKEN = re.compile(r"[^\s:：]+")  # a colon ends a word: "words:apple"
_CJK_WORD_RUN = re.compile(
    r"(?:[\u3400-\u9fff]{1,4}[ \u3000]+){11,}[\u3400-\u9fff]{1,4}(?![\u3400-\u9fff])"
    # Japanese is written without spaces: kana words spaced apart are a word list.
    r"|(?:[\u3040-\u30ff]{2,8}[ \u3000]+){11,}[\u3040-\u30ff]{2,8}(?![\u3040-\u30ff])"
)

_GROUPS = re.compile(
    r"(?<![A-Za-z0-9])(?P<g>[A-Za-z0-9]{4,8})(?P<sep>[ -])(?:[A-Za-z0-9]{4,8}(?P=sep)){2,}"
    r"[A-Za-z0-9]{4,8}(?![A-Za-z0-9])"
)

_DAXIE = "零壹贰貳叁參肆伍陆陸柒捌玖"
_DAXIE_DIGITS = str.maketrans(
    {"零": "0", "壹": "1", "贰": "2", "貳": "2", "叁": "3", "參": "3", "肆": "4", "伍": "5",
     "陆": "6", "陸": "6", "柒": "7", "捌": "8", "玖": "9"}
)  # fmt: skip
_DAXIE_RUN = re.compile(rf"[{_DAXIE}]{{4,}}")
_UNITS = "万萬仟佰拾亿億元圆圓角分整"


# Twelve tokens in a row of the shape the loop below keeps (a lowercase word of three to
# eight letters, trailing punctuation stripped), function words included: no run of twelve
# kept words without one (``ENGRAM_DETECTOR_WORD_RUN_GATE``; off: the loop on every text).
_TWELVE_WORDS = re.compile(
    r"(?<![^\s:：])(?:[a-zà-öø-ÿ]{3,8}[,.;!?]*[\s:：]+){11}[a-zà-öø-ÿ]{3,8}[,.;!?]*(?![^\s:：])"
)


def recovery_phrase_spans(text: str) -> list[tuple[int, int]]:
    """Spans of recovery phrases in ``text`` (read the text before CJK spaces are removed)."""
    spans = []
    run: list[re.Match[str]] = []
    words = not detection_switch("WORD_RUN_GATE") or _TWELVE_WORDS.search(text)
    for tok in [*_TOKEN.finditer(text), None] if words else ():
        word = tok.group().rstrip(",.;!?") if tok else ""
        if tok and _LOWER_WORD.fullmatch(word) and word not in _FUNCTION_WORDS:
            run.append(tok)
            continue
        # The phrase starts after its lead-in ("…: ", "… is "), wherever that is in the run.
        for i in range(len(run) - 11):
            lead = text[max(0, run[i].start() - 24) : run[i].start()]
            # or nothing before it on its line, at exactly a BIP-39 length, in another
            # language's list (an accent: English lists are checked word by word, labelled.py)
            words = text[run[i].start() : run[-1].end()]
            alone = not lead.rpartition("\n")[2].strip() and not words.isascii()
            alone = alone and len(run) - i in (12, 15, 18, 21, 24)
            if (_PHRASE_LEAD.search(lead) or alone) and not labelled_as_list(text, run[i].start()):
                spans.append((run[i].start(), run[-1].end()))
                break
        run = []
    for m in _CJK_WORD_RUN.finditer(text):
        tokens = m.group().split()
        # Words of at least two characters: single characters spaced out are an evasion of
        # the word detectors, not a word list.
        # … unless they are exactly a BIP-39 length (12, 15, 18, 21 or 24), the Chinese
        # lists being single characters: a spaced-out sentence is rarely that long exactly.
        singles = all(len(t) == 1 for t in tokens) and len(tokens) in (12, 15, 18, 21, 24)
        if sum(len(t) >= 2 for t in tokens) < 12 and not singles:
            continue
        start = m.start()
        lead = text[max(0, start - 24) : start]
        if not _PHRASE_LEAD.search(lead) and len(tokens) >= 13:
            # The run began inside the lead-in ("…短语是 海洋 森林 …"): read from its second word.
            start = m.start() + m.group().index(tokens[1])
            lead = text[max(0, start - 24) : start]
        if _PHRASE_LEAD.search(lead) and not labelled_as_list(text, start):
            spans.append((start, m.end()))
    return spans


def grouped_key_spans(text: str, *, cue: re.Pattern[str] | None = None) -> list[tuple[int, int]]:
    """Spans of keys printed in equal groups (see the module docstring). ``cue`` is the
    credential words' pattern: letter groups count only where the text holds one of them,
    and a run holding one is the sentence that names the credential ("the gate code last
    week"), never its value."""
    spans = []
    for m in _GROUPS.finditer(text):
        groups = m.group().split(m.group("sep"))
        if len({len(g) for g in groups}) != 1:
            continue
        joined = "".join(groups)
        # Letters and digits through the key, not a word before a list of numbers.
        has_digit = sum(any(c.isdigit() for c in g) for g in groups) >= 2
        has_alpha = sum(any(c.isalpha() for c in g) for g in groups) >= 2
        # A shorter group after the last one ("… 7654 32") is an account number's layout.
        if re.match(rf"{re.escape(m.group('sep'))}[A-Za-z0-9]", text[m.end() : m.end() + 2]):
            continue
        if joined.isdigit():
            if luhn.is_valid(joined) and 13 <= len(joined) <= 19:
                continue  # a bank card number: personal data, held elsewhere
            if len(groups) >= 5 and len(groups[0]) >= 5:
                spans.append((m.start(), m.end()))
            continue
        if iban.is_valid(joined):
            continue
        if has_digit and has_alpha:
            spans.append((m.start(), m.end()))
        elif joined.isupper() and len(groups) >= 6:
            spans.append((m.start(), m.end()))
        elif cue is not None and joined.isalpha() and len(groups) >= 4:
            if cue.search(text) and not cue.search(m.group()):
                spans.append((m.start(), m.end()))
    return spans


def daxie_code_spans(text: str) -> list[tuple[int, int]]:
    """Runs of four or more anti-tamper numerals with no unit next to them."""
    spans = []
    for m in _DAXIE_RUN.finditer(text):
        before = text[m.start() - 1] if m.start() else ""
        after = text[m.end()] if m.end() < len(text) else ""
        if not (before and before in _UNITS) and not (after and after in _UNITS):
            spans.append((m.start(), m.end()))
    return spans


_DAXIE_PAIR = re.compile(rf"[{_DAXIE}]{{2,}}")


def fold_financial_numerals(text: str) -> str:
    """``text`` with each run of two or more anti-tamper numerals as digits (same length,
    same positions); a lone 零 in 零食 stays."""
    return _DAXIE_PAIR.sub(lambda m: m.group().translate(_DAXIE_DIGITS), text)


def nfkc_visible(text: str) -> tuple[str, list[int]]:
    """NFKC of ``text`` without format controls, keeping spaces (unlike the detection form,
    which removes spaces between CJK characters), with each character's original index.
    ASCII text is its own result (no ASCII character is a format control, NFKC keeps
    each): returned at once with ``ENGRAM_FAST_DETECTION_TEXT`` (default on)."""
    if (
        text.isascii()
        and settings.configured
        and settings.ENGRAM_WRITE_BATCH.get("FAST_DETECTION_TEXT")
    ):
        return text, list(range(len(text)))
    if detection_switch("NFKC_STABLE_GATE") and _nfkc_stable(text):
        return text, list(range(len(text)))
    return nfkc_visible_reference(text)


def _nfkc_stable(text: str) -> bool:
    """Whether the reference returns ``text`` itself (``ENGRAM_DETECTOR_NFKC_STABLE_GATE``).
    A text in NFKC holds no character NFKC changes alone (such a character never stands in
    NFKC text: it has a compatibility mapping, or a canonical one excluded from
    composition), so each character normalises to itself; the reference then drops only
    format controls and maps only Greek and Cyrillic letters, looked for by character."""
    if not unicodedata.is_normalized("NFKC", text):
        return False
    for ch in set(text):
        if ch >= "\x80" and ("\u0370" <= ch <= "\u052f" or unicodedata.category(ch) == "Cf"):
            return False
    return True


def nfkc_visible_reference(text: str) -> tuple[str, list[int]]:
    """The reference of ``nfkc_visible``, character by character."""

    chars: list[str] = []
    origin: list[int] = []
    skeleton = _skeleton_table()
    for index, ch in enumerate(text):
        if unicodedata.category(ch) == "Cf":
            continue
        for out in unicodedata.normalize("NFKC", ch):
            # A Greek or Cyrillic look-alike letter reads as its Latin letter ("sееd" with
            # Cyrillic е), as in the detection form; kana and CJK keep their own (round 13).
            if "\u0370" <= out <= "\u052f":
                out = skeleton.get(out, out)
            chars.append(out)
            origin.append(index)
    return "".join(chars), origin


_POLICY_TOKEN = re.compile(r"(?<![!-~])[!-~]{8,64}(?![!-~])")
_POLICY_SYMBOLS = frozenset("!@#$%^&*+=?~")
# A setting's name as environments and config files write one: capitals (``LOG_LEVEL``) or
# lower case joined by "_" or "." (``log_level``): a password's own "=" has letters of both
# cases or none of the joiners before it.
_ASSIGNED_NAME = re.compile(r"(?:[A-Z][A-Z0-9_]+|[a-z][a-z0-9]*(?:[_.][a-z0-9]+)+)=(?=[^=])")


def policy_token_spans(text: str) -> list[tuple[int, int]]:
    """Tokens with all four character classes a password policy asks for."""
    spans = []
    for m in _POLICY_TOKEN.finditer(text):
        # Sentence punctuation after a word ("Python3!") is not part of it.
        token = m.group().strip("\"'`()[]{}<>,;:.").rstrip("!?.")
        # An assignment (``LANG=en_US.UTF-8``, ``TZ=Europe/Berlin``): the name's capitals
        # and the "=" are the syntax's, so the value is judged alone.
        named = _ASSIGNED_NAME.match(token)
        token = token[named.end() :] if named else token
        if "://" in token or re.fullmatch(r"[^@\s]+@[^@\s]+\.[A-Za-z]{2,}", token):
            continue
        if (
            len(token) >= 8
            and any(c.islower() for c in token)
            and any(c.isupper() for c in token)
            and any(c.isdigit() for c in token)
            and any(c in _POLICY_SYMBOLS for c in token)
        ):
            spans.append((m.start(), m.end()))
    return spans
