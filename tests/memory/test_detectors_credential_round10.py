"""Round 10 of issue 32: a code told in halves, a security question answered with "it's" or
named in Japanese or Korean, a made value after a Japanese or Korean description ("…ときの
やつ、X", "…쓰는 거 X"). Positives are written here, not copied from a probe; each negative
is an ordinary look-alike the mechanism must let through. Probe 10's halves are floors."""

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

POSITIVE = [
    # a code told in halves
    "The padlock code: first two digits are 58, the last two digits are 13.",
    "Alarm code: the first part is 204 and the second half was 77.",
    "保险柜密码前半段是 418，后半段是 27。",
    # a security question answered with "it's"
    "When the airline asks for my first car, it's Corsica.",
    # named as such in Japanese or Korean
    "セキュリティ質問の答えは「すいか」です。",
    "본인 확인 질문 답은 호랑이야.",
    # a made value after a description
    "学校のポータルに入るときのもの、Yuki_sora58 だよ。",
    "집 와이파이 연결할 때 쓰는 거 Baram#5512 야.",
    # a value read aloud (memory/detectors/spoken_values.py)
    "The alarm PIN, over the phone: Three Niner Zero Six.",
    "wifi password, read out: Golf, Romeo, lowercase e, one, one, dollar.",
    "The vault passphrase is lantern dash thirty seven hash.",
    # spellings: p/w for password, Korean digit syllables before a copula
    "for the printer's web page, p/w Glade.Rook.38",
    "현관 비밀번호는 구팔공삼이에요.",
    # a value after a hesitation (memory/detectors/hesitant_values.py)
    "邮箱密码嘛……我想想，对了，Qing#lan47。",
    "暗証番号じゃなくてパスワードの方は、たしか Hoshi!kumo8 だよ。",
    # a contraction for "is" after a noun of access; a security word or memorable information
    "Back door's 6204, and the alarm's 1185.",
    "The building society's security word is kingfisher.",
    "Memorable information for the pension portal: Wrenfield.",
]
NEGATIVE = [
    "The first half of the match was 45 minutes and the rest was stoppage time.",
    "The first two digits are the area code, the rest is the line.",
    "前半场是 2 比 1，后半场没进球。",
    "If the bank asks what my childhood best friend was called, I'll just phone them.",
    "秘密の質問を設定してくださいと言われた。",
    "보안 질문 설정하라고 해서 나중에 하기로 했어.",
    "駅に行くときのやつ、まだ持ってる？",
    "어제 산 거 진짜 좋아.",
    "The code was reviewed by Victor, Mike and Oscar in November.",
    "Use a capital letter, a number and a symbol in your password.",
    "My code review is at two, then one at four, then lunch.",
    "The p/w field on the form was left empty.",
    "パスワードを忘れたので、iPhone15Pro でリセットした。",
    "密码太难记了，我打算换成生日加名字。",
    "The gate's 1973 ironwork was restored last spring.",
    "The safe's 1200 pounds, so we need four people to move it.",
    "Security information about the update is on page 4.",
    "사과가 일이삼사예요? 가격표가 이상해요.",
    "Papa, Lima and Quebec are in the spelling alphabet; the password rules are elsewhere.",
]


@pytest.mark.parametrize("text", POSITIVE)
def test_found(text):
    assert find_secrets(text), text


@pytest.mark.parametrize("text", NEGATIVE)
def test_look_alikes_pass(text):
    assert not find_secrets(text), text


# --- probe 10 (tests/data/detector_probe10_credential_*.jsonl), rules alone ----------------

# Positives refused by the rules alone, and store-labelled sentences refused (measured;
# main before round 10: tuning 41/46 with 5/30, reporting 36/46 with 3/30).
_FLOORS = {"tune": (45, 1), "report": (37, 3)}


@pytest.mark.parametrize("name", sorted(_FLOORS))
def test_probe10_floors_with_the_rules_alone(name):
    caught, wrong = caught_and_wrong(f"detector_probe10_credential_{name}", find_secrets)
    floor, ceiling = _FLOORS[name]
    assert caught >= floor and wrong <= ceiling, (name, caught, wrong)


# Where rules meet: someone else's secret or a household one, told in halves or after a
# description, inside a change said for later or a quotation, is refused, never dated or
# held; a placeholder in the same frames is stored.
_NOW = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)
_VALUES = st.from_regex(r"[A-Z][a-z]{3,6}[#!_][a-z]{2,4}[1-9][0-9]", fullmatch=True)
_HALVES = st.tuples(
    st.from_regex(r"[1-9][0-9]", fullmatch=True), st.from_regex(r"[1-9][0-9]", fullmatch=True)
)
_FRAMES = st.sampled_from(
    [
        "From next Monday on, {s}",
        "My brother told me: \u201c{s}\u201d",
        "下个月开始，{s}",
        "{s} Mum wanted it written down.",
    ]
)
_TELLINGS = st.sampled_from(
    [
        "the gate code: the first half is {a}, the rest is {b}.",
        "家里保险柜密码前两位是{a}，后两位是{b}。",
        "for my dad's mail, it's {v}.",
        "共有PCに入るときのやつ、{v} ね。",
    ]
)


@hsettings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(value=_VALUES, halves=_HALVES, frame=_FRAMES, telling=_TELLINGS)
def test_a_secret_in_another_rules_frame_is_refused(value, halves, frame, telling):
    text = frame.format(s=telling.format(v=value, a=halves[0], b=halves[1]))
    decision = decide_user_statement(text, now=_NOW, learned_detectors=True)
    assert (decision.operation, decision.reason_code) == (
        Operation.REJECT,
        ReasonCode.SECRET_DETECTED,
    ), text
    if "{v}" in telling:
        assert value not in redact_secrets(text)[0], text


@pytest.mark.parametrize("slot", ["<your-password>", "xxxxxxxx", "${GATE_CODE}"])
def test_a_placeholder_in_those_frames_is_stored(slot):
    for frame in ("From next Monday on, the password is {s}.", "下个月开始，密码是 {s}。"):
        assert not find_secrets(frame.format(s=slot)), frame
