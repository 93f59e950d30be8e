"""Whether a sentence speaks of the user in the first person: the gate of the learned
special-category heads' second reading (``memory.detectors.learned``, ``subject_hold``).

The special categories are the user's own: a medicine, a faith or a record of someone
else is not held. The rules look for the user as the subject of a verb they know; this
test only asks whether the sentence has the user in it at all, by the first-person
pronouns, a closed class in each language: English I/me/my/mine/myself (and "the user" in
an agent's third-person statement), Chinese 我/本人 (not 我们), Japanese 私/僕/俺/わたし,
Korean 나/저/내/제 as words. Sentences with someone else *and* the user ("my brother has
…") pass it too; the line that follows the test was chosen on hard negatives of exactly
that kind (other people, fiction, news, a job in the field), so the test need not tell
them apart.
"""

from __future__ import annotations

import re

_FIRST_PERSON = re.compile(
    r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|myself|(?:the\s+)?user(?:'s)?)\b"
    r"|我(?!们|們)|本人|用户|私|僕|俺|わたし|あたし"
    r"|(?<![가-힣])(?:나|저|내|제)(?:는|가|도|의|를|한테|에게)?(?![가-힣])",
    re.IGNORECASE,
)


def first_person(text: str) -> bool:
    """Whether ``text`` (normalised for detection) names the user in the first person."""
    return _FIRST_PERSON.search(text.replace("’", "'")) is not None
