"""Is the speaker the one a text is about? A structural test, with no vocabulary of any
special category (issue 32, round 7).

The learned special-category head reads the topic: "I'm a pharmacist and dispense a lot
of Effexor" and "I've been on Effexor since May" are close in its space. Where its
embedding head says "special category" but the n-gram head is further from sure than its
ordinary unsure band, the write path asks this instead whether a sentence is the speaker
telling of themselves (memory.detectors.learned, ``SPEAKER_BAND``). The test is grammar
only, in each language:

- **English**: a clause whose first person named is the speaker ("I", "my" not before a
  kin word, "the user"), or a clause with its subject dropped before a verb form that
  cannot be an imperative ("Been on …", ``dropped_subject``);
- **Chinese**: a clause whose first person named is 我 (not 我妈) or 用户/本人, or a clause
  with its subject dropped whose subject carries over from the speaker
  (``dropped_subject``);
- **Japanese and Korean**, which drop the subject as a rule: a sentence whose first person
  named is the speaker (私/僕/俺, 저/나/제/내), or that names no person at all; another
  person named first (母, 友達, 엄마, 친구 …: pronouns and kin, closed classes) is theirs.

Never the speaker's: a question (a question mark, 吗, か。, 까), and a text of news,
fiction or hearsay (the frames ``dropped_subject`` already refuses).

``others_only`` is the converse, stricter test (round 11): the text names another person
and the speaker nowhere (no I/me/my, 我, 私, 저 … in any sentence). The embedding head's
unsure band reads it with a margin: it reads the topic, and a text of only another
person's life is close to the speaker's own in its space.
"""

from __future__ import annotations

import re

from memory.detectors.dropped_subject import (
    ASKING_ZH,
    CLAUSES_ZH,
    OTHER_ZH,
    PERSON_EN,
    PERSON_ZH,
    REPORTED_EN,
    REPORTED_ZH,
    SENTENCES_ZH,
    dropped_subject_clauses,
    dropped_subject_clauses_en,
)

_KANA_HANGUL = re.compile(r"[\u3040-\u30ff\uac00-\ud7af]")
_HAN = re.compile(r"[\u4e00-\u9fff]")
_SENTENCE = re.compile(r"[^.!?。！？\n]+[.!?。！？]?")
# Japanese and Korean persons (closed: personal pronouns and kin/social nouns).
_KIN_JAKO = (
    r"(?:母|父|妹|姉|兄|弟|夫|妻|娘|息子|祖母|祖父|友達|友人|彼女?|同僚|上司|先生|さん|"
    r"엄마|아빠|어머니|아버지|친구|남편|아내|언니|오빠|형|누나|동생|아들|딸|할머니|할아버지|동료|"
    r"그는|그녀|그가|씨)"
)
# The speaker as the owner of a kin word (私の母, 제 동생, 나의 친구) names the kin (round 11).
_PERSON_JAKO = re.compile(
    r"(?P<me>(?:私|僕|俺|わたし|あたし|自分)(?!の" + _KIN_JAKO + r")"
    r"|(?<![가-힣])(?:저|나)(?:는|도|가|한테)|(?<![가-힣])(?:저|나)의(?!\s*" + _KIN_JAKO + r")"
    r"|제가|내가|(?<![가-힣])[제내](?=\s)(?!\s*" + _KIN_JAKO + r"))"
    r"|" + _KIN_JAKO
)
# -나요 asks ("가나요?"), but a verb whose stem ends in 나 states (만나요 "I meet", 끝나요).
_QUESTION_JAKO = re.compile(r"[?？]|か[。\s]*$|까\s*[.。]?\s*$|(?<![만떠끝지])나요\s*[.。]?\s*$")
_QUESTION_EN = re.compile(r"\?\s*$")
_USER_EN = re.compile(r"\bthe user\b", re.IGNORECASE)


def _jako(text: str) -> bool:
    for sentence in _SENTENCE.findall(text):
        if _QUESTION_JAKO.search(sentence.strip()):
            continue
        person = _PERSON_JAKO.search(sentence)
        if person is None or person.group("me"):
            return True
    return False


def _zh(text: str) -> bool:
    if next(dropped_subject_clauses(text), None) is not None:
        return True
    for sentence in SENTENCES_ZH.findall(text):
        if ASKING_ZH.search(sentence):
            continue
        for clause in CLAUSES_ZH.split(sentence):
            person = PERSON_ZH.search(clause)
            if person:
                if person.group("me"):
                    return True
                break  # the sentence is about the person it names first
    return False


def _en(text: str) -> bool:
    if next(dropped_subject_clauses_en(text), None) is not None:
        return True
    for sentence in _SENTENCE.findall(text):
        if _QUESTION_EN.search(sentence):
            continue
        for clause in re.split(r"[;,:]", sentence):
            person = PERSON_EN.search(clause)
            if person and person.group("me") or person is None and _USER_EN.search(clause):
                return True
    return False


def speaker_is_subject(text: str) -> bool:
    """Whether some sentence of ``text`` tells of the speaker (or "the user") by its
    grammar (module docstring). News, fiction, hearsay and questions never do."""
    if REPORTED_ZH.search(text) or REPORTED_EN.search(text):
        return False
    if _KANA_HANGUL.search(text):
        return _jako(text)
    if _HAN.search(text):
        return _zh(text)
    return _en(text)


# A first-person form anywhere (any clause, any sentence): the speaker is in the text.
_ME_ANY = re.compile(
    r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|myself)\b|我(?!们|們)|本人|"
    r"私|僕|俺|わたし|あたし|자신|(?<![가-힣])(?:저|나)(?:는|도|가|의|한테|를|랑|와)|제가|내가|"
    r"(?<![가-힣])[제내](?=\s)",
    re.IGNORECASE,
)


# The speaker named only as the owner of another person (my mum, 我妈, 私の母, 제 동생):
# taken out before ``_ME_ANY`` looks for the speaker.
_OWNER_JAKO = re.compile(r"(?:私|僕|俺|わたし|あたし)の|(?<![가-힣])(?:[제내]|저의|나의)\s*")
_OWNER_ZH = re.compile(rf"我(?=(?:{OTHER_ZH}))")


def _without_owners(text: str) -> str:
    text = PERSON_EN.sub(lambda m: " " if m.group("other") else m.group(), text)
    text = _OWNER_ZH.sub("", text)

    def owner(m: re.Match) -> str:
        after = _PERSON_JAKO.match(text, m.end())
        return "" if after and not after.group("me") else m.group()

    return _OWNER_JAKO.sub(owner, text)


def _names_another(text: str) -> bool:
    if _KANA_HANGUL.search(text):
        return any(not m.group("me") for m in _PERSON_JAKO.finditer(text))
    if _HAN.search(text):
        return any(not m.group("me") for m in PERSON_ZH.finditer(text))
    return any(m.group("other") for m in PERSON_EN.finditer(text))


def others_only(text: str) -> bool:
    """Whether ``text`` names another person and never the speaker (module docstring):
    "my" before a kin word names the kin, and the speaker too ("my mum drove me" is not
    others only, "her doctor" is)."""
    if _ME_ANY.search(_without_owners(text)) or not _names_another(text):
        return False
    return True
