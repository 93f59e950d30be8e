"""Special categories told by the course of something in the speaker's life rather than
by a category word (issue 32, round 12).

Round 11's frames (``act_frames``) read acts and papers. These read a *course*: a treatment
started or taken in a dosage form, a value that changed between
two tests, a stay as an inpatient, a relapse a clinician named, a scripture recited on a
schedule, the five daily prayers, a descent on one side of the family, a sentence served,
a record kept, a body's vein pattern enrolled. Each is a closed frame around a noun class
closed by its kind or read by its shape, tied to the speaker:

- **health**: a clinician who "started/put me on" a single medicine, beside a word of
  dosing or monitoring (levels, dose, bloods, side effects); the speaker "on" a medicine in
  a dosage form (patches, injections, tablets); an analyte (read by its shape, as in
  ``act_frames``) that doubled or rose, beside a test or a referral; 我的…(酸|酶|酐|…) or a
  Latin abbreviation that rose, beside a word of the clinic; the speaker an inpatient, or
  on a psychiatric, cardiac or oncology ward, 我…住院; a clinician saying it relapsed
  (a pregnancy counted, due or read on a test is read in ``spec_shown`` since round 21);
- **religion**: the five daily prayers the speaker keeps; a scripture (《…经》) recited or
  copied on a schedule;
- **ethnicity**: a descent on one side of the family ("my mother's side is Romani", "I'm
  half Samoan on my dad's side"); "as a Hakka kid growing up in …, I";
- **criminal record**: a term served for an offence ("I did eighteen months for
  burglary" beside a word of the justice system) or "inside"; 我…留过案底 / 有前科;
- **biometrics**: 我把指静脉/掌静脉/声纹 录进 a system.

Every rule is read sentence by sentence and skips a sentence that supposes or asks
(``life_frames._Stated``); the English frames start at I/my (or a clinician acting on
"me"), the Chinese at 我 with no one else's act in the gap.

``mixed_readings`` reads a Chinese clause whose object is said in English (我是 gay,
我这周开始吃 Lexapro) as the English sentence it means (I'm gay, I'm taking Lexapro), for
the English rules; a clause that supposes, asks or names another person is not read.
"""

from __future__ import annotations

import re

from memory.detectors.act_frames import _ANALYTE_EN
from memory.detectors.life_frames import _ZH_GAP, _stated
from memory.detectors.open_noun_frames import _ADV, _I, _IM, _MY, _ZH_I, _each

_F = re.IGNORECASE

# --- health: a course of treatment ------------------------------------------------------
_CLINICIAN_EN = (
    r"(?:they|the\s+doctors?|my\s+doctor|doctors?|dr\s+\w+|the\s+gp|my\s+gp|gp|psychiatrist|"
    r"my\s+psychiatrist|consultant|my\s+consultant|the\s+clinic|the\s+hospital|the\s+nurse)"
)
# What a clinician puts a person "on" that is not a medicine (a shift, a list, hold).
_NOT_MEDICINE_EN = (
    r"(?:the|a|an|my|hold|leave|notice|nights?|days?|earlies|lates|weekends?|shifts?|speaker|"
    r"mute|probation|standby|track|board|call|duty|it|to|the\s+list)\b"
)
_MONITORED_EN = (
    r"(?:levels?|dose|doses|dosage|bloods?|blood\s+tests?|mg|side[- ]effects?|checked|"
    r"prescri\w+|refills?|tablets?|pills?)"
)
_FORM_EN = r"(?:patch(?:es)?|injections|jabs|shots|tablets|pills|capsules|infusions|drips)"
# Supplements are taken in the same forms and are not a finding.
_SUPPLEMENT_EN = (
    r"(?:vitamin|fish|protein|iron|multivitamin|magnesium|zinc|collagen|diet|caffeine)\b"
)
_COURSE = [
    *_each(
        [
            # they started me on lithium … my levels checked every six weeks
            rf"\b{_CLINICIAN_EN}\s+{_ADV}(?:started|put|switched|moved)\s+me\s+(?:on|onto)\s+"
            r"(?:a\s+(?:low|high|small|higher|lower)\s+dose\s+of\s+)?"
            rf"(?!{_NOT_MEDICINE_EN})[a-z]{{4,}}\b(?=[^.!?;]{{0,70}}?\b{_MONITORED_EN}\b)",
            # I've been on estradiol patches for eighteen months
            rf"{_I}\s+{_ADV}on\s+(?!{_SUPPLEMENT_EN})[a-z]{{4,}}\s+{_FORM_EN}\b",
            # my PSA has doubled since last year and they've ordered a biopsy
            rf"{_MY}\s+{_ANALYTE_EN}(?:\s+(?:levels?|count|result|reading))?\s+(?:has|have|had)\s+"
            rf"{_ADV}(?:doubled|tripled|halved|gone\s+up|crept\s+up|shot\s+up|risen|dropped|"
            r"fallen)\b(?=[^.!?]{0,60}?\b(?:biopsy|scans?|bloods?|results?|clinic|consultant|"
            r"specialist|referr\w+|ordered|urologist|oncologist|tests?)\b)",
            # I spent two weeks as an inpatient; I was on the psych unit
            rf"{_I}\s+{_ADV}(?:spent\s+[^.!?;]{{1,24}}?\s+as\s+an?\s+|was\s+(?:admitted\s+)?(?:as\s+)?an?\s+|"
            r"'m\s+an?\s+|am\s+an?\s+)inpatient\b",
            rf"{_I}\s+{_ADV}(?:was|spent\s+[^.!?;]{{1,24}}?)\s+(?:admitted\s+)?(?:to|on|in)\s+(?:the\s+|a\s+)?"
            r"(?:psych(?:iatric)?|mental\s+health|eating\s+disorders?|detox|cardiac|stroke|oncology|"
            r"cancer|maternity)\s+(?:unit|ward|hospital)\b",
            # I go to therapy every week; my counsellor and I are working through the nightmares
            rf"{_I}\s+{_ADV}(?:go|went|going|started|start|attend|attended|attending|'m\s+in|am\s+in|"
            r"was\s+in|been\s+going)\s+(?:to\s+)?(?:weekly\s+|group\s+|my\s+)?(?:therapy|counsell?ing|"
            r"psychotherapy|cbt|emdr|dbt)\b(?!\s+(?:dogs?|class|course|degree|training|for\s+(?:my|his|her|their)))",
            rf"{_MY}\s+(?:therapist|counsell?or|psychologist|psychiatrist|cpn|care\s+coordinator)\s+and\s+I\s+"
            r"(?:are|have\s+been|were|'ve\s+been)\s+(?:working|talking|going)\s+(?:through|on)\b",
        ],
        _F,
    ),
    # 我的肌酐又升了，这次报告上写着186 (an analyte by its suffix)
    re.compile(
        rf"{_ZH_I}的?\s*[\u4e00-\u9fff]{{0,5}}?(?:酸|酶|蛋白|醇|素|酐)\s*(?:又|还|一直|再)?"
        r"(?:升|高|涨|降|低|掉|超标|偏高|偏低)了?[^。！？!?]{0,16}?"
        r"(?:报告|化验|复查|加药|减药|医生|大夫|抽血|验血|\d{2,})"
    ),
    # 我的 TSH 又高了，endo 说要加药 (a Latin abbreviation, beside the clinic only)
    re.compile(
        rf"{_ZH_I}的?\s*(?-i:[A-Z][A-Za-z0-9]{{1,5}})\s*(?:又|还|一直|再)?(?:升|高|涨|降|低|掉|超标|偏高|偏低)"
        r"了?[^。！？!?]{0,16}?(?:化验|复查|加药|减药|医生|大夫|抽血|验血|endo|doctor|医院)"
    ),
    # 我去年住院一个月 (not the ward where one works: 住院部, 住院医)
    re.compile(
        rf"{_ZH_I}(?:去年|前年|今年|上个月|上周|之前|曾经|刚|也|还|又|正在|在|已经){{0,3}}住(?:了|过)?(?:[一二三四五六七八九十两\d]+(?:个月|周|天|个星期))?(?:的)?院"
        r"(?!部|医|处|楼)"
    ),
    # 最近我又开始整夜睡不着，心理医生说是复发了
    re.compile(
        rf"{_ZH_I}(?:(?!陪|带|帮|替|家|和|跟)[^。！？!?]){{0,30}}?(?:心理医生|精神科医生|医生|大夫|咨询师|治疗师)"
        r"说(?:是|我)?又?(?:复发|加重|恶化)"
    ),
]

# --- religion: a practice on a schedule -------------------------------------------------
_PRACTICE = [
    re.compile(
        rf"{_I}\s+{_ADV}(?:wash|pray|keep|make|say|do|stop|break)\b[^.!?;]{{0,30}}?\b(?:the\s+)?"
        r"(?:five|5)\s+daily\s+(?:prayers|salah|salat|namaz)\b",
        _F,
    ),
    re.compile(
        rf"{_ZH_I}{_ZH_GAP}{{0,12}}?(?:每天|每晚|每早|早晚|天天|每周|每个?月)[^。！？!?]{{0,14}}?"
        r"(?:念|诵|抄|背)(?:一遍|一段|几遍|一卷|一部|一次)?《[^》]{1,8}经》"
    ),
]

# --- ethnicity: descent -----------------------------------------------------------------
_PARENT_EN = r"(?:mother|father|mum|mom|dad|mam|grandmother|grandfather|nan|gran)'?s"
_DESCENT = _each(
    [
        rf"{_MY}\s+{_PARENT_EN}\s+side\s+(?:is|are|was|were)\s+(?:all\s+|half\s+|mostly\s+)?"
        r"(?-i:[A-Z][^\W\d_A-Z]{3,})\b",
        rf"{_IM}\s+(?:half\s+|part\s+|a\s+quarter\s+)?(?-i:[A-Z][^\W\d_A-Z]{{3,}})\s+on\s+my\s+{_PARENT_EN}\s+side\b",
        r"\bas\s+an?\s+(?-i:[A-Z][^\W\d_A-Z]{3,})\s+(?:kid|child|girl|boy|teenager|teen|woman|man)\s+"
        r"(?:growing\s+up|raised|born)\s+in\b(?=[^.!?]{0,40}?\bI\b)",
    ],
    _F,
)

# --- criminal record: a term served, a record kept --------------------------------------
_NOT_OFFENCE_EN = (
    r"(?:my|the|a|an|his|her|our|their|them|him|it|this|that|work|free|nothing|fun|charity|"
    r"love|money|practice|training|school|college|uni|university)\b"
)
_TERM = [
    *_each(
        [
            rf"{_I}\s+{_ADV}(?:did|served)\s+(?:\w+\s+){{1,2}}(?:years?|months?|weeks?)\s+for\s+"
            rf"(?!{_NOT_OFFENCE_EN})[a-z]{{4,}}\b(?=[^.!?]{{0,80}}?\b(?:checks?|record|released|"
            r"inside|parole|licence|probation|sentence|convict\w*|charged|jail|prison|"
            r"came\s+out|got\s+out)\b)",
            rf"{_I}\s+{_ADV}(?:did|served|spent)\s+(?:\w+\s+){{1,2}}(?:years?|months?|weeks?)\s+inside\b",
        ],
        _F,
    ),
    re.compile(rf"{_ZH_I}{_ZH_GAP}{{0,12}}?(?:留(?:过|了|下)?|有过?)(?:案底|前科|犯罪记录)"),
]

# --- biometrics: a vein pattern or a voice enrolled -------------------------------------
_ENROLLED = [
    re.compile(
        rf"{_ZH_I}{_ZH_GAP}{{0,12}}?把(?:自己的|我的)?(?:[指掌手]静脉|声纹|掌纹)(?:信息|数据)?"
        r"(?:录|登记|采集|注册)(?:进|入|了|好)"
    ),
]

COURSE_FRAMES: dict[str, list] = {
    "health": _stated(_COURSE),
    "religion": _stated(_PRACTICE),
    "ethnicity": _stated(_DESCENT),
    "criminal_record": _stated(_TERM),
    "biometric": _stated(_ENROLLED),
}

# --- a Chinese clause with its object in English ----------------------------------------
_CLAUSE_ZH = re.compile(r"[^，。！？,!?；;\n]+")
_NOT_STATED_ZH = re.compile(r"如果|要是|假如|的话|吗|是否|会不会|以为|觉得别人")
_LATIN = r"([A-Za-z][A-Za-z0-9'’-]*(?:\s+[A-Za-z][A-Za-z0-9'’-]*){0,2})"
_MIXED = (
    (re.compile(rf"^\s*{_ZH_I}(?:也|就|其实|本来就)?是\s*{_LATIN}\s*(?:[的了啊呀]|$)"), "I'm {}."),
    (
        re.compile(
            rf"^\s*{_ZH_I}(?:这周|最近|现在|每天|一直|上个月|上周|今天|就|会|要|也){{0,2}}(?:开始|在|正在)?(?:吃|服用?)"
            rf"(?:着|了)?\s*{_LATIN}\s*(?:[的了啊呀]|$)"
        ),
        "I'm taking {}.",
    ),
    (re.compile(rf"^\s*{_ZH_I}(?:有|得了|确诊了?)\s*{_LATIN}\s*(?:[的了啊呀]|$)"), "I have {}."),
)


def mixed_readings(form: str) -> list[str]:
    """The English sentences that Chinese clauses with an English object mean (我是 gay →
    "I'm gay."); none for a clause that supposes or asks. ``form`` is the normalised text."""
    if not re.search(r"[\u4e00-\u9fff]", form) or not re.search(r"[A-Za-z]", form):
        return []
    out = []
    for sentence in re.split(r"[。！？!?\n]", form):
        if _NOT_STATED_ZH.search(sentence):
            continue
        for clause in _CLAUSE_ZH.findall(sentence):
            for pattern, english in _MIXED:
                m = pattern.search(clause)
                if m:
                    out.append(english.format(m.group(1).strip()))
    return out
