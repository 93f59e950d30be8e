"""Round 12 of issue 32: codes read in kana, keyed on a Japanese door panel or told with パス;
a value handed over for getting in or as a reply, with no credential word; a telling verb
between a ko/ja/zh label and its value; a credential noun that modifies another noun.
Probe 12's halves (tests/data/detector_probe12_credential_*.jsonl) were written and
committed before any change; they are floors here."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from core.codes import Operation, ReasonCode
from memory import content_rules
from memory.detectors.secrets import find_secrets, redact_secrets
from tests.helpers.memories import COMPOSED_FRAMES, decide_user_statement
from tests.helpers.probes import caught_and_wrong

# Positives refused by the rules alone, and store-labelled rows refused (measured; main
# before round 12: tuning 33/42 with 1/28, reporting 34/42 with 1/28; after: 42/42 with
# 0/28, 38/42 with 1/28 — "passkeys are meant to replace passwords", refused on main too).
_FLOORS = {"tune": (42, 0), "report": (38, 1)}


@pytest.mark.parametrize("name", sorted(_FLOORS))
def test_probe12_floors_with_the_rules_alone(name):
    caught, wrong = caught_and_wrong(f"detector_probe12_credential_{name}", find_secrets)
    floor, ceiling = _FLOORS[name]
    assert caught >= floor and wrong <= ceiling, (name, caught, wrong)


# Written here, not copied from a probe; each negative is a look-alike the rule must pass.
POSITIVE = [
    # digits read in kana after a code noun
    "ロッカーの暗証番号は、はち・さん・なな・いち",
    "パスコードはゼロ、キュウ、ニ、ロク、ハチ、イチです",
    "南京錠の番号 きゅうはちろくなな",
    # a code keyed on a door panel
    "テンキーで 5820 を押すと玄関が開く",
    "金庫は 30417 を入力してから取っ手を回す",
    # パス for パスワード before a made value
    "インスタのパスは kumo_ame77 だよ",
    # getting in, with no credential word
    "To get into my Kindle, it's Larch42fen.",
    "what lets us into the bike store: 5-0-2-8",
    # a reply to a request
    "You wanted the one for the allotment shed — 61-22-47",
    "you asked about the locker, 8 1 3 9",
    # a telling verb between the label and the value
    "와이파이 비밀번호 알려줄게: bada77sky",
    "Wi-Fi的密码告诉你：lan_hai2031",
    # single letters and digits spelled one by one; a plain "I" among them is a letter
    "the login for the kiosk is K, I, W, I, 5, 0",
    "pass is D as in delta, A, W, N, 6, 2",
    # a Chinese phrase whose run begins inside its lead-in
    "备用的恢复短语是 松树 溪水 晚霞 灯塔 纸船 麦田 石桥 雾气 果园 渡口 铃铛 炉火",
    # a vendor key format
    "key-0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d",
]
NEGATIVE = [
    "電話番号は ぜろ・きゅう・ぜろ・いち・に・さん",
    "いちにさんしで始めよう",
    "部屋番号は ろく・ぜろ・に です",
    "オートロックで 1203 を押して呼び出してください",
    "コンパスは N30E を指していた",
    "バスは 7:45 発です",
    "To get into the museum it's 12 euros.",
    "To get into my old school, it's bus 147 then a walk.",
    "You asked when we met — 12-14-26.",
    "you asked about the score, 3-1.",
    "you asked which year — 1998.",
    "What gets me into work on time: coffee.",
    "The password manager we use is Bitwarden2.",
    "Our password policy is 12chars minimum.",
    "비밀번호 알려줄게, 나중에.",
    "The password quiz had options A, B, C, D and 2 points each.",
    "I got grades A, B, B, C and 1 distinction; the PIN thing was a joke.",
    "Password tips: never use A, B, C then 1, 2, 3.",
    "恢复短语是什么意思？我不太懂 区块链 钱包 私钥 公钥 地址 交易 矿工 区块 哈希 节点 共识 分叉",
]


@pytest.mark.parametrize("text", POSITIVE)
def test_found(text):
    assert find_secrets(text), text


@pytest.mark.parametrize("text", NEGATIVE)
def test_look_alikes_pass(text):
    assert not find_secrets(text), text


def test_an_eighteen_digit_value_no_id_table_knows_does_not_fail_the_write():
    # python-stdnum's cn.ric raised KeyError on region 233442 (no county in its table):
    # a BitLocker-style run or an order number must be read, not crash the write path.
    assert content_rules.find_sensitive_personal_data("订单 233442683309108746") is not None
    assert find_secrets("恢复密钥：233442-683309-108746-284625-469249-034804-052217-592053")


# Where rules meet (the documented precedence: a credential is refused before any time,
# subject, provenance or special-category rule): a round-12 telling inside a change said
# for later, tool output, a Chinese/English mix or beside an ordinary sentence is refused
# and redacted; the ordinary sentences alone are stored.
_NOW = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)
_KANA = st.lists(
    st.sampled_from(["いち", "さん", "なな", "はち", "きゅう", "ゼロ"]), min_size=4, max_size=6
)
_VALUES = st.from_regex(r"[a-z]{4,6}[_.][a-z]{2,4}[1-9][0-9]", fullmatch=True)
_CODES = st.from_regex(r"[1-9][0-9]{3,5}", fullmatch=True)
_FRAMES = st.sampled_from(COMPOSED_FRAMES)
_TELLINGS = st.sampled_from(
    [
        "金庫の暗証番号は {k}",
        "オートロックは {c} を押す",
        "ネトフリのパスは {v}",
        "if you need to get into my laptop, it's {v}",
        "you asked for the shed one \u2014 {p}",
        "비밀번호 알려줄게: {v}",
    ]
)


@hsettings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    kana=_KANA,
    value=_VALUES,
    code=_CODES,
    frame=_FRAMES,
    telling=_TELLINGS,
    roles=st.sampled_from([("user",), ("tool",), ("user", "tool")]),
)
def test_a_round12_secret_in_another_rules_frame_is_refused(
    kana, value, code, frame, telling, roles
):
    told = {"k": "・".join(kana), "v": value, "c": code, "p": "-".join(code)}
    text = frame.format(s=telling.format(**told))
    decision = decide_user_statement(text, now=_NOW, learned_detectors=True, roles=roles)
    assert (decision.operation, decision.reason_code) == (
        Operation.REJECT,
        ReasonCode.SECRET_DETECTED,
    ), text
    key = next(k for k in "kvcp" if "{" + k + "}" in telling)
    assert told[key] not in redact_secrets(text)[0], text


@pytest.mark.parametrize(
    "text",
    ["We had dumplings on Sunday.", "下周开始，我每天学日语。", "顺便说一下，我在学日语。"],
)
def test_the_ordinary_sentences_alone_are_stored(text):
    assert not find_secrets(text)
    decision = decide_user_statement(text, now=_NOW, learned_detectors=False)
    assert decision.reason_code != ReasonCode.SECRET_DETECTED
