"""An everyday, self-limiting ailment is not special-category data (round 6 of issue 32).

The write policy's stated decision (docs/write-policy.md): a passing cold or an everyday
injury is not the user's health data in the sense of GDPR Art. 9 / PIPL Art. 28, and is
stored. The rules never flag one; the learned special-category head, which reads the
topic, sometimes does ("I had a nasty cold last week but I'm fine now"). This module is
the rule that says no, by class rather than by sentence:

- **the ailment** is one of the acute, self-limiting conditions of ICD-10 that everyone
  has: acute upper respiratory infections (J00–J06: a cold, a sore throat, a cough),
  influenza (J10–J11), a headache (R51), a fever (R50), diarrhoea or a stomach bug
  (A09, K59.1), motion sickness (T75.3), sunburn (L55), heat exhaustion (T67), a sprain,
  a bruise or a cut (chapter S), a stiff neck, hiccups, jet lag;
- **it is not lasting**: no word of frequency or chronicity (every day, always, chronic,
  for years, 经常, 总是, 一直, 老是, 反复);
- for a *passing state* (the transient head), **it is over**: a word of recovery (fine
  now, sorted it, went away, got over, 好了, 没事了, 退烧了).

``learned_special_vetoed`` and ``learned_transient_vetoed`` are read by the write policy
only when the learned head alone detected the class: a rule's detection is never undone.
Nor is the head's reading of anything else in the text: the policy asks the head again
about the text with the ailment's words taken out (``without_ailments``), and a text that
still reads as the class there ("I had a cold last week, and I take PrEP") is held.
"""

from __future__ import annotations

import re

from memory.temporal.common import fold_traditional
from memory.text_normalize import normalize_for_detection

_AILMENT = re.compile(
    r"\b(?:(?:a|the|my|bad|nasty|little|slight|mild|stinking|heavy|head|chest|summer|winter)\s+)*"
    r"(?:cold|flu|headache|sore\s+throat|cough|runny\s+nose|blocked\s+nose|stuffy\s+nose|sniffles|"
    r"stomach\s+bug|tummy\s+bug|upset\s+stomach|food\s+poisoning|fever|temperature|sprained\s+\w+|"
    r"sprain|twisted\s+(?:my\s+)?ankle|stiff\s+neck|bruise|blister|paper\s+cut|hiccups|jet\s*lag|"
    r"sunburn|heat\s+exhaustion|car\s*sickness|sea\s*sickness|travel\s+sickness|motion\s+sickness)\b"
    r"|感冒|着凉|受凉|发烧|发烧了|发热|低烧|头疼|头痛|嗓子疼|喉咙痛|嗓子哑|咳嗽|流鼻涕|鼻塞|拉肚子|闹肚子|"
    r"肚子疼|吃坏肚子|落枕|崴脚|崴了脚|扭了脚|扭伤|擦伤|中暑|晕车|晕船|晒伤|打嗝|倒时差",
    re.IGNORECASE,
)
_LASTING = re.compile(
    r"\b(?:every\s+(?:day|morning|night|week|month)|always|constantly|chronic|for\s+(?:years|months)|"
    r"all\s+the\s+time|keep\s+getting|recurring|again\s+and\s+again|daily|migraines?)\b"
    r"|经常|总是|一直|老是|反复|常年|长期|每天|每次|慢性|好几年|几个月",
    re.IGNORECASE,
)
_OVER = re.compile(
    r"\b(?:(?:fine|better|okay|ok|good|recovered|back\s+to\s+normal)\s+now|sorted\s+(?:it|me)|"
    r"cleared\s+up|went\s+away|gone\s+now|got\s+over|shook\s+(?:it\s+)?off|over\s+it|"
    r"(?:it|that)\s+passed)\b"
    r"|好了|没事了|好多了|退烧了|恢复了|缓过来了|过去了",
    re.IGNORECASE,
)


def _form(text: str) -> str:
    return fold_traditional(normalize_for_detection(text))


def without_ailments(text: str) -> str:
    """The text (its detection form) with the everyday ailments' words taken out: what the
    learned head is asked again before a veto, so that only the ailment is overruled."""
    return _AILMENT.sub(" ", _form(text))


def learned_special_vetoed(text: str) -> bool:
    """The text's only health content is an everyday ailment, not a lasting one."""
    form = _form(text)
    return bool(_AILMENT.search(form)) and not _LASTING.search(form)


def learned_transient_vetoed(text: str) -> bool:
    """The text tells of an everyday ailment that is already over (a past episode, which
    is kept, not a state that is passing)."""
    form = _form(text)
    return bool(_AILMENT.search(form) and _OVER.search(form)) and not _LASTING.search(form)
