"""The entities a text names, normalised: what the mentions table (``MemoryMention``) holds
for each record and what recall looks up for a question (``memory.recall.entities``).

Offline, without a model, by mechanisms rather than lists of names:

- **Latin names**: capitalised spans (joined by "of", "van", …), less a sentence's first
  word ("Hey Mel, …" names Mel; the word after "Speaker:" opens a sentence), never the pronoun
  "I"; Latin words inside CJK text (product and place names written in Latin); quoted or
  titled spans (“…”, 「…」, 《…》, "…"), as ``session_summary.entities`` reads them.
- **Chinese names**: runs of words the segmenter (rjieba, a dictionary and an HMM for
  unknown words) tags as a person's name (nr, nrt, nrfg), a place (ns), an organisation
  (nt) or another proper noun (nz), two characters or more, and an abbreviation-like word
  right after a particle of company (和小美, 跟小美); not a doubled word (谢谢).
- **Dates**: a month with its day or year ("7 May 2023", "May 2023"), a year with a month
  or day in Chinese ("2023年5月", "5月7日"), an ISO date; a month in Chinese numerals
  ("四月的时候", "十二月"), with the month's English name as its other form.

Kinds are read from the span's surroundings: a date by its shape; an organisation when
its last word says what it is (a closed set of institution words, both languages); a
place after a preposition of place ("in", "at", "from", "to", 在, 去, 到, 从) or tagged
ns; a person tagged nr or followed or preceded by a verb of speech or company ("said",
"with", 和, 跟, 说); otherwise a thing.

Normalised form: NFKC, casefolded, traditional characters folded to simplified, a
possessive "'s" and a leading article dropped, whitespace collapsed. Aliases: a name
followed by another one in brackets ("Wang Fang (王芳)", "北京（Beijing）") or by "aka" /
"also known as" / 又名 / 也叫 gives both forms, each pointing at the first; a Chinese
person's name also gets its toneless pinyin ("王芳" → "wang fang", "fang wang"), so an
English question finds a Chinese record and the other way round.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings

from memory import entity_phrases
from memory.temporal.common import fold_traditional
from memory.temporal.said import said_times

PERSON, PLACE, ORGANISATION, THING, DATE = "person", "place", "organisation", "thing", "date"
KINDS = (PERSON, PLACE, ORGANISATION, THING, DATE)
MAX_CHARS = 120
# A record names at most this many entities in the table (a pasted list is not an index).
MAX_PER_TEXT = 24

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_CJK_RUN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef0-9]+")
_LATIN_TOKEN = re.compile(r"[^\W\d_][\w'’-]*")
_GAP = re.compile(r"[ \t]+")
# Lower-case particles that join the words of one name ("Bank of Canada", "Vincent van Gogh").
_JOIN_WORD = re.compile(r"of|the|and|de|da|del|der|di|du|la|le|van|von")
_LATIN_IN_CJK = re.compile(
    r"(?<=[\u3400-\u9fff])\s*([A-Za-z][A-Za-z0-9.+-]*)"
    r"|([A-Za-z][A-Za-z0-9.+-]*)\s*(?=[\u3400-\u9fff])"
)
_QUOTED = re.compile(r"[“「《\"]([^”」》\"\n]{1,40})[”」》\"]")
# A position where a sentence (or a speaker's turn, "Name: text") begins.
_OPENS = re.compile(r"(?:^|[.!?。！？:：;\n]\s*)$")
_FIRST_PERSON = re.compile(r"^I(?:['’][a-z]+)?$")
_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december"
    "|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
_DATES = re.compile(
    rf"\b(?:\d{{1,2}}(?:st|nd|rd|th)?\s+(?:{_MONTHS})\.?(?:,?\s+\d{{4}})?"
    rf"|(?:{_MONTHS})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?"
    rf"|(?:{_MONTHS})\.?\s+\d{{4}}"
    r"|\d{4}-\d{2}-\d{2})\b"
    r"|\d{4}年(?:\d{1,2}月(?:\d{1,2}[日号])?)?|\d{1,2}月\d{1,2}[日号]",
    re.IGNORECASE,
)
# A month written in Chinese numerals (四月, 十二月, 四月份): the numerals one to twelve
# right before 月, with no other numeral, measure word or ordinal before them (三个月 is a
# span, 几月 asks, 第一月) and no day after them (十月一日, a day without a year, is not a
# month, as 10月1日 is not). Outside the gate below: it holds no digit. Its other form
# is the month's English name (``_ZH_MONTHS``), the form a lone month told in English
# has ("april"), so a month reads alike in both languages (recall's ``month_told``).
_ZH_NUMERAL = "〇零一二三四五六七八九十廿卅百千两"
_ZH_MONTH = re.compile(
    rf"(?<![{_ZH_NUMERAL}几个每第\d])(十[一二]?|[一二三四五六七八九])月"
    rf"(?!份?[{_ZH_NUMERAL}\d]+[日号])"
)
_ZH_MONTHS = {
    numeral: name
    for numeral, name in zip(
        "一 二 三 四 五 六 七 八 九 十 十一 十二".split(),
        "january february march april may june july august september october november"
        " december".split(),
        strict=True,
    )
}
# With ENGRAM_WRITE_BATCH["ENTITY_GATES"]: ``_DATES`` is searched only in text where both
# match. Every alternative of ``_DATES`` holds a digit and a month's first three letters
# (each month and abbreviation starts with them: "sept" with "sep"), "-", 年 or 月; the
# same flags, so the same case folding ("ſep" is "sep" to both).
_DATE_DIGIT = re.compile(r"\d")
_DATE_CUE = re.compile(r"jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|[-年月]", re.I)
_MONTH_WORD = re.compile(
    rf"^(?:{_MONTHS}|monday|tuesday|wednesday|thursday|friday|saturday|sunday)$"
)
_PLACE_BEFORE = re.compile(r"\b(?:in|at|from|to|near|visit(?:ed|ing)?|moved to)\s+$", re.I)
_PERSON_BEFORE = re.compile(
    r"\b(?:with|and|met|told|asked|called|named|friend|sister|brother)\s+$", re.I
)
_PERSON_AFTER = re.compile(r"^(?:['’]s\s)?\s*(?:said|says|told|asked|and I|is my|was my)\b", re.I)
_ORG_WORDS = re.compile(
    r"\b(?:inc|ltd|llc|gmbh|corp|company|university|college|school|bank|hospital|club"
    r"|institute|foundation|group|museum|agency|ministry)\.?$"
    r"|(?:公司|大学|学院|学校|银行|医院|集团|研究所|协会|博物馆|俱乐部)$",
    re.I,
)
_CJK_PLACE_BEFORE = re.compile(r"(?:在|去|到|从|住)$")
_COMPANY = ("和", "跟", "与", "同")
_CJK_PERSON_AROUND = (re.compile(r"(?:和|跟|与|同)$"), re.compile(r"^(?:说|告诉|问)"))
_ALIAS = re.compile(
    r"\s*(?:[(（]\s*([^()（）]{1,40}?)\s*[)）]"
    r"|,?\s*(?:aka|a\.k\.a\.|also known as|又名|也叫|也称)\s*([^\s,.;，。；]{1,40}(?:\s[A-Z][\w-]*)*))"
)
_ARTICLE = re.compile(r"^(?:the|a|an)\s+")
_POSSESSIVE = re.compile(r"['’]s$")
_REST = "rest"
_PROPER_TAGS = {
    "nr": PERSON,
    "nrt": PERSON,
    "nrfg": PERSON,
    "ns": PLACE,
    "nt": ORGANISATION,
    "nz": THING,
}
# Chinese names, not transliterated foreign ones, get a pinyin form.
_PINYIN_TAGS = {"nr", "nrfg"}


@dataclass(frozen=True)
class Mention:
    norm: str
    surface: str
    kind: str
    # The normalised form this one is another name for ("" when it is the name itself).
    alias_of: str = ""


def _gates() -> bool:
    """``ENGRAM_WRITE_BATCH["ENTITY_GATES"]``: the exact shortcuts of ``extract`` (the
    dates searched only where ``_DATE_DIGIT`` and ``_DATE_CUE`` match; no CJK test of the
    words of ASCII text); off: the reference. The same mentions either way
    (tests/memory/test_entity_gates.py)."""
    return settings.ENGRAM_WRITE_BATCH.get("ENTITY_GATES", True)


def _ascii_gates() -> bool:
    """``ENGRAM_WRITE_BATCH["ENTITY_ASCII_GATES"]``: an ASCII text is not searched for Latin
    words beside CJK characters (``_LATIN_IN_CJK`` needs one), and ``normalise`` skips
    NFKC and the traditional fold for it (ASCII is NFKC's own form, and the fold maps CJK
    characters only); off: the reference. The same mentions and forms either way
    (tests/memory/test_entity_gates.py)."""
    return settings.ENGRAM_WRITE_BATCH.get("ENTITY_ASCII_GATES", True)


def normalise(text: str) -> str:
    return _normalise(text, _ascii_gates())


def _normalise(text: str, ascii_gates: bool) -> str:
    """``normalise`` with the ASCII gate's setting read by the caller (``extract`` reads it
    once a text, not once a name: each read of the settings costs about a microsecond)."""
    if ascii_gates and text.isascii():
        text = text.casefold()
    else:
        text = fold_traditional(unicodedata.normalize("NFKC", text)).casefold()
    text = " ".join(text.replace("’", "'").split()).strip(" .,-'\"")
    text = _ARTICLE.sub("", _POSSESSIVE.sub("", text))
    return text[:MAX_CHARS]


def _kind(text: str, start: int, end: int, surface: str) -> str:
    if _DATES.fullmatch(surface) or _MONTH_WORD.match(surface.casefold()):
        return DATE
    if _ORG_WORDS.search(surface):
        return ORGANISATION
    before, after = text[max(0, start - 20) : start], text[end : end + 20]
    if _PLACE_BEFORE.search(before) or _CJK_PLACE_BEFORE.search(before):
        return PLACE
    if (
        _PERSON_BEFORE.search(before)
        or _PERSON_AFTER.match(after)
        or _CJK_PERSON_AROUND[0].search(before)
        or _CJK_PERSON_AROUND[1].match(after)
    ):
        return PERSON
    return THING


def _latin_spans(text: str) -> list[tuple[int, int, bool]]:
    """(start, end, is the rest of a span that opens a sentence) of each run of
    capitalised words (any Latin script: "Valparaíso", "Łódź"), joined by spaces and the
    particles of ``_JOIN_WORD``."""
    if _gates() and text.isascii():  # no CJK character to find in any word
        words = list(_LATIN_TOKEN.finditer(text))
    else:
        words = [w for w in _LATIN_TOKEN.finditer(text) if not _CJK.search(w.group(0))]
    runs: list[list[re.Match]] = []
    run: list[re.Match] = []
    for i, w in enumerate(words):
        capital = w.group(0)[0].isupper() and not _FIRST_PERSON.match(w.group(0))
        joined = bool(run) and _GAP.fullmatch(text[run[-1].end() : w.start()]) is not None
        particle = (
            joined
            and _JOIN_WORD.fullmatch(w.group(0)) is not None
            and i + 1 < len(words)
            and words[i + 1].group(0)[0].isupper()
            and _GAP.fullmatch(text[w.end() : words[i + 1].start()]) is not None
        )
        if capital and joined or particle:
            run.append(w)
            continue
        if run:
            runs.append(run)
        run = [w] if capital else []
    if run:
        runs.append(run)
    spans = []
    for run in runs:
        while run and _JOIN_WORD.fullmatch(run[-1].group(0)):
            run = run[:-1]
        if not run:
            continue
        whole = (run[0].start(), run[-1].end())
        if _OPENS.search(text[: whole[0]]):
            # The sentence's first word says nothing by its case ("Hey Mel", "Wang Fang
            # moved"): the rest is the name (``keys`` looks a question's names up by their
            # rest too).
            if len(run) > 1:
                spans.append((run[1].start(), whole[1], True))
            continue
        spans.append((*whole, False))
    return spans


def _cjk_spans(text: str) -> list[tuple[int, int, str, bool]]:
    """(start, end, kind, pinyin) of the names in the CJK runs of ``text`` (read with
    traditional characters folded: the fold keeps every position). A name is a run of
    words the segmenter tags as proper nouns (欧阳/ns + 娜娜/nrt is one name), or an
    abbreviation-like word (小美/j) right after a particle of company (和, 跟, 与, 同).
    Its kind comes from the particle before it (在/去 → place, 和/跟 → person, or 说
    after it), else from the first word's tag."""
    import rjieba

    out = []
    for run in _CJK_RUN.finditer(fold_traditional(text)):
        if not _CJK.search(run.group(0)):
            continue
        pos, words = run.start(), []
        for word, tag in rjieba.tag(run.group(0)):
            words.append((pos, pos + len(word), word, tag))
            pos += len(word)
        i = 0
        while i < len(words):
            after_company = i > 0 and words[i - 1][2] in _COMPANY
            j = i
            while j < len(words) and (
                words[j][3] in _PROPER_TAGS or (j == i and after_company and words[j][3] == "j")
            ):
                j += 1
            if j == i:
                i += 1
                continue
            first, begin, finish = words[i], words[i][0], words[j - 1][1]
            name = text[begin:finish]
            i = j
            if len(name) < 2 or not _CJK.search(name):
                continue
            if len(name) == 2 and name[0] == name[1] and not after_company:
                continue  # a doubled word (谢谢, 看看) the segmenter took for a name
            kind = _kind(text, begin, finish, name)
            if kind == THING:
                kind = _PROPER_TAGS.get(first[3], PERSON)  # j after a particle of company
            out.append((begin, finish, kind, kind == PERSON and len(name) <= 4))
    return out


def _pinyin_forms(name: str) -> list[str]:
    """Toneless pinyin of a Chinese person's name, both orders ("王芳" → "wang fang",
    "fang wang"), the most common reading of each character (a name of 2–4 characters)."""
    from pypinyin import lazy_pinyin

    if not 2 <= len(name) <= 4 or not all(_CJK.match(c) for c in name):
        return []
    syllables = lazy_pinyin(name)
    family, given = syllables[0], "".join(syllables[1:])
    return [f"{family} {given}", f"{given} {family}"]


def extract(text: str, *, phrases: bool = True) -> list[Mention]:
    """The entities ``text`` names, each normalised form once (the first kind found
    wins), aliases after the names they belong to; then, with ``phrases``, the things it
    names in common words (``memory.entity_phrases``: "a pottery class", 博物馆), a
    ``thing`` or, after a preposition of place, a ``place``, until ``MAX_PER_TEXT``."""
    found: list[tuple[int, int, str | None, bool]] = []
    if not _gates() or (_DATE_DIGIT.search(text) and _DATE_CUE.search(text)):
        found += [(m.start(), m.end(), DATE, False) for m in _DATES.finditer(text)]
    if "月" in text:
        found += [(m.start(), m.end(), DATE, False) for m in _ZH_MONTH.finditer(text)]
    found += [(m.start(1), m.end(1), None, False) for m in _QUOTED.finditer(text)]
    found += [(s, e, _REST if rest else None, False) for s, e, rest in _latin_spans(text)]
    ascii_gates = _ascii_gates()
    for m in _LATIN_IN_CJK.finditer("" if ascii_gates and text.isascii() else text):
        g = 1 if m.group(1) else 2
        if len(m.group(g)) >= 2:
            found.append((m.start(g), m.end(g), None, False))
    found += _cjk_spans(text)
    out: dict[str, Mention] = {}
    taken: list[tuple[int, int]] = []
    for start, end, kind, pinyin in sorted(found, key=lambda f: (f[0], -f[1])):
        surface = text[start:end].strip().rstrip(".-")
        norm = _normalise(surface, ascii_gates)
        if len(norm) < 2 or norm in out:
            continue
        # A word inside a longer name already taken ("May" in "7 May 2023") is that
        # name's; only the rest of a span that opens a sentence stands beside it.
        if kind != _REST and any(s <= start and end <= e for s, e in taken):
            continue
        taken.append((start, end))
        kind = None if kind == _REST else kind
        kind = kind or _kind(text, start, end, surface)
        out[norm] = Mention(norm, surface[:MAX_CHARS], kind)
        alias = _ALIAS.match(text, end)
        if alias:
            other = (alias.group(1) or alias.group(2) or "").strip()
            other_norm = _normalise(other, ascii_gates)
            if (
                len(other_norm) >= 2
                and other_norm not in out
                and (other[:1].isupper() or _CJK.search(other))
            ):
                out[other_norm] = Mention(other_norm, other[:MAX_CHARS], kind, alias_of=norm)
        if pinyin:
            for form in _pinyin_forms(surface):
                if form not in out:
                    out[form] = Mention(form, surface[:MAX_CHARS], kind, alias_of=norm)
        month = _ZH_MONTH.fullmatch(surface) if kind == DATE else None
        if month and _ZH_MONTHS[month.group(1)] not in out:
            english = _ZH_MONTHS[month.group(1)]
            out[english] = Mention(english, surface[:MAX_CHARS], DATE, alias_of=norm)
        if len(out) >= MAX_PER_TEXT:
            break
    if phrases:
        for form, kind in entity_phrases.phrases(text).items():
            norm = _normalise(form, ascii_gates)
            if len(out) >= MAX_PER_TEXT:
                break
            if len(norm) >= 2 and norm not in out:
                out[norm] = Mention(norm, form[:MAX_CHARS], kind)
    return list(out.values())


def told_times(text: str, when: datetime, taken: Sequence[str] = ()) -> list[Mention]:
    """The times ``text`` tells in words relative to when it was said ("yesterday",
    "上周"), resolved against ``when`` (``memory.temporal.said``): one ``date`` mention
    each, its normalised form the resolved time ("2023-05-07", "2023-w18"), none already
    in ``taken``; together with ``extract`` at most ``MAX_PER_TEXT``."""
    room = MAX_PER_TEXT - len(taken)
    out = [
        Mention(value, words.strip()[:MAX_CHARS], DATE)
        for words, value in said_times(text, when)
        if value not in taken
    ]
    return out[: max(0, room)]


def keys(text: str) -> list[str]:
    """The normalised forms ``text`` names, aliases included, and the rest of each Latin
    name of several words ("wang fang" → "fang"): what a record opening a sentence with
    the name holds (what a question looks up)."""
    out = [m.norm for m in extract(text)]
    for norm in list(out):
        rest = norm.split(" ", 1)[1] if " " in norm and norm.isascii() else ""
        if len(rest) >= 2 and rest not in out and not _DATES.fullmatch(norm):
            out.append(rest)
    return out
