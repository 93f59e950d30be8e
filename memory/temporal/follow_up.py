"""The speaker's own follow-up on a record, told beside a change already made (round 13).

"My phone number changed, I'll update my profile tomorrow" states a change that has
happened; the future in it is the speaker's bookkeeping (updating a profile, an account, the
settings), not the change's start. Such a clause is left out of the time reading when
another clause of the text states the change as done ("changed", "has changed", "is
different now", 换了, 已经改了). Without a completed change beside it, the clause stays
("I'll update my profile when I move next month" is a plan).

Closed classes only: verbs of editing a record, the record nouns of an account (profile,
account, settings, details, records; 资料, 信息, 设置, 档案) and the completed forms of a
change.
"""

from __future__ import annotations

import re

_FOLLOW_UP_EN = re.compile(
    r"(?:[,;]\s*|\s+(?:and|so|but)\s+|^)(?:so\s+|and\s+)?"
    r"(?:I'll|I\s+will|I'm\s+going\s+to|I\s+am\s+going\s+to|I'm\s+gonna|I\s+need\s+to|"
    r"I\s+have\s+to|I\s+must|I\s+should|let\s+me|I'd\s+better|will)\s+(?:\w+ly\s+|also\s+|go\s+and\s+)?"
    r"(?:update|change|edit|fix|correct|amend|put|add)\s+(?:it|that|this|the\s+new\s+\w+|my|the)\b"
    r"[^,;.!?]{0,40}?\b(?:profile|account|settings|details|records?|info(?:rmation)?|"
    r"contact\s+(?:card|info|details)|bio)\b[^,;.!?]*",
    re.IGNORECASE,
)
_FOLLOW_UP_ZH = re.compile(
    r"[，,；;]\s*(?:我)?(?:稍后|回头|晚点|晚些|等下|等会儿?|待会儿?|明天|今晚|之后|马上|这就|改天)?"
    r"(?:我)?(?:会|要|再|就|得)?(?:去)?(?:更新|修改|改|补)(?:一下)?(?:我的)?(?:个人)?"
    r"(?:资料|信息|账户信息|账号信息|账户|账号|设置|档案|联系方式)"
)
_DONE_CHANGE = re.compile(
    r"\b(?:changed|has\s+changed|have\s+changed|switched|is\s+different\s+now|"
    r"is\s+now\s+different|got\s+a\s+new)\b"
    r"|(?:换|改|变|更换)了|已经(?:换|改|变|更换)|(?:换|改)成了",
    re.IGNORECASE,
)


def without_follow_up(text: str) -> str:
    """``text`` without the speaker's follow-up on a record, when the rest states a change
    already made; otherwise ``text`` as it is."""
    # No shortcut on the whole text: taking the clause out can make a word boundary that
    # the whole lacks ("…更新资料changed" reads "changed" only once 资料 is gone).
    bare = _FOLLOW_UP_ZH.sub("", _FOLLOW_UP_EN.sub("", text))
    if bare == text or not bare.strip() or not _DONE_CHANGE.search(bare):
        return text
    return bare
