"""Round 13 of issue 32: codes given in a frame that says what they are for (a code *to* a
thing, chosen, handed over, shown now, set on a lock, taken as the key, corrected, named by
what it guards, the value then what it does), dial turns counted or chained by "then" and
Roman-numeral combinations, letters by their katakana names, a chat speaker's or an arrow's
answer, digits apart by ellipses, pgpass lines and Redis/SMB command lines.
Probe 13's halves (tests/data/detector_probe13_credential_*.jsonl) were written and committed
before any change; they are floors here."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from core.codes import Operation, ReasonCode
from memory.detectors.cred_frames import frame_spans
from memory.detectors.secrets import find_secrets, looks_like_secret, redact_secrets
from tests.helpers.memories import COMPOSED_FRAMES, decide_user_statement
from tests.helpers.probes import caught_and_wrong

# Positives refused by the rules alone, and store-labelled rows refused (measured; main
# before round 13: tuning 72/88 with 0/47, reporting 65/88 with 1/47; after: 88/88 with 0/47,
# 69/88 with 1/47).
_FLOORS = {"tune": (88, 0), "report": (69, 1)}


@pytest.mark.parametrize("name", sorted(_FLOORS))
def test_probe13_floors_with_the_rules_alone(name):
    caught, wrong = caught_and_wrong(f"detector_probe13_credential_{name}", find_secrets)
    floor, ceiling = _FLOORS[name]
    assert caught >= floor and wrong <= ceiling, (name, caught, wrong)


# Written here, not copied from a probe; each negative is a look-alike the rule must pass.
POSITIVE = [
    # a code to a thing, chosen, handed over, shown now
    "the code to our allotment gate is 6-1-0-3",
    "the combination to Dad's toolbox: 40-12-7",
    "the PIN we picked was 3318",
    "I texted my brother the code — 7730",
    "the Battle.net code right now is 4K9QZ2",
    # a lock set to a value; a value taken as the key; a code corrected
    "I changed the padlock combination to 4-1-9-2",
    "the guest network uses 'harbour771' as the key",
    "no, not 0000 for the shed, it's 6047",
    # named by what it guards; the value, then what it does
    "the override code on the thermostat is 2291",
    "my duress PIN for the alarm: 5150",
    "8264 is what I type in at the side door",
    "3907 to disarm the alarm",
    "小区的出入码 7731，周末有效",
    # dial turns and Roman numerals
    "gym locker: turn right to 22, then 5, then 31",
    "保险箱 顺时针两圈到 18，逆时针一圈到 40，顺时针到 7",
    "the safe combination is XIV - III - XXII",
    # katakana letter names; a chat speaker's answer; an arrow; ellipses
    "暗証番号はシー・エフ・セブン・ファイブ・ナイン",
    "Ana: what's the wifi password?\nLeo: lemonTree44",
    "门锁密码多少？→ 820461",
    "the gate code is 2… 0… 6… 1",
    # a value before 就是/也是 and the noun; a lock, who set it, the value; pinyin with no verb
    "她的生日 0825 也是密码",
    "储物柜我设的 604918",
    "取款机按的那串 582047",
    "工资卡 mi ma 620817",
    # formats
    "backup.example.net:5432:crm:svc_user:Xw82kLmq9",
    "valkey-cli -h 10.0.0.8 -a Rp8kQ2zLx info",
]
NEGATIVE = [
    "the code to the museum's audio guide is on the ticket",
    "the discount code we picked was SAVE2026",
    "I sent her the tracking code, 1Z999AA1012",
    "the key to the house is under the mat",
    "I set my alarm to 0630",
    "changed the thermostat to 2150",
    "the number to my office is 0207 946 0000",
    "The order is not 4412, it's 4413, check the account page",
    "the year was not 2019, it was 2020",
    "parental leave code is 4410 in payroll",
    "you need to pay 2000 to unlock the premium tier",
    "2025 to unlock the achievement",
    "Covid19 is what opens the conversation these days",
    "Press 5 to open the menu",
    "my Screen Time is 4 hours a day",
    "The emergency code is 999",
    "Safe travels - I - II - III chapters",
    "the lock on chapter II - III - IV",
    "turn left to 5 then 6 then 7 at the lights, the lock shop is there",
    "好きなバンドはワン・ツー・スリー・フォーって曲が有名",
    "パスワードの話だけど、ワン・ツー・スリー・フォーみたいなのはダメ",
    "Me: what time is the dentist?\nMom: 1430",
    "Q: how many people are coming?\nAnn: 14",
    "the alarm went off at 3... then 4... then 5",
    "the meeting ran 10:30:45:12:99 oddly",
    "localhost:8080:api:v2:health",
    "redis-cli -a $REDIS_PASSWORD ping",
    "通行证办好了，编号在卡背面",
    "ATM 按的金额 3000",
    "保险柜设的 1500 元预算",
    "门禁设的是 2024 年新系统",
    "I met Mima 2019 in Paris",
    "I told him the code, but he forgot",
    "I set the timer to 1500",
    "iPhone 就是密码最安全的手机",
]


@pytest.mark.parametrize("text", POSITIVE)
def test_found(text):
    assert find_secrets(text), text


@pytest.mark.parametrize("text", NEGATIVE)
def test_look_alikes_pass(text):
    assert not find_secrets(text), text


def test_a_corrected_amount_is_not_a_corrected_code():
    # (the text is refused by an older rule for "gate" beside digits; this frame adds nothing)
    assert frame_spans("not 1500, it's 1600 for the gate fee", looks_like_secret) == []
    assert frame_spans("not 1234 for the gate, it's 8812", looks_like_secret)


# Where rules meet (a credential is refused before any time, subject, provenance or
# special-category rule): a round-13 telling inside a change said for later, tool output, a
# Chinese/English mix or beside an ordinary sentence is refused and redacted.
_NOW = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)
_CODES = st.from_regex(r"[1-9][0-9]{3,5}", fullmatch=True).filter(
    lambda c: not (len(c) == 4 and c[:2] in ("19", "20"))
)
_VALUES = st.from_regex(r"[a-z]{4,6}[1-9][0-9][a-z]{0,2}", fullmatch=True)
_FRAMES = st.sampled_from(COMPOSED_FRAMES)
_TELLINGS = st.sampled_from(
    [
        "the code to the bike shed is {c}",
        "the PIN I set: {c}",
        "I gave the cleaner the alarm code, {c}, for Thursday",
        "set the hotel safe to {c}",
        "the cabin wifi has '{v}' as the key",
        "the parental controls code is {c}",
        "{c} is what I punch in at the gate",
        "临时通行码 {c}",
    ]
)


@hsettings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    code=_CODES,
    value=_VALUES,
    frame=_FRAMES,
    telling=_TELLINGS,
    roles=st.sampled_from([("user",), ("tool",), ("user", "tool")]),
)
def test_a_round13_secret_in_another_rules_frame_is_refused(code, value, frame, telling, roles):
    told = {"c": code, "v": value}
    text = frame.format(s=telling.format(**told))
    decision = decide_user_statement(text, now=_NOW, learned_detectors=True, roles=roles)
    assert (decision.operation, decision.reason_code) == (
        Operation.REJECT,
        ReasonCode.SECRET_DETECTED,
    ), text
    key = "c" if "{c}" in telling else "v"
    assert told[key] not in redact_secrets(text)[0], text


@pytest.mark.parametrize(
    "text",
    ["We had dumplings on Sunday.", "下周开始，我每天学日语。", "The code review is at 3."],
)
def test_the_ordinary_sentences_alone_are_stored(text):
    assert not find_secrets(text)
    decision = decide_user_statement(text, now=_NOW, learned_detectors=False)
    assert decision.reason_code != ReasonCode.SECRET_DETECTED
