"""An agent's report of the user, read as the user's own words (issue 32, round 13).

Every rule of ``special_categories`` is written around the speaker (I, my, 我). An agent
proposing a memory often writes about the user in the third person instead: "The user
mentioned they are on dialysis", "User attends mass every Sunday", "用户说自己在吃抗抑郁药".
Rather than a second set of rules, this module yields such a sentence once more in the
first person, and the rules read it as they read the user's own words:

- a reporting verb with the user as its subject and its clause ("the user said (that)
  she …", 用户说/表示/提到(自己)…) is taken off, and the clause's pronoun subject
  (they/he/she, 自己/他/她) becomes I/我, the verb agreeing (they are → I am, she has →
  I have, he was → I was, she takes → I take);
- "(The) user" opening a sentence becomes I with its verb agreeing (the user is → I am,
  user attends → I attend), "the user's" becomes "my", and in that sentence "their",
  "his" and "her" become "my";
- a clause the user reports with a gerund ("the user reports taking sertraline") reads as
  "I am taking sertraline".

Only sentences that open with the user (or 用户) are read, so "my friend said she is on
dialysis" or "The user's mother has diabetes" (read as "my mother has diabetes", which the
rules leave alone) stay another person's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_F = re.IGNORECASE
_SENTENCE = re.compile(r"[^.!?。！？\n]+[.!?。！？]?")
_REPORT = (
    r"(?:mentioned|mentions|said|says|stated|states|reported|reports|explained|explains|shared|shares|"
    r"noted|notes|disclosed|discloses|confirmed|confirms|indicated|indicates|revealed|reveals|wrote|"
    r"writes|told\s+(?:me|us|the\s+(?:assistant|agent))|tells\s+(?:me|us))"
)
_USER_EN = r"^\s*(?:the\s+)?user\b"
_REPORTED_EN = re.compile(rf"{_USER_EN}\s+{_REPORT}\s+(?:that\s+)?", _F)
_AGREE = {
    "are": "am",
    "is": "am",
    "'re": "'m",
    "'s": "'m",
    "were": "was",
    "was": "was",
    "have": "have",
    "has": "have",
    "do": "do",
    "does": "do",
    "had": "had",
}
_PRONOUN_VERB = re.compile(r"^(?:they|he|she)(\s+|(?='))('re|'s|\w+)", _F)
_USER_VERB = re.compile(rf"{_USER_EN}(\s+)(\w+)", _F)
_POSSESSIVE = re.compile(r"\b(?:the\s+)?user's\b", _F)
_OWNER = re.compile(r"\b(?:their|his|her)\b", _F)
_ZH = re.compile(
    r"^\s*(?:该)?用户(?:(?:说|表示|提到|称|自述|告诉我|透露|反映)(?:了)?(?:自己|他|她)?|(?:自己)?(?![的们]))"
)


def _agree(verb: str) -> str:
    low = verb.lower()
    if low in _AGREE:
        return _AGREE[low]
    if low.endswith("ies") and len(low) > 4:
        return low[:-3] + "y"
    if re.search(r"(?:ss|sh|ch|x|o)es$", low):
        return low[:-2]
    if low.endswith("s") and not low.endswith("ss"):
        return low[:-1]
    return low


def _first_person(clause: str) -> str:
    if re.match(r"\s*\w+ing\b", clause):
        return "I am " + clause.lstrip()
    m = _PRONOUN_VERB.match(clause.lstrip())
    if m:
        rest = clause.lstrip()[m.end() :]
        return f"I{m.group(1)}{_agree(m.group(2))}{rest}"
    return clause


def user_readings(text: str) -> Iterator[str]:
    """Each sentence of ``text`` that opens with the user, read in the first person."""
    if "user" not in text.lower() and "用户" not in text:
        return
    for sentence in _SENTENCE.findall(text):
        if "用户" in sentence:
            m = _ZH.match(sentence)
            if m:
                yield "我" + sentence[m.end() :]
            continue
        m = _REPORTED_EN.match(sentence)
        if m:
            reading = _first_person(sentence[m.end() :])
        else:
            m = _USER_VERB.match(sentence)
            if not m:
                continue
            reading = f"I{m.group(1)}{_agree(m.group(2))}{sentence[m.end() :]}"
        reading = _POSSESSIVE.sub("my", reading)
        yield _OWNER.sub("my", reading)
