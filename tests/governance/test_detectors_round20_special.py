"""Round 20 of issue 32: special categories shown by a measure, a word's form, an aid, an
enrolment or an observance (memory/detectors/spec_shown.py), and the probe 20 sets
(tests/data/detector_probe20_special_{tune,report}.jsonl), committed before any rule of
the round. Only the tuning half's misses were read; the reporting half is counted.

Each mechanism is tested on what it must catch and on text beside it that it must let
through (another person, a job, the topic, news and fiction, a negation, the same word in
another sense), and a Hypothesis property composes a statement with those frames."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory.detectors.spec_shown import shown_categories
from memory.detectors.special_categories import find_special_categories
from tests.helpers.probes import caught_and_wrong, probe_rows

CATCH = [
    # pregnancy by its measures
    ("I'm 31 weeks pregnant and can't see my feet.", "health"),
    ("I'm nineteen weeks along with twins.", "health"),
    ("I'm in my second trimester, finally some energy.", "health"),
    ("My due date is the 14th of May.", "health"),
    ("I'm due in October with our first.", "health"),
    ("I'm booked for an elective caesarean.", "health"),
    ("我现在孕35周，随时可能生。", "health"),
    ("我孕中期了，胃口变好了。", "health"),
    ("我明天去医院产检。", "health"),
    ("私は妊娠12週です。", "health"),
    ("저는 임신 30주예요.", "health"),
    # procedures by word-formation
    ("I had a thyroidectomy in 2019.", "health"),
    ("I'm down for a bronchoscopy on Thursday.", "health"),
    ("My angiogram showed two blockages.", "health"),
    ("I'm recovering from a septoplasty.", "health"),
    ("I'm going in for a tracheostomy review.", "health"),
    ("我做了肾穿刺活检。", "health"),
    ("我上个月做了膝关节置换。", "health"),
    ("我做了眼睑成形术。", "health"),
    ("我下周做 cystoscopy，有点紧张。", "health"),
    ("昨日、胃カメラを受けました。", "health"),
    # aids, a registered status
    ("My hearing dog wakes me when the alarm goes off.", "health"),
    ("I get around town with a long cane.", "health"),
    ("I'm registered severely sight impaired.", "health"),
    ("我的盲杖折了，得买新的。", "health"),
    ("我是听力二级残疾。", "health"),
    # fertility, recovery meetings
    ("We're starting our second round of ICSI in March.", "health"),
    ("I had my embryo transfer yesterday.", "health"),
    ("我在打促排针，准备取卵。", "health"),
    ("I went to my first NA meeting last night.", "health"),
    ("I've been attending Gamblers Anonymous since spring.", "health"),
    ("我每周都去参加戒毒互助小组。", "health"),
    # observances and rites
    ("I'm observing Yom Kippur this year.", "religion"),
    ("I'm fasting for Ekadashi today.", "religion"),
    ("I gave up chocolate and wine for Lent.", "religion"),
    ("We broke our fast at the masjid with dates.", "religion"),
    ("I say my namaz in the office prayer room.", "religion"),
    ("We lit the Hanukkah candles with the kids.", "religion"),
    ("My temple friends came round for Diwali puja.", "religion"),
    ("I'll take communion at Easter.", "religion"),
    ("我今年第一次封斋。", "religion"),
    ("我每周日去教堂望弥撒。", "religion"),
    # biometric enrolment
    ("I enrolled my fingerprints for the trusted traveller scheme.", "biometric"),
    ("I had my palms scanned for the new payment system.", "biometric"),
    ("I set up voice verification with my bank.", "biometric"),
    ("My palm-vein registration at the gym took a minute.", "biometric"),
    ("我在公司门禁登记了指静脉。", "biometric"),
    ("我开通了声纹登录。", "biometric"),
]

LET_THROUGH = [
    # another person, an occupation, a clinic's service, the topic
    "My daughter-in-law is 31 weeks pregnant.",
    "I'm a sonographer and do twelve-week scans all morning.",
    "The hospital offers bronchoscopy under sedation.",
    "I'm writing a chapter on the history of the appendectomy.",
    "我嫂子孕35周了。",
    "我婆婆做了胃镜。",
    "我是做胃镜的护士。",
    # news, fiction, hearsay
    "The article said the actress is due in October.",
    "新闻说有人孕35周还在上班。",
    # a negation
    "I've never had an angiogram.",
    "我从没去过戒毒互助小组。",
    # the same words in other senses
    "I'm 12 weeks into my apprenticeship.",
    "I love photography and geography.",
    "I weighed out a kilogram of flour.",
    "The histogram of my results looks normal.",
    "I do microscopy at the lab.",
    "我在学技术，准备做程序员。",
    "我做了一个魔术给孩子看。",
    "我明天去配眼镜。",
    "我在研究胃镜图像的算法。",
    "I set up Face ID on my new phone.",
    "I scanned my face into the photo app for a filter.",
    "I broke my fast with toast at ten after my run.",
    "I gave up sugar for the summer.",
    "I lit the candles on the birthday cake.",
    "I go to the Sunday market with my mum.",
    "My church friends and I went to the pub.",
    "I walk the guide dogs at the charity on Sundays.",
    "I volunteer with a puppy-raising programme for guide dogs.",
    "My AAA battery died.",
    "I'm in NATO's press office.",
    "我帮邻居遛导盲犬。",
    "私の母は妊娠30週です。",
    "母が先週、大腸内視鏡検査を受けました。",
    "엄마는 보청기를 껴요.",
    "If I ever needed IVF, I'd go abroad.",
    # held by older rules of the same meaning until round 21 read each concept in one
    # place (spec_shown) and the borrowed term by its complement
    "In the novel, I'm due in October and nobody knows.",
    "I'm 12 weeks along in the course and loving it.",
    "My due date for the thesis is the 14th of May.",
    "I'm due in October for my visa renewal.",
    "我做了代码移植。",
]

# Let through by this round's frames, still held by an older rule of the same meaning
# (life_frames' 做…试管), which reads no sense of the word (docs/write-policy.md, round 21).
OLDER_RULES_HOLD = [
    "我在做试管实验。",
]


@pytest.mark.parametrize(("text", "category"), CATCH)
def test_round20_frames_catch(text, category):
    assert category in find_special_categories(text)


@pytest.mark.parametrize("text", LET_THROUGH)
def test_round20_frames_let_through(text):
    assert shown_categories(text) == []
    assert find_special_categories(text) == []


@pytest.mark.parametrize("text", OLDER_RULES_HOLD)
def test_round20_frames_let_through_where_older_rules_hold(text):
    assert shown_categories(text) == []


@pytest.mark.parametrize("half", ["tune", "report"])
def test_probe20_sets_are_well_formed(half):
    rows = probe_rows(f"detector_probe20_special_{half}")
    kinds = Counter(r["kind"] for r in rows)
    assert len(rows) >= 70 and 3 * (len(rows) - kinds["positive"]) >= len(rows)
    assert all(r["label"] == ("hold" if r["kind"] == "positive" else "store") for r in rows)
    assert {"en", "zh", "ja", "ko", "zh-Hant", "mixed"} <= {r["lang"] for r in rows}


def test_probe20_halves_share_no_sentence():
    tune = {r["text"] for r in probe_rows("detector_probe20_special_tune")}
    report = {r["text"] for r in probe_rows("detector_probe20_special_report")}
    assert not tune & report


# Before the round (detector alone): tune 39/55, report 29/47, no negative held; after
# 55/55 and 46/47 (the report half read once, at the end).
_FLOORS = {"tune": 55, "report": 46}
_CEILINGS = {"tune": 0, "report": 0}


@pytest.mark.parametrize("half", ["tune", "report"])
def test_probe20_floors_and_ceilings(half):
    caught, wrong = caught_and_wrong(
        f"detector_probe20_special_{half}", find_special_categories, positive="hold"
    )
    assert caught >= _FLOORS[half]
    assert wrong <= _CEILINGS[half]


# --- composition: another person, a news or fiction frame, a negation, a future phrase ----
# Each statement in five forms: the speaker's, another person's, the speaker's negated, the
# speaker's as a plan (a future phrase), and the speaker's without a category word of its
# own but in a frame. Documented precedence (spec_shown): another person, a frame of news,
# fiction or hearsay, and a negation each make the sentence stored, whatever else it holds;
# a future phrase does not lift the hold (a booked procedure or a rite to come is still the
# speaker's special-category data).
_STATEMENTS = [
    (
        "health",
        "I had a colonoscopy last week.",
        "My brother had a colonoscopy last week.",
        "I have never had a colonoscopy.",
        "I'm booked for a colonoscopy next month.",
    ),
    (
        "health",
        "My guide dog sleeps under my desk.",
        "My neighbour's guide dog sleeps under her desk.",
        "I don't have a guide dog.",
        "I'm getting my first guide dog in March.",
    ),
    (
        "health",
        "I go to AA meetings on Mondays.",
        "My uncle goes to AA meetings on Mondays.",
        "I don't go to AA meetings.",
        "I'm going to AA meetings from next week.",
    ),
    (
        "health",
        "I'm 20 weeks along.",
        "She is 20 weeks along.",
        "I'm not 20 weeks along.",
        "I will be having an amniocentesis next week.",
    ),
    (
        "religion",
        "I lit the Shabbat candles on Friday.",
        "My aunt lit the Shabbat candles on Friday.",
        "I didn't light the Shabbat candles.",
        "I'll light the Shabbat candles on Friday.",
    ),
    (
        "religion",
        "I'm fasting for Navratri this week.",
        "My roommate is fasting for Navratri this week.",
        "I'm not fasting for Navratri this week.",
        "I'll fast for Navratri next month.",
    ),
    (
        "biometric",
        "I enrolled my palm at the office gate.",
        "My colleague enrolled her palm at the office gate.",
        "I never enrolled my palm at the office gate.",
        "I'll enrol my palm at the office gate tomorrow.",
    ),
    ("health", "我孕28周了。", "我姐孕28周了。", "我没有孕28周。", "我下个月就孕28周了。"),
    (
        "biometric",
        "我在银行录了声纹。",
        "我同事在银行录了声纹。",
        "我没在银行录过声纹。",
        "我明天去银行录声纹。",
    ),
    (
        "health",
        "我上周做了冠脉造影。",
        "我爸上周做了冠脉造影。",
        "我从没做过冠脉造影。",
        "我下周要做冠脉造影。",
    ),
]
_FRAMES_EN = ["In the novel, {}", "The news said {}", "According to the article, {}"]
_FRAMES_ZH = ["小说里，{}", "新闻说{}", "听说{}"]
_BEFORE = ["", "Long week. ", "说实话。", "Anyway. "]
_AFTER = ["", " Thanks.", " 就这样。", "!"]


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(_STATEMENTS),
    st.sampled_from(["me", "other", "negated", "future", "framed", "framed_future"]),
    st.integers(0, 2),
    st.sampled_from(_BEFORE),
    st.sampled_from(_AFTER),
)
def test_round20_composition_precedence(statement, form, frame_at, before, after):
    category, me, other, negated, future = statement
    frames = _FRAMES_ZH if "我" in me else _FRAMES_EN
    sentence = {
        "me": me,
        "other": other,
        "negated": negated,
        "future": future,
        "framed": frames[frame_at].format(me[0].lower() + me[1:] if frame_at else me),
        "framed_future": frames[frame_at].format(future),
    }[form]
    text = f"{before}{sentence}{after}"
    held = category in shown_categories(text)
    assert held == (form in ("me", "future")), text
    if form in ("me", "future"):
        assert category in find_special_categories(text), text
    if form == "other":
        assert find_special_categories(text) == [], text
