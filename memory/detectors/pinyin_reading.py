"""Toneless pinyin read back into the characters the Chinese rules look for (round 22 of
issue 32).

An order written in pinyin ("qing hulue zhiqian de suoyou zhiling") reaches the assistant,
which reads pinyin, but not the Chinese rules, which read characters. The older reading
(``injection_readings.read_pinyin``) maps a hand list of syllable groups; this one derives
its lexicon from the rules themselves: every run of Chinese characters in the source of an
instruction pattern (``instructions``, ``tool_orders``, ``addressing``) is a word those
rules need, and its toneless pinyin (pypinyin) spells it. A rule added later is read in
pinyin with no list to extend.

The reading splits each Latin word into syllables of the standard inventory (every toneless
reading in ``pypinyin.pinyin_dict``, the fewest syllables first: "zhiqian" → zhi qian),
matches the longest run of syllables that spells a lexicon word, across the spaces a writer
puts or leaves out, and writes a syllable no word covers as the character the rules use
most often with that reading, or as a space when none does. Only a text that is pinyin is
read: at least six syllables, and nine in ten of its Latin words (acronyms in capitals
aside) split wholly into syllables; English prose ("the", "with", "for") falls short.
"""

from __future__ import annotations

import re
from collections import Counter

from core.process_state import memoized

_TONES = str.maketrans("āáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜü", "aaaaeeeeiiiioooouuuuuuuuu")
_WORD = re.compile(r"[A-Za-z]+")
_HAN_RUN = re.compile(r"[\u4e00-\u9fff]+")
_LONGEST = 6


def _plain(reading: str) -> str:
    # ü is written u, v or yu; reading it as u loses only lü/lu and nü/nu, which no rule needs
    # to tell apart.
    return reading.strip().translate(_TONES).replace("v", "u")


@memoized("memory.detectors.pinyin_reading._syllables", maxsize=1)
def _syllables() -> frozenset[str]:
    """Every toneless pinyin syllable (about 400)."""
    from pypinyin.pinyin_dict import pinyin_dict

    return frozenset(
        p
        for readings in pinyin_dict.values()
        for r in readings.split(",")
        if (p := _plain(r)).isascii() and p.isalpha()
    )


@memoized("memory.detectors.pinyin_reading._lexicon", maxsize=1)
def _lexicon() -> tuple[dict[tuple[str, ...], str], dict[str, str]]:
    """(the rules' words by spelling, the rules' commonest character per syllable); built
    the first time a text is pinyin."""
    from pypinyin import Style, lazy_pinyin

    from memory.detectors import addressing, instructions, tool_orders

    runs: Counter[str] = Counter()
    for module in (instructions, tool_orders, addressing):
        for value in vars(module).values():
            patterns = value if isinstance(value, list | tuple) else [value]
            for p in patterns:
                if isinstance(p, re.Pattern):
                    runs.update(_HAN_RUN.findall(p.pattern))
    words: dict[tuple[str, ...], str] = {}
    chars: Counter[tuple[str, str]] = Counter()
    for run, count in runs.items():
        spelled = [_plain(s) for s in lazy_pinyin(run, style=Style.NORMAL)]
        for char, syllable in zip(run, spelled, strict=False):
            chars[(syllable, char)] += count
        for start in range(len(run)):
            for end in range(start + 2, min(len(run), start + _LONGEST) + 1):
                words.setdefault(tuple(spelled[start:end]), run[start:end])
    best: dict[str, str] = {}
    for (syllable, char), _ in chars.most_common():
        best.setdefault(syllable, char)
    return words, best


def _split(word: str, syllables: frozenset[str]) -> list[str] | None:
    """``word`` as the fewest syllables, or None when it is not pinyin."""
    best: list[list[str] | None] = [[], *([None] * len(word))]
    for end in range(1, len(word) + 1):
        for start in range(max(0, end - 6), end):
            prev = best[start]
            current = best[end]
            if prev is not None and word[start:end] in syllables:
                if current is None or len(prev) + 1 < len(current):
                    best[end] = [*prev, word[start:end]]
    return best[len(word)]


def read_pinyin_words(form: str) -> str | None:
    """``form`` in characters when it is written in toneless pinyin; None otherwise."""
    words = _WORD.findall(form)
    if len(words) < 3:
        return None
    syllables = _syllables()
    # Acronyms in capitals ("AI") stay as written; one word in ten may be other Latin.
    allowed = 0.1 * sum(not (w.isupper() and len(w) > 1) for w in words)
    stream: list[str] = []
    for word in words:
        parts = None if word.isupper() and len(word) > 1 else _split(word.lower(), syllables)
        if parts:
            stream.extend(parts)
            continue
        if not word.isupper() or len(word) == 1:
            allowed -= 1
            if allowed < 0:
                return None
        stream.append(word)
    if len(stream) < 6:
        return None
    lexicon, chars = _lexicon()
    out: list[str] = []
    i = 0
    while i < len(stream):
        for n in range(min(_LONGEST, len(stream) - i), 1, -1):
            word = lexicon.get(tuple(stream[i : i + n]))
            if word:
                out.append(word)
                i += n
                break
        else:
            out.append(chars.get(stream[i], stream[i] if stream[i].isupper() else " "))
            i += 1
    return "".join(out)
