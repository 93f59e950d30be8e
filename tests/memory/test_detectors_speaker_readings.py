"""Round 7 of issue 32: whether the speaker is the subject, by grammar
(memory/detectors/speaker_subject.py), which opens the learned special-category head's
speaker band (memory/detectors/learned, SPEAKER_BAND); the user's clause read without its
adjuncts of time or reason (memory/detectors/clause_readings.py); an English participle
of undergoing with its subject dropped read as a passive ("Prescribed …" → "I was
prescribed …", memory/detectors/dropped_subject.py). Sentences written here, not copied
from probe 7."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory.detectors import learned
from memory.detectors.clause_readings import adjunct_readings
from memory.detectors.speaker_subject import speaker_is_subject
from memory.detectors.special_categories import find_special_categories

SPEAKER = [
    "I've been seeing a counsellor since the spring.",
    "My knees ache on the stairs these days.",
    "Started on a new tablet last week.",
    "The user keeps kosher at home.",
    "我每周都去复诊一次。",
    "上个月刚做完小手术，还在恢复。",
    "用户每天早上都要吃药。",
    "毎週日曜日に礼拝に行っています。",
    "私は毎晩薬を飲んでいます。",
    "저는 매주 병원에 다녀요.",
    "매일 아침 약을 먹어요.",
]

NOT_SPEAKER = [
    "My uncle goes to the temple every week.",
    "She was diagnosed last year.",
    "Is it safe to fly after a stent?",
    "According to the article, most patients recover.",
    "In the novel, the hero spends years in prison.",
    "我妈每周都去复诊一次。",
    "我同事上个月刚做完手术。",
    "做完手术能吃辣吗？",
    "新闻说他刚出狱。",
    "母は毎週日曜日に教会へ行きます。",
    "薬を飲んでもいいですか？",
    "친구가 매주 병원에 다녀요.",
    "병원에 가야 하나요?",
]


@pytest.mark.parametrize("text", SPEAKER)
def test_the_speaker_told_of_by_grammar(text):
    assert speaker_is_subject(text)


@pytest.mark.parametrize("text", NOT_SPEAKER)
def test_another_person_a_question_or_a_story_is_not_the_speaker(text):
    assert not speaker_is_subject(text)


# --- adjuncts between the user and the predicate -----------------------------------------

ADJUNCT_POSITIVE = [
    ("我小时候每个月都要打一针丙种球蛋白。", "health"),
    ("我年轻时因为偷东西坐过牢。", "criminal_record"),
    ("我由于工作原因入了工会。", "trade_union"),
    ("我每周日上午都去教堂做礼拜。", "religion"),
    ("I've always voted Labour.", "political"),
    ("I have recently joined the union at work.", "trade_union"),
]

ADJUNCT_NEGATIVE = [
    # another person's clause is never read as the user's
    "我妈年轻时因为偷东西坐过牢。",
    "我因为我哥坐过牢，找工作很难。",
    "我因为他坐过牢就不跟他来往了。",
    # the same adjuncts before ordinary predicates
    "我每周日上午都去公园跑步。",
    "我年轻时因为工作去过很多地方。",
    "I've always wanted to visit Lisbon.",
    "I have recently joined a book club.",
]


@pytest.mark.parametrize(("text", "category"), ADJUNCT_POSITIVE)
def test_the_users_clause_is_read_without_its_adjuncts(text, category):
    assert category in find_special_categories(text)


@pytest.mark.parametrize("text", ADJUNCT_NEGATIVE)
def test_adjuncts_taken_out_never_make_another_person_or_an_errand_the_users(text):
    assert find_special_categories(text) == []


def test_a_reason_adjunct_is_cut_at_each_possible_end_but_not_past_a_clause():
    readings = list(adjunct_readings("我因为打架进过局子，后来改了。"))
    assert "我进过局子，后来改了。" in readings
    assert all("后来" in r for r in readings)  # never a cut beyond the comma


# --- participles of undergoing with the subject dropped -----------------------------------

PASSIVE_POSITIVE = [
    ("Prescribed lamotrigine in the autumn.", "health"),
    ("Released from prison in June, still finding my feet.", "criminal_record"),
    ("Just diagnosed with coeliac disease.", "health"),
]

PASSIVE_NEGATIVE = [
    "Released the new single last week.",
    "Born in Leeds, raised in York.",
    "My cousin? Released from prison in June.",
    "According to the report, released from prison in June.",
]


@pytest.mark.parametrize(("text", "category"), PASSIVE_POSITIVE)
def test_a_participle_of_undergoing_reads_as_the_speakers_passive(text, category):
    assert category in find_special_categories(text)


@pytest.mark.parametrize("text", PASSIVE_NEGATIVE)
def test_a_participle_of_doing_another_person_or_the_news_is_not_read(text):
    assert find_special_categories(text) == []


# --- the speaker band of the learned head ----------------------------------------------------


def test_the_speaker_band_is_only_opened_for_the_speaker(settings):
    """The band (switched on at its measured width) reads the embedding head only where the
    grammar test says the speaker is the subject: the same n-gram log-odds, another
    person's sentence, no band."""
    settings.ENGRAM = {**settings.ENGRAM, "DETECTOR_SPEAKER_BAND": learned.SPEAKER_BAND}
    model = learned.model()
    i = model.classes.index("special_category")
    logits = np.array([-model.unsure_logit - 1.0] * len(model.classes))
    assert model.speaker_band(logits, "I've been seeing a counsellor since the spring.")[i]
    assert not model.speaker_band(logits, "My uncle has been seeing a counsellor.")[i]
    # outside the band (far from the line, or inside the unsure band) never
    far = np.array([-learned.SPEAKER_BAND - 0.5] * len(model.classes))
    assert not model.speaker_band(far, "I've been seeing a counsellor.").any()
    near = np.array([-0.5] * len(model.classes))
    assert not model.speaker_band(near, "I've been seeing a counsellor.").any()


KIN_ZH = ["妈", "爸", "哥", "姐", "朋友", "同事", "老公", "室友"]
ADJUNCTS_ZH = ["", "年轻时", "每个月都", "小时候", "去年", "一直", "每周日上午都", "因为工作"]
PREDICATES_ZH = ["坐过牢", "入了工会", "去教堂做礼拜", "在吃舍曲林", "确诊了抑郁症"]
ORDINARY_ZH_PREDICATES = ["去公园跑步", "在学做饭", "去过很多地方", "换了新工作"]


@settings(max_examples=150, deadline=None)
@given(
    kin=st.sampled_from(KIN_ZH),
    adjunct=st.sampled_from(ADJUNCTS_ZH),
    predicate=st.sampled_from(PREDICATES_ZH),
    ordinary=st.sampled_from(ORDINARY_ZH_PREDICATES),
    ailment=st.sampled_from(["", "上周感冒了，", "前两天有点发烧，"]),
    later=st.sampled_from(["", "下个月打算去旅游。", "明年准备换工作。"]),
)
def test_adjunct_readings_compose_with_persons_ailments_and_plans(
    kin, adjunct, predicate, ordinary, ailment, later
):
    """The user's disclosure is found whatever adjuncts, ailments or plans surround it;
    another person's, or the user's ordinary errand with the same adjuncts, never is."""
    mine = f"{ailment}我{adjunct}{predicate}。{later}"
    assert find_special_categories(mine), mine
    theirs = f"{ailment}我{kin}{adjunct}{predicate}。{later}"
    assert find_special_categories(theirs) == [], theirs
    errand = f"{ailment}我{adjunct}{ordinary}。{later}"
    assert find_special_categories(errand) == [], errand


def test_the_speaker_band_is_a_setting_and_zero_closes_it(settings):
    """ENGRAM_DETECTOR_SPEAKER_BAND: the band reaches as far as the setting says, and 0 (or
    anything inside the unsure band) closes it, for the speaker's own sentence too."""
    model = learned.model()
    i = model.classes.index("special_category")
    text = "I've been seeing a counsellor since the spring."
    logits = np.array([-model.unsure_logit - 1.0] * len(model.classes))
    settings.ENGRAM = {**settings.ENGRAM, "DETECTOR_SPEAKER_BAND": 0.0}
    assert not model.speaker_band(logits, text).any()
    settings.ENGRAM = {**settings.ENGRAM, "DETECTOR_SPEAKER_BAND": model.unsure_logit + 0.5}
    assert not model.speaker_band(logits, text).any()
    settings.ENGRAM = {**settings.ENGRAM, "DETECTOR_SPEAKER_BAND": model.unsure_logit + 1.5}
    assert model.speaker_band(logits, text)[i]
