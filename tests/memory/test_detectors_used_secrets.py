"""Round 7 of issue 32: secrets named by how they are used, delivered or agreed
(memory/detectors/used_secrets.py), and the obfuscations and word orders added beside them
in secrets/access_forms/described_secrets/formats. Positives are written here, not copied
from a probe; each negative is an ordinary look-alike the mechanism must let through."""

from __future__ import annotations

import codecs

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from memory.detectors.secrets import find_secrets, redact_secrets
from memory.detectors.used_secrets import hide_separators, rot13_reading

POSITIVE = [
    # what is keyed in
    "The word you type to get onto the boat's network is marlinspike9.",
    "What I enter at the petrol pump for my fuel card is 5 5 0 2.",
    "信用社的卡在柜员机上输的那几位是 739104。",
    "进小区单元门得输 20417 才行。",
    # a count of digits that the value has
    "The six digits for my credit union card are 882013.",
    "家里门锁的六位数是 550317。",
    "金庫の6桁は 093715 です。",
    "우리 집 현관 네 자리는 7314 이야.",
    # a delivered code handed on
    "The pharmacy app just texted 448 903, can you type it in?",
    "京东刚发来 665 120，帮我输一下。",
    # an agreed word
    "Our code word with the babysitter is lemon sherbet.",
    "我和老妈约定的暗语是“西瓜皮”。",
    # command lines
    "psql -U report -W; oh and the mysql one: mysql -u admin -pCobble_Hen4 stats",
    "DEPLOY_TOKEN=w9Lq2xV7 ./release.sh",
    "sshpass -p 'Trellis#88' ssh pi@garden.local",
    # digits read aloud with double/triple
    "The shed padlock is triple four, nine.",
    # logins as pairs, codes tied to a device, logging in with a value
    "Deezer: quill.b@post.cz / Marram-Grass-19",
    "Wifi in the studio: Larchwood5G | seagrass-loft-40",
    "It's 6631 for the garage, don't forget.",
    "9014 is what unlocks the side gate.",
    "Laptop unlock: 551903",
    "Every forum I sign into uses Periwinkle-08.",
    "锁屏口令：山高水长",
    # pass for a login, and as a field
    "The pass to my work laptop is Quarry-Lane-72.",
    "login ana.k / pass: thistle-42",
    # password in other languages, pinyin digits, repeated digits, Korean digits
    "Kennwort für das Büro: Eichhorn-55",
    "Hasło do poczty: sikorka2019",
    "我的银行卡密码是 wu liu qi ba jiu ling",
    "取款密码六个 9",
    "The ATM PIN is four sevens.",
    "현관 비밀번호는 칠삼일사야.",
    # separators between digits or characters
    "my PIN: 7⭐3⭐1⭐9",
    "口🍀令🍀是🍀5🍀5🍀0🍀2",
    # ROT13 of a sentence holding a secret
    codecs.encode("my gym locker password is 7301 and the wifi password is harbourlight9", "rot13"),
    # security questions in other wordings, and in Chinese
    "For the security question about the city I was born in I always put Dundee.",
    "密保问题“我最喜欢的运动”，我填的是羽毛球。",
    # dial turns with 到 / に, a dial in Japanese, twelve single characters spaced
    "保险柜：右转到 33，再左转到 8，然后右转到 21。",
    "物置の南京錠、ダイヤルは 742 にしてある。",
    "钱包那张卡上抄的：天 地 玄 黄 宇 宙 洪 荒 日 月 盈 昃",
    # a plain word as the password, across an aside or a choosing clause
    "The password, as I told Sam, is cormorant.",
    "The new PIN I picked: 6620",
    "my passcode's still heronry",
    "我邮箱密码用的是 quokka",
    "cormorant, that's my bank password",
]

NEGATIVE = [
    # keyed-in look-alikes: amounts, years, plain words
    "What I type at the start of every email is Dear team.",
    "我在表里输的是 2024 年的数据。",
    "他按的是 3 楼。",
    # counts that do not match, fragments of identifiers, no holder
    "The six digits on the receipt are 12345.",
    "My phone's last four digits are 4412.",
    "手机号后四位是 5678。",
    "邮编六位数是 100080。",
    # deliveries the user sends, phone numbers, no request to enter
    "I sent 2000 to my sister, can you type it in the spreadsheet?",
    "Mum texted 0412 555 123, can you put it in my contacts?",
    "The shop texted 4 photos of the sofa.",
    # agreed-word talk without a value, fiction, questions, Japanese 暗号 (cipher)
    "What's a good code word for a surprise party?",
    "In the film the safe word was never said out loud.",
    "この暗号の小説はとても面白い",
    "暗语是什么我也不知道。",
    # command lines without a value
    "Run mysql -u root -p and type it when asked.",
    "Use --password to pass it on the command line.",
    # doubles that are not codes
    "We ordered double cheese, two pizzas, one salad.",
    # pairs, devices, logins that are not secrets
    "Email me at ana@post.com or call 555-1234.",
    "ana@post.com, Python3 course",
    "Wi-Fi: Hazelbrook, the password is on the fridge.",
    "I paid 1200 for the alarm.",
    "It's 2024 for the phone contract.",
    "I log in with Google.",
    "Sign in with your Apple ID.",
    "密码：已重置",
    # pass as a bus pass or a mountain pass
    "My bus pass is valid until March.",
    "The pass for the mountain road is closed.",
    "Pass: 2 of 3 exams",
    # other languages' word without a value
    "Ich habe mein Passwort vergessen.",
    # Korean words made of digit syllables, Chinese counts of characters
    "사이다 오이 구이",
    "密码要四个一样的数字",
    "密码要八个字符以上",
    # separators in ordinary text
    "I love ❤ you ❤ so ❤ much",
    "Steps: 1→2→3→4 and done.",
    # turns on the road, dial of a telephone
    "路口先左转到底，再右转 2 个路口。",
    "ダイヤルインは 03-1234-5678 です。",
    # plain-word look-alikes
    "The password is expiring.",
    "Password? I forgot it.",
    "The password, as usual, is on the fridge.",
    "Use something random as the password.",
    "Security, that's my password philosophy.",
    "The password I use is different for every site.",
]


@pytest.mark.parametrize("text", POSITIVE)
def test_a_secret_named_by_its_use_is_found_and_redacted(text):
    assert find_secrets(text), text
    redacted, count = redact_secrets(text)
    assert count >= 1 and redacted != text


@pytest.mark.parametrize("text", NEGATIVE)
def test_an_ordinary_look_alike_is_not_a_secret(text):
    assert find_secrets(text) == [], text


def test_the_redaction_removes_the_value_itself():
    for text, value in [
        ("Lyft-like apps aside, the pharmacy texted 448 903, punch it in.", "448 903"),
        ("The six digits for my credit union card are 882013.", "882013"),
        ("mysql -u admin -pCobble_Hen4 stats", "Cobble_Hen4"),
        ("Deezer: quill.b@post.cz / Marram-Grass-19", "Marram-Grass-19"),
        ("my PIN: 7⭐3⭐1⭐9", "7⭐3⭐1⭐9"),
    ]:
        redacted, _ = redact_secrets(text)
        assert value not in redacted, (text, redacted)


def test_hide_separators_keeps_length_and_leaves_plain_text_alone():
    assert hide_separators("plain ascii 1-2-3-4") == "plain ascii 1-2-3-4"
    assert hide_separators("苹果、香蕉、梨、桃") == "苹果、香蕉、梨、桃"
    folded = hide_separators("PIN 4🔸8🔸2🔸1")
    assert len(folded) == len("PIN 4🔸8🔸2🔸1")
    assert "🔸" not in folded


def test_rot13_is_read_only_when_it_reads_more_like_english():
    plain = "remember that the station is near the river"
    assert rot13_reading(plain) is None
    assert rot13_reading(codecs.encode(plain, "rot13")) == plain
    assert rot13_reading("short") is None


# Where rules meet: a secret inside a change said for later, or beside a special category,
# is still a secret; the frame around it never hides it.
_VALUES = st.from_regex(r"[a-z]{4,8}-[A-Z][a-z]{3,6}-[1-9][0-9]", fullmatch=True)
_FRAMES = st.sampled_from(
    [
        "From next month, {s}",
        "I was diagnosed with asthma last year. {s}",
        "下个月起，{s}",
        "我有糖尿病。{s}",
        "{s} (my therapist says I should write things down)",
    ]
)
_TELLINGS = st.sampled_from(
    [
        "the pass for my work laptop is {v}.",
        "Every site I sign into uses {v}.",
        "login quill@post.cz / {v}",
        "我邮箱密码用的是 {v}",
        "mysql -u me -p{v} db",
    ]
)


@hsettings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(value=_VALUES, frame=_FRAMES, telling=_TELLINGS)
def test_a_secret_told_inside_another_rules_frame_is_still_found(value, frame, telling):
    text = frame.format(s=telling.format(v=value))
    assert find_secrets(text), text
    redacted, _ = redact_secrets(text)
    assert value not in redacted
