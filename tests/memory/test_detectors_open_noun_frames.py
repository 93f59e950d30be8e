"""Round 9 of issue 32: special categories told by an open noun in a closed frame, with
the speaker as its subject (memory/detectors/open_noun_frames.py): a brand medicine in a
dosing, prescribing or dispensing frame, a people in a heritage frame, custody by its
metonyms, faith by its objects and acts, membership by what only members do. Each frame
is tested on what it must catch and on what it must let through (another person, a
question, news, fiction, a pharmacist's work, a class, the plain word), and composed with
the rules that come before it. Sentences written here, not copied from probe 9."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memory.detectors.open_noun_frames import OPEN_NOUN_FRAMES
from memory.detectors.prefilter import search_any_reference
from memory.detectors.special_categories import find_special_categories
from memory.temporal.common import fold_traditional
from memory.text_normalize import normalize_for_detection
from tests.helpers.memories import decide_user_statement

CATCHES = [
    # a brand medicine in a frame (no INN stem)
    ("I take Zanprova 40 mg with my dinner.", "health"),
    ("I swallow three Orvelta tablets before lunch.", "health"),
    ("I've been taking Kelmira twice a day since March.", "health"),
    ("I need to pick up the rest of my Dexolan from the pharmacy.", "health"),
    ("My neurologist put me on Veltrexa after the scan.", "health"),
    ("我吃了两年的安舒宁，医生说下个月开始减量。", "health"),
    ("我每天早晚各吃一片康乐平。", "health"),
    ("医生给我开了舒眠宁，每天一次。", "health"),
    ("我要去医院药房把下个月的宁欣达拿回来。", "health"),
    ("ミルタックスを毎晩服用しています。", "health"),
    # a people in a heritage frame
    ("I'm Tigrayan, and my grandparents still farm near Adwa.", "ethnicity"),
    ("I'm Lezgin, born in Derbent like my father.", "ethnicity"),
    ("我是哈尼人，家里还过十月年。", "ethnicity"),
    ("我是蒙族，小时候在草原上长大。", "ethnicity"),
    ("저는 사할린 동포 2세예요.", "ethnicity"),
    # custody by its metonyms
    ("I did six years inside and never want to go back.", "criminal_record"),
    ("When I was inside, I trained as a barber.", "criminal_record"),
    ("My old cellmate still writes to me every Christmas.", "criminal_record"),
    ("我在里头待了三年多，出来以后学了开车。", "criminal_record"),
    ("我在大墙里面过了四年。", "criminal_record"),
    # faith by its objects and acts
    ("I wear a tzitzit under my shirt every day.", "religion"),
    ("Each morning I recite a psalm before breakfast.", "religion"),
    ("I keep the Paryushan fast every year.", "religion"),
    ("我每天睡前捻着佛珠念心经。", "religion"),
    ("我每周五守小斋，不吃肉。", "religion"),
    ("私は毎晩聖書を読んでから祈ります。", "religion"),
    ("저는 매일 밤 성경을 읽어요.", "religion"),
    ("I pray the rosary on the train home.", "religion"),
    ("I take communion at the early service.", "religion"),
    ("I light the Hanukkah candles with my kids.", "religion"),
    ("我每周都去领圣餐。", "religion"),
    ("I have a parole hearing next month.", "criminal_record"),
    ("I was banged up for two years in my twenties.", "criminal_record"),
    ("我是前年才放出来的。", "criminal_record"),
    ("As a Karenni woman, I get asked where I'm from a lot.", "ethnicity"),
    ("我是克钦族人。", "ethnicity"),
    ("ゾルベックス20mgを毎朝飲んでいます。", "health"),
    # membership by what only members do
    ("I marched with the other EIS teachers when we walked out last term.", "trade_union"),
    ("I canvassed for the Greenfield Party every night before the election.", "political"),
    ("我每年都按时交党费。", "political"),
]

LET_THROUGH = [
    "My aunt takes Zanprova 40 mg with her dinner.",
    "Is Orvelta the same as the one they advertise on TV?",
    "I'm a pharmacist and we sell a lot of Kelmira in winter.",
    "I dispensed sixty Dexolan prescriptions this week.",
    "I need to pick up the rest of my Lego from the shop.",
    "My boss put me on Slack duty this week.",
    "我舅舅吃了两年的安舒宁。",
    "我吃了两年的食堂，早就吃腻了。",
    "我每天早晚各吃一片全麦面包。",
    "药房说宁欣达这个月缺货。",
    "母はミルタックスを毎晩服用しています。",
    "コーヒーを毎朝飲んでいます。",
    "I'm Sarah, and I'll be your guide today.",
    "We studied the Tigrayan highlands in geography.",
    "I'm Gemini, born in June.",
    "他是哈尼人，家里还过十月年。",
    "我是四川人，老家在绵阳。",
    "I was inside when the phone rang.",
    "We spent two hours inside the cathedral.",
    "In the film he did six years inside for his brother.",
    "我在里面等了两个小时。",
    "这家店我把它关了三年才重新开。",
    "电视剧里他在大墙里面过了四年。",
    "I bought a tzitzit as a gift for my nephew's bar mitzvah.",
    "My uncle recites a psalm every morning.",
    "I fast every Monday to lose weight.",
    "我外婆每天睡前捻着佛珠念心经。",
    "我在庙里买了一串佛珠。",
    "EIS teachers walked out last term, the paper said.",
    "My aunt prays the rosary on the train home.",
    "My cousin has a parole hearing next month.",
    "I was banged up against the door by the wind.",
    "我家的狗刚放出来就跑了。",
    "As a Taurus woman, I love good food.",
    "我是上班族，老家在河南。",
    "我每天一杯咖啡，加200mg的牛奶也不够。",
    "The Hanukkah candles were lit in the town square.",
    "The Greenfield Party canvassed our street before the election.",
    "新闻说党费标准调整了。",
]


@pytest.mark.parametrize(("text", "category"), CATCHES)
def test_catches_the_speakers_disclosure(text, category):
    assert category in find_special_categories(text)


@pytest.mark.parametrize(("text", "category"), CATCHES)
def test_the_new_frames_are_what_catch_it(text, category):
    """Each catch is this module's: the frame, not an older rule, reads it."""
    form = fold_traditional(normalize_for_detection(text))
    assert search_any_reference(OPEN_NOUN_FRAMES[category], form)


@pytest.mark.parametrize("text", LET_THROUGH)
def test_lets_through_another_person_the_topic_and_plain_words(text):
    assert find_special_categories(text) == []


NOW = datetime(2026, 12, 6, 9, 0, tzinfo=UTC)


def _decide(text: str):
    return decide_user_statement(text, now=NOW, learned_detectors=False)


_DISCLOSURES = [text for text, _ in CATCHES]
_FUTURES = ["Next month I'll move to the Glasgow office.", "下个月起我改成周三上班。"]
_ORDINARY = ["I cleaned the gutters on Sunday.", "我周末去看了场电影。"]
_SECRETS = ["My door code is 4417.", "我的支付密码是582913。"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    disclosure=st.sampled_from(_DISCLOSURES),
    extra=st.sampled_from(_FUTURES + _ORDINARY),
    first=st.booleans(),
)
def test_a_disclosure_beside_a_plan_or_an_ordinary_turn_is_held(disclosure, extra, first):
    """A frame's disclosure keeps the candidate from being stored whatever stands beside
    it: held for confirmation (a future beside it is also a hold, never a store)."""
    text = f"{extra} {disclosure}" if first else f"{disclosure} {extra}"
    assert _decide(text).operation == "QUARANTINE"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(disclosure=st.sampled_from(_DISCLOSURES), secret=st.sampled_from(_SECRETS), at=st.booleans())
def test_a_secret_beside_a_disclosure_is_refused_first(disclosure, secret, at):
    """Every refusal comes before every hold (docs/write-policy.md, Precedence)."""
    text = f"{secret} {disclosure}" if at else f"{disclosure} {secret}"
    decision = _decide(text)
    assert (decision.operation, decision.reason_code) == ("REJECT", "secret_detected")


@settings(max_examples=40, deadline=None)
@given(
    other=st.sampled_from(["My aunt", "Our lodger", "His brother", "我妈", "我同事", "他"]),
    what=st.sampled_from(
        [
            ("takes Zanprova 40 mg with dinner.", "吃了两年的安舒宁，医生说要减量。"),
            ("did six years inside.", "在里头待了三年多。"),
            ("wears a tzitzit under his shirt every day.", "每天睡前捻着佛珠念心经。"),
            ("canvassed for the Greenfield Party before the election.", "每年都按时交党费。"),
        ]
    ),
    future=st.sampled_from(["", " Next month I'll move to the Glasgow office."]),
)
def test_another_person_is_never_the_speaker(other, what, future):
    """The frame told of another person (a third-person subject) is never the user's,
    with or without a plan of the user's beside it."""
    zh = other[0] in "我他"
    text = (f"{other}{what[1]}" if zh else f"{other} {what[0]}") + future
    assert find_special_categories(text) == []
