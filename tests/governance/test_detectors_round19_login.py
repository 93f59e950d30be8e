"""Round 19 of issue 32: a login given as a pair with no secret word (``plain_values``), a
Chinese word as the whole value of 密码/口令 (``described_secrets``), a secret in Greek or
Cyrillic letters, spaced letters beside Chinese digits (``spelled_readings``), a network
named for its key and a reported lock (``cred_frames``, ``code_phrases``).
Probe 19's halves (tests/data/detector_probe19_login_*.jsonl) were written and committed
before any change; they are floors here."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from memory.detectors.secrets import find_secrets
from tests.helpers.probes import caught_and_wrong

# Positives refused by the rules alone, and store-labelled rows refused (measured; main
# before round 19: tuning 17/42 with 1/44, reporting 16/42 with 1/44; after: 42/42 with
# 0/44, 41/42 with 1/44).
_FLOORS = {"tune": (42, 0), "report": (41, 1)}


@pytest.mark.parametrize("name", sorted(_FLOORS))
def test_probe19_floors_with_the_rules_alone(name):
    caught, wrong = caught_and_wrong(f"detector_probe19_login_{name}", find_secrets)
    floor, ceiling = _FLOORS[name]
    assert caught >= floor and wrong <= ceiling, (name, caught, wrong)


# Written here, not copied from a probe; each negative is a look-alike the rule must pass.
POSITIVE = [
    "rlogin to the lab box as alice / Cedar#41",
    "log onto the Jenkins as builder, Wq9-lantern",
    "the switch's console is manager:Orchid2k",
    "mount the share with svc_sync / Polar7bear",
    "用 ops / Tide2026pass 登录监控平台",
    "那台路由器用 root 和 meadowlark 就能登",
    "wiki 账户 huanglei 口令 sunflower",
    "我的网银密码是牵牛花",
    "暗号：青蛙跳水",
    "the cabin password is Ξένια",
    "пароль для роутера: Zarya2024",
    "密码 X U E 二 五 七",
    "the guest house's wifi is Olive7Grove",
    "保安说单元门是 5 3 9 1",
    "the hotspot key is albatross",
    "ルーターのパスワードはもみじです",
    "현관 비밀번호는 호랑이예요",
    "我的密碼是：紫色企鵝",
    "登入帳號 ops / Kiwi2027x",
]
NEGATIVE = [
    "log in as an editor to approve the draft",
    "log in as admin, then reboot",
    "sign in with Apple / Google on the next screen",
    "the split is 60/40 this year",
    "copy it to /etc/nginx/sites-enabled",
    "用 Word 和 Excel 登记了一下",
    "连接线用 USB / Type-C 都行",
    "the kids are ages 7 / 9",
    "密码是多少我忘了",
    "密码是数字加字母",
    "密码是默认的那个",
    "密码是他给的",
    "wifi 密码是公开的",
    "the wifi is slow again",
    "the wifi is 5GHz only",
    "the password is space sensitive",
    "我的柜子号是 0314",
    "the wifi password is pinned in the group chat",
    "パスワードは覚えていません。",
    "パスワードは短いです",
    "비밀번호는 숫자예요",
    "비밀번호는 어려워요",
]


@pytest.mark.parametrize("text", POSITIVE)
def test_found(text):
    assert find_secrets(text), text


@pytest.mark.parametrize("text", NEGATIVE)
def test_look_alikes_pass(text):
    assert not find_secrets(text), text


_USER = st.from_regex(r"[a-z][a-z0-9_]{2,8}", fullmatch=True)
# A made secret: letters then digits (the shape ``looks_like_secret`` reads with no noun).
_SECRET = st.builds(
    lambda w, d, s: w.capitalize() + s + d,
    st.from_regex(r"[a-z]{4,8}", fullmatch=True),
    st.from_regex(r"[0-9]{2,4}", fullmatch=True),
    st.sampled_from(["", "-", "#", "!"]),
)
_LOGINS = [
    "ssh to the box as {u} / {p}",
    "log in as {u}, {p}",
    "sign in to the console with {u}:{p}",
    "the NAS is {u}:{p}",
    "用 {u} / {p} 登录",
    "用 {u} 和 {p} 登进去",
]
# A login verb and an account, then prose: what follows the separator goes on.
_PROSE = [
    "log in as {u}, then check the logs",
    "log in as {u} to change {p}",
    "sign in as {u} / staff member if asked",
    "用 {u} 登录以后再改 {p}",
]


@hsettings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(u=_USER, p=_SECRET, frame=st.sampled_from(_LOGINS))
def test_a_login_pair_is_found_whatever_the_names(u, p, frame):
    assert find_secrets(frame.format(u=u, p=p)), frame.format(u=u, p=p)


@hsettings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(u=_USER, p=st.from_regex(r"[a-z]{4,9}", fullmatch=True), frame=st.sampled_from(_PROSE))
def test_an_account_then_prose_is_no_pair(u, p, frame):
    text = frame.format(u=u, p=p)
    assert not find_secrets(text), text


# A Chinese value holding a word of a describing class is a description, whatever the noun
# (暗号 and a colon are left out: an agreed answer, or a labelled field, may be any words).
_DESCRIBERS = ["什么", "我", "他的", "八位", "数字", "默认", "一样", "生日", "全", "英文"]
_NOUNS = ["番茄", "海豚", "月亮", "青蛙", "橘子"]


@hsettings(max_examples=40, deadline=None)
@given(
    head=st.sampled_from(["密码是", "口令是", "wifi密码是", "登录密码就是"]),
    word=st.sampled_from(_DESCRIBERS),
    noun=st.sampled_from(_NOUNS),
    describer_first=st.booleans(),
)
def test_a_described_chinese_value_is_no_value(head, word, noun, describer_first):
    value = word + noun if describer_first else noun + word
    assert not find_secrets(head + value), head + value
    assert find_secrets(head + noun), head + noun
