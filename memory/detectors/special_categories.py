"""Special categories of personal data (GDPR Art. 9, PIPL Art. 28) about the user.

A sentence is a finding only when the *user* is the subject and the words carry the
meaning: a first-person subject ("I", "my", "我", "我的") governs a verb that asserts
membership, diagnosis, treatment or belief ("I was diagnosed with", "I'm taking",
"I'm a practising", "我确诊了", "我在吃", "我信") whose object comes from a vocabulary of
that meaning (conditions and their suffixes -itis/-osis/症/炎, drug names and their stems
-pram/-xetine/-statin, faiths, parties, unions). So "my doctor friend", "I read about
Buddhism", "religion class", "a charity race for mental health" and "my mom has diabetes"
are not the user's special-category data and pass.

Categories (finding ``special_category_<name>``): health, religion, sexual_orientation,
biometric, political, trade_union, financial_account, location_track, minor (the user is a
child), ethnicity and criminal_record (closed standard classes, ``subject_forms``). Gender
identity and third parties' data are not flagged by a rule (see the README's write policy
section for why). A Chinese clause with its subject dropped (上周刚做完手术) is read with an
implicit 我 when the speaker is the one it is about (``dropped_subject``).
"""

from __future__ import annotations

import re

from memory.detectors.account_kinds import FINANCIAL, personal_iban
from memory.detectors.act_frames import ACT_FRAMES
from memory.detectors.clause_readings import adjunct_readings
from memory.detectors.concept_forms import CONCEPT_FORMS
from memory.detectors.course_frames import COURSE_FRAMES, mixed_readings
from memory.detectors.disclosure_forms import DISCLOSURE_FORMS
from memory.detectors.dropped_subject import dropped_subject_clauses, dropped_subject_clauses_en
from memory.detectors.life_frames import LIFE_FRAMES, StatedText
from memory.detectors.medicine_frames import INN_STEMS_EN, MEDICINE_FRAMES
from memory.detectors.open_noun_frames import OPEN_NOUN_FRAMES
from memory.detectors.prefilter import search_any
from memory.detectors.setting_forms import SETTING_FORMS, without_care_place
from memory.detectors.spec_frames import SPEC_FRAMES
from memory.detectors.spec_readings import user_readings
from memory.detectors.spec_shown import SHOWN
from memory.detectors.special_forms import PARTY_END, SPECIAL_FORMS
from memory.detectors.subject_forms import SUBJECT_FORMS, ZH_TAKES
from memory.detectors.switches import detection_switch
from memory.temporal.common import fold_traditional
from memory.text_normalize import normalize_for_detection

# The user is the subject: "I", or "the user" in an agent's third-person statement.
_I = r"\b(?:i(?:'m|'ve|'d| am| have| had| was)?|(?:the\s+)?user(?:'s| is| has| had| was)?)"
_IM = r"\b(?:i(?:'m| am)|(?:the\s+)?user(?:'s| is))"
_MY = r"\b(?:my|(?:the\s+)?user's)"
_ME_ZH = (
    "(?:我|用户|该用户|本人)(?:去年|前年|今年|最近|一直|从小|早就|已经|之前|几年前|小时候|上个月|"
    "上周|刚刚|刚|终于|也|还|都|就){0,2}"
)


def _zh(pattern: str) -> re.Pattern[str]:
    """A Chinese pattern written with 我 also matches the agent's 用户/该用户."""
    return re.compile(pattern.replace("我", _ME_ZH))


_MOD_EN = (
    r"(?:(?:a|an|some|chronic|severe|mild|moderate|bad|serious|clinical|acute|early[- ]stage|"
    r"late[- ]stage|stage [1-4i]+|type [12i]+|diagnosed|recurring|lifelong)\s+)*"
)

# --- health -----------------------------------------------------------------------------

_CONDITIONS_EN = (
    r"asthma|diabetes|depression|major depressive disorder|(?:generali[sz]ed )?anxiety disorder|"
    r"social anxiety|panic (?:disorder|attacks?)|ptsd|ocd|adhd|autism|asperger'?s|bipolar(?: disorder)?|"
    r"schizophrenia|epilepsy|seizures|migraines?|cancer|leuka?emia|lymphoma|melanoma|carcinoma|"
    r"sarcoma|myeloma|glaucoma|a tumou?r|tumou?rs|hiv|aids|hepatitis(?: [abc])?|tuberculosis|"
    r"hypertension|high blood pressure|high cholesterol|heart disease|a heart condition|"
    r"arrhythmia|(?:rheumatoid )?arthritis|lupus|multiple sclerosis|parkinson'?s|alzheimer'?s|"
    r"dementia|ms|crohn'?s(?: disease)?|ibs|celiac disease|coeliac disease|eczema|psoriasis|"
    r"endometriosis|pcos|infertility|insomnia|sleep apnea|anorexia|bulimia|an eating disorder|"
    r"addiction|alcoholism|a substance use disorder|long covid|chronic fatigue|fibromyalgia|"
    r"kidney disease|hypothyroidism|hyperthyroidism|dyslexia|a disability|chronic pain|"
    r"gout|scoliosis|an? (?:mental|chronic) illness|a mental health condition|"
    r"anxiety(?!\s+(?:about|over|before|when|around|at|on)\b|\s+for\s+(?:the|my|a|an|this|that|tomorrow|today|tonight)\b)|"
    r"(?:an? )?(?!no )(?:[a-z]+ )?allerg(?:y|ies)|a heart murmur|tinnitus|a concussion|covid|"
    r"[a-z]+(?:itis|osis)|(?!academia)[a-z]+emia|[a-z]+ (?:disease|disorder|syndrome|deficiency|cancer|tumou?r)"
)
_DRUGS_EN = (
    r"sertraline|zoloft|fluoxetine|prozac|escitalopram|lexapro|citalopram|celexa|paroxetine|paxil|"
    r"venlafaxine|effexor|duloxetine|cymbalta|bupropion|wellbutrin|mirtazapine|lithium|lamotrigine|"
    r"quetiapine|seroquel|aripiprazole|abilify|olanzapine|risperidone|adderall|ritalin|"
    r"methylphenidate|vyvanse|xanax|alprazolam|valium|diazepam|lorazepam|ativan|clonazepam|"
    r"klonopin|ambien|zolpidem|metformin|insulin|ozempic|semaglutide|levothyroxine|synthroid|"
    r"warfarin|eliquis|prednisone|methotrexate|humira|truvada|antiretrovirals?|"
    r"antidepressants?|an antidepressant|antipsychotics?|anti-anxiety (?:meds|medication)|"
    r"mood stabili[sz]ers?|blood thinners?|chemo(?:therapy)?|statins?|beta[- ]blockers?|"
    r"birth control(?: pills?)?|hormone (?:therapy|replacement)|hrt|" + INN_STEMS_EN
)
_HEALTH_EN = [
    re.compile(
        rf"{_I}\s+(?:(?:also|still|recently|just|actually|always|finally|been)\s+)*"
        r"(?:have|has|had|got|get|suffer(?:ed)? from|suffering from|(?:was|been|got|being) diagnosed with|"
        r"diagnosed with|(?:am|'m|was|been) being treated for|(?:am|'m|was|been) treated for|"
        r"live with|living with|struggle with|struggled with|struggling with|recover(?:ed|ing)? from|"
        r"deal(?:ing|t)? with|cop(?:e|ed|ing) with|"
        r"battl(?:e|ed|ing)|beat|tested positive for|developed|relapsed into)\s+"
        rf"{_MOD_EN}(?:{_CONDITIONS_EN})\b",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_I}\s+(?:(?:also|still|now|daily|just|recently|been)\s+)*"
        r"(?:take|takes|taking|took|need|was prescribed|got prescribed|been prescribed|"
        r"(?:started|stopped|quit) taking|started|(?:am|'m|was) on|on)\s+"
        r"(?:my\s+|daily\s+|some\s+|a\s+(?:low\s+|high\s+)?dose\s+of\s+|\d+\s*mg\s+(?:of\s+)?)*"
        rf"(?:{_DRUGS_EN})\b",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_MY}\s+(?:(?:chronic|severe|mild|bad)\s+)?(?:asthma|diabetes|depression|anxiety disorder|"
        r"adhd|autism|bipolar|schizophrenia|epilepsy|migraines|cancer|tumou?r|hiv(?: status)?|"
        r"diagnosis|prognosis|therapist|psychiatrist|psychologist|oncologist|medications?|meds|"
        r"prescriptions?|insulin|inhaler|antidepressants?|chemo(?:therapy)?|treatment plan|"
        r"blood test results|blood type|medical (?:condition|history|records)|disability|"
        r"eating disorder|ptsd|ocd|panic attacks|illness)\b(?!\s+(?:friend|friends|class|course))",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_IM}\s+(?:(?:also|still|now|newly|clinically|currently|recently|finally)\s+)*(?:diabetic|asthmatic|epileptic|autistic|"
        r"bipolar|anorexic|bulimic|hiv[- ]positive|pregnant|infertile|disabled|deaf|"
        r"neurodivergent|hard of hearing|visually impaired|hearing impaired|in a wheelchair|"
        r"(?:lactose|gluten) intolerant|immunocompromised|on chemo|on insulin|"
        r"in remission|on dialysis|in therapy|in rehab|in recovery from(?=\s+(?:(?:my|an?|the)\s+)?(?:[a-z]+\s+)?(?:alcohol\w*|drugs?|drinking|gambling|opioids?|heroin|cocaine|meth|pills|addiction|surgery|an?\s+operation|transplant|stroke|heart\s+attack|overdose|[a-z]+(?:itis|osis|ectomy|oma)\b|cancer|depression|anorexia|bulimia|an?\s+eating\s+disorder))|on medication|on meds|"
        r"allergic to|clinically depressed|a (?:diabetic|cancer survivor|cancer patient|"
        r"type [12] diabetic|recovering alcoholic|recovering addict|wheelchair user))\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\bas an? (?:type [12] )?(?:diabetic|asthmatic|epileptic|cancer survivor|cancer patient|"
        r"recovering alcoholic|wheelchair user|person with (?:adhd|autism|diabetes|depression|"
        r"bipolar disorder|epilepsy|a disability)),? (?:i|my)\b"
        rf"|{_I}\s+(?:use|uses|rely on|need)\s+(?:a|an|my) (?:wheelchair|hearing aids?|cpap|insulin pump|walker|cane|inhaler|epipen)\b",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_I}\s+(?:(?:also|still|now|daily|regularly)\s+)*(?:take|takes|taking|took|is on|on|gets?|got|"
        r"getting|receiv(?:e|es|ing)|needs?|was prescribed|got prescribed)\s+(?:\w+\s+){0,2}?"
        r"(?:medications?|meds|medicine|treatment|therapy|pills|tablets|injections|an? (?:new )?"
        r"(?:prescription|script|refill))\s+"
        rf"for\s+(?:my\s+|his\s+|her\s+|their\s+)?{_MOD_EN}(?:{_CONDITIONS_EN}|{_DRUGS_EN}|anxiety)\b",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_I}\s+(?:(?:also|still|now|regularly)\s+)*(?:see|seeing|saw|started seeing|go to|went to)\s+"
        r"(?:a|my)\s+(?:therapist|psychiatrist|psychologist|oncologist)\b",
        re.IGNORECASE,
    ),  # my Humira pens, my last warfarin dose: a medicine of the list owned (not a battery)
    re.compile(
        rf"{_MY}\s+(?:(?:last|first|next|daily|weekly|nightly|morning|evening|new|usual)\s+)?"
        rf"(?:{_DRUGS_EN})\b(?!\s+(?:batter(?:y|ies)|ion|cells?|grease|shares|stocks|class|course|lecture))",
        re.IGNORECASE,
    ),
]
_CONDITIONS_ZH = (
    r"哮喘|糖尿病|抑郁症|抑郁|焦虑症|焦虑障碍|惊恐障碍|双相(?:情感障碍)?|躁郁症|精神分裂症?|强迫症|"
    r"多动症|自闭症|孤独症|阿斯伯格|癫痫|偏头痛|癌症|白血病|淋巴瘤|肿瘤|艾滋病?|HIV|乙肝|丙肝|"
    r"肝炎|结核|高血压|高血脂|心脏病|冠心病|心律不齐|关节炎|红斑狼疮|帕金森|阿尔茨海默|老年痴呆|"
    r"克罗恩病|结肠炎|肠易激|乳糜泻|湿疹|银屑病|子宫内膜异位|多囊卵巢|不孕不育|不孕|失眠症|"
    r"厌食症|暴食症|进食障碍|酒精依赖|甲亢|甲减|肾病|胃溃疡|痛风|残疾|疱疹|新冠|过敏|乳糖不耐受|"
    r"[\u4e00-\u9fff]{1,5}(?:症|癌|瘤|炎|病|疹)"
)
# The conditions of the list above named by a 症 word, without the 症.
_SHORT_ZH = "|".join(
    word[:-1] for word in _CONDITIONS_ZH.split("|") if re.fullmatch(r"[\u4e00-\u9fff]{2,}症", word)
)
_DRUGS_ZH = (
    r"舍曲林|氟西汀|帕罗西汀|艾司西酞普兰|西酞普兰|文拉法辛|度洛西汀|安非他酮|米氮平|碳酸锂|"
    r"拉莫三嗪|喹硫平|阿立哌唑|奥氮平|利培酮|哌甲酯|专注达|阿普唑仑|地西泮|安定|劳拉西泮|"
    r"氯硝西泮|唑吡坦|二甲双胍|胰岛素|司美格鲁肽|左甲状腺素|优甲乐|氨氯地平|阿托伐他汀|华法林|"
    r"泼尼松|甲氨蝶呤|抗抑郁药|抗焦虑药|抗精神病药|降压药|降糖药|安眠药|激素药|避孕药|"
    r"抗病毒药|靶向药|精神类药物|百忧解|来士普|左洛复|思诺思|"
    # A name in one of the Chinese Pharmacopoeia's dosage forms that only medicines take
    # (a closed, published class). A bare …片 or …胶囊 is food as often (燕麦片, 薯片,
    # 胶囊咖啡): it counts only beside a word of prescribing or dosing (_PRESCRIBED_ZH).
    r"[\u4e00-\u9fff]{2,6}(?:缓释片|控释片|肠溶片|分散片|缓释胶囊|肠溶胶囊|注射液|口服液|滴丸)"
)
_TABLET_ZH = r"[\u4e00-\u9fff]{2,6}(?:片|胶囊)"
_PRESCRIBED_ZH = re.compile(
    r"药|医生|大夫|医嘱|处方|剂量|毫克|mg|[一二两三\d]日[一二两三\d]次|每次[一二两三半\d]+[片粒]",
    re.IGNORECASE,
)

# A Chinese approved drug name (中国药品通用名称命名原则) ends in its chemical class: an
# alkaloid (…碱), a purine or pyrimidine (…嘌呤, …嘧啶), an amine (…胺), an azine or azole
# (…嗪, …唑), a glycoside (…苷), a sodium or potassium salt (…钠, …钾) — a closed naming
# rule, so a medicine nobody listed is still named by it. It must end the name.
_CADN_ZH = (
    r"[\u4e00-\u9fff]{1,6}?(?:碱|嘌呤|嘧啶|胺|嗪|唑|苷|钠|钾)"
    r"(?=[^\u4e00-\u9fff]|$|片|胶囊|了|已|每|一直|快|好)"
)
# A medicine named in Latin script inside Chinese (我在吃 Depakote), taken, not used.
_LATIN_DRUG_ZH = (
    ZH_TAKES.replace("(?:吃|服用|服|打|用|注射|喷)", "(?:吃|服用|服)") + r"\s*[A-Za-z][A-Za-z-]{3,}"
)
_DOSING_ZH = re.compile(
    r"(?:每天|每日|一天|一日|每晚|每早)[一二两三四\d]次|每次[一二两三半\d]+[片粒]|毫克|\d\s*mg|"
    r"复查|医生|大夫|处方|查血|抽血",
    re.IGNORECASE,
)


class _Cued:
    """A pattern that counts only in a text that also holds ``cue`` (anywhere in it)."""

    def __init__(self, pattern: re.Pattern[str], cue: re.Pattern[str]) -> None:
        self.pattern, self.cue = pattern, cue

    def search(self, text: str):
        return self.pattern.search(text) if self.cue.search(text) else None


_ZH_WHEN = ""  # time adverbs after 我 are part of _ME_ZH
_HEALTH_ZH = [
    _zh(
        rf"我{_ZH_WHEN}(?:有|患有|患了|得了|得过|确诊(?:了|为)?|被确诊(?:为|患有|了)?|被诊断(?:出|为|患有)?|"
        rf"诊断出|查出(?:了|来)?|正在治疗|在治疗)(?:轻度|重度|中度|慢性|严重的|轻微的|早期|晚期)?"
        rf"(?:{_CONDITIONS_ZH})"
    ),
    _zh(rf"我是(?:一名|一个|个)?(?:{_CONDITIONS_ZH})(?:患者|病人)"),
    _zh(
        r"我的(?:哮喘|抑郁症|焦虑症|糖尿病|病情|诊断结果|诊断|心理医生|心理咨询师|精神科医生|主治医生|"
        r"病历|体检报告|血型|用药|处方|化疗)"
    ),
    _zh(
        rf"我{_ZH_WHEN}(?:每天|长期|在|正在|开始|按时|需要)?(?:吃|服用|服|打|用)(?:着|了)?(?:{_DRUGS_ZH})"
    ),
    # a dose counted between the verb and the medicine: 我现在每天早上空腹吃一片优甲乐
    _zh(
        r"我(?:现在|每天|每晚|早上|晚上|睡前|空腹|饭前|饭后|长期|按时){0,4}(?:吃|服用|服)(?:着|了)?"
        rf"(?:[一半两\d]+[片粒颗])(?:{_DRUGS_ZH})"
    ),
    # a condition named without its 症 (我有躁郁, 我有强迫): the list's own …症 words
    _zh(rf"我(?:有|得了|患有|确诊了?)(?:{_SHORT_ZH})(?![症的感])"),
    re.compile(rf"{ZH_TAKES}(?:{_DRUGS_ZH})"),
    # 我靠氟西汀撑了两年, 我离不开安眠药: relying on a medicine of the list
    _zh(rf"我{_ZH_WHEN}(?:全|一直|只能)?(?:靠|离不开|依赖)(?:着)?(?:{_DRUGS_ZH})"),
    _Cued(re.compile(rf"{ZH_TAKES}(?:{_TABLET_ZH})"), _PRESCRIBED_ZH),
    re.compile(rf"{ZH_TAKES}{_CADN_ZH}"),
    _Cued(re.compile(_LATIN_DRUG_ZH), _DOSING_ZH),
    _zh(
        r"作为(?:一名|一个)?(?:糖尿病人|糖尿病患者|癌症患者|抑郁症患者|残疾人)|"
        r"我(?:在|正在|每周|定期)?(?:做|接受)\S{0,4}?(?:透析|化疗|放疗|心理治疗|心理咨询)|"
        r"我(?:怀孕了|在孕期|正在做化疗|在做化疗|在接受心理治疗|在看心理医生|"
        r"(?:一直|定期|每周)?(?:去)?看心理医生|去看精神科|在住院(?!部|医|处|楼))"
    ),
]

# --- religion ---------------------------------------------------------------------------

_FAITHS_EN = (
    r"muslim|christian|catholic|buddhist|hindu|jew|jewish|sikh|mormon|jehovah'?s witness|atheist|"
    r"agnostic|protestant|baptist|methodist|lutheran|anglican|evangelical|taoist|quaker|pagan|"
    r"wiccan|jain|zoroastrian|orthodox (?:christian|jew)|latter-day saint|believer(?! in)|"
    r"(?:seventh-day )?adventist|pentecostal|presbyterian|episcopalian|unitarian|baha'?i|"
    r"rastafarian|scientologist|shinto|confucian"
)
_RELIGION_EN = [
    re.compile(
        rf"{_IM}\s+(?:(?:also|still|now)\s+)?(?:an?\s+)?(?:(?:devout|practi[cs]ing|observant|born[- ]again|"
        r"lifelong|committed|faithful|proud|orthodox|sunni|shia|reform|non-practi[cs]ing)\s+)*"
        rf"(?:{_FAITHS_EN})\b",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_I}\s+(?:(?:also|still|always)\s+)?(?:go to|goes to|attend|went to)\s+(?:the\s+)?"
        r"(?:church|mass|mosque|synagogue|temple|gurdwara|services|bible study|friday prayers?)\s+"
        r"(?:every|each|on (?:sundays|fridays|saturdays)|weekly|regularly|twice)",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_I}\s+(?:(?:also|still|always)\s+)?(?:pray (?:every|daily|five times|to)|fast (?:during|for) ramadan|"
        r"observe (?:ramadan|shabbat|the sabbath|lent)|keep kosher|eat (?:only )?halal|tithe|"
        r"converted to|was bapti[sz]ed|got bapti[sz]ed|believe in (?:god|allah|jesus|christ|buddha|the lord))",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_MY} (?:religion|religious beliefs|faith(?! in)|church|mosque|synagogue|pastor|imam|rabbi|"
        r"congregation|parish)\b(?!\s+(?:class|course|lesson|teacher|homework|exam|studies))"
        # "my church friends" are my friends, named by where I know them from (the closed
        # class of companions): the event with them says no belief ("friends from church")
        r"(?!\s+(?:friends?|buddies|buddy|pals?|mates?)\b)",
        re.IGNORECASE,
    ),
    re.compile(rf"{_IM}\s+(?:not\s+|very\s+|deeply\s+)?religious\b", re.IGNORECASE),
    re.compile(
        rf"\bas an? (?:devout |practi[cs]ing |observant )?(?:{_FAITHS_EN}),? (?:i|my)\b",
        re.IGNORECASE,
    ),
]
_RELIGION_ZH = [
    _zh(
        r"我(?:是|是一名|是一个|是个)(?:虔诚的|忠实的|一名|一个)?(?:基督徒|基督教徒|天主教徒|穆斯林|"
        r"伊斯兰教徒|佛教徒|佛弟子|道教徒|犹太教徒|犹太人|印度教徒|无神论者|东正教徒|新教徒|摩门教徒|居士)"
    ),
    _zh(
        r"我(?:一直|从小|也|已经)?(?:信|信仰|皈依|皈依了|改信|信奉)(?:了)?(?:佛|佛教|基督|基督教|耶稣|主|"
        r"伊斯兰教|天主教|道教|真主|犹太教|宗教|教)"
    ),
    _zh(
        r"我(?:每周|每个星期|每周日|每个周日|每周五|每天|每个礼拜)(?:都)?(?:会)?(?:去|上)?"
        r"(?:教堂|清真寺|寺庙|做礼拜|礼拜|做弥撒|念经|祷告)"
    ),
    _zh(r"我(?:每天)?(?:都)?(?:祷告|念佛|吃斋|守斋|封斋|过斋月)|我(?:受洗|受了洗|领洗)"),
    _zh(r"我的(?:信仰|宗教|教会|牧师|神父)(?!课|老师|考试|作业|研究)"),
    # Chinese drops the repeated subject: "我是回族，信伊斯兰教".
    _zh(
        r"我[^。！？!?\n]{0,20}[，,]\s*(?:也|一直|从小)?(?:信|信仰|信奉|皈依了?)(?:了)?(?:佛教|基督教|"
        r"伊斯兰教|天主教|道教|犹太教|东正教|佛|耶稣|真主)"
    ),
    re.compile(
        r"作为(?:一名|一个)?(?:虔诚的)?(?:基督徒|天主教徒|穆斯林|佛教徒|道教徒|犹太教徒|无神论者)[，,]?我"
    ),
]

# --- other categories -------------------------------------------------------------------

_ORIENTATION = [
    re.compile(
        rf"{_IM}\s+(?:(?:also|openly|proudly)\s+)?(?:an?\s+)?(?:gay|lesbian|bisexual|bi|pansexual|asexual|"
        r"queer|homosexual)\b(?!-|\s+(?:rights|bar|club|friends?|community|pride|marriage))",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{_I}\s+came out\s+(?:as|to)\b|{_MY} (?:sexual orientation|sexuality)\b"
        r"|\bas an? (?:gay|bisexual|queer|lesbian)(?: (?:man|woman|person))?,? (?:i|my)\b"
        rf"|{_IM}\s+an? (?:gay|bisexual|queer) (?:man|woman|guy|person)\b",
        re.IGNORECASE,
    ),
    _zh(
        r"我是(?:同性恋|同志|男同|女同|拉拉|双性恋|泛性恋|无性恋|gay|les)(?!群体|朋友)|我\S{0,6}出柜|我喜欢同性"
    ),
]
_BIOMETRIC = [
    re.compile(
        rf"{_MY} (?:fingerprints?|face ?(?:id data|scan|data|template|print)|iris (?:scan|data)|"
        r"retina(?:l)? scan|voice ?print|palm ?print|dna (?:profile|sequence|test results?|data)|"
        r"genetic (?:test results?|data|results?|profile)|genome)\b"
        r"|\b(?:fingerprint|face|iris|voiceprint|biometric)\s+(?:template|hash)\b",
        re.IGNORECASE,
    ),
    _zh(r"我的(?:指纹|人脸数据|人脸信息|面部数据|虹膜|声纹|掌纹|基因(?:检测|数据|报告|序列)|DNA)"),
]
_POLITICAL = [
    re.compile(
        rf"{_IM}\s+(?:an?\s+)?(?:(?:registered|card-carrying|lifelong|proud|staunch)\s+)?"
        r"(?:democrat|republican|tory|socialist|communist|libertarian|marxist|"
        r"(?:labour|green|conservative|liberal democrat) (?:voter|supporter|member)|party member)\b"
        rf"|{_IM}\s+(?:a\s+)?member of the [\w' ]{{0,30}}party\b{PARTY_END}"
        rf"|{_IM}\s+politically\s+\w+"
        r"|\bi (?:always |usually |will |'ll |have always )?vote[ds]?\s+(?:for\s+)?(?:the\s+)?(?:democrats?|"
        r"republicans?|labour|conservatives?|tories|liberals?|greens|left|right|[\w ]{1,20} party)\b"
        rf"|{_IM}\s+(?:an?\s+)?[\w ]{{0,20}}party member\b"
        r"|\bi (?:support|back)\s+the\s+[\w ]{0,20}party\b"
        rf"|{_MY} (?:political (?:views|beliefs|affiliation|party)|party membership)\b",
        re.IGNORECASE,
    ),
    _zh(
        r"我是(?:一名)?(?:中共|共产|中国共产|民主|国民|民进)?党员|我是共青团员|"
        r"我(?:已经)?(?:加入了?|入了?)(?:中国)?(?:共产党|[\u4e00-\u9fff]{0,6}党)(?!员工)|"
        r"我(?:支持|投票给|投给了?|票投给?)\S{0,8}(?:党|候选人)|我的政治(?:立场|观点|倾向)|"
        r"我(?:是|属于)(?:左派|右派|自由派|保守派)"
    ),
]
_TRADE_UNION = [
    re.compile(
        rf"{_IM}\s+(?:a\s+)?(?:union member|member of (?:the|a|my)\s+[\w' ]{{0,30}}?union|"
        r"(?:union|shop) steward|union rep(?:resentative)?)\b"
        r"|\b(?:i (?:joined|belong to)|i'm in|i am in)\s+(?:the|a|my)\s+(?!(?:student|european|credit|soviet)\b)"
        r"[\w' ]{0,30}?\bunion\b(?! (?:station|square|building|hall|jack))"
        rf"|{_MY} (?:union (?:rep|dues|membership|card)|trade union)\b",
        re.IGNORECASE,
    ),
    _zh(
        r"我(?:是|加入了?|参加了?|入了?|入过)\S{0,10}工会(?:会员|成员|代表)?|我的工会|我交工会会费"
    ),
]
_LOCATION = [
    re.compile(r"-?\d{1,2}\.\d{4,}\s*,\s*-?\d{1,3}\.\d{4,}"),
    re.compile(
        rf"{_MY} (?:location history|gps (?:track|log|history|coordinates)|live location|"
        r"real-time location|location data)\b|\bi(?:'m| am) sharing my (?:live |real-time )?location\b",
        re.IGNORECASE,
    ),
    _zh(
        r"我的(?:行程轨迹|行踪|位置记录|定位记录|活动轨迹|实时位置|出行记录)|(?:共享|分享)(?:了)?我的(?:实时)?位置"
    ),
]
_MINOR = [
    re.compile(
        rf"{_IM}\s+(?:only\s+|just\s+)?(?:[5-9]|1[0-7]|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|"
        r"fourteen|fifteen|sixteen|seventeen)(?:\s*years?\s*old|\s*yo|\s*y/o)\b"
        rf"|{_IM}\s+in (?:[1-9]|1[0-2])(?:st|nd|rd|th) grade\b"
        rf"|{_IM}\s+in (?:middle school|junior high|elementary school|primary school)\b"
        rf"|{_IM}\s+an? (?:minor|middle schooler|(?:fifth|sixth|seventh|eighth|ninth|tenth) grader)\b"
        rf"|{_IM}\s+an? (?:[5-9]|1[0-7])[- ]year[- ]old\b",
        re.IGNORECASE,
    ),
    _zh(
        r"我(?:今年|才|只有|刚满)?(?:[5-9]|1[0-7]|[五六七八九]|十[一二三四五六七]?)岁(?!的|那年|时|之前|以前)|我(?:在)?(?:上|读)(?:小学|初中|初[一二三]|"
        r"[一二三四五六]年级)|我是(?:一名|一个)?(?:小学生|初中生|未成年人?)"
    ),
]

CATEGORIES: dict[str, list[re.Pattern[str] | _Cued]] = {
    "health": _HEALTH_EN
    + _HEALTH_ZH
    + MEDICINE_FRAMES
    + SPECIAL_FORMS["health"]
    + SUBJECT_FORMS["health"]
    + SETTING_FORMS["health"]
    + DISCLOSURE_FORMS["health"]
    + CONCEPT_FORMS["health"]
    + OPEN_NOUN_FRAMES["health"]
    + LIFE_FRAMES["health"]
    + ACT_FRAMES["health"]
    + COURSE_FRAMES["health"]
    + SPEC_FRAMES["health"]
    + SHOWN["health"],
    "religion": _RELIGION_EN
    + _RELIGION_ZH
    + SPECIAL_FORMS["religion"]
    + SUBJECT_FORMS["religion"]
    + DISCLOSURE_FORMS["religion"]
    + CONCEPT_FORMS["religion"]
    + OPEN_NOUN_FRAMES["religion"]
    + LIFE_FRAMES["religion"]
    + ACT_FRAMES["religion"]
    + COURSE_FRAMES["religion"]
    + SPEC_FRAMES["religion"]
    + SHOWN["religion"],
    "sexual_orientation": _ORIENTATION
    + SPECIAL_FORMS["sexual_orientation"]
    + SUBJECT_FORMS["sexual_orientation"]
    + DISCLOSURE_FORMS["sexual_orientation"]
    + CONCEPT_FORMS["sexual_orientation"]
    + LIFE_FRAMES["sexual_orientation"]
    + ACT_FRAMES["sexual_orientation"]
    + SPEC_FRAMES["sexual_orientation"],
    "biometric": _BIOMETRIC
    + SPECIAL_FORMS["biometric"]
    + SUBJECT_FORMS["biometric"]
    + DISCLOSURE_FORMS["biometric"]
    + CONCEPT_FORMS["biometric"]
    + LIFE_FRAMES["biometric"]
    + COURSE_FRAMES["biometric"]
    + SPEC_FRAMES["biometric"]
    + SHOWN["biometric"],
    "political": _POLITICAL
    + SPECIAL_FORMS["political"]
    + DISCLOSURE_FORMS["political"]
    + CONCEPT_FORMS["political"]
    + OPEN_NOUN_FRAMES["political"]
    + LIFE_FRAMES["political"]
    + ACT_FRAMES["political"]
    + SPEC_FRAMES["political"],
    "trade_union": _TRADE_UNION
    + SPECIAL_FORMS["trade_union"]
    + SUBJECT_FORMS["trade_union"]
    + CONCEPT_FORMS["trade_union"]
    + OPEN_NOUN_FRAMES["trade_union"]
    + LIFE_FRAMES["trade_union"]
    + SPEC_FRAMES["trade_union"],
    "financial_account": FINANCIAL,
    "location_track": _LOCATION,
    "minor": _MINOR,
    "ethnicity": SUBJECT_FORMS["ethnicity"]
    + DISCLOSURE_FORMS["ethnicity"]
    + OPEN_NOUN_FRAMES["ethnicity"]
    + LIFE_FRAMES["ethnicity"]
    + ACT_FRAMES["ethnicity"]
    + COURSE_FRAMES["ethnicity"]
    + SPEC_FRAMES["ethnicity"],
    "criminal_record": SUBJECT_FORMS["criminal_record"]
    + SETTING_FORMS["criminal_record"]
    + CONCEPT_FORMS["criminal_record"]
    + OPEN_NOUN_FRAMES["criminal_record"]
    + LIFE_FRAMES["criminal_record"]
    + ACT_FRAMES["criminal_record"]
    + COURSE_FRAMES["criminal_record"]
    + SPEC_FRAMES["criminal_record"],
}
# What a clause with the subject dropped is tested for, with an implicit 我 in front
# (``dropped_subject``): the categories a person discloses by what they do or undergo.
# Not minor (今年十二岁 is often said of a child) nor financial or location data.
_IMPLICIT_I = {
    name: CATEGORIES[name]
    for name in (
        "health",
        "religion",
        "sexual_orientation",
        "political",
        "trade_union",
        "ethnicity",
        "criminal_record",
    )
}


def find_special_categories(text: str) -> list[str]:
    """The special categories the text discloses about the user (sorted names). Chinese
    is read with traditional characters folded to simplified (化療 reads as 化疗)."""
    form = fold_traditional(normalize_for_detection(text))
    # The sentence-by-sentence rules' sentences read once for every list (``StatedText``).
    read = StatedText(form) if detection_switch("STATED_ONCE") else form
    found = {name for name, patterns in CATEGORIES.items() if search_any(patterns, read)}
    # A place of care between 我 and the verb (我每周去医院做透析) is read once more
    # without it, by the same rules (``setting_forms``).
    if "health" not in found and any(
        search_any(CATEGORIES["health"], reading) for reading in without_care_place(form)
    ):
        found.add("health")
    readings = (
        *dropped_subject_clauses(form),
        *dropped_subject_clauses_en(form),
        *adjunct_readings(form),
        *mixed_readings(form),
        *user_readings(form),
    )
    for clause in readings:
        found |= {
            name
            for name, patterns in _IMPLICIT_I.items()
            if name not in found and search_any(patterns, clause)
        }
    if "financial_account" not in found:
        if personal_iban(form):  # an organisation's, given to be paid, is not (account_kinds)
            found.add("financial_account")
    return sorted(found)
