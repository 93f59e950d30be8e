"""Whom a turn of a conversation is about, by its grammatical person.

A turn in which its speaker mostly says "you" ("That's awesome, your race sounds
amazing!", "你的画真好看！") tells about the person it addresses, not about its speaker; a
turn that says "I", "my", "we" ("I ran a charity race last week", "我上周跑了慈善赛") tells
about its speaker. The speaker gate (``rank.scope_to_speaker``) reads it: a question about
Ada is answered by what Ada said of herself, and what she said to Bea about Bea's race is
Bea's story, not hers. Counted per word, in English and Chinese; a turn with as many
first- as second-person words, or none, is about its speaker as before.
"""

from __future__ import annotations

import re

# English pronouns and their contractions, read as words (apostrophes of either kind).
_FIRST_EN = frozenset(
    "i i'm i've i'd i'll im ive me my mine myself we we're we've we'd we'll us our ours "
    "ourselves".split()
)
_SECOND_EN = frozenset(
    "you you're you've you'd you'll youre youve your yours yourself yourselves".split()
)
_LATIN_WORD = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)?")
# Chinese: 我/咱 (我们, 我的, 咱们) and 你/您 (你们, 你的).
_FIRST_ZH = re.compile(r"[我咱]")
_SECOND_ZH = re.compile(r"[你您]")


def persons(text: str) -> tuple[int, int]:
    """(first-person words, second-person words) in ``text``."""
    first = len(_FIRST_ZH.findall(text))
    second = len(_SECOND_ZH.findall(text))
    for word in _LATIN_WORD.findall(text):
        w = word.lower().replace("’", "'")
        if w in _FIRST_EN:
            first += 1
        elif w in _SECOND_EN:
            second += 1
    return first, second


def addressed(statement: str) -> bool:
    """The turn is about the person it addresses: it says "you"/"你" more often than
    "I"/"我"."""
    first, second = persons(statement)
    return second > first
