"""Round 12 of issue 32: special categories told by a course (memory/detectors/course_frames.py):
a medicine started or taken in a dosage form, a value that changed between tests, an
inpatient stay, a relapse named, a pregnancy counted or due, the five daily prayers, a
scripture recited on a schedule, a descent, a term served, a record kept, a vein pattern
enrolled, and a Chinese clause whose object is said in English. Each frame is tested on what
it must catch and on what it must let through, and Hypothesis composes a disclosure with
another person, a negation, a supposition, a plan after an event and a secret, in Chinese,
English and both. Sentences written here, not copied from probe 12."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.codes import Operation, ReasonCode
from memory.detectors.course_frames import COURSE_FRAMES, mixed_readings
from memory.detectors.prefilter import search_any_reference
from memory.detectors.special_categories import find_special_categories
from memory.models import MemoryStatus
from memory.temporal.common import fold_traditional
from memory.text_normalize import normalize_for_detection
from tests.helpers.memories import decide_user_statement

CATCHES = [
    ("The GP put me on clozapine and I need bloods every week.", "health"),
    ("I've been on testosterone injections since March.", "health"),
    ("My CA125 has gone up again and the consultant wants a scan.", "health"),
    ("I spent a month as an inpatient after the overdose.", "health"),
    ("I've been going to group therapy since the divorce.", "health"),
    ("My psychologist and I have been working on the intrusive thoughts.", "health"),
    ("I was admitted to the eating disorders unit in June.", "health"),
    ("I'm due at the end of August, so no more long flights.", "health"),
    ("I saw two pink lines on the test at 5 am.", "health"),
    ("我怀头胎的时候一直吐。", "health"),
    ("我的预产期是五月二十号。", "health"),
    ("我的胆红素又升了，医生让我下周复查。", "health"),
    ("我的 ALT 一直偏高，医生让我戒酒。", "health"),
    ("我之前住过两个月院。", "health"),
    ("我最近总是心慌，心理医生说是又复发了。", "health"),
    ("我有强迫，出门要检查五遍门锁。", "health"),
    ("我每晚睡前吃半片阿普唑仑。", "health"),
    ("I make wudu and keep the five daily prayers at work.", "religion"),
    ("我每天早上抄一段《金刚经》。", "religion"),
    ("My father's side is Tamil, though I never learned the language.", "ethnicity"),
    ("I'm half Hmong on my mum's side.", "ethnicity"),
    ("As a Roma girl growing up in Slovakia I was put in a special class.", "ethnicity"),
    ("I served four years for arson and got out in 2019.", "criminal_record"),
    ("I did two years inside for dealing.", "criminal_record"),
    ("我年轻时有过前科，现在找工作都不敢说。", "criminal_record"),
    ("我在医院把掌静脉录进去了。", "biometric"),
]

MIXED = [
    ("我是 bi，男女都喜欢过。", "sexual_orientation"),
    ("我最近开始吃 Zoloft，睡得好多了。", "health"),
    ("我有 ADHD，开会很难集中。", "health"),
]

LET_THROUGH = [
    "The GP put me on the waiting list for a new knee.",
    "My manager put me on nights for the whole of December.",
    "I've been on protein shakes since I started lifting.",
    "My GPA has gone up since last year.",
    "I spent a month as an intern at the hospital.",
    "I went to a therapy dog session at the library.",
    "My brother goes to therapy on Thursdays.",
    "My careers counsellor and I worked on my CV.",
    "I'm due in court on Tuesday as a witness.",
    "I'm due a pay rise in March.",
    "Got two lines of the poem by heart before class.",
    "我朋友怀二胎了。",
    "我去医院看望住院的同事。",
    "我在住院部当护士。",
    "我的 KPI 又高了，老板很满意。",
    "我的工资又涨了，报告下周交。",
    "The five daily prayers were explained in the documentary.",
    "我每天早上看一段新闻。",
    "My mother's side is huge, we need two tables at Christmas.",
    "My dad's side lives in Texas.",
    "I did eighteen months for my masters and then moved to Leeds.",
    "I did three years for Deloitte before the startup.",
    "我同事留过案底。",
    "If I ever had a record, I'd want it sealed.",
    "I ran 5 km and my resting heart rate was 48.",
]


def _course_find(text: str) -> bool:
    form = fold_traditional(normalize_for_detection(text))
    return any(search_any_reference(rules, form) for rules in COURSE_FRAMES.values())


@pytest.mark.parametrize(("text", "category"), CATCHES)
def test_catches_the_speakers_course(text, category):
    assert category in find_special_categories(text)
    form = fold_traditional(normalize_for_detection(text))
    assert search_any_reference(COURSE_FRAMES[category], form) or category == "health"


@pytest.mark.parametrize(("text", "category"), MIXED)
def test_a_chinese_clause_with_an_english_object_is_read_in_english(text, category):
    assert category in find_special_categories(text)
    assert mixed_readings(fold_traditional(normalize_for_detection(text)))


@pytest.mark.parametrize("text", LET_THROUGH)
def test_lets_through_others_jobs_suppositions_and_everyday_courses(text):
    assert not _course_find(text)
    assert not find_special_categories(text)


# (the speaker's form, another person's, negated, supposed) of one disclosure
_FORMS = [
    (
        "They started me on lamotrigine and the dose goes up every fortnight.",
        "They started {o} on lamotrigine and the dose goes up every fortnight.",
        "They never started me on anything, the dose talk was about {o}.",
        "If they started me on lamotrigine, would the dose go up every fortnight?",
    ),
    (
        "I did five years for robbery and the record still comes up on checks.",
        "{o} did five years for robbery and the record still comes up on checks.",
        "I never did time for anything; the record check was clean.",
        "What if I did five years for robbery and the record still came up?",
    ),
    (
        "My grandmother's side is Sámi.",
        "{o}'s grandmother's side is Sámi.",
        "Nobody on my grandmother's side is from the north.",
        "Would it matter if my grandmother's side is Sámi?",
    ),
    (
        "我怀二胎了。",
        "{z}怀二胎了。",
        "我没怀二胎，只是胖了。",
        "如果我怀二胎了怎么办？",
    ),
    (
        "我是 gay。",
        "{z}是 gay。",
        "我不是 gay。",
        "如果我是 gay 呢？",
    ),
    (
        "我这周开始吃 Lexapro。",
        "{z}这周开始吃 Lexapro。",
        "我没吃 Lexapro。",
        "要是我开始吃 Lexapro 的话会胖吗？",
    ),
]
_OTHERS_EN = ["my brother", "our tenant", "her"]
_OTHERS_ZH = ["我妈", "我同事", "他"]
NOW = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    forms=st.sampled_from(_FORMS),
    which=st.sampled_from(["other", "negated", "supposed"]),
    other=st.integers(min_value=0, max_value=2),
)
def test_only_the_speakers_stated_course_is_found(forms, which, other):
    """The speaker's form is a finding; another person's, a negation and a supposition
    are not (in English, Chinese, and Chinese with the object in English)."""
    mine, theirs, negated, supposed = forms
    assert find_special_categories(mine)
    text = {
        "other": theirs.format(o=_OTHERS_EN[other], z=_OTHERS_ZH[other]),
        "negated": negated.format(o=_OTHERS_EN[other]),
        "supposed": supposed,
    }[which]
    assert not find_special_categories(text), text


def _decide(text: str):
    return decide_user_statement(text, now=NOW, learned_detectors=False)


_SECRETS = ["My alarm code is 5581.", "我的网银密码是730164。"]
_AFTER = ["等合同结束，我就开始吃 Lexapro。", "等搬完家，我会开始吃 Zoloft。"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(forms=st.sampled_from(_FORMS), secret=st.sampled_from(_SECRETS), first=st.booleans())
def test_precedence_a_secret_refuses_else_the_course_is_held_restricted(forms, secret, first):
    """A secret beside the speaker's disclosure is refused (``secret_detected``), in either
    order; without it the disclosure is held for confirmation, restricted."""
    parts = [secret, forms[0]] if first else [forms[0], secret]
    decision = _decide(" ".join(parts))
    assert (decision.operation, decision.reason_code) == (
        Operation.REJECT,
        ReasonCode.SECRET_DETECTED,
    )
    held = _decide(forms[0])
    assert held.operation == Operation.QUARANTINE
    assert held.status == MemoryStatus.PENDING_CONFIRMATION
    assert held.candidate.sensitivity == "restricted"


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.sampled_from(_AFTER))
def test_a_mixed_language_course_after_an_event_keeps_its_restriction(text):
    """A medicine named in English in a Chinese change after an event: the future hold
    keeps the special category's restriction (held, pending confirmation, restricted)."""
    assert "health" in find_special_categories(text)
    decision = _decide(text)
    assert decision.operation == Operation.QUARANTINE
    assert decision.status == MemoryStatus.PENDING_CONFIRMATION
    assert decision.candidate.sensitivity == "restricted"
