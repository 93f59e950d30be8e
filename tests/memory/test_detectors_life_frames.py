"""Round 10 of issue 32: special categories told by a fact of the speaker's life
(memory/detectors/life_frames.py): a body measure with a reading, an aid worn on the body,
a treatment attended, a partner whose gender agrees with the speaker's, a habit at a place
of worship, a vote for a party by its suffix, an asylum or visa process, probation with
its conditions, a biometric taken. Each frame is tested on what it must catch and on what
it must let through, the probe 10 sets are kept as regression floors, and a Hypothesis
test composes a disclosure with the rules it meets (another person, a supposition, a
negation, a plan, a secret) by the documented precedence. Sentences written here, not
copied from probe 10."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memory.detectors.life_frames import LIFE_FRAMES
from memory.detectors.prefilter import search_any_reference
from memory.detectors.special_categories import find_special_categories
from memory.temporal.common import fold_traditional
from memory.text_normalize import normalize_for_detection
from tests.helpers.memories import decide_user_statement

DATA = Path(__file__).resolve().parents[1] / "data"

CATCHES = [
    ("My glucose was 14.2 when I woke up, so I skipped breakfast.", "health"),
    ("My oxygen saturation has been 91 all week.", "health"),
    ("I changed my insulin pump set before the flight.", "health"),
    ("My spare epipen lives in the glovebox.", "health"),
    ("I'm on dialysis three mornings a week.", "health"),
    ("My right knee hasn't bent properly since the accident.", "health"),
    ("I miscarried our twins in the spring.", "health"),
    ("This is my third cycle of ICSI and I'm exhausted.", "health"),
    ("I'm a carrier for sickle cell, the letter came today.", "health"),
    ("我的血压早上量是160，头有点晕。", "health"),
    ("我右耳戴着人工耳蜗，游泳得摘下来。", "health"),
    ("我每个月去找心理医生聊一次。", "health"),
    ("我去年做过三次试管。", "health"),
    ("私は月に二回心療内科に通っています。", "health"),
    ("As a man dating a man in a small town, I keep my head down.", "sexual_orientation"),
    ("我跟我女朋友同居三年了，我自己也是女生。", "sexual_orientation"),
    ("I go to the mosque every Friday lunchtime.", "religion"),
    ("I only eat halal, so the barbecue is tricky.", "religion"),
    ("我每周日上午都去教会。", "religion"),
    ("매주 일요일마다 저는 교회에 다녀요.", "religion"),
    ("上次大选我投给了绿党。", "political"),
    ("I'm the union rep for the night shift.", "trade_union"),
    ("My refugee status hearing got moved to May.", "ethnicity"),
    ("I came over on a tourist visa in 2019 and never left.", "ethnicity"),
    ("我签证早就过期了，还住在朋友家。", "ethnicity"),
    ("I got remanded for two weeks before the trial.", "criminal_record"),
    ("I'm on probation, so I report to the office every Monday.", "criminal_record"),
    ("The border officer took my fingerprints and a photo.", "biometric"),
    ("单位门禁录了我的掌纹。", "biometric"),
    ("There's a heart monitor strapped to my chest until Friday.", "health"),
    ("我是三级视残，看书要用放大镜。", "health"),
    ("我去年装了个人工髋关节。", "health"),
    ("I'm a guy who dates guys, and my parents know.", "sexual_orientation"),
    ("I chaired the branch committee for six years.", "trade_union"),
    ("I've got a conviction for drink-driving from 2015.", "criminal_record"),
    ("I've been on Zelvaran since spring and the dry mouth is constant.", "health"),
    ("ベルソムラを飲み始めてから眠気が残ります。", "health"),
]

LET_THROUGH = [
    "My brother's blood pressure was 170 over 110 at the check.",
    "I run with a heart rate strap and my heart rate was 172.",
    "The hearing aid clinic is moving to the high street.",
    "I'm a respiratory nurse and hand out inhalers all day.",
    "If I were on crutches I couldn't do the stairs here.",
    "I don't use a wheelchair, but my mum does.",
    "我陪外公去做透析。",
    "我妈左耳戴助听器。",
    "我从来不去教堂。",
    "要是我签证过期了怎么办？",
    "I went to the temple ruins at Angkor on holiday.",
    "I voted for the blue paint in the office poll.",
    "The news said three protesters were arrested at the bridge.",
    "I'm on probation at the new job until March.",
    "I scanned my boarding pass at the gate.",
    "我投了小区业委会一票。",
    "Would a voice print be safer than a password?",
    "我家猫做了三次检查。",
    "My sugar cravings are worse in winter.",
    "A GoPro strapped to my chest got the whole ride.",
    "I chair the book club at the library branch.",
    "我每周去医院看望外婆。",
    "我把自己的照片发给了设计师。",
    "I started on Duolingo, and a daily dose of practice helps.",
    "I've been taking Spanish for three years and the grammar is the worst of it.",
]


@pytest.mark.parametrize(("text", "category"), CATCHES)
def test_catches_the_speakers_life_fact(text, category):
    assert category in find_special_categories(text)


@pytest.mark.parametrize(("text", "category"), CATCHES)
def test_the_life_frames_are_what_catch_it(text, category):
    form = fold_traditional(normalize_for_detection(text))
    assert search_any_reference(LIFE_FRAMES[category], form)


@pytest.mark.parametrize("text", LET_THROUGH)
def test_lets_through_others_suppositions_negations_and_the_topic(text):
    assert find_special_categories(text) == []


def _probe(name: str) -> list[dict]:
    lines = (DATA / f"detector_probe10_special_{name}.jsonl").read_text("utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


@pytest.mark.parametrize("name", ["tune", "report"])
def test_probe10_negatives_and_ordinary_turns_pass(name):
    """Every hard negative and ordinary turn of probe 10 is let through by the detector."""
    held = [
        r["text"]
        for r in _probe(name)
        if r["label"] == "store" and find_special_categories(r["text"])
    ]
    assert held == []


# Floors at what this round's detector catches (detector alone; the write path adds the
# learned heads): a later change may raise them, never lower them.
_FLOORS = {"tune": 37, "report": 23}


@pytest.mark.parametrize("name", ["tune", "report"])
def test_probe10_positives_stay_caught(name):
    caught = sum(
        1 for r in _probe(name) if r["label"] == "hold" and find_special_categories(r["text"])
    )
    assert caught >= _FLOORS[name]


NOW = datetime(2026, 12, 6, 9, 0, tzinfo=UTC)


def _decide(text: str):
    return decide_user_statement(text, now=NOW, learned_detectors=False)


# (the speaker's, another person's, negated, supposed) forms of one fact
_FORMS = [
    (
        "I'm on crutches after the op.",
        "{o} is on crutches after the op.",
        "I'm not on crutches any more.",
        "If I'm on crutches after the op, I'll work from home.",
    ),
    (
        "My asylum interview is on Monday.",
        "{o}'s asylum interview is on Monday.",
        "I never had an asylum interview.",
        "If my asylum interview is on Monday, I'll need a lift.",
    ),
    (
        "I go to the gurdwara every Sunday.",
        "{o} goes to the gurdwara every Sunday.",
        "I don't go to the gurdwara every Sunday.",
        "Would I go to the gurdwara every Sunday?",
    ),
    (
        "The bank scanned my iris for the account.",
        "The bank scanned {o}'s iris for the account.",
        "The bank never scanned anyone's iris.",
        "What if the bank scanned my iris for the account?",
    ),
    (
        "我左耳戴助听器。",
        "{z}左耳戴助听器。",
        "我不戴助听器。",
        "如果我左耳戴助听器，会不会被看出来？",
    ),
    (
        "我每周都去清真寺。",
        "{z}每周都去清真寺。",
        "我从来没去过清真寺。",
        "要是我每周都去清真寺的话，会迟到吗？",
    ),
]
_OTHERS_EN = ["My aunt", "Our lodger", "His brother"]
_OTHERS_ZH = ["我妈", "我同事", "他"]
_PLANS = ["Next month I'll move to the Glasgow office.", "下个月起我改成周三上班。"]
_SECRETS = ["My door code is 4417.", "我的支付密码是582913。"]


def _life_frames_find(text: str) -> bool:
    form = fold_traditional(normalize_for_detection(text))
    return any(search_any_reference(rules, form) for rules in LIFE_FRAMES.values())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    forms=st.sampled_from(_FORMS),
    which=st.sampled_from(["other", "negated", "supposed"]),
    plan=st.sampled_from(["", *_PLANS]),
    other=st.integers(min_value=0, max_value=2),
)
def test_only_the_speakers_stated_fact_is_read(forms, which, plan, other):
    """The speaker's form is found; another person's, a negation and a supposition are
    not, with or without a plan of the user's beside them (a plan does not make them
    the speaker's)."""
    mine, theirs, negated, supposed = forms
    assert _life_frames_find(f"{mine} {plan}".strip())
    text = {
        "other": theirs.format(o=_OTHERS_EN[other], z=_OTHERS_ZH[other]),
        "negated": negated,
        "supposed": supposed,
    }[which]
    assert not _life_frames_find(f"{text} {plan}".strip())


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    forms=st.sampled_from(_FORMS),
    secret=st.sampled_from(_SECRETS),
    plan=st.sampled_from(_PLANS),
    order=st.permutations([0, 1, 2]),
)
def test_precedence_a_secret_refuses_else_the_disclosure_holds(forms, secret, plan, order):
    """docs/write-policy.md, Precedence: every refusal comes before every hold — a secret
    beside a disclosure and a plan is refused (``secret_detected``); without the secret
    the disclosure is held for confirmation, whatever the order."""
    parts = [forms[0], secret, plan]
    decision = _decide(" ".join(parts[i] for i in order))
    assert (decision.operation, decision.reason_code) == ("REJECT", "secret_detected")
    held = _decide(" ".join(p for p in (parts[i] for i in order) if p != secret))
    assert held.operation == "QUARANTINE"
