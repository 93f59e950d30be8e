"""Special categories disclosed by *where* the user is treated or held (round 6 of issue 32).

People name the place rather than the condition: "我每周去医院洗肾", "我在生殖医院做了…",
"我在看守所待过半年", "병원에 가서 투석을 받아요". Two closed, published classes of places
carry the meaning, with the user as the one treated or held:

- **a clinical specialty**: the National Health Commission's list of clinical specialties
  (医疗机构诊疗科目名录: 肿瘤科, 精神科/精神卫生, 生殖健康与不孕症, 妇产科, 康复医学科,
  结核病科, 传染科, 内分泌, 血液内科, 肾病学, 风湿免疫, 疼痛科 …) names a field of
  conditions. The user receiving care (a verb of treatment, consultation or a stay) at a
  hospital, centre, clinic or department named by one of them discloses their health.
  Specialties of everyday care (dentistry, eyes, bones, general practice) are left out,
  as everyday injuries are (docs/write-policy.md);
- **a place of custody**: prison, detention centre, police lock-up, compulsory drug
  rehabilitation, juvenile detention (监狱, 看守所, 拘留所, 戒毒所, 劳教所, 少管所) — the
  closed set of custodial institutions in PRC law — with the user staying there.

A third mechanism reads the sentence once more with a general place of care taken out
from between 我 and the verb (``without_care_place``): "我每周去医院做透析" is read as
"我每周做透析" by the existing rules, which know the treatment but not the detour.

Someone else treated there (我妈在肿瘤医院化疗, 我陪我老公去…), a job or a landmark
(我在肿瘤医院食堂上班, 我去医院对面的超市) and a visit (看望, 探望) do not match.
"""

from __future__ import annotations

import re

# 我 and not 我们, followed only by words of time, frequency or aspect (no other person).
_ZH_I = r"我(?!们|們)"
_ZH_WHEN = (
    r"(?:[上下这本]个?(?:周|週|月|星期)|明天|今天|昨天|去年|前年|今年|最近|已经|正在|现在|一直|长期|以前|"
    r"之前|曾经|小时候|年轻时|每[一两二三四\d]?个?(?:[天晚早日月年]|[周週]|星期)(?:[一二三四五六日天](?:[、和][一二三四五六日天])*)?|"
    r"[周週][一二三四五六日天](?:[、和][一二三四五六日天])*|"
    r"定期|按时|才|刚刚?|早上|晚上|都|也|还|就|要|得|会|又|先后)"
)
# The specialties of the NHC list whose name is a field of conditions (not everyday care).
_SPECIALTY_ZH = (
    r"肿瘤|癌症|精神卫生|精神病|精神|心理|身心|生殖|不孕不育|妇产|(?<![生物资房财矿水特地遗])产(?=科)|康复|透析|血透|戒毒|传染病|结核病?|"
    r"性病|艾滋病|肝病|肾内|肾病|内分泌|血液(?=内|科)|风湿免疫|风湿|疼痛|胸(?=科)|肛肠|老年病|临终关怀|安宁疗护"
)
# The specialty names the place itself: only 医学/专科 may stand between (生殖医学中心,
# 肿瘤专科医院), so a word merely containing it (心理学院, 心理研究所) is not one.
_FACILITY_ZH = r"(?:医学|专科)?(?:医院|病院|中心|门诊|诊所|科|病房|病区)"
# What the user does there: is treated, consulted, examined, admitted, medicated.
_CARE_ZH = (
    r"(?:看病|看门诊|看医生|就诊|复诊|复查|随访|检查|治疗|治|住院|住了|住过|待过|待了|呆过|"
    r"做(?!志愿者|义工|保洁|护工|讲座|采访|调研|宣传|演讲|报告|饭)(?![\u4e00-\u9fff]{0,4}工作)|打|输|拿药|开药|配药|拿了|开了|"
    r"吃药|扎|建档|建了档|产检|抽血|拍片|挂号|手术|咨询|评估|报到|取卵|移植|理疗|针灸)"
)
_CARE_SETTING = re.compile(
    rf"{_ZH_I}{_ZH_WHEN}{{0,6}}(?:去|到|在|上|进)(?:了|过)?(?:[\u4e00-\u9fff]{{0,6}}?)"
    rf"(?:{_SPECIALTY_ZH}){_FACILITY_ZH}(?:里|里面)?"
    rf"(?:{_ZH_WHEN}){{0,3}}(?:去|来)?{_CARE_ZH}"
)
# The custodial institutions of PRC law, and a stay there (or a sentence served in one).
_CUSTODY_ZH = r"监狱|看守所|拘留所|戒毒所|劳教所|劳改|少管所|管教所|局子|号子|牢里|牢房|大牢"
_CUSTODY = re.compile(
    rf"{_ZH_I}{_ZH_WHEN}{{0,4}}(?:在|进|去|到|被关进|被送进|被送到)(?:了|过)?(?:{_CUSTODY_ZH})"
    r"(?:里|里面)?(?:待|呆|关|蹲|住|坐)(?:过|了)"
    rf"|{_ZH_I}{_ZH_WHEN}{{0,4}}(?:坐过|蹲过|坐了)[^。！？，,\n]{{0,5}}?(?:牢|监)"
    rf"|{_ZH_I}{_ZH_WHEN}{{0,4}}(?:因为[^。！？\n]{{0,12}}?)?被(?:劳教|劳改|拘|拘留|刑拘|行政拘留|关押|收监|判)"
    r"(?!了个|得|断)"
)
# Dialysis by its everyday names (洗肾 "washing the kidneys", 血透, 腹透).
_DIALYSIS_ZH = re.compile(rf"{_ZH_I}{_ZH_WHEN}{{0,6}}(?:在|去|做)?(?:洗肾|血透|腹透)")
# English: a stay of some length somewhere, ended by the user's release or parole.
_RELEASED_EN = re.compile(
    r"\bi\s+(?:(?:also|just|once)\s+)?(?:spent|did|served)\s+(?:\w+\s+){1,3}?(?:days?|weeks?|months?|years?)\s+"
    r"(?:in|at|inside)\b[^.!?\n]{0,40}?\b(?:before|until|till|since|after)\s+(?:my\s+(?:release|parole)|"
    r"i\s+(?:was|got)\s+(?:released|paroled))\b(?!\s+(?:of|on|by)\b)",
    re.IGNORECASE,
)
# Japanese and Korean: a treatment received by the speaker (Korean had no dialysis or
# chemotherapy form; Japanese had, Korean parity).
_TREATED_KO = re.compile(
    r"(?:저는|나는|제가|내가)\s*(?:\S+\s+){0,4}?(?:혈액\s*)?(?:투석|항암\s*치료|항암제|방사선\s*치료|"
    r"인슐린\s*주사|정신과\s*치료|재활\s*치료)(?:을|를)?\s*(?:받|맞|해|하고)"
)

# A general place of care, between 我 (and its time words) and the verb.
_CARE_PLACE = re.compile(
    rf"({_ZH_I}{_ZH_WHEN}{{0,6}})(?:去|到|在|上)(?:了)?[\u4e00-\u9fff]{{0,6}}?"
    r"(?:医院|诊所|卫生院|卫生所|社区医院|门诊部?|医务室|病房)(?:里|里面)?(?:去|来)?"
    r"(?!看望|探望|陪|接|送|上班|工作|值班|实习|食堂|门口|附近|对面|旁边|楼下)"
)


def without_care_place(form: str) -> list[str]:
    """``form`` read without a general place of care between 我 and its verb, once with
    the time words kept and once without them (我每周去医院做透析 → 我每周做透析, 我做透析);
    empty if it has none."""
    if _CARE_PLACE.search(form) is None:
        return []
    return [_CARE_PLACE.sub(r"\1", form), _CARE_PLACE.sub("我", form)]


SETTING_FORMS: dict[str, list[re.Pattern[str]]] = {
    "health": [_CARE_SETTING, _DIALYSIS_ZH, _TREATED_KO],
    "criminal_record": [_CUSTODY, _RELEASED_EN],
}
