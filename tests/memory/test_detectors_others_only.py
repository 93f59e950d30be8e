"""Round 11 of issue 32: a text that names only another person (``others_only``) reads the
special-category embedding head with a margin inside the n-gram head's unsure band
(memory/detectors/learned). The structural test is checked on forms of the speaker,
another person, the speaker as the other's owner ("my mum", 我妈, 私の母, 제 동생) and
news; the learned cascade is checked never to hold more because of it, and to read a text
with the speaker in it exactly as before; a secret beside another person's fact is still
refused first."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memory.detectors import learned
from memory.detectors.speaker_subject import others_only
from tests.helpers.memories import decide_user_statement

OTHERS = [
    "My uncle has been on dialysis since spring.",
    "She wears a hijab to work.",
    "Her parole officer rang twice this week.",
    "我妈每周去教堂。",
    "他的签证还没批下来。",
    "私の母は毎週透析に通っています。",
    "母は白杖を使っています。",
    "제 동생은 매주 교회에 가요.",
    "친구가 보호관찰 중이에요.",
]
SPEAKER = [
    "I've been on dialysis since spring.",
    "My mum drives me to dialysis.",
    "I wear a hijab to work.",
    "我每周去教堂。",
    "我妈陪我去透析。",
    "私は毎週透析に通っています。",
    "저는 매주 교회에 가요.",
]
NOBODY = [
    "The clinic opens at nine.",
    "新闻说签证政策变了。",
    "明日は雨です。",
]


@pytest.mark.parametrize("text", OTHERS)
def test_another_person_alone_is_others_only(text):
    assert others_only(text)


@pytest.mark.parametrize("text", SPEAKER + NOBODY)
def test_the_speaker_or_nobody_is_not(text):
    assert not others_only(text)


_FACTS_EN = [
    "{s} on lithium for the voices",
    "{s} at the mosque every Friday",
    "{s} on bail until the trial",
    "{s} waiting on a spousal visa",
]
_WHO = {
    "other": ["My sister is", "Her husband is", "The neighbour's son is"],
    "speaker": ["I'm", "I am still", "My GP says I'm"],
}
_FRAMES = ["{f}.", "In the novel, {f}.", "If {f}, the plan changes.", "Next year {f}."]


def _without_mask(text: str) -> float:
    saved = learned.Model.others_mask
    learned.Model.others_mask = lambda self, text: np.zeros(len(self.classes), dtype=bool)
    try:
        return learned.model().scores(text)["special_category"]
    finally:
        learned.Model.others_mask = saved


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    fact=st.sampled_from(_FACTS_EN),
    who=st.sampled_from(["other", "speaker"]),
    n=st.integers(min_value=0, max_value=2),
    frame=st.sampled_from(_FRAMES),
)
def test_the_margin_never_holds_more_and_leaves_the_speaker_alone(fact, who, n, frame):
    """Composed with fiction, a supposition and a plan: another person's fact never scores
    higher with the margin than without it, and a text with the speaker in it scores
    exactly as it did."""
    text = frame.format(f=fact.format(s=_WHO[who][n]))
    text = text[0].upper() + text[1:]
    with_mask = learned.model().scores(text)["special_category"]
    without = _without_mask(text)
    assert with_mask <= without
    if who == "speaker":
        assert with_mask == without


NOW = datetime(2026, 12, 6, 9, 0, tzinfo=UTC)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=st.sampled_from(OTHERS),
    secret=st.sampled_from(["My door code is 4417.", "我的支付密码是582913。"]),
    first=st.booleans(),
)
def test_a_secret_beside_another_persons_fact_is_refused(text, secret, first):
    decision = decide_user_statement(
        f"{secret} {text}" if first else f"{text} {secret}", now=NOW, learned_detectors=True
    )
    assert (decision.operation, decision.reason_code) == ("REJECT", "secret_detected")
