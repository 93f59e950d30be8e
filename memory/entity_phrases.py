"""The things a text names in common words: the noun phrases ``memory.entities`` adds to
the names it finds ("a pottery class", "the support group", 陶艺课, 博物馆), so the entity
index holds the events, objects and activities a conversation is about, not only the
capitalised names in it.

Without a tagger for English, by the shape of a phrase:

- **English**: the words after a determiner, a possessive or a question word that picks
  a thing ("a", "the", "my", "their", "this", "what", "which") or after a preposition
  ("about", "for", "at", …), up to ``MAX_WORDS`` words, ending at punctuation, at a
  function word (a closed class: pronouns, auxiliaries, prepositions, conjunctions,
  adverbs of degree) or at a word shaped like an adverb or a past form ("-ly", "-ed").
  Capitalised words are names (``memory.entities``): skipped before a phrase, they end
  one after it. Each phrase gives its every ending ("great support group", "support group", "group"):
  the words before the head are often an evaluation the same thing is told without, and
  recall's bound (an entity named by too many records leads nowhere) silences the heads
  that are everywhere. The head is put in the singular ("books" → "book").
- **Chinese**: runs of words rjieba tags as common nouns (n, vn), two characters or more
  ("陶艺" + "课" → "陶艺课"), and a run's last word of two characters or more on its own
  ("跑步比赛" → "比赛"); proper nouns are ``memory.entities``'s.

The phrases are returned with a kind: a place right after a preposition of place ("at
the park", "to the beach", 在公园), else a thing; the caller keeps the first kind found for
a form (a name's stays a name)."""

from __future__ import annotations

import re

MAX_WORDS = 3
_WORD = re.compile(r"[^\W\d_][\w'’-]*|[.,!?;:()\[\]\"“”。，！？；：、]")
# What opens a phrase: determiners, possessives, quantifiers, question words that pick a
# thing, and prepositions.
_OPENERS = frozenset(
    "a an the my your his her our their its this that these those some any another every"
    " each what which whose several about for of with at in on into from during after"
    " before through".split()
)
# Closed-class words: none is a thing, each ends a phrase.
_FUNCTION = frozenset(
    (
        "i me you he him she it we us they them myself yourself itself ourselves themselves"
        " mine yours hers ours theirs one ones someone something anything everything nothing"
        " is are was were be been being am do does did done have has had having will would"
        " shall should can could may might must not no yes and or but nor so yet if then"
        " than as because while when where why how who whom what which whose that this"
        " these those there here now just too also very really quite still even ever only"
        " all both each either neither such much many more most less least lot lots bit"
        " kind sort way thing things stuff time times day days today tomorrow yesterday"
        " again away back up down out off over under around to by via per like well"
        " a an the my your his her our their its some any another every"
        " about for of with at in on into from during after before through"
        " get got gets getting go goes going went gone make makes made making take took"
        " let lets say said says see saw seen know knew think thought want wanted feel felt"
        " oh hey hi wow yeah ok okay thanks thank please sure"
        " last next ago week weeks weekend month months year years night morning evening"
        " afternoon tonight"
    ).split()
)
_ADVERB_OR_PAST = re.compile(r"[a-z]{3,}(?:ly|ed)$")
_CJK_NOUN_TAGS = frozenset({"n", "vn"})
PLACE, THING = "place", "thing"
# A phrase right after one of these is where something happened ("at the park", 在公园).
_PLACE_BEFORE = frozenset("in at to from near into".split())
_CJK_PLACE_BEFORE = frozenset("在 去 到 从 住".split())
_CJK = re.compile(r"[\u3400-\u9fff]")


def singular(word: str) -> str:
    """An English plural's singular, by its ending ("classes" → "class", "stories" →
    "story", "books" → "book"); other words as they are ("ceramics", "bus")."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "ches", "shes", "xes", "zzes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is", "ics", "'s")):
        return word[:-1]
    return word


def _english(text: str) -> dict[str, str]:
    words = [m.group(0) for m in _WORD.finditer(text)]
    out: dict[str, str] = {}
    i = 0
    while i < len(words):
        if words[i].casefold() not in _OPENERS:
            i += 1
            continue
        place = any(w.casefold() in _PLACE_BEFORE for w in words[max(0, i - 1) : i + 1])
        j = i + 1
        # "the" after a preposition opens the phrase again ("at the park").
        while j < len(words) and words[j].casefold() in _OPENERS:
            j += 1
        phrase: list[str] = []
        while j < len(words) and len(phrase) < MAX_WORDS:
            if words[j][0].isupper():
                # A name is ``memory.entities``'s; the common words after it are a phrase
                # ("a LGBTQ support group": "support group").
                if phrase:
                    break
                j += 1
                continue
            word = words[j].casefold().replace("’", "'")
            if not word[0].isalpha() or word in _FUNCTION or _ADVERB_OR_PAST.match(word):
                break
            if word.endswith("'s"):  # "my sister's wedding": the owner is no part of it
                phrase = []
                j += 1
                continue
            phrase.append(word)
            j += 1
            if singular(word) != word:
                break  # a plural ends a phrase ("my kids love painting": "kids")
        if phrase:
            phrase[-1] = singular(phrase[-1])
            for start in range(len(phrase)):
                form = " ".join(phrase[start:])
                if len(form) >= 3 and form not in out:
                    out[form] = PLACE if place else THING
        i = max(j, i + 1)
    return out


def _chinese(text: str) -> dict[str, str]:
    import rjieba

    out: dict[str, str] = {}
    run: list[str] = []
    before = ""
    for word, tag in [*rjieba.tag(text), ("", "x")]:
        if tag in _CJK_NOUN_TAGS and _CJK.search(word):
            if not run:
                place = before in _CJK_PLACE_BEFORE
            run.append(word)
            continue
        before = word
        if run:
            whole = "".join(run)
            for form in (whole, run[-1]):
                if len(form) >= 2 and form not in out:
                    out[form] = PLACE if place else THING
            run = []
    return out


def phrases(text: str) -> dict[str, str]:
    """The noun phrases ``text`` names, as the module says, each once in the order found:
    form -> kind, ``place`` after a preposition of place ("at the park", 在公园), else
    ``thing``."""
    out = _english(text)
    if _CJK.search(text):
        out.update((f, k) for f, k in _chinese(text).items() if f not in out)
    return out
