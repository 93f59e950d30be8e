"""Whom a turn of a conversation is about, by its grammatical person.

A turn in which its speaker mostly says "you" ("That's awesome, your race sounds
amazing!", "你的画真好看！") tells about the person it addresses, not about its speaker; a
turn that says "I", "my", "we" ("I ran a charity race last week", "我上周跑了慈善赛") tells
about its speaker. The speaker gate (``rank.scope_to_speaker``) reads it: a question about
Ada is answered by what Ada said of herself, and what she said to Bea about Bea's race is
Bea's story, not hers. Counted per word, in English and Chinese; a turn with as many
first- as second-person words, or none, is about its speaker as before.

With the question at hand (``about_question``) the person is judged in the sentence of the
turn that holds most of the question's words, not in the whole turn: "Thanks! You should
have seen my garden, the roses are out." answers a question about the speaker's garden in
its second sentence, whatever the thank-you says; "That's kind. Your race sounds amazing!"
answers one about a race in a sentence that speaks to the other person. A turn sharing no
word with the question is judged whole.
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


def addressed(statement: str, question: str = "", skip: frozenset[str] = frozenset()) -> bool:
    """The turn is about the person it addresses: it says "you"/"你" more often than
    "I"/"我" — in the sentence that matches ``question`` best, when one is given
    (``about_question``; ``skip``: words of the question that say whom it is about, the
    speakers' names, not what)."""
    first, second = persons(about_question(statement, question, skip) if question else statement)
    return second > first


# A sentence and the punctuation that ends it (a speaker's "Name:" opens the first).
_SENTENCE = re.compile(r"[^.!?。！？;；\n]+[.!?。！？;；]*")
# English function words (closed classes: determiners, pronouns, auxiliaries, question
# words, common prepositions and conjunctions): every sentence holds some, so they say
# nothing about which one the question is after.
_FUNCTION_EN = frozenset(
    "a an the this that these those what which who whom whose when where why how did do does "
    "done is are was were be been being has have had will would can could shall should may "
    "might must to of in on at by for with from about into over after before as and or but "
    "not no so if than then there their they them he she his her him it its i me my we our us "
    "you your yours".split()
)
_LATIN = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
_HAN = re.compile(r"[\u3400-\u9fff]")
# Characters that say who, not what (person pronouns, particles).
_HAN_FUNCTION = frozenset("我咱你您他她它的了是吗呢吧啊么什")


def _terms(text: str, skip: frozenset[str]) -> set[str]:
    """A text's content words: Latin words (their first five letters, a crude stem:
    "painted" and "painting" meet) less function words and ``skip``, and pairs of Chinese
    characters (less ``skip``'s names and the person words and particles)."""
    out: set[str] = set()
    for word in _LATIN.findall(text):
        w = word.lower().replace("’", "'")
        # ``_LATIN`` matches any letters: a run of Chinese characters is read below.
        if w in _FUNCTION_EN or w in skip or len(w) < 3 or _HAN.search(w):
            continue
        out.add(w[:5])
    if _HAN.search(text):
        for name in skip:
            if _HAN.search(name):
                text = text.replace(name, " ")
        han = "".join(ch if _HAN.match(ch) and ch not in _HAN_FUNCTION else " " for ch in text)
        for run in han.split():
            out.update(run[i : i + 2] for i in range(len(run) - 1))
    return out


def about_question(statement: str, question: str, skip: frozenset[str] = frozenset()) -> str:
    """The sentence of ``statement`` that shares most content words with ``question`` (the
    first of equals), or the whole statement if none shares any."""
    wanted = _terms(question, skip)
    best, best_shared = statement, 0
    for sentence in _SENTENCE.findall(statement):
        shared = len(wanted & _terms(sentence, skip))
        if shared > best_shared:
            best, best_shared = sentence, shared
    return best


def terms_held(statement: str, question: str, skip: frozenset[str] = frozenset()) -> float:
    """The share of ``question``'s content words (``_terms``, less ``skip``: the names that
    say whom it is about) that ``statement`` holds; 0 when the question has none."""
    wanted = _terms(question, skip)
    return len(wanted & _terms(statement, skip)) / len(wanted) if wanted else 0.0
