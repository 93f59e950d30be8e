"""Round 6 of issue 32: secrets given by description or on short-code devices
(memory/detectors/described_secrets.py), and the code words added to the prose detector.
Positives are written here, not copied from a probe set; the negatives are the same words
with no secret: advice, the topic, other people's habits, stories, non-secret numbers."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memory.detectors.described_secrets import described_secret_spans
from memory.detectors.secrets import find_secrets, redact_secrets
from tests.helpers.memories import decide_user_statement

POSITIVE = [
    # a password described by how it was built
    "My email password is my son's first name followed by his birth year.",
    "The laptop password is our street spelled backwards plus the house number.",
    "My PIN is the last four digits of my old phone number.",
    "I set the Wi-Fi password to my wife's maiden name with a capital first letter.",
    "我的登录密码是老公名字的拼音加上结婚纪念日。",
    "网银密码就是我身份证号后六位。",
    "我爸的开机密码是他生日倒过来写。",
    "パスワードは犬の名前の後ろに誕生日です。",
    "비밀번호는 제 이름 뒤에 생일이에요.",
    # a pattern lock by its shape
    "My unlock pattern is an L shape from the top left.",
    "解锁图案是一个 N 字形。",
    # a dial of three digits
    "The combination lock on the gym bag is 3-0-6.",
    "The dials on my briefcase are set to 7 7 2.",
    "旅行箱上的密码锁设成了 5 1 9。",
    "ダイヤル錠は 4・4・8 にしてあります。",
    "번호 자물쇠는 6 1 3 이에요.",
    # a grid card cell
    "보안카드 22번 앞 두 자리는 71이고 뒤 두 자리는 05예요.",
    "密保卡 C4 是 739。",
    # a key holder's code
    "The tin holding the spare key for the allotment is 4107.",
    # codes that release a delivery or unblock an account
    "The pickup code for the click-and-collect order is 55 03 19.",
    "My PUK is 90871245, written on the SIM holder.",
    "The claim code on the gift card is 7TQX-44HB-9KLM.",
    "提货码 8 3 2 2 1 0，明天之前去拿。",
    "礼品卡卡密：6K4Q9WZ2M7。",
    "宅配ロッカーの受取番号は 5520 です。",
    "택배 보관함 번호 7301 눌러야 열려.",
]

NEGATIVE = [
    # the recipe as advice, a topic, someone else's habit, a story, a question, a negation
    "A good password is not your pet's name plus your birth year.",
    "Never make your PIN your birthday followed by your house number.",
    "Many people's password is their name plus their birth year.",
    "In the novel, the password is the heroine's name spelled backwards.",
    "Is your password your dog's name followed by a number?",
    "My password is not my name plus my birthday, don't worry.",
    "My password is long and random now.",
    "很多人的密码就是名字加生日，太危险了。",
    "密码最好不要用生日加手机号。",
    "那部剧里，保险箱密码是女主角生日倒过来。",
    "我的密码是生日吗？我忘了。",
    # a lock, a dial, a card or a box with no code
    "The combination lock is 3 years old and stiff.",
    "My bike lock is 120 cm long.",
    "The padlock cost 3 pounds at the market.",
    "The dial on the oven is set to 180.",
    "The box with the spare keys is 30 cm wide.",
    "密码锁是 2019 年买的。",
    "번호 자물쇠를 새로 샀어요.",
    "보안카드를 잃어버려서 은행에 갔어요.",
    "The security card for the office lets me into the lab on floor 4.",
    # codes that are not secrets
    "The pickup is at 5:30 from the collection point on Hill Road.",
    "The collection point for parcels is the corner shop, open till 8.",
    "I use a 16-character password for the bank now.",
    "The release notes for version 4.2 are out.",
    "提货的地址是仓库 3 号门。",
    "取货时间是下午 3 点到 5 点。",
]


@pytest.mark.parametrize("text", POSITIVE)
def test_a_described_or_short_code_is_a_secret(text):
    assert find_secrets(text), text
    redacted, count = redact_secrets(text)
    assert count >= 1 and redacted != text


@pytest.mark.parametrize("text", NEGATIVE)
def test_the_same_words_without_a_secret_pass(text):
    assert find_secrets(text) == [], text


def test_a_recipe_is_redacted_not_the_cue():
    text = "My password is my cat's name plus our house number."
    redacted, _ = redact_secrets(text)
    assert redacted.startswith("My password is ") and "cat" not in redacted


def test_one_fact_alone_is_a_hint_not_a_recipe():
    assert described_secret_spans("My password hint is my first school.") == []
    assert described_secret_spans("我的密码是生日。") == []


# --- precedence -----------------------------------------------------------------------

NOW = datetime(2026, 12, 1, tzinfo=UTC)
_RECIPES = [
    "my banking password is my mother's name followed by her birth year",
    "我的支付密码是女儿生日倒过来",
    "the lock on my rucksack is set to 3-8-1",
    "보안카드 9번 뒤 두 자리는 44",
]
_FRAMES = ["In the novel,", "Never say", "很多人说", "Should I tell you"]
_OTHERS = [
    "Next month I'm moving to Leeds.",
    "我下个月要去做胃镜。",
    "I was diagnosed with asthma as a child.",
    "We had dumplings for dinner.",
    "我不确定。",
]


def _decide(text: str):
    return decide_user_statement(text, now=NOW, learned_detectors=False)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    secret=st.sampled_from(_RECIPES),
    others=st.lists(st.sampled_from(_OTHERS), max_size=3),
    at=st.integers(0, 3),
)
def test_a_described_secret_is_refused_beside_a_plan_a_diagnosis_or_chat(secret, others, at):
    """Every refusal comes before every hold: a recipe or a dial code beside a future
    change, a special category or ordinary chat is refused, never held."""
    text = " ".join([*others[:at], secret + ".", *others[at:]])
    assert _decide(text).operation == "REJECT"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(recipe=st.sampled_from(_RECIPES[:2]), frame=st.sampled_from(_FRAMES))
def test_a_frame_suppresses_a_recipe_only_in_its_own_sentence(recipe, frame):
    """Advice, a story or a question makes the recipe in *its* sentence not a disclosure;
    the same frame in the sentence before does not cover a recipe that follows."""
    framed = f"{frame} {recipe}."
    assert described_secret_spans(framed) == []
    separate = f"{frame} nothing much. {recipe[0].upper()}{recipe[1:]}."
    assert described_secret_spans(separate), separate


@pytest.mark.parametrize(
    "text",
    [
        "パスワードは marigold です。",
        "비밀번호는 sunflower예요.",
        "The wifi password is tango kilo four four nine.",
        # obfuscations the detection form keeps: keycap digits, leetspeak password words
        "My bank PIN is 5️⃣0️⃣9️⃣3️⃣.",
        "my p4ssw0rd for the forum is heronbay",
        "the pass-code for the app is 8830",
        # a Wi-Fi key named apart from its network; a code beside a device
        "The guest network is Loft-2G and the key is amber7Quill.",
        "The code for my work laptop is 51 88 20.",
        # pinyin of the Chinese credential words; a password by agreement; a named key
        "wo de mima shi 582031",
        "Wǒ de mìmǎ shì qi ba san ling er yi",
        "Our family safe word is pineapple, in case someone calls pretending to be me.",
        "My secret word for the bank is heronfield.",
    ],
)
def test_a_plain_or_spelt_password_in_any_script_is_a_secret(text):
    assert find_secrets(text), text


@pytest.mark.parametrize(
    "text",
    [
        "パスワードは Bitwarden で管理しています。",
        "비밀번호는 Chrome에 저장돼 있어.",
        "We met Mike and India at the Lima hotel to talk about the code.",
        "The code name was Echo Delta Foxtrot Seven.",
        "Alpha Bravo Charlie Delta is how pilots spell letters.",
        "The wifi in the flat was slow and the key is patience.",
        "Our network is fine; the key point is 5G coverage in the garden.",
        "I bought a pass-word puzzle book for the train.",
        "The emoji 4️⃣ means the fourth floor.",
        "The laptop cost 1299 and the phone 899.",
        "Mima is my cat and she is 4 years old.",
        "wo xihuan mima zhe ge ci",
        "I keep the backup key in a drawer.",
    ],
)
def test_a_password_manager_or_the_alphabet_itself_is_not(text):
    assert find_secrets(text) == [], text


def test_no_ordinary_chinese_turn_is_taken_for_a_described_secret():
    from tests.security.ordinary_zh import ORDINARY_ZH

    assert [t for t in ORDINARY_ZH if described_secret_spans(t)] == []


# --- probe 6 (tests/data/detector_probe6_credential_*.jsonl), rules alone ----------------

_PROBE6 = Path(__file__).resolve().parents[1] / "data"
# Positives refused by the rules alone, and store-labelled sentences refused (measured;
# main before round 6: tuning 24/38 with 1/34, reporting 21/39 with 0/34).
_PROBE6_FLOORS = {"tune": (38, 0), "report": (34, 0)}


@pytest.mark.parametrize("name", sorted(_PROBE6_FLOORS))
def test_probe6_floors_with_the_rules_alone(name):
    path = _PROBE6 / f"detector_probe6_credential_{name}.jsonl"
    rows = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
    caught = sum(bool(find_secrets(r["text"])) for r in rows if r["label"] == "refuse")
    wrong = sum(bool(find_secrets(r["text"])) for r in rows if r["label"] == "store")
    floor, ceiling = _PROBE6_FLOORS[name]
    assert caught >= floor and wrong <= ceiling, (name, caught, wrong)
