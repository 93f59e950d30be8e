"""Round 11 of issue 32: special categories told by an act, a paper or a value
(memory/detectors/act_frames.py): an analyte with a laboratory reading, an organ that
fails, a care routine, an accessibility aid, a faith's dietary rule, a political act,
criminal-justice contact, immigration paperwork, a community or a treatment of identity.
Each frame is tested on what it must catch and on what it must let through, and a
Hypothesis test composes a disclosure with another person, news, a supposition, a plan
and a secret. Sentences written here, not copied from probe 11."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memory.detectors.act_frames import ACT_FRAMES
from memory.detectors.prefilter import search_any_reference
from memory.detectors.special_categories import find_special_categories
from memory.temporal.common import fold_traditional
from memory.text_normalize import normalize_for_detection
from tests.helpers.memories import decide_user_statement

CATCHES = [
    ("My bilirubin came back at 60 this morning.", "health"),
    ("My TSH crept up to 9 on the March blood test.", "health"),
    ("我的血肌酸这次查出来有两百多。", "health"),
    ("私のHbA1c値が7を超えた。", "health"),
    ("제 간 수치가 요즘 계속 높게 나와요.", "health"),
    ("My kidneys only work at about a third now.", "health"),
    ("我的颈椎间盘压迫神经，手一直发麻。", "health"),
    ("I clean my stoma every morning before breakfast.", "health"),
    ("我每天都要给自己大腿上打一针。", "health"),
    ("I rely on NVDA to read every page at work.", "health"),
    ("我靠盲杖上下班。", "health"),
    ("我爬两层楼就喘不过气，气雾剂一直随身带着。", "health"),
    ("I only eat halal chicken, even at barbecues.", "religion"),
    ("我吃长素十几年了。", "religion"),
    ("라마단 동안에는 해가 질 때까지 안 먹어요.", "religion"),
    ("I knocked on doors for the Greens all last weekend.", "political"),
    ("I donated forty dollars to the mayor's re-election fund.", "political"),
    ("저는 이번 선거에서 진보당 후보 선거운동을 했어요.", "political"),
    ("My sentencing hearing is next Thursday.", "criminal_record"),
    ("I served four years in Parkhurst and was released on licence.", "criminal_record"),
    ("我下个月要开庭。", "criminal_record"),
    ("私は保護観察中です。", "criminal_record"),
    ("My H-1B extension was denied in May.", "ethnicity"),
    ("我的绿卡排期又往后推了。", "ethnicity"),
    ("I've joined the local queer football team and play every Sunday.", "sexual_orientation"),
    ("我们彩虹群周五晚上聚餐。", "sexual_orientation"),
]

LET_THROUGH = [
    "My BMW is 12 years old.",
    "My GPA was 3.8 last term.",
    "My bilirubin lecture is at 9.",
    "My sister's kidneys only work at a third.",
    "The liver only works if you treat it well, the article said.",
    "I clean my bike every Sunday.",
    "我每天给自己做一杯咖啡。",
    "I use a cane-sugar syrup in my coffee every morning.",
    "I rely on my phone to find everything.",
    "我奶奶靠拐杖走路。",
    "我防晒喷雾一直随身带着。",
    "I only eat organic chicken.",
    "I fast every Monday to lose weight.",
    "I spent a year in Madrid before the release of my novel.",
    "I did three months in Kyoto and came out speaking Japanese.",
    "我妈吃长素十几年了。",
    "I knocked on doors for the charity run.",
    "I donated forty dollars to the school's book fund.",
    "My brother's sentencing hearing is next Thursday.",
    "新闻说他下个月要开庭。",
    "私は毎週テニスコートに通っています。",
    "My friend's H-1B extension was denied.",
    "If my visa is denied, I'll move to Lisbon.",
    "I went to a book group at the library every Monday.",
    "我们读书群周五晚上聚餐。",
    "保護観察について母がテレビで見た。",
    "제 동생이 요즘 혈당 수치가 높게 나와요.",
    "在留カードの更新がオンラインでできるという記事を読んだ。",
]


def _act_frames_find(text: str) -> bool:
    form = fold_traditional(normalize_for_detection(text))
    return any(search_any_reference(rules, form) for rules in ACT_FRAMES.values())


@pytest.mark.parametrize(("text", "category"), CATCHES)
def test_catches_the_speakers_act(text, category):
    assert category in find_special_categories(text)
    form = fold_traditional(normalize_for_detection(text))
    assert search_any_reference(ACT_FRAMES[category], form)


@pytest.mark.parametrize("text", LET_THROUGH)
def test_lets_through_others_news_suppositions_and_everyday_acts(text):
    assert not _act_frames_find(text)


# (the speaker's, another person's, news, supposed) forms of one act
_FORMS = [
    (
        "My ferritin came back at 5 on the bloods.",
        "{o}'s ferritin came back at 5 on the bloods.",
        "The paper says ferritin came back at 5 for most runners.",
        "If my ferritin came back at 5, I'd need iron.",
    ),
    (
        "I flush my port every evening.",
        "{o} flushes the port every evening.",
        "In the novel, the nurse flushes her port every evening.",
        "Would I flush my port every evening?",
    ),
    (
        "I leafleted for the Liberals on Saturday.",
        "{o} leafleted for the Liberals on Saturday.",
        "The news said volunteers leafleted for the Liberals on Saturday.",
        "If I leafleted for the Liberals, would anyone notice?",
    ),
    (
        "My court date is the ninth.",
        "{o}'s court date is the ninth.",
        "The court date in the film is the ninth.",
        "What if my court date is the ninth?",
    ),
    (
        "我的居留许可续签被拒了。",
        "{z}的居留许可续签被拒了。",
        "新闻说很多人的居留许可续签被拒了。",
        "如果我的居留许可续签被拒了怎么办？",
    ),
    (
        "我吃斋，不碰荤腥。",
        "{z}吃斋，不碰荤腥。",
        "小说里的老太太吃斋，不碰荤腥。",
        "要是我吃斋的话，年夜饭怎么办？",
    ),
]
_OTHERS_EN = ["My aunt", "Our lodger", "His brother"]
_OTHERS_ZH = ["我妈", "我同事", "他"]
_PLANS = ["Next month I'll move to the Leeds office.", "下个月起我改成周四上班。"]
_SECRETS = ["My alarm code is 5581.", "我的网银密码是730164。"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    forms=st.sampled_from(_FORMS),
    which=st.sampled_from(["other", "news", "supposed"]),
    plan=st.sampled_from(["", *_PLANS]),
    other=st.integers(min_value=0, max_value=2),
)
def test_only_the_speakers_stated_act_is_read(forms, which, plan, other):
    """The speaker's form is found; another person's, news or fiction and a supposition
    are not, with or without a plan of the user's beside them."""
    mine, theirs, news, supposed = forms
    assert _act_frames_find(f"{mine} {plan}".strip())
    text = {
        "other": theirs.format(o=_OTHERS_EN[other], z=_OTHERS_ZH[other]),
        "news": news,
        "supposed": supposed,
    }[which]
    assert not _act_frames_find(f"{text} {plan}".strip())


NOW = datetime(2026, 12, 6, 9, 0, tzinfo=UTC)


def _decide(text: str):
    return decide_user_statement(text, now=NOW, learned_detectors=False)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    forms=st.sampled_from(_FORMS),
    secret=st.sampled_from(_SECRETS),
    plan=st.sampled_from(_PLANS),
    order=st.permutations([0, 1, 2]),
)
def test_precedence_a_secret_refuses_else_the_act_holds(forms, secret, plan, order):
    """A secret beside the speaker's act and a plan is refused (``secret_detected``);
    without the secret the act is held for confirmation, whatever the order."""
    parts = [forms[0], secret, plan]
    decision = _decide(" ".join(parts[i] for i in order))
    assert (decision.operation, decision.reason_code) == ("REJECT", "secret_detected")
    held = _decide(" ".join(p for p in (parts[i] for i in order) if p != secret))
    assert held.operation == "QUARANTINE"
