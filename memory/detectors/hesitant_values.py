"""A value told after a hesitation (round 10 of issue 32): a Chinese, Japanese or Korean
secret noun, then a filler, a self-correction or a pause before the value ("パスワードはね、
えっと、X", "비번 뭐였더라… 아 맞다 X", "密码嘛……我想想，X").

``labelled`` reads a value right after its label; here a clause or two of no value may come
between, so the value itself must look made: ``unlabelled_values.made_token`` (six or more
characters, three character classes, a password symbol or a digit between letters). The
gap is short (at most 20 characters) and has no sentence end; only the first made token
after the noun counts.

Or told through a contraction: "the gate's 1973", "code's 4471" (``'s`` for *is* after a
noun of access, then a code of four to ten digits or a made value; a possessive is
followed by a noun, not by a bare code).
"""

from __future__ import annotations

import re

from memory.detectors.labelled import _SECRET_NOUN
from memory.detectors.literal_gated import literal_gated
from memory.detectors.unlabelled_values import made_token

_NOUN_THEN_GAP = re.compile(
    rf"(?:{_SECRET_NOUN})(?P<gap>[^。！？!?\n.]{{1,20}}?)(?<![!-~])(?P<value>[!-~]{{6,40}})"
)
_TRIM = "\"'`()[]{},;:，。、"


# Asked only where their literals are (memory/detectors/literal_gated.py).
_NOUN_THEN_GAP = literal_gated(_NOUN_THEN_GAP)


def hesitant_value_spans(text: str) -> list[tuple[int, int]]:
    spans = contracted_value_spans(text) if "'s" in text or "’s" in text else []
    for m in _NOUN_THEN_GAP.finditer(text):
        value = m.group("value").rstrip(".!?")
        # The gap must hold a pause (a comma, an ellipsis, a dash or a space), not be a
        # noun compound running straight into the value.
        if not re.search(r"[,，、…\s—―-]", m.group("gap")):
            continue
        if made_token(value.strip(_TRIM)):
            spans.append((m.start("value"), m.start("value") + len(value)))
    return spans


_ACCESS_NOUN_IS = re.compile(
    r"\b(?:code|pin|passcode|password|combo|combination|gate|door|alarm|lock|padlock|keypad|"
    r"keysafe|key\s?safe|safe|locker)['’]s\s+(?P<value>[#*]?\d[\d -]{2,12}\d[#*]?|[!-~]{6,40})"
    # the value ends its clause (a possessive runs on into a noun: "the gate's 1973 ironwork")
    r"(?=\s*(?:[,.;:!?，。]|$|\s(?:and|then|but|so|if|when|for|tell|remember)\b|\s[—–-]))",
    re.IGNORECASE,
)


def contracted_value_spans(text: str) -> list[tuple[int, int]]:
    spans = []
    for m in _ACCESS_NOUN_IS.finditer(text):
        value = m.group("value").rstrip(".,;!?")
        digits = re.sub(r"[\s#*-]", "", value)
        if (digits.isdigit() and 4 <= len(digits) <= 10) or made_token(value):
            spans.append((m.start("value"), m.start("value") + len(value)))
    return spans
