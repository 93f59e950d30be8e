"""Round 13 of issue 32: special categories told without a category word
(memory/detectors/spec_frames.py), and the probe 13 sets
(tests/data/detector_probe13_special_{tune,report}.jsonl), committed (31ffb52) before any
rule of the round. Only the tuning half's misses were read; the reporting half is counted.

Each mechanism is tested on what it must catch and on ordinary text beside it that it must
let through (another person, a job, a pet, the topic, exertion, a question)."""

from __future__ import annotations

from collections import Counter

import pytest

from memory.detectors.special_categories import find_special_categories
from tests.helpers.probes import caught_and_wrong, probe_rows

CATCH = [
    # a recurring bodily episode (a panic attack told by the body), warning signs
    ("My chest gets tight and my hands go numb every time I board a plane.", "health"),
    ("每次开会发言我都心慌手抖，喘不过气。", "health"),
    ("I've had blood in my stool twice this month.", "health"),
    ("I've dropped 8 kg without trying since summer.", "health"),
    ("I keep hearing voices at night when nobody is there.", "health"),
    ("我最近总是盗汗。", "health"),
    # a device the speaker lives with
    ("I rely on a BiPAP at night.", "health"),
    ("My stent was put in after the heart attack.", "health"),
    ("I've got a metal plate in my left ankle from the crash.", "health"),
    ("我脑袋里装了一个分流管。", "health"),
    # a dose of a named medicine; my + a listed medicine; 靠 + a medicine
    ("I'm taking two capsules of pregabalin a day now.", "health"),
    ("My evening dose of clozapine makes me drowsy.", "health"),
    ("My sertraline ran out on Friday.", "health"),
    ("我离不开安眠药，一停就睡不着。", "health"),
    # a therapy, a clinic, a scope, an analyte with a value beside the clinic
    ("My occupational therapist is fitting rails in the bathroom.", "health"),
    ("I started CBT sessions for my anxiety in May.", "health"),
    ("我在做针灸治疗，每周两次。", "health"),
    ("I have a check-up at the diabetes clinic on Monday.", "health"),
    ("我下周去风湿门诊复查。", "health"),
    ("我昨天做了无痛胃镜。", "health"),
    ("我的 LDL 这次是 4.6，医生让我吃药。", "health"),
    # pregnancy, disability, a joint replacement
    ("我今天早上测出两道杠了。", "health"),
    ("My C-section scar still aches.", "health"),
    ("I can't walk more than 100 metres without stopping.", "health"),
    ("My hip replacement went well.", "health"),
    # religion
    ("I don't eat from dawn until sunset this month.", "religion"),
    ("I break my fast at sunset with my neighbours.", "religion"),
    ("I light incense at my home altar every morning.", "religion"),
    ("I keep the Shabbat with my family.", "religion"),
    ("我每逢初一十五都去庙里烧香。", "religion"),
    ("斋月里我白天不吃东西。", "religion"),
    # trade union, politics
    ("I was elected to the staff council last year.", "trade_union"),
    ("我是公司的职工代表。", "trade_union"),
    ("我去年参加了罢工。", "trade_union"),
    ("I delivered leaflets for the Green candidate last week.", "political"),
    # orientation by the partner's gender
    ("I'm a woman and my girlfriend is moving in with me.", "sexual_orientation"),
    ("My fiancée and I are both women.", "sexual_orientation"),
    ("我女朋友和我都是女生。", "sexual_orientation"),
    ("我是男生，男朋友在北京工作。", "sexual_orientation"),
    # ethnicity, biometrics, criminal record
    ("Being half Ethiopian, I grew up with injera at home.", "ethnicity"),
    ("我去出入境录了指纹。", "biometric"),
    ("I got a drink-driving ban last year.", "criminal_record"),
    ("我有诈骗前科。", "criminal_record"),
    ("我被行政拘留过五天。", "criminal_record"),
    # broadened after the first held-out run (written here, not taken from any set)
    ("Out of nowhere my heart races, my vision narrows and I sit down until it passes.", "health"),
    ("我在超市里突然心跳加速、呼吸困难，感觉自己要失控了。", "health"),
    ("There's a titanium rod in my back from the accident.", "health"),
    ("I was fitted with a cochlear implant at forty.", "health"),
    ("我身上挂着胰岛素泵，洗澡要摘下来。", "health"),
    ("I inject myself every other morning.", "health"),
    ("I'm 400 days sober today.", "health"),
    ("I'm the union rep for our depot.", "trade_union"),
    ("I sit on the union's negotiating team this year.", "trade_union"),
    ("我在工会当小组长。", "trade_union"),
    ("We're a two-mum family and the school has been lovely.", "sexual_orientation"),
    ("I'm a man. My husband and I just bought a house.", "sexual_orientation"),
    ("我也是女生，女朋友比我小两岁。", "sexual_orientation"),
    # basic forms the frames lacked; an agent's third-person report (spec_readings)
    ("I had a panic attack on the train this morning.", "health"),
    ("I have a VNS implant for my seizures.", "health"),
    ("I've been going to therapy for my anxiety since June.", "health"),
    ("I pray at the gurdwara on Sundays.", "religion"),
    ("I was in prison for five years.", "criminal_record"),
    ("I'm active in my union.", "trade_union"),
    ("The user mentioned they are on dialysis three times a week.", "health"),
    ("User attends mass every Sunday.", "religion"),
    ("The user served time for burglary.", "criminal_record"),
    ("用户说自己在吃抗抑郁药。", "health"),
]

LET_THROUGH = [
    # exertion, fear at a film, one sign only, a question
    "My heart was pounding and I couldn't breathe after the hill sprint.",
    "Every time I watch that film my heart races and my hands go cold.",
    "I was shaking with excitement at the concert.",
    "Is blood in the urine always serious?",
    # a device that is not in the body, another person's, a pet's
    "I've got a chip on my shoulder about it.",
    "I've got a plate on my desk with cookies.",
    "My dad has a stent now and feels fine.",
    "My dog has a shunt in his liver, the vet says.",
    "My ICD-10 code list is outdated.",
    # doses that are not a medicine, batteries, another's medicine
    "I had half a tablet of paracetamol for the headache.",
    "My last dose of coffee was at noon.",
    "I keep my lithium batteries in a drawer.",
    "My mum's metformin is in the cupboard.",
    # clinics of no care, work, someone else's visit; eyeglasses
    "I was at the legal clinic helping a friend with forms.",
    "I took my bike to the bike clinic at the shop.",
    "I work at the fertility clinic as a receptionist.",
    "I waited at the eye clinic while my dad had his test.",
    "我去医院门诊帮我妈挂了号。",
    "我去眼镜店配了一副眼镜。",
    "我的 KPI 上次是 85，老板说要加油。",
    "I can't walk more than a mile in these shoes.",
    # faith: the topic, another's, a month's resolution
    "我在写一篇关于安息日传统的文章。",
    "我读到犹太人安息日不工作。",
    "I gave up sugar for January.",
    "My flatmate breaks her fast at sunset, so I cook late.",
    "初一十五庙里人很多。",
    # union and politics: another's, a club, a fair
    "我同事是职工代表。",
    "I chair our local book club.",
    "I handed out flyers for the Spring Fair committee.",
    # partners of the other gender, a shared job
    "I'm a man and my wife is a teacher.",
    "I'm a woman and my husband cooks.",
    "My husband and I are both teachers.",
    "我老公和我都是老师。",
    "我是男生，女朋友在上海。",
    # adjectives, another's fingerprints, a red card
    "Being half asleep, I missed the stop.",
    "我在派出所给人录指纹。",
    "我哥有前科。",
    "I have a blue badge holder in the car for my mum.",
    "I was sweating and shaking before my presentation.",
    "After the spin class I felt dizzy and couldn't catch my breath.",
    "I was fitted with a new suit for the wedding.",
    "我装了一个新的路由器。",
    "I get a flu jab every autumn.",
    "I'm sober tonight because I'm driving.",
    "I cut myself shaving this morning.",
    "I met the union rep at lunch.",
    "我在工会的帮助下拿回了工资。",
    "我同事当选了员工代表。",
    "I'm a woman and my girlfriends and I went to brunch.",
    "我也是女生，周末和闺蜜去逛街。",
    "I'm a man. My wife is a teacher.",
    "I teach a first-aid class at the detox clinic's community hall.",
    "我的狗得了皮炎，一直在吃药。",
    "我家猫咪确诊了肾病。",
    "My imposter syndrome kicks in at every review.",
    "I was in prison visiting my brother.",
    "I went to jail in Monopoly twice.",
    "My covid test was negative.",
    "I went to the temple to see the cherry blossoms.",
    "I'm on the waiting list for a new iPhone.",
    "The user's mother has diabetes.",
    "User mentioned her son has epilepsy.",
    "The user said they like jazz.",
    "用户说他妈妈有高血压。",
    "用户的同事确诊了肺炎",
]


@pytest.mark.parametrize(("text", "category"), CATCH)
def test_round13_frames_catch(text, category):
    assert category in find_special_categories(text)


@pytest.mark.parametrize("text", LET_THROUGH)
def test_round13_frames_let_through(text):
    assert find_special_categories(text) == []


@pytest.mark.parametrize("half", ["tune", "report"])
def test_probe13_sets_are_well_formed(half):
    rows = probe_rows(f"detector_probe13_special_{half}")
    kinds = Counter(r["kind"] for r in rows)
    assert kinds["positive"] >= 80 and kinds["hard_negative"] >= 50
    assert all(r["label"] == ("hold" if r["kind"] == "positive" else "store") for r in rows)
    assert {r["lang"] for r in rows if r["kind"] == "positive"} == {"en", "zh", "mixed"}


def test_probe13_halves_share_no_sentence():
    tune = {r["text"] for r in probe_rows("detector_probe13_special_tune")}
    report = {r["text"] for r in probe_rows("detector_probe13_special_report")}
    assert not tune & report


# Before the round (detector alone): tune 36/92 with 0 negatives held, report 48/90 with 1.
# The tune half's three misses are a period pain and two statements of gender identity
# (not flagged by design).
_FLOORS = {"tune": 89, "report": 66}
_CEILINGS = {"tune": 0, "report": 2}


@pytest.mark.parametrize("half", ["tune", "report"])
def test_probe13_floors_and_ceilings(half):
    caught, wrong = caught_and_wrong(
        f"detector_probe13_special_{half}", find_special_categories, positive="hold"
    )
    assert caught >= _FLOORS[half]
    assert wrong <= _CEILINGS[half]


def test_round13_word_gates_answer_as_the_reference(settings):
    """The word gates of ``spec_frames`` are a speed-up behind the literal prefilter's
    switch: with it off every rule is searched, and every text of the round answers the
    same either way (the Hypothesis property over random text is in
    tests/memory/test_detector_prefilter.py)."""
    texts = [t for t, _ in CATCH] + LET_THROUGH
    for half in ("tune", "report"):
        texts += [r["text"] for r in probe_rows(f"detector_probe13_special_{half}")]
    texts += ["I'm 400 days ſober today.", "My \u212aidney disease is back.", "my\tms flared up"]
    settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, "FAST_DETECTION_TEXT": False}
    reference = [find_special_categories(t) for t in texts]
    settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, "FAST_DETECTION_TEXT": True}
    assert [find_special_categories(t) for t in texts] == reference
