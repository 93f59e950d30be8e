"""Round 9 of issue 32: secrets told without their label
(memory/detectors/unlabelled_values.py): a value of password shape given as "it", a bank
or card named before a bare PIN, a dial told as turns, a combination in number words, a
session cookie, a pattern lock by its grid; and two precision checks (a list is no recovery
phrase, a public key or certificate is no secret). Positives are written here, not copied
from a probe; each negative is an ordinary look-alike the mechanism must let through."""

from __future__ import annotations

import base64
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from core.codes import Operation, ReasonCode
from memory.detectors.secrets import find_secrets, redact_secrets
from memory.detectors.unlabelled_values import made_token, public_key_token
from tests.helpers.memories import decide_user_statement

POSITIVE = [
    # a value given as "it"
    "Right, so it's Parsnip_wolf31 — please don't tell my brother.",
    "Mine is still gh0st!Lantern, I never changed it.",
    "For the new router I settled on Cobalt#reed19.",
    "I kept losing it, so here: Tamber9!fjord",
    "我平时用的那个是 lvshui_R7k，你别说出去。",
    "孩子的平板我帮他登录了，用的是 xiaoxing#2210。",
    "いつものやつは Kumo_ame77 だよ。",
    "내가 고른 건 Dalbit#903 이야.",
    "Kept mistyping it, so I'm leaving it here — Ochre7-Bramble",
    "it's k4Tz!w9 — yes, really.",
    "The work one is Fenn#lark60, don't judge.",
    "q9Lp!vr2 — don't laugh, that's the tablet.",
    "For the shared drive we use Moss$heron41.",
    # a credential noun cut short
    "pass for the NAS: Hollin42",
    "邮箱 lihua2020 密 Qingshan77",
    # a bank, a card or a payment app named, then a bare PIN
    "记着：云闪付 604218",
    "Pemberton Credit Union card: 4417, keep it to yourself.",
    "Ashgrove Bank — 902615.",
    "备忘一下：工行 508127。",
    "中行那张储蓄卡，六位 336941。",
    "ゆうちょのカード、4けたは 7302。",
    "신한은행 카드 비밀 5518 이에요.",
    # a dial told as turns, a combination in number words
    "Locker 12: right 27, left 4, right 19.",
    "The briefcase dial goes left twenty-two, right eight, left thirty.",
    "The old safe: clockwise 61, back to 7, then forward 44.",
    "柜子的锁：左转 15，右转 38，再左转 2。",
    "行李箱往左拨到三十一，往右到九，最后到十五。",
    "The padlock combination is sixty-one, twelve, forty.",
    "fifty-three, six, twenty-eight, for the shed padlock.",
    # a value given by arithmetic on a personal fact
    "For the gate keypad I use the year my daughter was born minus 3.",
    "我家门禁密码是我生日的年份加上 17。",
    # a word list of another language's seed list, alone on its line; kana words
    "castello pigiama ruggito vampata gomma lattuga nebbia ossigeno salvia tundra zefiro àncora",
    "控え：いきおい うちがわ えいぞう おおや かいよう きおく くうき けいかく こうえん さいしょ しあい すいえい",
    # a session cookie, a pattern lock
    "Pasted from the browser: PHPSESSID=9f2kq7vx3m1lz8rt6wyb",
    "session_id: a81kzq2m9xv7rt3lp5wc0n",
    "My phone's pattern is a U from the top left corner.",
    "手机的手势是从左上开始画一个 Z。",
]

NEGATIVE = [
    # identifiers and names of made shape
    "My username is Parsnip_wolf31 on every forum.",
    "It's iPhone15Pro, the one with the better camera.",
    "I went with Python3.12 for the new project.",
    "我的微信号是 lvshui_R7k，加我吧。",
    "Here: https://docs.example.org/guide_v2 has the steps.",
    "It's Monday — don't laugh, I forgot again.",
    "It's x86_64, not ARM.",
    "Vorn_Lark88, add me tonight.",
    "I use node18-alpine for the build.",
    "My season pass is Zone1and2, valid till June.",
    "我们关系很亲密 2019 年就认识了。",
    # banks, cards and numbers that are not PINs
    "The Visa ending in 4417 is the travel card.",
    "Ashgrove Bank closed at 1630 today.",
    "工行客服电话 95588，一直占线。",
    "中行的网点在 3 楼，排号 0415。",
    "Bank holiday: 2026 has eight of them.",
    "信用卡这个月还了 3200 元。",
    # turns and counts that are no dial
    "Turn left at 27th, right on 4th, then right at 19th.",
    "Walk left 50 metres, right 20 metres, then left 10 metres.",
    "Knit 27, purl 4, knit 19, repeat to the end.",
    "The kids counted twenty-two, eight, thirty and lost track.",
    "Her score was my birth year plus 5 points, she joked.",
    # cookies and patterns that are not secrets
    "session_timeout: 1800",
    "The knitting pattern starts at the top left of the chart.",
    # lists and public material
    "Packing list: socks shirts charger passport towel sunscreen sandals hat book snacks "
    "water camera",
    "购物清单：番茄 土豆 洋葱 牛肉 面条 鸡蛋 青菜 豆腐 大米 酱油 生姜 香菜",
    "-----BEGIN CERTIFICATE-----\nMIIBkTCB+wIJAKHBfpegPjMCMA0GCSqGSIb3DQEBCwUAMBExDzANBgNVBAMMBnVudXNl\n"
    "-----END CERTIFICATE-----",
    "Deploy key (public): ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPq7Xk2mZr9Lw4Vn8Tb3Hc6Yd1Jf0Ge5Qs "
    "ci@build",
]


@pytest.mark.parametrize("text", POSITIVE)
def test_a_secret_told_without_its_label_is_found(text):
    assert find_secrets(text), text


@pytest.mark.parametrize("text", NEGATIVE)
def test_look_alikes_pass(text):
    assert not find_secrets(text), text


def test_a_made_token_is_not_a_named_one():
    for token in ("wq7Zu!mar3", "Ferrous_gull82", "pengyu7Lk!", "quXi_2291ab"):
        assert made_token(token), token
    for token in ("iPhone15Pro", "MacBookAir2", "Python3.12", "COVID-19", "x86_64", "a@b.org"):
        assert not made_token(token), token


def test_public_keys_and_certificates_are_told_from_private_ones():
    spki = bytes.fromhex("30820122300d06092a864886f70d0101010500") + b"x" * 12
    cert = bytes.fromhex("30820122308201a0a003020102") + b"x" * 12
    pkcs8 = bytes.fromhex("308204bd020100300d06092a864886f70d010101") + b"x" * 12
    ssh_pub = b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00 " + b"x" * 12
    for raw in (spki, cert, ssh_pub):
        assert public_key_token("", 0, base64.b64encode(raw).decode())
    assert not public_key_token("", 0, base64.b64encode(pkcs8).decode())
    armoured = "-----BEGIN PUBLIC KEY-----\nQUJD"
    assert public_key_token(armoured, armoured.index("QUJD"), "QUJD")


def test_the_value_is_what_is_redacted():
    text = "Pemberton Credit Union card: 4417, keep it to yourself."
    redacted, count = redact_secrets(text)
    assert "4417" not in redacted and "Pemberton" in redacted and count == 1


# Where rules meet: a secret told without its label inside a change said for later, beside
# a special category or a passing state is refused, never held or dated.
_NOW = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)
_VALUES = st.from_regex(r"[a-z]{4,7}[_#!][A-Z][a-z]{2,5}[1-9][0-9]", fullmatch=True)
_PINS = st.from_regex(r"[1-9][0-9]{3}", fullmatch=True)
_FRAMES = st.sampled_from(
    [
        "Starting next week, {s}",
        "I was diagnosed with diabetes in May, and {s}",
        "从下周起，{s}",
        "我最近在做化疗。{s}",
        "{s} I'm exhausted today.",
    ]
)
_TELLINGS = st.sampled_from(
    [
        "it's {v}, don't laugh.",
        "for the laptop I went with {v}.",
        "我用的那个是 {v}。",
        "Harrowgate Savings debit: {p}.",
        "建行卡 {p}，别外传。",
    ]
)


@hsettings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(value=_VALUES, pin=_PINS, frame=_FRAMES, telling=_TELLINGS)
def test_a_secret_inside_another_rules_frame_is_refused(value, pin, frame, telling):
    text = frame.format(s=telling.format(v=value, p=pin))
    decision = decide_user_statement(text, now=_NOW, learned_detectors=True)
    assert (decision.operation, decision.reason_code) == (
        Operation.REJECT,
        ReasonCode.SECRET_DETECTED,
    ), text
    assert value not in redact_secrets(text)[0] or "{v}" not in telling
