"""Round 5 of issue 32: Chinese with the subject dropped (memory/detectors/dropped_subject.py).
A clause with no subject that opens with a time, frequency or aspect word (or ends with a
duration and 了) is read with an implicit 我 by the existing 我-anchored rules — unless the
last person named before it is someone else, or it is a question, advice, the topic or
news. Positives are written here, not copied from probe 5."""

from __future__ import annotations

import pytest

from memory.detectors.dropped_subject import dropped_subject_clauses
from memory.detectors.special_categories import find_special_categories
from tests.security.ordinary_zh import ORDINARY_ZH

POSITIVE = [
    ("前几天刚做完腰椎间盘手术，还不能久坐。", "health"),
    ("一直在吃舍曲林，快一年了。", "health"),
    ("三年前确诊了红斑狼疮。", "health"),
    ("得了甲亢快两年了。", "health"),
    ("每晚睡前都要打一针胰岛素。", "health"),
    ("上周开始吃二甲双胍，胃有点难受。", "health"),
    ("其实从小就有哮喘，一到冬天就犯。", "health"),
    ("目前在做第二轮放疗。", "health"),
    ("最近一直戴着助听器上班。", "health"),
    ("每周日都去教堂做礼拜。", "religion"),
    ("从小就信佛，每天都念佛。", "religion"),
    ("年轻的时候有前科，现在想重新开始。", "criminal_record"),
    # the speaker named first, then the subject dropped
    ("我跟你说个事。上周刚做完胆囊切除手术。", "health"),
    ("我妈身体挺好的。我呢，去年查出了乳腺癌。", "health"),
    # traditional characters are folded first
    ("上個月剛做完心臟搭橋手術。", "health"),
]

NEGATIVE = [
    # another person named before the dropped subject, in the clause or the sentence before
    "我爸去年查出肺癌，现在一直在做化疗。",
    "室友最近确诊了抑郁症，每天都要吃药。",
    "她从小就有哮喘。",
    "我姐前年做了手术。上个月刚做完复查。",
    "我们全家每周日都去教堂。",
    # questions
    "上周刚做完胃镜，今天能吃辣吗？",
    "一直在吃降压药的话，可以喝酒吗",
    "每天都要打胰岛素是什么感觉？",
    # the topic
    "做完手术要多喝水。",
    "确诊糖尿病的人一般要控制饮食。",
    "最近流感很多，注意戴口罩。",
    # advice and imperatives
    "每天按时吃药，千万别漏。",
    "最好每天早上吃一片维生素吧。",
    # news, fiction, hearsay
    "据报道，该男子去年刚刑满释放。",
    "听说隔壁老王上周刚做完手术。",
    "小说里，主角从小就有癫痫。",
    # ordinary events of the same shape
    "上周刚做完年度述职，终于轻松了。",
    "一直在吃火锅，都吃腻了。",
    "每天都要打卡上班。",
    "已经三年了，时间过得真快。",
    # English (round 6 reads "Had surgery last week." as the speaker's): an order, and a
    # dropped subject after another person is named
    "Have surgery next week if the scan is bad.",
    "My brother? Had surgery last week.",
]


@pytest.mark.parametrize(("text", "category"), POSITIVE)
def test_a_dropped_subject_in_the_speakers_own_turn_is_the_speaker(text, category):
    assert category in find_special_categories(text), text


@pytest.mark.parametrize("text", NEGATIVE)
def test_another_person_a_question_the_topic_advice_and_news_pass(text):
    found = set(find_special_categories(text))
    assert not found, (text, found)


def test_the_clauses_carry_an_implicit_speaker_and_keep_the_last_person_named():
    assert list(dropped_subject_clauses("去年做过手术，现在恢复得很好")) == [
        "我去年做过手术",
        "我做过手术",
        "我现在恢复得很好",
        "我恢复得很好",
    ]
    # someone else named, then the speaker again: only the clause after 我 is the speaker's
    assert list(dropped_subject_clauses("她上周刚出院，我倒是，最近一直在吃药")) == [
        "我最近一直在吃药",
        "我吃药",
    ]
    assert list(dropped_subject_clauses("做完手术要休息")) == []
    assert list(dropped_subject_clauses("上周做完手术，要注意什么？")) == []
    assert list(dropped_subject_clauses("Had surgery last week.")) == []


def test_ordinary_chinese_turns_pass():
    held = [t for t in ORDINARY_ZH if find_special_categories(t)]
    assert held == []
