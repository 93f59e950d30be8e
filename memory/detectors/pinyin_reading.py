"""Toneless pinyin read back into the characters the Chinese rules look for (round 22 of
issue 32).

An order written in pinyin ("qing hulue zhiqian de suoyou zhiling") reaches the assistant,
which reads pinyin, but not the Chinese rules, which read characters. The older reading
(``injection_readings.read_pinyin``) maps a hand list of syllable groups; this one derives
its lexicon from the rules themselves: every run of Chinese characters in the source of an
instruction pattern (the caller, ``instructions``, passes those of ``instructions``,
``tool_orders`` and ``addressing``) is a word those rules need, and its toneless pinyin (pypinyin) spells it. A rule added later is read in
pinyin with no list to extend.

The reading splits each Latin word into syllables of the standard inventory (every toneless
reading in ``pypinyin.pinyin_dict``, the fewest syllables first: "zhiqian" → zhi qian),
matches the longest run of syllables that spells a lexicon word, across the spaces a writer
puts or leaves out, and writes a syllable no word covers as the character the rules use
most often with that reading, or as a space when none does. Only a run of pinyin is read:
at least four consecutive Latin words (acronyms in capitals aside), joined by spaces or
commas, that split wholly into syllables, six syllables or more; what is around it is kept
as written. English prose breaks runs early ("the", "with", "for" are no syllables).
"""

from __future__ import annotations

import re
from collections import Counter

from core.process_state import memoized

_TONES = str.maketrans("āáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜü", "aaaaeeeeiiiioooouuuuuuuuu")
_WORD = re.compile(r"[A-Za-z]+")
_HAN_RUN = re.compile(r"[\u4e00-\u9fff]+")
_LONGEST = 6
# The sentence-final particles, a closed class of the grammar: a run's last syllable "ma" is
# the question's 吗, not the 码 of 密码 ("ni yao yi qi lai ma" asks).
_FINAL_PARTICLES = {"ma": "吗", "ne": "呢", "ba": "吧", "a": "啊"}


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
def _lexicon(
    rules: tuple[re.Pattern[str], ...],
) -> tuple[dict[tuple[str, ...], str], dict[str, str]]:
    """(the rules' words by spelling, the rules' commonest character per syllable); built
    the first time a text is pinyin."""
    from pypinyin import Style, lazy_pinyin

    runs: Counter[str] = Counter()
    for p in rules:
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


@memoized("memory.detectors.pinyin_reading._is_pinyin", maxsize=65536)
def _is_pinyin(word: str) -> bool:
    return _split(word.lower(), _syllables()) is not None


def _has_run(words: list[str]) -> bool:
    """Four words in a row, each pinyin or an acronym: what every text is asked before any
    run is read (a word's answer is remembered; prose repeats its words)."""
    streak = 0
    for word in words:
        streak = streak + 1 if (word.isupper() and len(word) > 1) or _is_pinyin(word) else 0
        if streak >= 4:
            return True
    return False


def read_pinyin_words(form: str, rules: tuple[re.Pattern[str], ...]) -> str | None:
    """``form`` with each run of pinyin words read back into characters (the rest kept as
    written); None when there is no run of at least four words and six syllables."""
    if not _has_run(_WORD.findall(form)):
        return None
    syllables = _syllables()
    pieces: list[str | list[str]] = []  # kept text, or a run's syllables
    run: list[str] = []
    words = 0
    last = 0

    def close(end: int) -> None:
        nonlocal run, words
        if words >= 4 and len(run) >= 6:
            pieces.append(run)
        elif run:
            pieces.append(form[run_start:end])
        run, words = [], 0

    run_start = 0
    for m in _WORD.finditer(form):
        word = m.group()
        acronym = word.isupper() and len(word) > 1
        parts = [word] if acronym else _split(word.lower(), syllables)
        gap = form[last : m.start()]
        # A run goes on across spaces and commas; a sentence's end or other text ends it.
        if parts and run and not re.fullmatch(r"[\s,，:：]*", gap):
            close(last)
        if not parts:
            if run:
                close(last)
            pieces.append(form[last : m.end()])
            last = m.end()
            continue
        if not run:
            pieces.append(gap)
            run_start = m.start()
        run.extend(parts)
        words += not acronym
        last = m.end()
    if run:
        close(last)
    pieces.append(form[last:])
    if not any(isinstance(p, list) for p in pieces):
        return None
    lexicon, chars = _lexicon(rules)
    return "".join(p if isinstance(p, str) else _characters(p, lexicon, chars) for p in pieces)


def _characters(
    stream: list[str], lexicon: dict[tuple[str, ...], str], chars: dict[str, str]
) -> str:
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
            if i == len(stream) - 1 and stream[i] in _FINAL_PARTICLES:
                out.append(_FINAL_PARTICLES[stream[i]])
            else:
                out.append(chars.get(stream[i], stream[i] if stream[i].isupper() else " "))
            i += 1
    return "".join(out)
