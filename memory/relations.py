"""Memories and questions about someone other than the user: a relation (a friend, a
colleague, a neighbour, a relative outside the immediate family) in the subject of a
statement, or named in a question."""

from __future__ import annotations

import re

import rjieba

from memory.lexical import CJK_CLASS, has_cjk

# Relations to people outside the user's immediate family. A memory whose subject is one
# of them ("Cousin Ada lives in Porto", "邻居老周的爱好是攀岩", "Ida Berg (cousin) was
# born in March") states a fact about *that* person, which a question about the user
# must not take for the user's own: e5 scores "my colleague's cat is called Mochi" as
# high as "my cat is called Mochi". Immediate family (partner, children, parents,
# siblings) is left out: "哥哥名叫子辰" and "has two daughters" are facts about the user's
# own life, and questions ask about them as such.
_OTHERS_EN = (
    r"cousins?|colleagues?|co-?workers?|friends?|neighbou?rs?|clients?|mentors?|mentees?|"
    r"team-?mates?|room-?mates?|flat-?mates?|house-?mates?|class-?mates?|school-?mates?|"
    r"landlord|landlady|tenants?|acquaintances?|aunts?|uncles?|nieces?|nephews?|in-laws?|"
    r"godparents?|godfather|godmother|godson|goddaughter"
)
_OTHERS_ZH = (
    r"发小|同事|客户|导师|邻居|表哥|表姐|表弟|表妹|堂哥|堂姐|堂弟|堂妹|室友|朋友|同学|闺蜜|"
    r"舅舅|舅妈|姑姑|姑父|姨妈|阿姨|叔叔|伯伯|婶婶|侄子|侄女|外甥|队友|合伙人|房东|租客|"
    r"师兄|师姐|师弟|师妹|老乡|网友|学长|学姐|好友|老友|同窗"
)
_OTHER_EN = re.compile(rf"\b(?:{_OTHERS_EN})\b", re.IGNORECASE)
_OTHER_ZH = re.compile(_OTHERS_ZH)
# English: a relation names the statement's subject when it stands in the subject phrase
# (the words before the first clause's verb, an apposition or parenthesis after the
# opening name included) and points at one person: with a possessive ("my", "their",
# "the user's", "a neighbour's"), a name, a parenthesis, or "of the user". A statement
# that opens with its verb ("Met …", "Prefers …") or with the user ("I", "User", "The
# user") is the user's, whoever it mentions later: "lent my colleague a ladder".
_CLAUSE_END = re.compile(r"[;:!?]|\s[-–—]\s|\.\s|,\s(?:and|but|so|while)\s")
_EN_TOKEN = re.compile(r"[A-Za-z][\w'’-]*|[(),]")
_AUXILIARIES = frozenset(
    "is are was were be been am has have had will would can could shall should may might "
    "must does did do isn't aren't wasn't weren't hasn't haven't hadn't won't can't "
    "doesn't didn't don't".split()
)
_DETERMINERS = frozenset("a an the this that these those my your his her its our their".split())
_POSSESSIVES = frozenset("my his her our their your".split())
_USER_SUBJECTS = frozenset("i i'm i've i'd i'll we user".split())
_RELATION_EN = re.compile(rf"^(?:{_OTHERS_EN})(?:'s|’s|')?$", re.IGNORECASE)


# English's common irregular past tenses: a verb the -ed/-s ending does not show.
_IRREGULAR_PAST = frozenset(
    "went took gave got made came saw knew thought told found left felt brought bought began "
    "kept held wrote stood heard meant met ran paid sat spoke led grew lost fell sent built "
    "drew broke spent drove taught caught sold won chose ate drank flew forgot hid rode sang "
    "slept swam threw woke wore became".split()
)


def _verb(token: str, previous: str) -> bool:
    lowered = token.lower()
    if lowered in _AUXILIARIES or lowered in _IRREGULAR_PAST:
        return True
    return (
        token[:1].islower()
        and bool(re.search(r"(?:[^s'’]s|ed)$", lowered))
        and previous.lower() not in _DETERMINERS
        and not _RELATION_EN.match(token)
    )


def _subject_phrase(statement: str) -> list[str]:
    """The words of the first clause's subject (see above); [] when the clause opens
    with its verb or with the user."""
    clause = _CLAUSE_END.split(statement, maxsplit=1)[0]
    tokens = _EN_TOKEN.findall(clause)
    words = [t for t in tokens if t not in "(),"]
    if not words:
        return []
    first, second = words[0].lower(), (words[1] if len(words) > 1 else "")
    if first in _USER_SUBJECTS or (first == "the" and second.lower() == "user"):
        return []
    if first in _IRREGULAR_PAST or (
        first not in _DETERMINERS
        and not _RELATION_EN.match(words[0])
        and re.search(r"(?:s|ed)$", first)
        and second[:1].islower()
    ):
        return []  # opens with its verb: "Prefers to …", "Visited a mentor …"
    phrase: list[str] = []
    k = 0
    while k < len(tokens):
        token = tokens[k]
        if token in "(,":
            # A parenthesis, or an apposition after the opening words up to its closing
            # comma, belongs to the subject ("X (neighbour)", "X, a client of the user,").
            close = ")" if token == "(" else ","
            end = tokens.index(close, k + 1) if close in tokens[k + 1 :] else -1
            if not phrase or end < 0:
                break
            phrase += [t for t in tokens[k + 1 : end] if t not in "(),"]
            k = end + 1
            continue
        if token == ")" or (phrase and _verb(token, phrase[-1])):
            break
        phrase.append(token)
        k += 1
    return phrase


def _about_other_en(statement: str) -> bool:
    phrase = _subject_phrase(statement)
    lowered = [w.lower() for w in phrase]
    for k, word in enumerate(phrase):
        if not _RELATION_EN.match(word):
            continue
        before = lowered[max(0, k - 3) : k]
        # A name beside it ("teammate Oskar"), or the name the phrase opens with when the
        # relation follows in a parenthesis or an apposition ("X Y, a client of …").
        named = (k + 1 < len(phrase) and phrase[k + 1][:1].isupper()) or (
            k > 0 and phrase[0][:1].isupper() and lowered[0] not in _DETERMINERS
        )
        if (
            word.lower().endswith(("'s", "’s", "'"))
            or any(w in _POSSESSIVES or w.endswith(("'s", "’s")) for w in before)
            or named
            or lowered[k + 1 : k + 4][:2] == ["of", "the"]
        ):
            return True
    return False


# In Chinese: the relation opens the statement, the subject's place ("邻居老周…", "用户的
# 客户某某的…"), or stands in parentheses after a name ("某某（邻居）…"); "和同事打羽毛球"
# later on is the user's.
_OTHER_ZH_SUBJECT = re.compile(
    rf"^\W*(?:用户的|我的|他的|她的)?(?:前|老)?(?:{_OTHERS_ZH})|"
    rf"^\W*{CJK_CLASS}{{2,4}}[（(](?:前|老)?(?:{_OTHERS_ZH})[)）]"
)
_LATIN_FULL_NAME = re.compile(r"\b[A-Z][a-z]+(?:\s+(?:(?:de|van|von|da|di|le)\s+)?[A-Z][a-z]+)+")


def about_someone_else(statement: str) -> bool:
    """Whether a memory states a fact about someone other than the user — a friend,
    colleague, client, neighbour or relative outside the immediate family named as the
    statement's subject."""
    return _about_other_en(statement) or bool(_OTHER_ZH_SUBJECT.search(statement))


def mentions_someone_else(query: str) -> bool:
    """Whether a question (already read with ``refer_to_user``, so the user's own names
    are "the user") is about another person: it names a relation ("my cousin", "同事") or
    a person ("Ida Berg", a word the segmenter tags as a person's name). It errs
    towards yes (any two capitalised words, "New York" too): a yes only switches off the
    demotion of facts about other people."""
    if _OTHER_EN.search(query) or _OTHER_ZH.search(query) or _LATIN_FULL_NAME.search(query):
        return True
    return has_cjk(query) and any(tag.startswith("nr") for _, tag in rjieba.tag(query))
