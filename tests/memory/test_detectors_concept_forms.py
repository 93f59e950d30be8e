"""Round 8 of issue 32: special categories told by the form of a concept with the speaker
as its subject (memory/detectors/concept_forms.py): a medicine by its INN stem with a dose
word or a prescriber, a pregnancy idiom or verb, a practice of faith by its calendar, a
membership by an organisation's form, custody by its duration, a same-sex couple by its
nouns. Each is tested on what it must catch and on what it must let through (another
person, a question, news, fiction, a job, a pet, the topic), and composed with the rules
that come before it. Sentences written here, not copied from probe 8."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memory.detectors.special_categories import find_special_categories
from memory.temporal.common import fold_traditional
from tests.helpers.memories import decide_user_statement

CATCHES = [
    ("My weekly dupilumab jab is due on Sunday.", "health"),
    ("I always carry a pack of nitrazepam when I travel.", "health"),
    ("The consultant put me on ramipril after the scan.", "health"),
    ("My cardiologist switched me from atenolol to something gentler.", "health"),
    ("I'm undetectable and have been for years.", "health"),
    ("I'm in the family way again, due before Christmas.", "health"),
    ("I've relied on a mobility scooter since the stroke.", "health"),
    ("I had a radiofrequency ablation on my knee nerves.", "health"),
    ("我每周自己打一针利拉鲁肽。", "health"),
    ("我每晚睡前都要吃一片喹硫平。", "health"),
    ("我每天早上吃一粒络活喜，控制血压。", "health"),
    ("我又怀上了，这次是双胞胎。", "health"),
    ("我是脑炎后遗症，说话有点慢。", "health"),
    ("我去年做了子宫动脉栓塞。", "health"),
    ("我每晚都要吃一顆安眠藥。", "health"),
    ("毎晩ロゼレムを一錠飲んでいます。", "health"),
    ("I always leave my desk before Maghrib to pray at home.", "religion"),
    ("我每逢安息日都不开车。", "religion"),
    ("我每天晚上都在家诵经半小时。", "religion"),
    ("実は天照教会の信者で、週末は奉仕に行きます。", "religion"),
    ("My boyfriend and I are both lads from the same village.", "sexual_orientation"),
    ("我跟我女朋友都是女生，租房子老被问是不是姐妹。", "sexual_orientation"),
    ("I'm in the FBU, so I'll join the strike next week.", "trade_union"),
    ("저는 금속노조 조합원이에요.", "trade_union"),
    ("I've been a Labour member since the 2017 election.", "political"),
    ("我是公民党的，每次选举都去投票。", "political"),
    ("I spent a year in Belmarsh before the conviction was quashed.", "criminal_record"),
    ("我因为诈骗蹲了三年。", "criminal_record"),
    ("I registered my palm print with the gym's entry system.", "biometric"),
]

LET_THROUGH = [
    "My dad's weekly dupilumab jab is due on Sunday.",
    "Is nitrazepam safe to take on a long flight?",
    "The consultant put my mother on ramipril after the scan.",
    "I'm a pharmacy technician and we keep a lot of ramipril in stock.",
    "Our vet put the dog on a beta blocker last year.",
    "My sister is in the family way again, due before Christmas.",
    "I'm showing my photos at the library next week.",
    "I'm due in court in March for a parking fine.",
    "My gran has relied on a mobility scooter since the stroke.",
    "我妈每周自己打一针利拉鲁肽。",
    "我每天早上吃一片面包，再喝杯牛奶。",
    "我每天早上吃一片全麦吐司，控制体重。",
    "听说他又怀上了，真是好消息。",
    "我同事每逢安息日都不开车。",
    "我在写一篇关于安息日传统的文章。",
    "父は天照教会の信者です。",
    "毎晩ヨーグルトを一個食べています。",
    "I went to a talk about Maghrib prayer times at the museum.",
    "My brother and his boyfriend are both lads from the same village.",
    "My wife and I are both teachers.",
    "The FBU called a strike, the news said.",
    "I'm in the NBA fantasy league with my cousins.",
    "I've been a Costco member since 2015.",
    "우리 아빠는 금속노조 조합원이에요.",
    "新闻说公民党在选举中赢了两席。",
    "我是他死党的时候才十几岁。",
    "In the film, the hero spends a year in Belmarsh before his appeal.",
    "I spent a year in Barcelona before starting university.",
    "他因为诈骗蹲了三年。",
    "我进去过三次那家店，东西都挺贵。",
    "My thumb hurts after a day of typing.",
    "I spent a year in Boston on a clinical trial of a new battery.",
    "私はこのカフェの信者です。",
]


@pytest.mark.parametrize(("text", "category"), CATCHES)
def test_catches_the_speakers_disclosure(text, category):
    assert category in find_special_categories(text)


@pytest.mark.parametrize("text", LET_THROUGH)
def test_lets_through_another_person_the_topic_and_plain_words(text):
    assert find_special_categories(text) == []


def test_traditional_characters_of_medicine_fold():
    assert fold_traditional("一顆藥，醫療診斷") == "一颗药，医疗诊断"


NOW = datetime(2026, 12, 6, 9, 0, tzinfo=UTC)


def _decide(text: str):
    return decide_user_statement(text, now=NOW, learned_detectors=False)


_DISCLOSURES = [text for text, _ in CATCHES]
_FUTURES = ["From next month I'll work from the Leeds office.", "下个月起我改成周四上班。"]
_ORDINARY = ["I repainted the shed on Saturday.", "我周末去看了场话剧。"]
_SECRETS = ["My bank PIN is 4827.", "我的支付密码是739184。"]
_OTHERS = ["My aunt", "My flatmate", "我妈", "我朋友"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    disclosure=st.sampled_from(_DISCLOSURES),
    extra=st.sampled_from(_FUTURES + _ORDINARY),
    first=st.booleans(),
)
def test_a_disclosure_beside_a_plan_or_an_ordinary_turn_is_held(disclosure, extra, first):
    """A concept-form disclosure keeps the candidate from being stored whatever stands
    beside it: held for confirmation (or by the future rule, also a hold)."""
    text = f"{extra} {disclosure}" if first else f"{disclosure} {extra}"
    assert _decide(text).operation == "QUARANTINE"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(disclosure=st.sampled_from(_DISCLOSURES), secret=st.sampled_from(_SECRETS), at=st.booleans())
def test_a_secret_beside_a_disclosure_is_refused_first(disclosure, secret, at):
    """Every refusal comes before every hold: the secret is refused, nothing is held."""
    text = f"{secret} {disclosure}" if at else f"{disclosure} {secret}"
    decision = _decide(text)
    assert (decision.operation, decision.reason_code) == ("REJECT", "secret_detected")


@settings(max_examples=40, deadline=None)
@given(
    other=st.sampled_from(_OTHERS),
    what=st.sampled_from(
        [
            ("takes ramipril every morning.", "每天早上吃一片喹硫平。"),
            ("is in the family way again.", "又怀上了。"),
            ("is in the FBU, so she'll join the strike.", "每逢安息日都不开车。"),
            ("spent a year in Belmarsh before the appeal.", "因为诈骗蹲了三年。"),
        ]
    ),
)
def test_another_person_is_never_the_speaker(other, what):
    """The same concept told of another person is never the user's."""
    text = f"{other}{what[1]}" if other[0] == "我" else f"{other} {what[0]}"
    assert find_special_categories(text) == []
