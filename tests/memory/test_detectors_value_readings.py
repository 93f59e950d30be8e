"""Round 8 of issue 32: secrets read by the value's own structure
(memory/detectors/value_readings.py): key/value pairs whose key names a secret, values of
password shape tied to a verb of access, letters no language spells, spelled characters,
fragments, private-key bodies, keypad codes, security-question topics, word lists of
mnemonic length, digits of other scripts. Positives are written here, not copied from a
probe; each negative is an ordinary look-alike the mechanism must let through."""

from __future__ import annotations

import base64
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from core.codes import Operation, ReasonCode
from memory.detectors.secrets import find_secrets, redact_secrets
from memory.detectors.value_readings import (
    _key_names_secret,
    _private_der_or_openssh,
    fold_script_digits,
)
from tests.helpers.memories import decide_user_statement

POSITIVE = [
    # key/value pairs whose key names a secret
    "mail:\n  relay_pwd: Okra7-Lantern",
    '{"account": "pelham", "masterpassword": "Rusk&Tide930"}',
    "LEDGER_SIGNING_SECRET=4be19f07c2a85d3e6f1b90a7c4d28e53",
    "OpsToken: 7hQv2Lx9Wm4Kz8Tn",
    "连接串里写着 redisAuth=Wq8mZt3Kp2 这个别外传",
    # a value of password shape tied to a verb of access
    "The old tablet unlocks with marsh-Heron_47.",
    "Every morning at the terminal I type fennel.Quay.82 before anything else.",
    "The pension site uses the same as my library one: Dovetail#5530.",
    "家里电脑开机用 Lotus_Bay77 就行。",
    # letters that no language spells
    "Zoho gave me an application password: wvmqrtzhkplnbx",
    "my mail app password is rtvk plmz qwhs nbcx",
    # spelled characters
    "The PIN word? lowercase q, capital Z, then r, t.",
    "路由器密码：小写的p，大写的Q，再加上 77。",
    # fragments
    "The locker combination begins with 31 and finishes with 74.",
    # a private key's body without its armour
    "chunk of the old server key: MIIEpAIBAAKCAQEAuZ5vQ7x9Rk2LmTt8Wq3Hp0Jc",
    "ssh backup: b3BlbnNzaC1rZXktdjEAAAAACmFlczI1Ni1jdHI",
    # keypad codes
    "进楼门输 #5082 就开了。",
    "Buzz the side entrance, then press 7741#.",
    "玄関は 3 9 1 6 # で開きます。",
    # security questions by topic
    "First pet, for the building society login: Pickles.",
    "When the insurer asks about the street I grew up on, I tell them Sandpiper Row.",
    # word lists of mnemonic length
    "seed, in the Italian list: abaco bolla cedro dado elica fungo gelso icona lama melma nodo orzo",
    "Wallet restore words: 1) amber 2) fossil 3) quarry 4) meadow 5) signal 6) velvet "
    "7) harbor 8) pencil 9) turtle 10) cactus 11) glimpse 12) rescue",
    "钱包备份：1、云 2、石 3、竹 4、灯 5、桥 6、河 7、鸟 8、花 9、茶 10、雪 11、舟 12、琴",
    # what opens, and a lock labelled with a code read out
    "5093 opens the bike shed, don't forget.",
    "Thornfield-88 gets you into the staff portal.",
    "Use Plover_Rock3 to get in.",
    "Shed alarm: 7-1-1-4, then the green button.",
    "The gun safe in the loft: 22-8-31.",
    "储物间门锁 6 6 1 9 记一下。",
    "Studio door: star 3 8 0 hash.",
    "妹妹手机的锁屏是 270514。",
    "进车库的时候输 gate4419pass 就行。",
    "帮我记着：4 0 7 7 3 1 是工资卡的。",
    "微信付款那六个数是 508813。",
    "备用恢复码：tq7w-4kdm-9zpa",
    "GPG 的密码短语：春眠不觉晓",
    # a text encoded: read decoded
    "so nobody reads it: " + base64.b64encode(b"my locker code is 6620").decode(),
    "hex, for the logs: " + b"garage pin 90417".hex(),
    "note=the%20vpn%20password%20is%20Gull-Reef71",
    base64.b64encode("保险箱密码是 583201".encode()).decode(),
    # digits of other scripts
    "My ATM PIN is ٣٨٠٥.",
    "کارت بانکی‌ام رمز: my card PIN ۷۱۲۹",
]

NEGATIVE = [
    # the noun in general, advice
    "Using a street name as a password is a bad habit.",
    "Never paste a password: line into a public chat.",
    "千万不要把密码告诉陌生人。",
    # keys that name something about the secret, or values of no secret shape
    "password_min_length: 12",
    "auth_method: oauth2-pkce",
    "public_key: AAAAC3NzaC1lZDI1NTE5AAAAIFx4kq2",
    "token_url: https://auth.example.org/token",
    "pinned: true",
    # names, models and labels beside an access word
    "I log in with my work laptop: ThinkPad-X1c now.",
    "I use my-macbook-air2 as the laptop name.",
    "Unlock the achievement by typing iddqd-3 in the console.",
    # words, family facts, lists
    "The word strengths has only one vowel.",
    "Her mother's maiden name was Okafor, and she came from Lagos.",
    "My first car was a Corsa and my first pet was Biscuit.",
    "Morning routine: 1. wake 2. stretch 3. run 4. shower 5. eat 6. read 7. plan "
    "8. work 9. lunch 10. gym 11. cook 12. sleep",
    "Sales started with 40 units and ended with 120 units this quarter.",
    "Capital B and lowercase b look different in this font.",
    # numbers that are not secrets
    "Press 5# to skip the menu.",
    "Call *67 before dialling to hide your number.",
    "Issue #4821 is fixed in release 2.3.1.",
    "The certificate starts MIIDdzCCAl+gAwIBAgIEAgAA and is public.",
    "Room ٢١٤ is on the second floor.",
    # opening and locks without a code
    "The corner shop 7711 opens at nine.",
    "This update opens the app faster than before.",
    "新买的门锁 2000 元，装好了。",
    "Gate: 12-14, the far end of the terminal.",
    "Dial 3 then hash to reach reception.",
    "昨晚打牌输 2000 块。",
    "邮政编码：200031",
    "这张卡的条码：6901234567892",
    "比赛最后 3 比 1，我们输了。",
    "The house number is 1 4 in the old script.",
    # encoded text holding no secret
    "Search for my%20favourite%20curry%20recipes%20online",
    "hex of the greeting: " + b"see you at the lake".hex(),
]


@pytest.mark.parametrize("text", POSITIVE)
def test_a_secret_read_by_its_structure_is_found(text):
    assert find_secrets(text), text


@pytest.mark.parametrize("text", NEGATIVE)
def test_look_alikes_pass(text):
    assert not find_secrets(text), text


def test_a_key_is_read_by_its_parts():
    for key in ("requirepass", "db_pwd", "X_API_SECRET", "signingKey", "shared-secret"):
        assert _key_names_secret(key), key
    for key in ("public_key", "keyboard", "token_url", "password_min_length", "auth_method"):
        assert not _key_names_secret(key), key


def test_only_private_key_bodies_count():
    pkcs1 = base64.b64encode(bytes([0x30, 0x82, 0x04, 0xA4, 0x02, 0x01, 0x00]) + b"x" * 20)
    spki = base64.b64encode(bytes([0x30, 0x82, 0x01, 0x22, 0x30, 0x0D]) + b"x" * 20)
    assert _private_der_or_openssh(pkcs1.decode())
    assert not _private_der_or_openssh(spki.decode())
    assert _private_der_or_openssh(base64.b64encode(b"openssh-key-v1\x00none").decode())
    assert not _private_der_or_openssh("MIInotbase64!!")


def test_digits_of_other_scripts_fold_in_place():
    for text in ("PIN ٣٨٠٥", "PIN ۷۱۲۹", "PIN ७३९१", "PIN ๗๓๙๑"):
        folded = fold_script_digits(text)
        assert len(folded) == len(text) and folded[4:].isascii() and folded[4:].isdigit()
    assert fold_script_digits("plain") == "plain"


def test_the_value_is_what_is_redacted():
    text = "mail:\n  relay_pwd: Okra7-Lantern\n  port: 587"
    redacted, count = redact_secrets(text)
    assert "Okra7-Lantern" not in redacted and "587" in redacted and count >= 1


# Where rules meet: a secret told inside a change said for later or beside a special
# category is refused, never held; refusal precedes holding.
_NOW = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)
_VALUES = st.from_regex(r"[a-z]{4,7}[._-][A-Z][a-z]{3,6}[._-]?[1-9][0-9]", fullmatch=True)
_FRAMES = st.sampled_from(
    [
        "From next month on, {s}",
        "I was diagnosed with asthma last year, and {s}",
        "下个月开始，{s}",
        "我在吃抗抑郁药。{s}",
        "{s} Right now I'm in a hurry.",
    ]
)
_TELLINGS = st.sampled_from(
    [
        "the file server's relay_pwd: {v}",
        "my old tablet unlocks with {v}.",
        "the pension site uses the same as my bank one: {v}",
        "家里电脑开机用 {v}。",
        "api_secret={v}",
    ]
)


@hsettings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(value=_VALUES, frame=_FRAMES, telling=_TELLINGS)
def test_a_secret_inside_another_rules_frame_is_refused(value, frame, telling):
    text = frame.format(s=telling.format(v=value))
    decision = decide_user_statement(text, now=_NOW, learned_detectors=True)
    assert (decision.operation, decision.reason_code) == (
        Operation.REJECT,
        ReasonCode.SECRET_DETECTED,
    ), text
    assert value not in redact_secrets(text)[0]


# "'s" after a credential word is a possessive when lowercase words and a finite verb follow:
# the password's length, strength or hint describes it and is stored; a value after "'s"
# (one that is no such noun phrase) is still refused.
@pytest.mark.parametrize(
    "text",
    [
        "The password's length is 12 characters.",
        "My router password's strength was rated weak by the checker.",
        "My password's expiry date is next Friday.",
        "The vault password's minimum length was raised to 14.",
    ],
)
def test_a_possessive_noun_phrase_is_no_value(text):
    decision = decide_user_statement(text, now=_NOW, learned_detectors=True)
    assert decision.operation == Operation.ADD, text


@pytest.mark.parametrize(
    "text",
    [
        "The guest password's Tr0ub4dor&3 for now.",
        "The shed password's blue and was set today.",
        "My password's swordfish.",
    ],
)
def test_a_value_after_the_possessive_s_is_still_refused(text):
    assert find_secrets(text), text
