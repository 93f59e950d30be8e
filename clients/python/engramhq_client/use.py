"""Which recalled memories an answer used, for ``report_use`` (the utility rate and the
feedback into ranking: ``POST /api/v1/recall/{id}/feedback``).

Two ways, in this order:

1. The agent states the ids it used (``used_ids``): exact, and what an agent that cites
   its memories should send. Every id must be one the recall returned.
2. Otherwise the items whose statement the answer overlaps (``answer_text``): an item is
   used when at least half of its statement's tokens appear in the answer. Tokens are
   English content words (lower-cased letters and digits, a plural ``s`` dropped, the
   closed class of articles, pronouns, auxiliaries and prepositions left out) and, for
   Chinese, each pair of adjacent characters (a lone character counts alone): Chinese has
   no spaces, and character bigrams match a reworded sentence without a dictionary.
   Measured against the item's tokens, not the answer's, so a long answer that restates
   one short memory counts it, and a memory the answer only brushes does not.

Overlap is a proxy: an answer can use a memory without repeating it, or repeat one it did
not need. Stated ids are better when the agent can give them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

OVERLAP = 0.5

# The closed class of English function words: a fixed grammatical set, not vocabulary.
_FUNCTION_WORDS = frozenset(
    "a an the and or but if of to in on at by for from with as into onto about than then "
    "is are was were be been being am do does did has have had will would shall should can "
    "could may might must i me my mine you your yours he him his she her hers it its we us "
    "our ours they them their theirs this that these those there here not no so".split()
)
_LATIN = re.compile(r"[a-z0-9]+")
_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")


def _word(token: str) -> str:
    return (
        token[:-1] if len(token) > 3 and token.endswith("s") and not token.endswith("ss") else token
    )


def overlap_tokens(text: str) -> set[str]:
    """English content words and Chinese character bigrams of ``text``."""
    low = text.lower()
    tokens = {_word(t) for t in _LATIN.findall(low) if t not in _FUNCTION_WORDS}
    for run in _CJK_RUN.findall(low):
        if len(run) == 1:
            tokens.add(run)
        tokens.update(run[i : i + 2] for i in range(len(run) - 1))
    return tokens


def used_by_overlap(items: Iterable[Any], answer_text: str) -> list[str]:
    """Ids of the items at least ``OVERLAP`` of whose statement tokens the answer holds."""
    answer = overlap_tokens(answer_text)
    used = []
    for item in items:
        own = overlap_tokens(item.statement or "")
        if own and len(own & answer) / len(own) >= OVERLAP:
            used.append(item.id)
    return used


def used_record_ids(
    pack: Any, answer_text: str | None = None, used_ids: Iterable[str] | None = None
) -> list[str]:
    """The ids to report for ``pack`` (a ``ContextPack``): ``used_ids`` as stated, else the
    items ``answer_text`` overlaps. Raises ``ValueError`` for a stated id the recall did
    not return (the server would refuse it: a bug in the caller) and ``TypeError`` when
    neither is given."""
    returned = [i.id for i in pack.items]
    if used_ids is not None:
        stated = list(dict.fromkeys(str(i) for i in used_ids))
        unknown = [i for i in stated if i not in returned]
        if unknown:
            raise ValueError(f"not returned by this recall: {unknown}")
        return stated
    if answer_text is None:
        raise TypeError("give used_ids or answer_text")
    return used_by_overlap(pack.items, answer_text)
