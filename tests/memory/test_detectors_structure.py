"""Secrets and special categories recognised by structure (memory/detectors/labelled.py,
memory/detectors/special_forms.py), each on text written for this test (not from the
held-out set): what each rule must catch, and the ordinary text beside it that it must let
through. A property: a labelled secret inside ordinary text of either language is found; a
date, a price, an order number or a shop's phone number in the same places never is."""

from __future__ import annotations

import hashlib
from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory.content_rules import find_secrets
from memory.detectors.labelled import bip39_checksum_valid, bip39_spans
from memory.detectors.special_categories import find_special_categories
from tests.security.ordinary_zh import ORDINARY_ZH

# --- BIP-39 -----------------------------------------------------------------------------


def test_the_word_list_is_the_standard_one():
    data = resources.files("memory.detectors").joinpath("data/bip39_english.txt").read_bytes()
    assert hashlib.sha256(data).hexdigest().startswith("2f5eed53a4727b4b")
    assert len(data.split()) == 2048


def test_the_checksum_is_the_standards():
    # The standard's own test vectors (entropy 0x00…, 0x7f…).
    assert bip39_checksum_valid(["abandon"] * 11 + ["about"])
    assert bip39_checksum_valid(
        "legal winner thank year wave sausage worth useful legal winner thank yellow".split()
    )
    assert not bip39_checksum_valid(["abandon"] * 12)


@pytest.mark.parametrize(
    "text",
    [
        "for the hardware wallet, in order, lava oyster decade ribbon vessel hurdle "
        "crystal orphan napkin meadow tenant bronze",
        "1) Lava 2) Oyster 3) Decade 4) Ribbon 5) Vessel 6) Hurdle 7) Crystal 8) Orphan "
        "9) Napkin 10) Meadow 11) Tenant 12) Bronze",
        "助记词：飞 温 胶 汉 股 朗 涨 月 黄 兵 卷 抽",
        "钱包的种子词是：飞温胶汉股朗涨月黄兵卷抽",
    ],
)
def test_a_recovery_phrase_is_refused_whatever_its_lead_in(text):
    assert find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        # Eleven list words, and prose (which always has a function word).
        "lava oyster decade ribbon vessel hurdle crystal orphan napkin meadow tenant",
        "We took the ferry across the bay and watched the sunset over the harbor with friends.",
        "这本书讲区块链钱包和助记词的原理，写得很清楚。",
    ],
)
def test_word_runs_that_are_not_a_phrase_pass(text):
    assert not bip39_spans(text)
    assert not find_secrets(text)


# --- labelled values and access verbs ----------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "车库卷帘门的撤防码 7720，别外传",
        "储物柜的开锁数字是 3196",
        "公寓門禁碼：8842",
        "金庫の暗証番号は 5521 です",
        "사무실 도어락 번호는 6604 이에요",
        "The shed padlock opens with 4417.",
        "It takes 8821 to switch the alarm off.",
        "Call the voicemail and enter 6093 when it asks.",
        "进门前先输入 5906 解锁",
        "The side door opens on 7731 after ten pm.",
        "The garage door combination is 4-4-0-2",
        "ロッカーの番号は 3391 です",
        "钱包的二十四个词：剧 苗 揭 恒 赤 湿 瓶 扑 胶 闲 晚 侧 飞 温 胶 汉 股 朗 涨 月 黄 兵 卷 抽",
        "The answer to my old security question is Marmalade.",
        "My banking app password is  t u l i p 7 7 !",
        "保险柜密码：伍柒叁贰",
        "The laptop recovery key is 110055-237864-591822-005555-704176-348348-129987-660033",
    ],
)
def test_labelled_and_used_secrets_are_refused(text):
    assert find_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "股票代码 600519，今天涨了",
        "这双鞋尺码是 43 码",
        "订单号 20240611887 已发货",
        "我的工号是 70215",
        "奶茶店电话 021-6458 3392",
        "价格是 2999 元",
        "会员号码是 66120934，积分快过期了",
        "The shop opens with 20% off on Mondays.",
        "The museum opens at 0930 and closes at 1700.",
        "Enter 2026 in the year field.",
        "It takes 1500 to rent the van for a week.",
        "我的密码学老师很严格",
    ],
)
def test_numbers_that_are_not_secrets_pass(text):
    assert not find_secrets(text)


_LABELS = [
    "撤防码 {v}",
    "保险柜密码是 {v}",
    "门禁的开门码：{v}",
    "the alarm disarms with {v}",
    "the locker opens with {v}",
    "my door PIN is {v}",
]
_PLAIN = [
    "订单号 {v} 已经发货",
    "价格是 {v} 元",
    "会议定在 {d}",
    "the invoice {v} was paid on {d}",
    "it cost ${v} in the end",
    "call the bakery on (415) 555-{v4}",
]


@settings(max_examples=60, deadline=None)
@given(
    before=st.sampled_from(ORDINARY_ZH + ["We had dinner at seven.", "I moved house in May."]),
    after=st.sampled_from(ORDINARY_ZH + ["See you on Friday.", "Thanks!"]),
    label=st.sampled_from(_LABELS),
    value=st.integers(min_value=1000, max_value=99999999),
)
def test_a_labelled_secret_inside_ordinary_text_is_refused(before, after, label, value):
    text = f"{before} {label.format(v=value)}。{after}"
    assert find_secrets(text)


@settings(max_examples=60, deadline=None)
@given(
    sentence=st.sampled_from(ORDINARY_ZH + ["We had dinner at seven.", "I moved house in May."]),
    plain=st.sampled_from(_PLAIN),
    value=st.integers(min_value=10, max_value=99999),
    date=st.dates().map(lambda d: d.isoformat()),
)
def test_a_date_price_or_order_number_is_never_a_secret(sentence, plain, value, date):
    filled = plain.format(v=value, d=date, v4=f"{value % 10000:04d}")
    assert not find_secrets(f"{sentence} {filled}")


# --- special categories by what the user does ---------------------------------------------


@pytest.mark.parametrize(
    "text, category",
    [
        ("I take 20 mg of Vexorin twice a day.", "health"),
        ("I inject Xelbrava every Friday.", "health"),
        ("The surgeon put a stent in my left artery.", "health"),
        ("Cycle three of chemo starts Monday for me.", "health"),
        ("I'm 31 weeks pregnant with our first.", "health"),
        ("My due date moved to May.", "health"),
        ("My PSA came back higher this time.", "health"),
        ("I carry a variant of the HFE gene.", "health"),
        ("My kidneys are failing, the doctor says.", "health"),
        ("I've been sober for nine months.", "health"),
        ("I need my service dog on the plane.", "health"),
        ("我左膝滑膜炎一直没好", "health"),
        ("我上个月装了起搏器", "health"),
        ("我怀孕七个月了", "health"),
        ("我的血糖一直偏高", "health"),
        ("I observe Shabbat with my family.", "religion"),
        ("I'm fasting for Ramadan this month.", "religion"),
        ("I say the rosary on the bus.", "religion"),
        ("I wear a kippah at work.", "religion"),
        ("斋月期间我只在日落后吃饭", "religion"),
        ("I voted Green in the last two elections.", "political"),
        ("I pay my union dues to the local.", "trade_union"),
        ("I'm with the teachers' union.", "trade_union"),
        ("The gym enrolled my fingerprints last week.", "biometric"),
        ("我每天刷虹膜上班", "biometric"),
        ("I identify as pansexual.", "sexual_orientation"),
        ("I'm halfway through dialysis training.", "health"),
        ("I'm a carrier of the Tay-Sachs trait.", "health"),
        ("I've lost half my hearing since the accident.", "health"),
        ("我颈椎间盘突出，久坐就疼", "health"),
        ("我每天晚上都要打一针", "health"),
        ("I break my fast at sunset with dates.", "religion"),
        ("我是农工党党员", "political"),
        ("As a lesbian, I get asked that a lot.", "sexual_orientation"),
    ],
)
def test_the_users_practices_and_treatments_are_special(text, category):
    assert category in find_special_categories(text)


@pytest.mark.parametrize(
    "text",
    [
        "My grandad takes 5 mg of it daily.",
        "The vet put a stent in the dog's airway.",
        "My aunt is 31 weeks pregnant.",
        "I'm expecting a parcel on Tuesday.",
        "I'm practicing for the recital.",
        "I inject humor into every talk.",
        "I'm doing SQL injection testing at work.",
        "I keep the mass of the payload low.",
        "I voted Monday before work.",
        "I'm with the union guys on this one.",
        "My heart is full today.",
        "I'm fasting for Monday's blood test.",
        "我朋友在做试管婴儿。",
        "我同事下周开始化疗。",
        "我昨天看了一篇关于化疗的文章。",
        "我嗓子发炎了，说话有点疼。",
        "我觉得这个炎热的夏天太长了。",
        "这部纪录片讲的是导盲犬的训练。",
    ],
)
def test_other_people_and_lookalikes_are_not(text):
    assert not find_special_categories(text)


def test_ordinary_chinese_conversation_has_no_special_category():
    assert [t for t in ORDINARY_ZH if find_special_categories(t)] == []


def test_keys_with_a_checksum_or_an_alphabet_need_no_label():
    key = "110055237864591822005555704176348348129987660033"
    assert find_secrets(f"saved {key} in the notes app")
    assert find_secrets("new token YXROY6N3BYO4K7CHXJIAE2F7VGDFAJRX for later")
    # One block not a multiple of 11; a base32-looking run without digits.
    assert not find_secrets("ref 110055237864591822005555704176348348129987660034 closed")
    assert not find_secrets("ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEF")
