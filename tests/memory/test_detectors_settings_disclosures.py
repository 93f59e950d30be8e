"""Round 6 of issue 32: special categories by the place of care or custody
(memory/detectors/setting_forms.py), by grammatical forms and closed classes
(memory/detectors/disclosure_forms.py, the CADN drug-name endings in special_categories),
and the everyday ailment that is not special-category data (everyday_ailments.py).

Sentences written for this test, none from a probe, corpus or held-out set.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memory.detectors.everyday_ailments import learned_special_vetoed, learned_transient_vetoed
from memory.detectors.setting_forms import without_care_place
from memory.detectors.special_categories import find_special_categories
from tests.helpers.memories import decide_user_statement
from tests.security.ordinary_zh import ORDINARY_ZH


@pytest.mark.parametrize(
    ("text", "category"),
    [
        # a place of care named by its specialty, the user treated there
        ("我每两周去肿瘤医院复查一次", "health"),
        ("我上个月在精神卫生中心住了十天", "health"),
        ("我在妇产科建档了，医生说一切正常", "health"),
        ("我最近一直去疼痛科打封闭", "health"),
        # a general place of care between 我 and a treatment the rules know
        ("我每周三都去医院做化疗", "health"),
        ("我昨天在社区医院做了个小手术", "health"),
        ("我周一、三、五去医院血透", "health"),
        ("제가 요즘 병원에서 항암 치료를 받고 있어요", "health"),
        # custody
        ("我在拘留所关过十五天", "criminal_record"),
        ("我年轻时在少管所待过两年", "criminal_record"),
        ("我坐过两回牢", "criminal_record"),
        ("我前年被行政拘留过", "criminal_record"),
        # disclosure forms
        ("I've been dreading my sigmoidoscopy all week.", "health"),
        ("My tonsillectomy scar still itches.", "health"),
        ("我吃了五年多的抗癫痫药", "health"),
        ("我左耳已经听不见了", "health"),
        ("I'm deaf in my right ear, so sit on my left.", "health"),
        ("I went partially blind after the stroke.", "health"),
        ("I had two early miscarriages before my son was born.", "health"),
        ("我去年做过一次人流", "health"),
        ("I had my appendix taken out when I was twelve.", "health"),
        ("I'm on the list for a donor liver.", "health"),
        ("我的胆囊前年切掉了", "health"),
        ("My phone app reads my glucose every five minutes.", "health"),
        ("我每天吃两片甲巯咪唑", "health"),
        ("我在吃 Lamictal，一天两次", "health"),
        ("My finger vein pattern opens the lab door.", "biometric"),
        ("我是二〇一〇年在大学入的党", "political"),
        ("My family is Hakka, from the hills near Meizhou.", "ethnicity"),
        ("我每逢初一都去庙里上香", "religion"),
        ("I'm biracial, my dad is from Lagos.", "ethnicity"),
        ("As a Native Hawaiian woman, I feel that.", "ethnicity"),
        ("I'm Quechua by birth.", "ethnicity"),
        ("我是中法混血", "ethnicity"),
        ("I've only ever dated guys, and I'm a guy myself.", "sexual_orientation"),
        ("我只喜欢男生，我自己也是男生", "sexual_orientation"),
        ("我锁骨下埋了个输液港", "health"),
        ("I keep a glucagon kit in the car.", "health"),
        ("I did four years inside before I was paroled.", "criminal_record"),
    ],
)
def test_the_users_own_special_category_is_found(text, category):
    assert category in find_special_categories(text)


@pytest.mark.parametrize(
    "text",
    [
        # other people
        "我爸每两周去肿瘤医院复查一次",
        "我陪我妈去精神卫生中心看病",
        "我老公在拘留所关过十五天",
        "My uncle's sigmoidoscopy went fine.",
        "我朋友左耳已经听不见了",
        "我奶奶吃了五年多的降压药",
        "My sister had her appendix taken out last year.",
        "我妈在吃 Lamictal，一天两次",
        # a job, a landmark, a visit, the topic
        "我在肿瘤医院财务科上班",
        "我去医院对面的银行取钱",
        "我去医院看望刚做完手术的同事",
        "我在精神卫生中心做志愿者",
        "我在生产科做质检",
        "我在资产管理中心做审计",
        "我在心理学院做实验",
        "我去血液中心抽血",
        "我去免疫规划门诊打疫苗",
        "拘留所的伙食据说还不错",
        "The prison library needs volunteers.",
        "Colonoscopy screening starts at forty-five in the US.",
        # the noun as a plain word
        "My family is Huge on board games.",
        "My family are Arsenal fans.",
        "My parents are Retired now and travel a lot.",
        "我吃了三年的食堂饭",
        "我在吃生酮饮食，每天两次称体重",
        "我耳朵都快听不见你说话了，太吵了",
        "I went blind drunk at the wedding.",
        "我的计划流产了",
        "I lost my temper and the pregnancy test box in one afternoon.",
        "She was the first Black woman to chair the board.",
        "He got stopped twice as a Black man.",
        "I'm a white belt in judo.",
        "I'm black and blue after the match.",
        "I like men with beards, and I'm a woman.",
        "我喜欢男生，我是女生",
        "我弟弟锁骨下埋了个输液港",
        "The glucagon kit in the clinic expired.",
        "I spent two years in Lisbon before my release of the album.",
    ],
)
def test_other_people_a_job_and_the_topic_pass(text):
    assert not find_special_categories(text)


def test_a_place_of_care_is_taken_out_only_between_me_and_the_verb():
    assert without_care_place("我每周去医院做透析") == ["我每周做透析", "我做透析"]
    assert without_care_place("我妈每周去医院做透析") == []
    assert without_care_place("我去医院看望同事") == []


def test_ordinary_chinese_conversation_has_no_special_category():
    assert [t for t in ORDINARY_ZH if find_special_categories(t)] == []


# --- the precedence of the subject: a Hypothesis property over combined clauses -------------

_SETTINGS = [
    "去肿瘤医院复查",
    "在精神卫生中心住过院",
    "去医院做透析",
    "在看守所待过半年",
    "吃了三年的药",
]
_OTHERS = ["我妈", "我爸", "我朋友", "我同事", "他", "她", "我们家老人", "我邻居"]
_WHEN = ["", "去年", "一直", "最近", "以前"]


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(_OTHERS), st.sampled_from(_WHEN), st.sampled_from(_SETTINGS))
def test_another_person_treated_or_held_is_never_the_users(other, when, setting):
    """Who, then what: the same place and verb with another person as the subject is not
    the user's special category; with 我 it is."""
    assert not find_special_categories(f"{other}{when}{setting}。")
    assert find_special_categories(f"我{when}{setting}。")


# --- an everyday ailment ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Had a stinking cold over the weekend, better now.",
        "我上周感冒了，现在好多了",
        "Twisted my ankle on the stairs yesterday.",
    ],
)
def test_an_everyday_ailment_is_not_special(text):
    assert learned_special_vetoed(text)


@pytest.mark.parametrize(
    "text",
    [
        "I get headaches every day since the accident.",
        "我一直咳嗽，已经三个月了",
        "I have a chronic cough from the asthma.",
        "I was diagnosed with lupus.",
    ],
)
def test_a_lasting_or_named_condition_is_not_vetoed(text):
    assert not learned_special_vetoed(text)


def test_only_an_ailment_that_is_over_leaves_the_transient_head():
    assert learned_transient_vetoed("I had a sore throat this morning but it went away.")
    assert not learned_transient_vetoed("I have a sore throat right now, keep it short.")


_RULE_SPECIALS = [
    "我在看守所待过半年",
    "I was diagnosed with epilepsy at nine.",
    "我每周去医院做透析",
]
_AILMENTS = [
    "I had a cold last week but I'm fine now.",
    "前两天着凉了，现在好了。",
    "Bit of a headache.",
]


def _decide(text: str, learned_on: bool):
    return decide_user_statement(
        text, now=datetime(2026, 12, 6, tzinfo=UTC), learned_detectors=learned_on
    )


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(_RULE_SPECIALS),
    st.sampled_from(_AILMENTS),
    st.booleans(),
    st.booleans(),
)
def test_an_everyday_ailment_never_undoes_a_rules_special_category(special, ailment, first, on):
    """The ailment rule only vetoes the learned head: a special category a rule found, said
    beside a cold, is still held."""
    text = f"{special} {ailment}" if first else f"{ailment} {special}"
    decision = _decide(text, learned_on=on)
    assert decision.operation == "QUARANTINE"
    assert decision.reason_code == "sensitive_needs_confirmation"


# --- English with the subject dropped ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("Been on lamotrigine since the spring.", "health"),
        ("Had a mastectomy two years ago, doing well.", "health"),
        ("Just got diagnosed with coeliac disease.", "health"),
        ("Spent three years in prison, out since June.", "criminal_record"),
        ("Went to mass every Sunday growing up and still do.", "religion"),
    ],
)
def test_english_with_the_subject_dropped_is_the_speakers(text, category):
    assert category in find_special_categories(text)


@pytest.mark.parametrize(
    "text",
    [
        "Take lamotrigine with food.",
        "Had a great week at the lake.",
        "In the film, had a mastectomy scene that went viral.",
        "According to the article, diagnosed with coeliac disease at forty.",
        "My aunt? Been on lamotrigine for years.",
    ],
)
def test_orders_news_and_ordinary_clauses_are_not(text):
    assert not find_special_categories(text)


_TREATMENTS_EN = ["chemo", "dialysis", "lamotrigine", "sertraline"]


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(["Take", "Start", "Stop", "Try", "Ask about"]), st.sampled_from(_TREATMENTS_EN)
)
def test_an_order_with_the_subject_dropped_is_never_the_speakers(verb, treatment):
    """An imperative has no subject either; only a verb form that cannot be one reads
    with an implicit "I"."""
    assert not find_special_categories(f"{verb} {treatment} on Monday.")


# What only the learned head reads (no rule finds it), said beside an everyday ailment: the
# veto overrules the ailment, never the rest of the text (found in review: before the head
# was asked again without the ailment's words, 179 of 182 such corpus sentences were stored).
_LEARNED_SPECIALS = [
    "I take PrEP.",
    "I'm on Suboxone maintenance, it's been good for me.",
    "我每周都去做心理咨询。",
    "我一直在做心理咨询。",
    "我在吃抗抑郁的药。",
]
_AILMENTS_BEFORE = ["I had a cold last week, and", "上周感冒了，", "Bit of a headache today."]


@pytest.mark.parametrize(
    "text",
    [
        "I had a cold last week, and I take PrEP.",
        "I had a cold last week, and I'm on Suboxone maintenance, it's been good for me.",
        "上周感冒了，我在吃抗抑郁的药。",
    ],
)
def test_an_ailment_beside_what_only_the_learned_head_reads_is_still_held(text):
    assert not find_special_categories(text)  # the learned head alone holds it
    decision = _decide(text, learned_on=True)
    assert decision.operation == "QUARANTINE"
    assert decision.reason_code == "sensitive_needs_confirmation"


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(_LEARNED_SPECIALS), st.sampled_from(_AILMENTS_BEFORE + _AILMENTS))
def test_the_ailment_veto_only_removes_the_ailment(special, ailment):
    """What the head reads in the text, and still reads once the ailment's words are taken
    out, is held: the veto changes a decision only when the ailment was all it read."""
    from memory.detectors.everyday_ailments import without_ailments
    from memory.detectors.learned import detected, scores

    text = f"{ailment} {special}"
    decision = _decide(text, learned_on=True)
    read = "special_category" in detected(scores(text))
    if read and "special_category" in detected(scores(without_ailments(text))):
        assert decision.operation == "QUARANTINE"


def test_an_ailment_alone_is_still_stored():
    for text in _AILMENTS:
        assert _decide(text, learned_on=True).operation == "ADD"
