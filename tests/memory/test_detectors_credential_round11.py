"""Round 11 of issue 32: credentials in chat-style answers, code snippets, mixed-script
digits, card security numbers, one-time codes and ja/ko/zh-Hant nouns. Probe 11's halves
(tests/data/detector_probe11_credential_*.jsonl) were written before any change; they are
floors here."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from core.codes import Operation, ReasonCode
from memory.detectors.secrets import find_secrets, redact_secrets
from tests.helpers.memories import decide_user_statement
from tests.helpers.probes import caught_and_wrong

# Positives refused by the rules alone, and store-labelled sentences refused (measured;
# main before round 11: tuning 29/42 with 1/28, reporting 29/42 with 0/28; after: 41/42
# with 0/28, 31/42 with 0/28).
_FLOORS = {"tune": (41, 0), "report": (31, 0)}


@pytest.mark.parametrize("name", sorted(_FLOORS))
def test_probe11_floors_with_the_rules_alone(name):
    caught, wrong = caught_and_wrong(f"detector_probe11_credential_{name}", find_secrets)
    floor, ceiling = _FLOORS[name]
    assert caught >= floor and wrong <= ceiling, (name, caught, wrong)


# --- the mechanisms (memory/detectors/asked_values.py and their one-line parities) --------
# Positives are written here, not copied from a probe; each negative is an ordinary
# look-alike the mechanism must let through.
POSITIVE = [
    # an answer to a question about a credential: next line, marker, or next quotation
    "Q: what's the PIN for the church hall?\nA: 3390",
    "which combination is on the trunk?\n27-40-15",
    "客廳那台電視的家長鎖密碼？\n8812",
    "「ルーターのパスワードは？」と聞かれて「Nagi-ura9034」と答えた",
    # a code keyed with its terminating key, or by the device that takes it
    "Let yourself in: 5472 then hash.",
    "type 90817 and press enter on the panel by the lift",
    "The keypad's 2206 until Friday.",
    "储物间门口键盘按 63018 就开",
    # digits mixing scripts
    "门禁 八4六1",
    "사물함 비번 오3칠9예요",
    # a card's security code by its local name
    "新しいカードのセキュリティコードは 288",
    "카드 보안코드는 611이에요",
    # a one-time code named as a number, read aloud
    "The security number they texted is four four zero one nine two.",
    # a change told in Japanese or Korean
    "玄関の暗証番号を変えた、今は 4419",
    "현관 비번 바꿨어요, 이제 8861",
    # a value chosen for an account
    "For the library account I settled on Gorse_lane#71.",
]
NEGATIVE = [
    # a network set to a mode or a name, not given a key (a rule for keys set with no
    # credential word was tried and dropped: it refused these)
    "I changed the wifi to WPA3-only mode",
    "I changed the wifi to 5GHz-only",
    "Wi-Fi 改成了 TP-LINK_5G 那个频段",
    "Q: what time is the match?\nA: 19:45",
    "what's the promo code?\nWINTER25",
    "which room is the locker in?\n2207",
    "電話番号は？\n090-4471-2283",
    "Add 2 cups of flour then the eggs.",
    "Press 1 then hash to repeat the menu.",
    "The keypad is 12 years old.",
    "门口键盘坏了，按了没反应。",
    "三楼有 2 个房间。",
    "10일이 좋아요, 12일이 좋아요?",
    "카드 보안이 걱정돼요.",
    "The booking confirmation number is four four zero one nine two.",
    "I changed my password, don't ask.",
    "비밀번호 바꿨어, 이제 안 알려줄 거야.",
    "For the work account I used Python3.12 scripts.",
    "I went with iPhone15 for the family account.",
    "The tutorial's sample config has `password: hunter2` in it, which is an example.",
]


@pytest.mark.parametrize("text", POSITIVE)
def test_found(text):
    assert find_secrets(text), text


@pytest.mark.parametrize("text", NEGATIVE)
def test_look_alikes_pass(text):
    assert not find_secrets(text), text


def test_a_documented_example_beside_a_real_secret():
    text = "The docs use `password: changeme` as the example; mine is Wren#Halt52."
    assert find_secrets(text)
    assert "Wren#Halt52" not in redact_secrets(text)[0]
    assert "changeme" in redact_secrets(text)[0]


# Where rules meet: an answered, keyed, mixed-script or chosen value inside a change said
# for later, a quotation, someone else's account, or beside an ordinary sentence is refused
# (a credential is refused before any time or subject rule) and redacted; the ordinary
# sentence alone is stored.
_NOW = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)
_VALUES = st.from_regex(r"[A-Z][a-z]{3,6}[#_!][a-z]{2,4}[1-9][0-9]", fullmatch=True)
_CODES = st.from_regex(r"[1-9][0-9]{3,5}", fullmatch=True)
_FRAMES = st.sampled_from(
    [
        "From next month, {s}",
        "My neighbour wrote to me: \u201c{s}\u201d",
        "下周起，{s}",
        "We repainted the fence on Sunday. {s}",
        "{s} The kids loved the museum.",
    ]
)
_TELLINGS = st.sampled_from(
    [
        "Q: the password for Gran's tablet?\nA: {v}",
        "her garage: {c} then the star key.",
        "For my brother's gaming account he went with {v}.",
        "카드 보안코드는 {k}이에요.",
        "the keypad is {c}.",
    ]
)


@hsettings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(value=_VALUES, code=_CODES, frame=_FRAMES, telling=_TELLINGS)
def test_a_secret_in_another_rules_frame_is_refused(value, code, frame, telling):
    text = frame.format(s=telling.format(v=value, c=code, k=code[:3]))
    decision = decide_user_statement(text, now=_NOW, learned_detectors=True)
    assert (decision.operation, decision.reason_code) == (
        Operation.REJECT,
        ReasonCode.SECRET_DETECTED,
    ), text
    told = value if "{v}" in telling else code[:3] if "{k}" in telling else code
    assert told not in redact_secrets(text)[0], text


@pytest.mark.parametrize(
    "text",
    ["We repainted the fence on Sunday.", "下周起，我每天早上跑步。", "The kids loved the museum."],
)
def test_the_ordinary_sentences_alone_are_stored(text):
    assert not find_secrets(text)
